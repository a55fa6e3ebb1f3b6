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
/// In order: ``TraceValueConvertible``; strings, booleans, integers and floating point numbers;
/// `Void` as `null`; arrays; dictionaries with string keys (keys sorted, so traces stay
/// deterministic); optionals; `Encodable` values through a sorted-keys `JSONEncoder`; anything
/// else as its `String(describing:)` (an enum case without payload reads as its name).
public enum TraceValue {
    /// The JSON for `value`, or nil for nil.
    public static func json(_ value: Any?) -> JSONValue? {
        guard let value else { return nil }
        return convert(value)
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
