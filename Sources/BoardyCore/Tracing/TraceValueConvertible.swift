import Foundation

/// A value that says how it appears in a trace. Adopt it for inputs, outputs and commands whose
/// default representation is not what you want to see.
public protocol TraceValueConvertible {
    /// The JSON recorded for this value.
    var traceValue: JSONValue { get }
}

extension JSONValue: TraceValueConvertible {
    public var traceValue: JSONValue { self }
}

/// Turns the motherboard's untyped values into trace JSON. Only called when an observer is
/// attached.
///
/// In order: `String`, `Int`, `Bool`, `Double` and `JSONValue` as they are;
/// ``TraceValueConvertible``; the other integer and floating point types, substrings and
/// characters; `Void` as `null`; optionals; arrays; dictionaries with string keys (keys sorted,
/// so traces stay deterministic); `Encodable` values through a sorted-keys `JSONEncoder`;
/// anything else as its `String(describing:)` (an enum case without payload reads as its name).
public enum TraceValue {
    /// The JSON for `value`, or nil for nil.
    public static func json(_ value: Any?) -> JSONValue? {
        if InPlace.isUsable, let common = withUnsafePointer(to: value, InPlace.common) { return common }
        guard let value else { return nil }
        return convert(value)
    }

    /// Reads a common payload (an `Int`, a `String`, a `Bool`, a `Double`, a `JSONValue`)
    /// where the `Any?` holds it, without copying the existential out of its optional first:
    /// that copy and its destruction go through the type's value witnesses, about 15 ns a
    /// value against 2 in place (reading in place took the recorder's overhead ratio from
    /// 1.110 to 1.095; BENCHMARKS.md).
    ///
    /// Swift has no API for this, so it reads the container as the ABI lays it out
    /// (docs/ABI/TypeLayout.rst, "Existential Container Layout"): three words of buffer, which
    /// hold a value of these types inline, then the type's metadata; an empty optional keeps 0
    /// there. ``isUsable`` checks that layout once on the running platform, with values of each
    /// type; where it does not hold, every value takes the general path below.
    enum InPlace {
        /// Whether the layout holds here (checked once, by reading probes of each type). Only
        /// on 64-bit platforms, where each of the five types fits the buffer and its alignment:
        /// elsewhere a `Double` or a `JSONValue` may be boxed, and reading one in place would not
        /// even be safe to probe.
        static let isUsable: Bool = {
            #if _pointerBitWidth(_64)
                let word = MemoryLayout<Int>.size
                guard MemoryLayout<Any?>.size == 4 * word, MemoryLayout<Any?>.size == MemoryLayout<Any>.size else { return false }
                func fitsInline<T>(_: T.Type) -> Bool { MemoryLayout<T>.size <= 3 * word && MemoryLayout<T>.alignment <= word }
                guard fitsInline(Int.self), fitsInline(String.self), fitsInline(Bool.self), fitsInline(Double.self), fitsInline(JSONValue.self) else {
                    return false
                }
                let int: Any? = 0x5EED_B0A2D as Int
                let string: Any? = "a probe longer than fifteen bytes"
                let bool: Any? = true
                let json: Any? = JSONValue.string("probe")
                return withUnsafePointer(to: int, common) == .int(0x5EED_B0A2D)
                    && withUnsafePointer(to: string, common) == .string("a probe longer than fifteen bytes")
                    && withUnsafePointer(to: bool, common) == .bool(true)
                    && withUnsafePointer(to: json, common) == .string("probe")
                    && withUnsafePointer(to: Optional<Any>.none, common) == nil
                    && withUnsafePointer(to: Optional<Any>.some(1.5), common) == .double(1.5)
                    && withUnsafePointer(to: Optional<Any>.some(Int32(7)), common) == nil
            #else
                return false
            #endif
        }()

        /// The type's metadata, which is unique per type: comparing the pointers compares the
        /// types (a constant address, not a stored value: the hot path reads one static,
        /// ``isUsable``).
        @inline(__always) static func metadata(_ type: Any.Type) -> UnsafeRawPointer { unsafeBitCast(type, to: UnsafeRawPointer.self) }
        /// Where the type's metadata sits: after the three-word buffer.
        @inline(__always) static var typeOffset: Int { 3 * MemoryLayout<Int>.size }

        /// The JSON of the value at `container` when it is of one of the common types (each fits
        /// the buffer, so it is stored there inline); nil otherwise, and for an empty optional.
        @inline(__always)
        static func common(_ container: UnsafePointer<Any?>) -> JSONValue? {
            let raw = UnsafeRawPointer(container)
            guard let type = raw.load(fromByteOffset: typeOffset, as: UnsafeRawPointer?.self) else { return nil }
            if type == metadata(Int.self) { return .int(Int64(raw.load(as: Int.self))) }
            if type == metadata(String.self) { return .string(raw.load(as: String.self)) }
            if type == metadata(JSONValue.self) { return raw.load(as: JSONValue.self) }
            if type == metadata(Bool.self) { return .bool(raw.load(as: Bool.self)) }
            if type == metadata(Double.self) { return .double(raw.load(as: Double.self)) }
            return nil
        }
    }

    static func convert(_ value: Any) -> JSONValue {
        // The common payload types first, with the value opened (SE-0352): the opened type is
        // compared with each, and the value taken as it is, without a dynamic cast (asking for
        // the dynamic type and casting was most of the cost of recording an output).
        if let common = common(value) { return common }
        switch value {
        case let s as String: return .string(s)
        case let i as Int: return .int(Int64(i))
        case let b as Bool: return .bool(b)
        case let d as Double: return .double(d)
        case let v as TraceValueConvertible: return v.traceValue
        case let i as Int64: return .int(i)
        case let i as Int32: return .int(Int64(i))
        case let i as UInt: return Int64(exactly: i).map(JSONValue.int) ?? .double(Double(i))
        case let f as Float: return .double(Double(f))
        case let s as Substring: return .string(String(s))
        case let c as Character: return .string(String(c))
        case is Void: return .null
        default: break
        }
        if let opt = value as? any OptionalProtocol {
            return opt.wrappedAny.map(convert) ?? .null
        }
        if let a = value as? [Any] { return .array(a.map(convert)) }
        if let d = value as? [String: Any] {
            return .object(JSONObject(d.keys.sorted().map { JSONMember(key: $0, value: convert(d[$0]!)) }))
        }
        if let e = value as? any Encodable, let json = encode(e) { return json }
        return .string(String(describing: value))
    }

    /// The JSON of a string, an integer, a JSON value or a boolean (`T` is the value's own type,
    /// so each reinterpretation is of a value as its own type); nil for any other type.
    @inline(__always)
    private static func common<T>(_ x: T) -> JSONValue? {
        if T.self == String.self { return .string(unsafeBitCast(x, to: String.self)) }
        if T.self == Int.self { return .int(Int64(unsafeBitCast(x, to: Int.self))) }
        if T.self == JSONValue.self { return unsafeBitCast(x, to: JSONValue.self) }
        if T.self == Bool.self { return .bool(unsafeBitCast(x, to: Bool.self)) }
        return nil
    }

    private static func encode(_ value: any Encodable) -> JSONValue? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(value), let text = String(data: data, encoding: .utf8) else { return nil }
        return try? JSONValue(parsing: text)
    }
}

protocol OptionalProtocol {
    var wrappedAny: Any? { get }
}

extension Optional: OptionalProtocol {
    var wrappedAny: Any? {
        switch self {
        case .some(let w): return w
        case .none: return nil
        }
    }
}
