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
    /// The literal type ids are written with.
    public typealias StringLiteralType = String
    /// An id written as a string literal.
    public init(stringLiteral value: StringLiteralType) { rawValue = value }
    /// Ids are equal when their strings are.
    public static func == (lhs: BoardID, rhs: BoardID) -> Bool { lhs.rawValue == rhs.rawValue }
    /// The id as written.
    public var description: String { rawValue }
    /// Ids order as their strings do (for sorted, deterministic output).
    public static func < (a: BoardID, b: BoardID) -> Bool { a.rawValue < b.rawValue }
}
