/// The fast path of ``TraceTable``: one structural pass over a trace line as ``TraceWriter``
/// writes it, reading `seq`, `t`, `kind`, `mb`, the board and `cause` without building a value,
/// and checking the rest is JSON the full parser would accept, without building it either.
///
/// It accepts a subset of valid lines and answers nil for everything else: whitespace, escapes,
/// bytes outside ASCII, members out of the writer's order or not of the kind, numbers with an
/// exponent, deep nesting, kinds it does not read (stimulus, dispatch, stuck, loops). Those
/// lines go to the full parser, which decides as it always did: so every malformed-input rule
/// (the message, the line, the column) stays the full parser's, and what the fast path accepts
/// decodes, on request, to the event the full reader reads. `TraceTableTests` checks both.
///
/// Written by hand: a JSON library parses into values, and the point is not to.
enum LineScanner {
    /// What the fast path read from one line.
    struct Row {
        var seq: Int
        var t: Int64
        /// The kind's number in a ``TraceTable``'s strings (its index in `EventKind.allCases`).
        var kindID: Int32
        /// The `mb` string's bytes: `mbStart ..< mbStart + mbCount` in the line.
        var mbStart: Int
        var mbCount: Int
        /// The board (`from` for a routing), or -1 for none.
        var boardStart: Int
        var boardCount: Int
        /// 0 for none.
        var cause: Int
    }

    /// Reads one line (without its newline), or nil when the full parser must decide.
    ///
    /// Each kind's members are spelled out in the writer's order (no table: a table of arrays
    /// costs a retain per line).
    static func scan(_ line: UnsafeBufferPointer<UInt8>) -> Row? {
        var hints = Hints()
        return scan(line, hints: &hints)
    }

    /// ``scan(_:)`` with the numbers of the lines before (see ``Hints``).
    @inline(__always)
    static func scan(_ line: UnsafeBufferPointer<UInt8>, hints: inout Hints) -> Row? {
        guard let base = line.baseAddress, line.count >= 8 else { return nil }
        var c = Cursor(p: base, end: base + line.count, base: base)
        guard let row = scan(&c, hints: &hints), c.p == c.end else { return nil }
        return row
    }

    /// Numbers of the lines read before, as their text and value. In a trace the `seq` is the
    /// previous one plus one, the `cause` is most often the previous line's `seq`, and `t` the
    /// previous line's `t`: when the bytes at the cursor are that text (and no digit, `.` or
    /// exponent follows), the number is known without reading it digit by digit. A hint only
    /// ever says "this text is this number", so a stale one costs a compare, never a wrong value.
    struct Hints {
        struct Number {
            /// The text's bytes as two zero-padded words (at most 16 bytes); `count` 0: none.
            var w0: UInt64 = 0
            var w1: UInt64 = 0
            var count = 0
            var value: Int64 = 0
        }
        var seq = Number()
        var t = Number()

        /// The hint for the number one above `n`, when its text is `n`'s with the last digit
        /// raised (not when that digit is a 9).
        @inline(__always) static func successor(of n: Number) -> Number? {
            guard n.count > 0 else { return nil }
            let shift = UInt64((n.count - 1) % 8) * 8
            var next = n
            if n.count <= 8 {
                guard (n.w0 >> shift) & 0xFF < UInt64(UInt8(ascii: "9")) else { return nil }
                next.w0 += 1 << shift
            } else {
                guard (n.w1 >> shift) & 0xFF < UInt64(UInt8(ascii: "9")) else { return nil }
                next.w1 += 1 << shift
            }
            next.value += 1
            return next
        }

        /// The hint for the `count` bytes at `p` (inside a line, at least 8 bytes in), read as
        /// `value`.
        @inline(__always) static func number(_ p: UnsafePointer<UInt8>, _ count: Int, _ value: Int64) -> Number {
            guard count >= 1, count <= 16 else { return Number() }
            let w = StringTable.words(p, count)
            return Number(w0: w.w0, w1: w.w1, count: count, value: value)
        }
    }

    /// Reads the line at the start of `bytes`, finding its end: the line's row and length when
    /// the line is one the fast path reads and a newline follows its closing brace (no byte the
    /// pass accepts is a newline, so that is the first newline). Nil when the full parser must
    /// decide or the line is not held whole.
    @inline(__always)
    static func scan(prefixOf bytes: UnsafeBufferPointer<UInt8>) -> (row: Row, length: Int)? {
        var hints = Hints()
        return scan(prefixOf: bytes, hints: &hints)
    }

    /// ``scan(prefixOf:)`` with the numbers of the lines before (see ``Hints``).
    @inline(__always)
    static func scan(prefixOf bytes: UnsafeBufferPointer<UInt8>, hints: inout Hints) -> (row: Row, length: Int)? {
        guard let base = bytes.baseAddress, bytes.count >= 8 else { return nil }
        var c = Cursor(p: base, end: base + bytes.count, base: base)
        guard let row = scan(&c, hints: &hints), c.p < c.end, c.p.pointee == UInt8(ascii: "\n") else { return nil }
        return (row, c.p - base)
    }

    /// One line's members up to and including the closing brace; the cursor stops after it.
    @inline(__always)
    private static func scan(_ c: inout Cursor, hints: inout Hints) -> Row? {
        let base = c.base
        guard c.literal("{\"seq\":") else { return nil }
        let previous = hints.seq
        let seq: Int
        if let next = Hints.successor(of: previous), c.known(next) {
            seq = Int(next.value)
            hints.seq = next
        } else {
            let start = c.p
            guard let n = c.unsigned(), n >= 1 else { return nil }
            seq = n
            hints.seq = Hints.number(start, c.p - start, Int64(n))
        }
        guard c.literal(",\"t\":") else { return nil }
        let t: Int64
        if c.known(hints.t) {
            t = hints.t.value
        } else {
            let start = c.p
            guard let us = c.time() else { return nil }
            t = us
            hints.t = Hints.number(start, c.p - start, us)
        }
        guard c.literal(",\"kind\":\""), let (kStart, kCount) = c.plainString() else { return nil }
        let k = base + kStart
        @inline(__always) func isKind(_ name: StaticString) -> Bool {
            kCount == name.utf8CodeUnitCount && memcmpEqual(k, name.utf8Start, kCount)
        }
        guard c.literal(",\"mb\":\""), let (mbStart, mbCount) = c.plainString() else { return nil }
        var board: (Int, Int) = (-1, 0)
        let kind: EventKind
        switch kCount {
        case 11:
            if isKind("output.sent") {
                kind = .outputSent
                guard let b = c.stringMember("board"), c.member("output"), c.value(depth: 1) else { return nil }
                board = b
            } else if isKind("flow.routed") {
                kind = .flowRouted
                guard let b = c.stringMember("from"), c.member("output"), c.value(depth: 1) else { return nil }
                board = b
                if c.member("to") { guard c.byte(UInt8(ascii: "\"")), c.plainString() != nil else { return nil } }
                guard c.stringMember("action") != nil else { return nil }
            } else {
                return nil
            }
        case 12:
            if isKind("command.sent") {
                kind = .commandSent
                guard let b = c.stringMember("board"), c.member("command"), c.value(depth: 1) else { return nil }
                board = b
            } else {
                return nil
            }
        case 15:
            if isKind("board.completed") {
                kind = .boardCompleted
                guard let b = c.stringMember("board") else { return nil }
                board = b
                if c.member("success") { guard c.boolean() else { return nil } }
            } else if isKind("gateway.checked") {
                kind = .gatewayChecked
                guard let b = c.stringMember("board"), c.stringMember("barrier") != nil, c.stringMember("result") != nil else { return nil }
                board = b
            } else if isKind("barrier.checked") {
                kind = .barrierChecked
                guard let b = c.stringMember("board"), c.stringMember("barrier") != nil, c.stringMember("scope") != nil,
                    c.stringMember("result") != nil
                else { return nil }
                board = b
            } else if isKind("barrier.started") {
                kind = .barrierStarted
                guard c.stringMember("barrier") != nil, let b = c.stringMember("board") else { return nil }
                board = b
            } else {
                return nil
            }
        case 16:
            guard isKind("barrier.resolved") else { return nil }
            kind = .barrierResolved
            guard c.stringMember("barrier") != nil, c.member("passed"), c.boolean(), c.member("released"), c.signedInt() else { return nil }
        case 20:
            if isKind("activation.requested") {
                kind = .activationRequested
                guard let b = c.stringMember("board") else { return nil }
                board = b
                if c.member("source") { guard c.byte(UInt8(ascii: "\"")), c.plainString() != nil else { return nil } }
                if c.member("input") { guard c.value(depth: 1) else { return nil } }
            } else if isKind("activation.performed") {
                kind = .activationPerformed
                guard let b = c.stringMember("board") else { return nil }
                board = b
                if c.member("input") { guard c.value(depth: 1) else { return nil } }
            } else if isKind("activation.cancelled") {
                kind = .activationCancelled
                guard let b = c.stringMember("board"), c.stringMember("reason") != nil else { return nil }
                board = b
            } else {
                return nil
            }
        default:
            return nil
        }
        var cause = 0
        if c.literal(",\"cause\":") {
            if c.known(previous) {
                cause = Int(previous.value)
            } else {
                guard let n = c.unsigned() else { return nil }
                cause = n
            }
            guard cause >= 1, cause < seq else { return nil }
        }
        guard c.byte(UInt8(ascii: "}")) else { return nil }
        return Row(
            seq: seq, t: t, kindID: number(of: kind), mbStart: mbStart, mbCount: mbCount, boardStart: board.0,
            boardCount: board.1, cause: cause)
    }

    /// A kind's number in a ``TraceTable``'s strings: its index in `EventKind.allCases`
    /// (`TraceTableTests` checks the two agree).
    @inline(__always) static func number(of kind: EventKind) -> Int32 {
        switch kind {
        case .stimulus: return 0
        case .activationRequested: return 1
        case .gatewayChecked: return 2
        case .barrierChecked: return 3
        case .barrierStarted: return 4
        case .barrierResolved: return 5
        case .barrierLoop: return 6
        case .activationPerformed: return 7
        case .activationCancelled: return 8
        case .outputSent: return 9
        case .flowRouted: return 10
        case .commandSent: return 11
        case .boardCompleted: return 12
        case .dispatchQueued: return 13
        case .dispatchBlocked: return 14
        case .dispatchSent: return 15
        case .dispatchBarrier: return 16
        case .dispatchDropped: return 17
        case .stuck: return 18
        case .runaway: return 19
        case .choice: return 20
        case .gatewayInstalled: return 21
        case .logWarning: return 22
        case .logNote: return 23
        case .misuse: return 24
        }
    }

    /// Whether `n` bytes at `a` and `b` are equal: eight at a time, then the rest.
    @inline(__always) static func memcmpEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        var i = 0
        while n - i >= 8 {
            if UnsafeRawPointer(a + i).loadUnaligned(as: UInt64.self) != UnsafeRawPointer(b + i).loadUnaligned(as: UInt64.self) {
                return false
            }
            i += 8
        }
        while i < n {
            if a[i] != b[i] { return false }
            i += 1
        }
        return true
    }

    /// The most members of a nested object the fast path checks for duplicates (more: the full
    /// parser decides).
    static let maxMembers = 16
    /// The deepest nesting the fast path follows (deeper: the full parser decides, and refuses
    /// past its own limit).
    static let maxDepth = 32

    /// A position in a line.
    struct Cursor {
        var p: UnsafePointer<UInt8>
        let end: UnsafePointer<UInt8>
        let base: UnsafePointer<UInt8>

        @inline(__always) mutating func byte(_ b: UInt8) -> Bool {
            guard p < end, p.pointee == b else { return false }
            p += 1
            return true
        }

        @inline(__always) mutating func literal(_ s: StaticString) -> Bool {
            let n = s.utf8CodeUnitCount
            guard end - p >= n else { return false }
            let q = s.utf8Start
            var i = 0
            while i < n {
                if p[i] != q[i] { return false }
                i += 1
            }
            p += n
            return true
        }

        /// `,"name":`.
        @inline(__always) mutating func member(_ name: StaticString) -> Bool {
            let n = name.utf8CodeUnitCount
            guard end - p >= n + 4, p[0] == UInt8(ascii: ","), p[1] == UInt8(ascii: "\""), p[n + 2] == UInt8(ascii: "\""),
                p[n + 3] == UInt8(ascii: ":"), memcmpEqual(p + 2, name.utf8Start, n)
            else { return false }
            p += n + 4
            return true
        }

        /// `,"name":"…"`: the string's offset and length.
        @inline(__always) mutating func stringMember(_ name: StaticString) -> (Int, Int)? {
            guard member(name), byte(UInt8(ascii: "\"")) else { return nil }
            return plainString()
        }

        /// Digits without a sign or a leading zero, as an integer of at most 18 digits.
        @inline(__always) mutating func unsigned() -> Int? {
            let start = p
            var n = 0
            while p < end, p.pointee &- UInt8(ascii: "0") < 10 {
                n = n &* 10 &+ Int(p.pointee &- UInt8(ascii: "0"))
                p += 1
            }
            let digits = p - start
            guard digits >= 1, digits <= 18, !(digits > 1 && start.pointee == UInt8(ascii: "0")) else { return nil }
            return n
        }

        /// `t`: whole seconds below 2^30 and at most six decimals, as microseconds. Within that
        /// range the full reader's double rounds to the same microsecond; beyond it, it decides.
        @inline(__always) mutating func time() -> Int64? {
            guard let whole = unsigned(), whole < 1 << 30 else { return nil }
            var us = Int64(whole) * 1_000_000
            guard p < end, p.pointee == UInt8(ascii: ".") else {
                return p < end && (p.pointee == UInt8(ascii: "e") || p.pointee == UInt8(ascii: "E")) ? nil : us
            }
            p += 1
            var scale: Int64 = 100_000
            var digits = 0
            while p < end, p.pointee &- UInt8(ascii: "0") < 10 {
                digits += 1
                guard digits <= 6 else { return nil }
                us += Int64(p.pointee &- UInt8(ascii: "0")) * scale
                scale /= 10
                p += 1
            }
            guard digits >= 1, !(p < end && (p.pointee == UInt8(ascii: "e") || p.pointee == UInt8(ascii: "E"))) else { return nil }
            return us
        }

        /// The rest of a string after its opening quote, with no escape, control byte or byte
        /// outside ASCII: its offset and length, the cursor after the closing quote.
        @inline(__always) mutating func plainString() -> (Int, Int)? {
            let start = p
            // Eight bytes at a time in one register (SWAR): a word holding none of `"`, `\`, a
            // control byte or a byte at or above 0x80 is skipped whole; the first such byte is
            // the lowest flagged one. (Swift's generic SIMD masks compiled to a loop over the
            // lanes here, eight times slower than this.)
            while end - p >= 8 {
                let x = UnsafeRawPointer(p).loadUnaligned(as: UInt64.self)
                let flagged = Self.special(x)
                if flagged != 0 {
                    p += flagged.trailingZeroBitCount >> 3
                    break
                }
                p += 8
            }
            while p < end {
                let b = p.pointee
                if b == UInt8(ascii: "\"") {
                    let r = (start - base, p - start)
                    p += 1
                    return r
                }
                // A control byte, a backslash or a byte outside ASCII: the full parser decides.
                if b < 0x20 || b >= 0x80 || b == UInt8(ascii: "\\") { return nil }
                p += 1
            }
            return nil
        }

        static let ones: UInt64 = 0x0101_0101_0101_0101
        static let highs: UInt64 = 0x8080_8080_8080_8080

        /// The high bit of each byte of `x` that is `"`, `\`, below 0x20 or at or above 0x80
        /// (exact for the lowest such byte; bytes above it may be flagged too).
        @inline(__always) static func special(_ x: UInt64) -> UInt64 {
            @inline(__always) func zeroBytes(_ v: UInt64) -> UInt64 { (v &- ones) & ~v & highs }
            let quote = zeroBytes(x ^ (ones &* 0x22))
            let backslash = zeroBytes(x ^ (ones &* 0x5C))
            let control = (x &- ones &* 0x20) & ~x & highs
            return quote | backslash | control | (x & highs)
        }

        /// Whether the bytes at the cursor are `n`'s text, followed by neither a digit, a `.` nor
        /// an exponent (so reading the number would stop at the same place with `n`'s value);
        /// moves past it when they are.
        @inline(__always) mutating func known(_ n: Hints.Number) -> Bool {
            let count = n.count
            guard count > 0, end - p > 16 else { return false }
            let raw = UnsafeRawPointer(p)
            let m0: UInt64 = count >= 8 ? ~0 : (1 << (UInt64(count) * 8)) - 1
            guard raw.loadUnaligned(as: UInt64.self) & m0 == n.w0 else { return false }
            if count > 8 {
                let m1: UInt64 = count >= 16 ? ~0 : (1 << (UInt64(count - 8) * 8)) - 1
                guard raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self) & m1 == n.w1 else { return false }
            }
            let next = p[count]
            guard next &- UInt8(ascii: "0") >= 10, next != UInt8(ascii: "."), next != UInt8(ascii: "e"), next != UInt8(ascii: "E") else {
                return false
            }
            p += count
            return true
        }

        @inline(__always) mutating func boolean() -> Bool { literal("true") || literal("false") }

        /// An integer, as the full parser reads one into an `Int` (at most 18 digits here).
        @inline(__always) mutating func signedInt() -> Bool {
            _ = byte(UInt8(ascii: "-"))
            guard unsigned() != nil else { return false }
            return p == end || (p.pointee != UInt8(ascii: ".") && p.pointee != UInt8(ascii: "e") && p.pointee != UInt8(ascii: "E"))
        }

        /// A number without an exponent and of at most 40 digits (always finite as a double).
        mutating func number() -> Bool {
            _ = byte(UInt8(ascii: "-"))
            let start = p
            while p < end, p.pointee &- UInt8(ascii: "0") < 10 { p += 1 }
            let whole = p - start
            guard whole >= 1, !(whole > 1 && start.pointee == UInt8(ascii: "0")) else { return false }
            if p < end, p.pointee == UInt8(ascii: ".") {
                p += 1
                let f = p
                while p < end, p.pointee &- UInt8(ascii: "0") < 10 { p += 1 }
                guard p > f, p - start <= 41 else { return false }
            }
            guard p - start <= 41 else { return false }
            return !(p < end && (p.pointee == UInt8(ascii: "e") || p.pointee == UInt8(ascii: "E")))
        }

        /// Any JSON value without whitespace, escapes or bytes outside ASCII, objects without
        /// duplicate names: checked, not built.
        mutating func value(depth: Int) -> Bool {
            guard p < end else { return false }
            switch p.pointee {
            case UInt8(ascii: "\""):
                p += 1
                return plainString() != nil
            case UInt8(ascii: "{"):
                guard depth < LineScanner.maxDepth else { return false }
                p += 1
                if byte(UInt8(ascii: "}")) { return true }
                // Member names seen, for the duplicate check, on the stack.
                return withUnsafeTemporaryAllocation(of: (Int, Int).self, capacity: LineScanner.maxMembers) { names in
                    var count = 0
                    while true {
                        guard byte(UInt8(ascii: "\"")), let name = plainString(), byte(UInt8(ascii: ":")) else { return false }
                        for i in 0..<count where names[i].1 == name.1 {
                            if LineScanner.memcmpEqual(base + names[i].0, base + name.0, name.1) { return false }
                        }
                        guard count < LineScanner.maxMembers else { return false }
                        names[count] = name
                        count += 1
                        guard value(depth: depth + 1) else { return false }
                        if byte(UInt8(ascii: ",")) { continue }
                        return byte(UInt8(ascii: "}"))
                    }
                }
            case UInt8(ascii: "["):
                guard depth < LineScanner.maxDepth else { return false }
                p += 1
                if byte(UInt8(ascii: "]")) { return true }
                while true {
                    guard value(depth: depth + 1) else { return false }
                    if byte(UInt8(ascii: ",")) { continue }
                    return byte(UInt8(ascii: "]"))
                }
            case UInt8(ascii: "t"): return literal("true")
            case UInt8(ascii: "f"): return literal("false")
            case UInt8(ascii: "n"): return literal("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
            default: return false
            }
        }
    }
}
