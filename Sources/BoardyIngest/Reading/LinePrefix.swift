/// What a capture put before a line: a time, and what tells one thread's lines from another's.
///
/// Understood times (the first one in the prefix): `HH:MM:SS` with an optional fraction (`.` or
/// `,`), optionally after a date (`2026-11-27 `, `2026-11-27T`, `2026/11/27 `, or a syslog
/// `Nov 27 `); or elapsed seconds at the start (`[12.345]`, `12.345s`). A time zone after the
/// time is skipped (the offset is the same for every line of one capture). Everything else in
/// the prefix (a process name, `[pid:tid]`, a log level) is the stream key: lines with the same
/// key come from the same thread, so records interleaved by threads come apart again.
///
/// Written by hand: Foundation's date formatters need one format string per shape, and a
/// capture's prefix is known only when it is read.
struct LinePrefix {
    /// Microseconds: since 1970 when a date was given, since midnight for a time of day, or as
    /// elapsed. Nil when the prefix holds no time.
    let microseconds: Int64?
    /// Whether ``microseconds`` is a time of day only (it wraps at midnight).
    let timeOfDayOnly: Bool
    /// The prefix without its time: the stream a line belongs to.
    let streamKey: Substring

    static let none = LinePrefix(microseconds: nil, timeOfDayOnly: false, streamKey: "")

    init(microseconds: Int64?, timeOfDayOnly: Bool, streamKey: Substring) {
        self.microseconds = microseconds
        self.timeOfDayOnly = timeOfDayOnly
        self.streamKey = streamKey
    }

    /// Reads `prefix`.
    init(_ prefix: Substring) {
        guard !prefix.isEmpty else {
            self = .none
            return
        }
        let u = Array(prefix.utf8)
        if let (micros, end) = Self.elapsed(u) {
            self.init(microseconds: micros, timeOfDayOnly: false, streamKey: Self.key(prefix, removing: 0..<end))
            return
        }
        var i = 0
        while i + 7 < u.count {
            if let (tod, timeEnd) = Self.timeOfDay(u, at: i) {
                var start = i
                var micros = tod
                var dayOnly = true
                if let (days, dateStart) = Self.date(u, before: i) {
                    micros += days * 86_400_000_000
                    start = dateStart
                    dayOnly = false
                }
                let end = Self.skipZone(u, from: timeEnd)
                self.init(microseconds: micros, timeOfDayOnly: dayOnly, streamKey: Self.key(prefix, removing: start..<end))
                return
            }
            i += 1
        }
        self.init(microseconds: nil, timeOfDayOnly: false, streamKey: prefix)
    }

    private static func key(_ prefix: Substring, removing r: Range<Int>) -> Substring {
        let u = prefix.utf8
        let a = u.index(u.startIndex, offsetBy: r.lowerBound), b = u.index(u.startIndex, offsetBy: r.upperBound)
        let before = prefix[..<a].trimmingEdges(), after = prefix[b...].trimmingEdges()
        if before.isEmpty { return after }
        if after.isEmpty { return before }
        return Substring(before + " " + after)
    }

    private static func digit(_ b: UInt8) -> Int? { (0x30...0x39).contains(b) ? Int(b - 0x30) : nil }

    private static func number(_ u: [UInt8], _ i: Int, _ n: Int) -> Int? {
        guard i >= 0, i + n <= u.count else { return nil }
        var v = 0
        for k in i..<(i + n) {
            guard let d = digit(u[k]) else { return nil }
            v = v * 10 + d
        }
        return v
    }

    /// `H:MM:SS` or `HH:MM:SS`, with an optional fraction, starting at `i` (not inside a number).
    private static func timeOfDay(_ u: [UInt8], at i: Int) -> (Int64, Int)? {
        if i > 0, digit(u[i - 1]) != nil { return nil }
        var h: Int
        var j: Int
        if let two = number(u, i, 2), i + 2 < u.count, u[i + 2] == UInt8(ascii: ":") {
            h = two
            j = i + 3
        } else if let one = number(u, i, 1), i + 1 < u.count, u[i + 1] == UInt8(ascii: ":") {
            h = one
            j = i + 2
        } else {
            return nil
        }
        guard let m = number(u, j, 2), j + 2 < u.count, u[j + 2] == UInt8(ascii: ":"), let s = number(u, j + 3, 2), h < 24, m < 60, s < 61
        else { return nil }
        j += 5
        if j < u.count, digit(u[j]) != nil { return nil }
        var micros = Int64((h * 3600 + m * 60 + s)) * 1_000_000
        if j + 1 < u.count, u[j] == UInt8(ascii: ".") || u[j] == UInt8(ascii: ","), digit(u[j + 1]) != nil {
            j += 1
            var scale: Int64 = 100_000
            while j < u.count, let d = digit(u[j]) {
                micros += Int64(d) * scale
                scale /= 10
                j += 1
            }
        }
        return (micros, j)
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// A date that ends right before the time at `t`: days since 1970 and where the date starts.
    private static func date(_ u: [UInt8], before t: Int) -> (Int64, Int)? {
        guard t >= 1, u[t - 1] == UInt8(ascii: " ") || u[t - 1] == UInt8(ascii: "T") else { return nil }
        let e = t - 1  // the separator
        // YYYY-MM-DD or YYYY/MM/DD
        if e >= 10, let y = number(u, e - 10, 4), u[e - 6] == UInt8(ascii: "-") || u[e - 6] == UInt8(ascii: "/"),
            let mo = number(u, e - 5, 2), u[e - 3] == u[e - 6], let d = number(u, e - 2, 2), (1...12).contains(mo), (1...31).contains(d)
        {
            return (daysSince1970(y, mo, d), e - 10)
        }
        // Syslog: `Nov 27` or `Nov  7` (no year: the days of the year are enough for deltas).
        var j = e - 1
        guard j >= 0, let d0 = digit(u[j]) else { return nil }
        var day = d0
        j -= 1
        if j >= 0, let d1 = digit(u[j]) {
            day += d1 * 10
            j -= 1
        }
        guard j >= 0, u[j] == UInt8(ascii: " ") else { return nil }
        while j > 0, u[j - 1] == UInt8(ascii: " ") { j -= 1 }
        guard j >= 3, let month = months.firstIndex(of: String(decoding: u[(j - 3)..<j], as: UTF8.self)) else { return nil }
        return (daysSince1970(1970, month + 1, day), j - 3)
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's days_from_civil).
    static func daysSince1970(_ y0: Int, _ m: Int, _ d: Int) -> Int64 {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return Int64(era * 146_097 + doe - 719_468)
    }

    /// `Z`, `+0100`, `+01:00`, `-05` right after a time.
    private static func skipZone(_ u: [UInt8], from i: Int) -> Int {
        guard i < u.count else { return i }
        if u[i] == UInt8(ascii: "Z") { return i + 1 }
        guard u[i] == UInt8(ascii: "+") || u[i] == UInt8(ascii: "-"), number(u, i + 1, 2) != nil else { return i }
        var j = i + 3
        if j < u.count, u[j] == UInt8(ascii: ":") { j += 1 }
        if number(u, j, 2) != nil { j += 2 }
        return j
    }

    /// `[12.345]`, `[ 12.345678]`, `12.345s`, `[+1.5s]` at the start: elapsed seconds.
    private static func elapsed(_ u: [UInt8]) -> (Int64, Int)? {
        var i = 0
        let bracket = u.first == UInt8(ascii: "[")
        if bracket { i += 1 }
        while i < u.count, u[i] == UInt8(ascii: " ") { i += 1 }
        if i < u.count, u[i] == UInt8(ascii: "+") { i += 1 }
        var whole: Int64 = 0
        var digits = 0
        while i < u.count, let d = digit(u[i]), digits < 12 {
            whole = whole * 10 + Int64(d)
            digits += 1
            i += 1
        }
        guard digits > 0, i + 1 < u.count, u[i] == UInt8(ascii: "."), digit(u[i + 1]) != nil else { return nil }
        i += 1
        var micros = whole * 1_000_000
        var scale: Int64 = 100_000
        while i < u.count, let d = digit(u[i]) {
            micros += Int64(d) * scale
            scale /= 10
            i += 1
        }
        if i < u.count, u[i] == UInt8(ascii: "s") { i += 1 }
        if bracket {
            guard i < u.count, u[i] == UInt8(ascii: "]") else { return nil }
            i += 1
        } else if i < u.count, u[i] != UInt8(ascii: " ") {
            return nil
        }
        return (micros, i)
    }
}

extension Substring {
    /// Without spaces and tabs at either end.
    func trimmingEdges() -> Substring {
        var a = startIndex, b = endIndex
        while a < b, self[a] == " " || self[a] == "\t" { a = index(after: a) }
        while b > a, self[index(before: b)] == " " || self[index(before: b)] == "\t" { b = index(before: b) }
        return self[a..<b]
    }
}
