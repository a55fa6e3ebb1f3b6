/// Appends compact JSON to a byte buffer. Used by the trace encoder on the recording hot path, so
/// it writes bytes directly (no Foundation, no intermediate strings).
public struct JSONWriter: Sendable {
    /// The bytes written so far.
    public var bytes: [UInt8]

    /// An empty writer; `capacity` reserves room up front.
    public init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// The bytes as a string.
    public var string: String { String(decoding: bytes, as: UTF8.self) }

    @inlinable mutating func byte(_ b: UInt8) { bytes.append(b) }

    /// Appends ASCII text verbatim (keys and fixed tokens only).
    @inlinable public mutating func raw(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Writes `s` as a JSON string literal, escaping `"`, `\` and control characters.
    public mutating func writeString(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { utf8 in
            var start = 0
            var i = 0
            let n = utf8.count
            while i < n {
                let c = utf8[i]
                if c >= 0x20 && c != UInt8(ascii: "\"") && c != UInt8(ascii: "\\") {
                    i += 1
                    continue
                }
                if start < i { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<i])) }
                bytes.append(UInt8(ascii: "\\"))
                switch c {
                case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: [UInt8(ascii: "u"), 0x30, 0x30, hex[Int(c >> 4)], hex[Int(c & 0xF)]])
                }
                i += 1
                start = i
            }
            if start < n { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<n])) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Writes a decimal integer.
    public mutating func writeInt(_ value: Int64) {
        if value >= 0 && value < 10 {
            bytes.append(UInt8(ascii: "0") &+ UInt8(value))
            return
        }
        var v = value.magnitude
        var tmp:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = 0
        withUnsafeMutableBytes(of: &tmp) { buf in
            while v > 0 {
                buf[19 - n] = UInt8(ascii: "0") &+ UInt8(v % 10)
                v /= 10
                n += 1
            }
            if value < 0 { bytes.append(UInt8(ascii: "-")) }
            bytes.append(contentsOf: buf[(20 - n)...])
        }
    }

    /// Writes a double: integral values as integers, non-finite ones as `null`, else Swift's
    /// shortest round-tripping spelling (which is valid JSON).
    public mutating func writeDouble(_ d: Double) {
        if let i = Int64(exactly: d) {
            writeInt(i)
        } else if d.isFinite {
            bytes.append(contentsOf: d.description.utf8)
        } else {
            raw("null")
        }
    }

    /// Writes a boolean.
    public mutating func writeBool(_ b: Bool) { if b { raw("true") } else { raw("false") } }

    /// Writes any JSON value.
    public mutating func writeValue(_ v: JSONValue) { writeValue(v, depth: 0) }

    /// Containers nested this deep are written as a string saying so: every line the writer
    /// produces stays inside the reader's limit (512), so a value built in code (the Swift API
    /// records any value) can never make a trace that does not read back. Scenario values are
    /// held to the same limit when they are read, so they are never cut.
    public static let maxValueDepth = 500

    mutating func writeValue(_ v: JSONValue, depth: Int) {
        switch v {
        case .null: raw("null")
        case .bool(let b): writeBool(b)
        case .int(let i): writeInt(i)
        case .double(let d): writeDouble(d)
        case .string(let s): writeString(s)
        case .array where depth >= Self.maxValueDepth, .object where depth >= Self.maxValueDepth:
            writeString("<cut: nested deeper than \(Self.maxValueDepth) levels>")
        case .array(let a):
            byte(UInt8(ascii: "["))
            for (i, e) in a.enumerated() {
                if i > 0 { byte(UInt8(ascii: ",")) }
                writeValue(e, depth: depth + 1)
            }
            byte(UInt8(ascii: "]"))
        case .object(let o):
            byte(UInt8(ascii: "{"))
            for (i, m) in o.members.enumerated() {
                if i > 0 { byte(UInt8(ascii: ",")) }
                writeString(m.key)
                byte(UInt8(ascii: ":"))
                writeValue(m.value, depth: depth + 1)
            }
            byte(UInt8(ascii: "}"))
        }
    }

    /// Writes a time in integer microseconds as the shortest decimal number of seconds
    /// (`4`, `0.5`, `2.000001`).
    public mutating func writeTime(_ t: TraceTime) {
        let us = t.microseconds
        if us < 0 { byte(UInt8(ascii: "-")) }
        let mag = us.magnitude
        writeInt(Int64(mag / 1_000_000))
        var frac = mag % 1_000_000
        guard frac != 0 else { return }
        byte(UInt8(ascii: "."))
        var digits = 6
        while frac % 10 == 0 {
            frac /= 10
            digits -= 1
        }
        var div: UInt64 = 1
        for _ in 1..<digits { div *= 10 }
        while div > 0 {
            byte(UInt8(ascii: "0") &+ UInt8(frac / div))
            frac %= div
            div /= 10
        }
    }
}
