/// A JSON value as carried by a trace: the `input`, `output`, `command` and `event` fields, and
/// any field the reader does not know.
///
/// Numbers keep integers exact: a literal without fraction or exponent that fits `Int64` is
/// ``int(_:)``, anything else ``double(_:)``. An integral double compares and hashes equal to the
/// same integer and is written without a fraction, so `5` and `5.0` are one value.
public enum JSONValue: Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without fraction or exponent that fits `Int64`.
    case int(Int64)
    /// Any other number.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, its members in order.
    case object(JSONObject)
}

extension JSONValue: Hashable {
    /// Equal when they are the same JSON value; an integral double equals the same integer.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b
        case (.int(let a), .double(let b)), (.double(let b), .int(let a)): return Double(exactly: a) == b && Int64(exactly: b) == a
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)): return a == b
        default: return false
        }
    }

    /// Hashes as `==` compares: an integral double hashes as the same integer.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b):
            hasher.combine(1)
            hasher.combine(b)
        case .int(let i):
            hasher.combine(2)
            hasher.combine(i)
        case .double(let d):
            if let i = Int64(exactly: d) {
                hasher.combine(2)
                hasher.combine(i)
            } else {
                hasher.combine(3)
                hasher.combine(d)
            }
        case .string(let s):
            hasher.combine(4)
            hasher.combine(s)
        case .array(let a):
            hasher.combine(5)
            hasher.combine(a)
        case .object(let o):
            hasher.combine(6)
            hasher.combine(o)
        }
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    /// `nil` is ``null``.
    public init(nilLiteral: ()) { self = .null }
    /// A boolean literal is ``bool(_:)``.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An integer literal is ``int(_:)``.
    public init(integerLiteral value: Int64) { self = .int(value) }
    /// A float literal is ``double(_:)``.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// A string literal is ``string(_:)``.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array literal is ``array(_:)``.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// A dictionary literal is ``object(_:)``, its members in the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements.map { JSONMember(key: $0.0, value: $0.1) }))
    }
}

extension JSONValue {
    /// The string, when this is a string.
    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    /// The boolean, when this is a boolean.
    public var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    /// The number as an integer, when it is integral.
    public var intValue: Int64? {
        switch self {
        case .int(let i): return i
        case .double(let d): return Int64(exactly: d)
        default: return nil
        }
    }
    /// The number as a double.
    public var doubleValue: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }
    /// The object, when this is an object.
    public var objectValue: JSONObject? { if case .object(let o) = self { return o } else { return nil } }
    /// The array, when this is an array.
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }

    /// The member `key` of an object, or nil.
    public subscript(key: String) -> JSONValue? { objectValue?[key] }

    /// Compact JSON text of this value (the trace's own writer's spelling).
    public var jsonText: String {
        var w = JSONWriter()
        w.writeValue(self)
        return w.string
    }
}

extension JSONValue: CustomStringConvertible {
    /// The compact JSON text (``jsonText``).
    public var description: String { jsonText }
}

/// One `"key": value` member of a JSON object.
public struct JSONMember: Sendable, Hashable {
    /// The member's name.
    public var key: String
    /// The member's value.
    public var value: JSONValue
    /// A member named `key` holding `value`.
    public init(key: String, value: JSONValue) {
        self.key = key
        self.value = value
    }
}

/// A JSON object that keeps its members in the order they were given or read, so what is written
/// is deterministic. Equality ignores member order (JSON objects are unordered).
public struct JSONObject: Sendable, Hashable, Sequence {
    /// The members in order.
    public var members: [JSONMember]

    /// An object of `members`, in that order.
    @inlinable
    public init(_ members: [JSONMember] = []) { self.members = members }

    /// Whether the object has no members.
    public var isEmpty: Bool { members.isEmpty }
    /// How many members.
    public var count: Int { members.count }
    /// The members' names, in order.
    public var keys: [String] { members.map(\.key) }

    /// The value of the first member named `key`; setting nil removes it, setting a new key appends.
    public subscript(key: String) -> JSONValue? {
        get { members.first(where: { $0.key == key })?.value }
        set {
            if let i = members.firstIndex(where: { $0.key == key }) {
                if let newValue { members[i].value = newValue } else { members.remove(at: i) }
            } else if let newValue {
                members.append(JSONMember(key: key, value: newValue))
            }
        }
    }

    /// Iterates the members in order.
    public func makeIterator() -> IndexingIterator<[JSONMember]> { members.makeIterator() }

    /// Objects are equal when they have as many members and each key's value matches, in any order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.members.count == rhs.members.count else { return false }
        if lhs.members == rhs.members { return true }
        for m in lhs.members where rhs[m.key] != m.value { return false }
        return true
    }

    /// Hashes the members regardless of their order, as `==` compares.
    public func hash(into hasher: inout Hasher) {
        // Order-independent: combine the members' hashes commutatively.
        var acc = 0
        for m in members {
            var h = Hasher()
            h.combine(m)
            acc ^= h.finalize()
        }
        hasher.combine(members.count)
        hasher.combine(acc)
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// An object of the members written, in order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements.map { JSONMember(key: $0.0, value: $0.1) })
    }
}
