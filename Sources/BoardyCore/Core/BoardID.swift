/// A board's identifier, unique within its motherboard.
///
/// Declare ids once, as Boardy apps do:
/// ```swift
/// extension BoardID {
///     static let pubPayment: BoardID = "pubPayment"
/// }
/// ```
public struct BoardID: RawRepresentable, Hashable, Comparable, Sendable, ExpressibleByStringLiteral, LosslessStringConvertible {
    /// The id as written in traces and scenarios.
    public var rawValue: String
    /// An id of `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// An id of `rawValue`.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// An id written as a string literal.
    public init(stringLiteral value: String) { rawValue = value }
    /// The id as written.
    public var description: String { rawValue }
    /// Ids order as their strings do (for sorted, deterministic output).
    public static func < (a: BoardID, b: BoardID) -> Bool { a.rawValue < b.rawValue }
}

extension BoardID {
    /// A new id no other board has (Boardy's `BoardID.random()`): a UUID. Not for simulations,
    /// whose traces must be the same on every run.
    public static func random() -> BoardID {
        var g = SystemRandomNumberGenerator()
        let hex = (0..<4).map { _ in String(g.next() as UInt32, radix: 16, uppercase: true) }
        return BoardID(hex.map { String(repeating: "0", count: 8 - $0.count) + $0 }.joined(separator: "-"))
    }

    /// This id with `tail` appended after `separator` (Boardy's `appending(_:separator:)`).
    public func appending(_ tail: String, separator: String = ".") -> BoardID {
        BoardID(rawValue + separator + tail)
    }
}

/// Matches a board id against a string in a `switch` (Boardy's `~=`).
public func ~= (pattern: BoardID, value: String) -> Bool {
    pattern.rawValue == value
}

extension BoardID {
    /// The id of this board's gateway board (`<id>.___GATEWAY___`, Boardy's `gateway`).
    public var gateway: BoardID { appending("___GATEWAY___") }
    /// The id under which a gateway board stands for every board (`*`).
    public static let wildcard: BoardID = "*"
}
