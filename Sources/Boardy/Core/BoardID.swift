/// A board's identifier, unique within its motherboard.
///
/// Declare ids once, as Boardy apps do:
/// ```swift
/// extension BoardID {
///     static let pubPayment: BoardID = "pubPayment"
/// }
/// ```
public struct BoardID: RawRepresentable, Hashable, Comparable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The id as written in traces and scenarios.
    public var rawValue: String
    /// An id of `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// An id of `rawValue`.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
    public var description: String { rawValue }
    public static func < (a: BoardID, b: BoardID) -> Bool { a.rawValue < b.rawValue }
}
