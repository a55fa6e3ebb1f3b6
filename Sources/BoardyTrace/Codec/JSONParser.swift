/// A strict JSON parser over UTF-8 bytes (RFC 8259), used by the trace reader on its hot path.
/// Rejects what Foundation rejects (trailing commas, bare words, unescaped control characters,
/// lone surrogates) and reports the byte offset of the problem.
struct JSONParser {
    let buf: UnsafeBufferPointer<UInt8>
    var pos: Int
    /// When set, where every value (and member name) starts, by path.
    var locations: LocationRecorder?
    static let powersOfTen: [Double] = (0...22).map { (0..<$0).reduce(1.0) { a, _ in a * 10 } }

    /// Nesting limit of a trace line: deeper input is refused rather than risking the stack.
    static let maxDepth = 512
    /// Nesting limit of documents (scenarios), lower than a trace line's so that every value a
    /// scenario holds can be recorded in an event (which adds a few levels) and read back.
    static let documentMaxDepth = JSONDocument.maxDepth
    /// The limit this parser applies.
    var depthLimit = JSONParser.maxDepth

    init(_ buf: UnsafeBufferPointer<UInt8>, at pos: Int = 0) {
        self.buf = buf
        self.pos = pos
    }

    struct Failure: Error, Sendable {
        var offset: Int
        var message: String
    }

    @inline(__always) mutating func skipWhitespace() {
        while pos < buf.count {
            let c = buf[pos]
            if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { pos += 1 } else { break }
        }
    }

    @inline(__always) func fail(_ message: String, at offset: Int? = nil) -> Failure {
        Failure(offset: offset ?? pos, message: message)
    }

    var atEnd: Bool { pos >= buf.count }

    mutating func expect(_ c: UInt8, _ what: String) throws(Failure) {
        skipWhitespace()
        guard pos < buf.count, buf[pos] == c else {
            throw fail(pos < buf.count ? "expected \(what), found \(describe(buf[pos]))" : "expected \(what), found end of line")
        }
        pos += 1
    }

    func describe(_ c: UInt8) -> String {
        if c >= 0x20 && c < 0x7F { return "'\(Character(UnicodeScalar(c)))'" }
        return "byte 0x\(String(c, radix: 16))"
    }

    /// Parses one value.
    mutating func parseValue(depth: Int = 0) throws(Failure) -> JSONValue {
        skipWhitespace()
        guard pos < buf.count else { throw fail("expected a value, found end of line") }
        locations?.recordValue(at: pos)
        let c = buf[pos]
        switch c {
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "{"):
            guard depth < depthLimit else { throw fail(depthMessage) }
            return .object(try parseObject(depth: depth + 1))
        case UInt8(ascii: "["):
            guard depth < depthLimit else { throw fail(depthMessage) }
            pos += 1
            var items: [JSONValue] = []
            skipWhitespace()
            if pos < buf.count, buf[pos] == UInt8(ascii: "]") {
                pos += 1
                return .array(items)
            }
            while true {
                locations?.push(index: items.count)
                items.append(try parseValue(depth: depth + 1))
                locations?.pop()
                skipWhitespace()
                guard pos < buf.count else { throw fail("unterminated array") }
                if buf[pos] == UInt8(ascii: ",") {
                    pos += 1
                    continue
                }
                if buf[pos] == UInt8(ascii: "]") {
                    pos += 1
                    return .array(locations != nil ? Self.exact(items) : items)
                }
                throw fail("expected ',' or ']' in array, found \(describe(buf[pos]))")
            }
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw fail("expected a value, found \(describe(c))")
        }
    }

    /// `items` in storage of exactly their count. A document (a scenario) keeps its values for
    /// the whole run, and growth leaves up to half of each array unused: a million-board scenario
    /// paid hundreds of megabytes for it. Trace lines are decoded and dropped, so they keep
    /// their growth.
    static func exact<T>(_ items: [T]) -> [T] {
        guard items.capacity > items.count else { return items }
        return items.withUnsafeBufferPointer { Array($0) }
    }

    var depthMessage: String {
        depthLimit == Self.maxDepth
            ? "nesting deeper than \(depthLimit)"
            : "nesting deeper than \(depthLimit) levels (a trace line holds \(Self.maxDepth), so a scenario's values nest at most \(depthLimit) deep)"
    }

    mutating func literal(_ word: StaticString) throws(Failure) {
        let n = word.utf8CodeUnitCount
        let start = pos
        guard pos + n <= buf.count else { throw fail("invalid literal") }
        let ok = word.withUTF8Buffer { w in
            for i in 0..<n where buf[start + i] != w[i] { return false }
            return true
        }
        guard ok else { throw fail("invalid literal") }
        pos += n
    }

    mutating func parseObject(depth: Int) throws(Failure) -> JSONObject {
        pos += 1  // {
        var members: [JSONMember] = []
        var seen = Set<String>()
        members.reserveCapacity(depth == 1 ? 10 : 4)
        skipWhitespace()
        if pos < buf.count, buf[pos] == UInt8(ascii: "}") {
            pos += 1
            return JSONObject(members)
        }
        while true {
            skipWhitespace()
            guard pos < buf.count, buf[pos] == UInt8(ascii: "\"") else {
                throw fail(pos < buf.count ? "expected a member name, found \(describe(buf[pos]))" : "unterminated object")
            }
            let keyStart = pos
            let key = try parseKey()
            // Documents (scenarios) refuse a repeated member name, which JSON leaves undefined
            // and parsers resolve differently; trace lines check theirs while decoding.
            if locations != nil {
                if members.count < 16 {
                    if members.contains(where: { $0.key == key }) { throw fail("duplicate key \"\(key)\"", at: keyStart) }
                } else {
                    if seen.isEmpty { seen = Set(members.map(\.key)) }
                    guard seen.insert(key).inserted else { throw fail("duplicate key \"\(key)\"", at: keyStart) }
                }
            }
            try expect(UInt8(ascii: ":"), "':'")
            locations?.push(key: key, at: keyStart)
            let value = try parseValue(depth: depth)
            locations?.pop()
            members.append(JSONMember(key: key, value: value))
            skipWhitespace()
            guard pos < buf.count else { throw fail("unterminated object") }
            if buf[pos] == UInt8(ascii: ",") {
                pos += 1
                continue
            }
            if buf[pos] == UInt8(ascii: "}") {
                pos += 1
                return JSONObject(locations != nil ? Self.exact(members) : members)
            }
            throw fail("expected ',' or '}' in object, found \(describe(buf[pos]))")
        }
    }

    /// The member names of trace events, by length. Matched without any table (a shared array
    /// would be retained and released for every key, from every thread parsing at once) and
    /// returned as literals, so reading a line creates no key strings.
    static let knownKeyNames: [[StaticString]] = [
        [], ["t"], ["mb", "to"], ["seq"], ["kind", "from", "gate"],
        ["cause", "board", "input", "scope", "cycle", "event", "flush", "state", "clock"],
        ["action", "source", "result", "passed", "reason", "output", "events", "format"],
        ["barrier", "command", "success", "waiting", "version"],
        ["released", "barriers", "scenario"], ["flushable"], ["dispatcher", "definition"],
    ]

    /// Parses a member name: a known trace key without creating a string, else any string.
    mutating func parseKey() throws(Failure) -> String {
        let start = pos + 1
        var i = start
        while i < buf.count, i - start <= 10 {
            let c = buf[i]
            if c == UInt8(ascii: "\"") {
                if let known = Self.lookupKnown(UnsafeBufferPointer(rebasing: buf[start..<i])) {
                    pos = i + 1
                    return known
                }
                break
            }
            if c == UInt8(ascii: "\\") || c < 0x20 || c >= 0x80 { break }
            i += 1
        }
        return try parseString()
    }

    @inline(__always) static func lookupKnown(_ b: UnsafeBufferPointer<UInt8>) -> String? {
        @inline(__always) func eq(_ s: StaticString) -> Bool {
            s.withUTF8Buffer { c in
                var k = 0
                while k < c.count, c[k] == b[k] { k += 1 }
                return k == c.count
            }
        }
        switch b.count {
        case 1: return b[0] == UInt8(ascii: "t") ? "t" : nil
        case 2:
            if eq("mb") { return "mb" }
            if eq("to") { return "to" }
        case 3: if eq("seq") { return "seq" }
        case 4:
            if eq("kind") { return "kind" }
            if eq("from") { return "from" }
            if eq("gate") { return "gate" }
        case 5:
            switch b[0] {
            case UInt8(ascii: "c"):
                if eq("cause") { return "cause" }
                if eq("cycle") { return "cycle" }
                if eq("clock") { return "clock" }
            case UInt8(ascii: "b"): if eq("board") { return "board" }
            case UInt8(ascii: "i"): if eq("input") { return "input" }
            case UInt8(ascii: "s"):
                if eq("scope") { return "scope" }
                if eq("state") { return "state" }
            case UInt8(ascii: "e"): if eq("event") { return "event" }
            case UInt8(ascii: "f"): if eq("flush") { return "flush" }
            default: break
            }
        case 6:
            switch b[0] {
            case UInt8(ascii: "a"): if eq("action") { return "action" }
            case UInt8(ascii: "s"): if eq("source") { return "source" }
            case UInt8(ascii: "r"):
                if eq("result") { return "result" }
                if eq("reason") { return "reason" }
            case UInt8(ascii: "p"): if eq("passed") { return "passed" }
            case UInt8(ascii: "o"): if eq("output") { return "output" }
            case UInt8(ascii: "e"): if eq("events") { return "events" }
            case UInt8(ascii: "f"): if eq("format") { return "format" }
            default: break
            }
        case 7:
            if eq("barrier") { return "barrier" }
            if eq("command") { return "command" }
            if eq("success") { return "success" }
            if eq("waiting") { return "waiting" }
            if eq("version") { return "version" }
        case 8:
            if eq("released") { return "released" }
            if eq("barriers") { return "barriers" }
            if eq("scenario") { return "scenario" }
        case 9: if eq("flushable") { return "flushable" }
        case 10:
            if eq("dispatcher") { return "dispatcher" }
            if eq("definition") { return "definition" }
        default: break
        }
        return nil
    }

    /// Parses a string literal at `pos` (which is at the opening quote).
    mutating func parseString() throws(Failure) -> String {
        let start = pos + 1
        var i = start
        var ascii = true
        // Fast path: no escapes.
        while i < buf.count {
            let c = buf[i]
            if c == UInt8(ascii: "\"") {
                pos = i + 1
                let slice = UnsafeBufferPointer(rebasing: buf[start..<i])
                if ascii { return String(decoding: slice, as: UTF8.self) }
                guard let s = String(validating: slice, as: UTF8.self) else {
                    throw fail("invalid UTF-8 in string", at: start)
                }
                return s
            }
            if c == UInt8(ascii: "\\") { break }
            if c < 0x20 { throw fail("unescaped control character in string", at: i) }
            if c >= 0x80 { ascii = false }
            i += 1
        }
        guard i < buf.count else { throw fail("unterminated string", at: start - 1) }
        // Slow path with escapes.
        var out: [UInt8] = Array(UnsafeBufferPointer(rebasing: buf[start..<i]))
        while i < buf.count {
            let c = buf[i]
            if c == UInt8(ascii: "\"") {
                pos = i + 1
                guard let s = String(validating: out, as: UTF8.self) else { throw fail("invalid UTF-8 in string", at: start) }
                return s
            }
            if c < 0x20 { throw fail("unescaped control character in string", at: i) }
            if c != UInt8(ascii: "\\") {
                out.append(c)
                i += 1
                continue
            }
            i += 1
            guard i < buf.count else { break }
            switch buf[i] {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4(at: i + 1)
                i += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    guard i + 6 < buf.count, buf[i + 1] == UInt8(ascii: "\\"), buf[i + 2] == UInt8(ascii: "u") else {
                        throw fail("lone surrogate in \\u escape", at: i - 5)
                    }
                    let low = try hex4(at: i + 3)
                    guard (0xDC00...0xDFFF).contains(low) else { throw fail("lone surrogate in \\u escape", at: i - 5) }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw fail("lone surrogate in \\u escape", at: i - 5)
                }
                guard let u = Unicode.Scalar(scalar) else { throw fail("invalid \\u escape", at: i - 5) }
                out.append(contentsOf: Array(String(Character(u)).utf8))
            default:
                throw fail("invalid escape \\\(describe(buf[i]))", at: i - 1)
            }
            i += 1
        }
        throw fail("unterminated string", at: start - 1)
    }

    func hex4(at p: Int) throws(Failure) -> UInt32 {
        guard p + 4 <= buf.count else { throw fail("truncated \\u escape", at: p) }
        var v: UInt32 = 0
        for k in 0..<4 {
            let c = buf[p + k]
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw fail("invalid hex digit in \\u escape", at: p + k)
            }
            v = v << 4 | d
        }
        return v
    }

    /// Parses a number: an `Int64` when it is an integer literal that fits, else a `Double`.
    mutating func parseNumber() throws(Failure) -> JSONValue {
        let start = pos
        var i = pos
        var negative = false
        if buf[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        }
        guard i < buf.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(buf[i]) else {
            throw fail("invalid number", at: start)
        }
        var mag: UInt64 = 0
        var overflow = false
        let intStart = i
        while i < buf.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(buf[i]) {
            let (m1, o1) = mag.multipliedReportingOverflow(by: 10)
            let (m2, o2) = m1.addingReportingOverflow(UInt64(buf[i] - UInt8(ascii: "0")))
            overflow = overflow || o1 || o2
            mag = m2
            i += 1
        }
        if buf[intStart] == UInt8(ascii: "0") && i - intStart > 1 { throw fail("leading zero in number", at: start) }
        var isInteger = true
        var fraction: UInt64 = 0
        var fractionDigits = 0
        if i < buf.count, buf[i] == UInt8(ascii: ".") {
            isInteger = false
            i += 1
            let fracStart = i
            while i < buf.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(buf[i]) {
                if fractionDigits < 19 {
                    fraction = fraction &* 10 &+ UInt64(buf[i] - UInt8(ascii: "0"))
                    fractionDigits += 1
                } else {
                    fractionDigits = Int.max / 2  // too many digits for the fast path
                }
                i += 1
            }
            guard i > fracStart else { throw fail("invalid number: no digit after '.'", at: start) }
        }
        var hasExponent = false
        if i < buf.count, buf[i] == UInt8(ascii: "e") || buf[i] == UInt8(ascii: "E") {
            isInteger = false
            hasExponent = true
            i += 1
            if i < buf.count, buf[i] == UInt8(ascii: "+") || buf[i] == UInt8(ascii: "-") { i += 1 }
            let expStart = i
            while i < buf.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(buf[i]) { i += 1 }
            guard i > expStart else { throw fail("invalid number: no digit in exponent", at: start) }
        }
        pos = i
        if isInteger && !overflow {
            if negative {
                if mag <= UInt64(Int64.max) + 1 { return .int(mag == UInt64(Int64.max) + 1 ? Int64.min : -Int64(mag)) }
            } else if mag <= UInt64(Int64.max) {
                return .int(Int64(mag))
            }
        }
        // Exact fast path for plain decimals: the digits as an integer below 2^53 divided by a
        // power of ten up to 10^22 (both exact doubles; IEEE division rounds correctly).
        if !isInteger && !hasExponent && !overflow && fractionDigits <= 22 {
            let (scaled, o1) = mag.multipliedReportingOverflow(
                by: Self.powersOfTen[fractionDigits] > 1e19 ? UInt64.max : UInt64(Self.powersOfTen[fractionDigits]))
            let (digits, o2) = scaled.addingReportingOverflow(fraction)
            if !o1 && !o2 && digits < (1 << 53) {
                let d = Double(digits) / Self.powersOfTen[fractionDigits]
                return .double(negative ? -d : d)
            }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: buf[start..<i]), as: UTF8.self)
        guard let d = Double(text), d.isFinite else { throw fail("number out of range", at: start) }
        return .double(d)
    }
}

extension JSONValue {
    /// Parses JSON text. Throws ``JSONSyntaxError`` with the byte offset of the first problem.
    public init(parsing text: String) throws(JSONSyntaxError) {
        var text = text
        let result: Result<JSONValue, JSONSyntaxError> = text.withUTF8 { buf in
            var p = JSONParser(buf)
            do throws(JSONParser.Failure) {
                let v = try p.parseValue()
                p.skipWhitespace()
                guard p.atEnd else { throw p.fail("unexpected text after the value") }
                return .success(v)
            } catch {
                return .failure(JSONSyntaxError(offset: error.offset, message: error.message))
            }
        }
        self = try result.get()
    }
}

/// A JSON syntax error: what was wrong and at which byte offset (0-based) of the text.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The 0-based byte offset of the problem.
    public var offset: Int
    /// What was wrong.
    public var message: String
    /// An error at `offset`.
    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }
    public var description: String { "\(message) (at byte \(offset + 1))" }
}

/// Collects where values start while parsing, by display path (`boards[2].onActivate[0].after`).
final class LocationRecorder {
    // Paths are kept as 64-bit FNV-1a hashes, built component by component as the parser
    // descends (a hash of a concatenation continues the hash of its prefix): a million-board
    // scenario records millions of places, and a string per place cost gigabytes.
    private var stack: [UInt64] = []
    /// Where each value and member name starts, by path hash, as `line << 32 | column`
    /// (``JSONDocument``'s form, so it takes them without a copy).
    private(set) var values: [UInt64: UInt64] = [:]
    private(set) var keys: [UInt64: UInt64] = [:]
    private let lineStarts: [Int]

    init(lineStarts: [Int]) { self.lineStarts = lineStarts }

    private var current: UInt64 { stack.last ?? PathHash.empty }

    /// `offset` as `line << 32 | column` (1-based).
    private func packed(_ offset: Int) -> UInt64 {
        var lo = 0
        var hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        return UInt64(lo + 1) << 32 | UInt64(min(offset - lineStarts[lo] + 1, Int(UInt32.max)))
    }

    func recordValue(at offset: Int) {
        let h = current
        if values[h] == nil { values[h] = packed(offset) }
    }

    func push(index: Int) { stack.append(PathHash.adding("[\(index)]", to: current)) }

    func push(key: String, at offset: Int) {
        let h = stack.isEmpty ? PathHash.adding(key, to: PathHash.empty) : PathHash.adding(key, to: PathHash.adding(".", to: current))
        stack.append(h)
        keys[h] = packed(offset)
    }

    func pop() { stack.removeLast() }
}

/// The FNV-1a hash of a path string (`boards[2].kind`), as ``LocationRecorder`` builds it.
enum PathHash {
    static let empty: UInt64 = 0xcbf2_9ce4_8422_2325

    static func adding(_ text: String, to hash: UInt64) -> UInt64 {
        var h = hash
        for b in text.utf8 {
            h ^= UInt64(b)
            h = h &* 0x0000_0100_0000_01b3
        }
        return h
    }

    static func of(_ path: String) -> UInt64 { adding(path, to: empty) }
}
