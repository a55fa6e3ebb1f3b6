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

extension BoardID {
    /// What a gateway proxy's id (and its motherboard's path) ends with, `.___GATEWAY___`: the
    /// one place the name is written (traces, Boardy's debug log and the engine use it).
    /// Inlinable: the engine checks ids against it on every activation.
    @inlinable public static var gatewaySuffix: String { ".___GATEWAY___" }
    /// The last component Boardy gives a gateway run's proxy board, `<destination>.___GATEWAY___`.
    @inlinable public static var gatewayComponent: String { String(gatewaySuffix.dropFirst()) }
    /// What a barrier board's id ends with, `.___PRIVATE_BARRIER___`: the one place it is written.
    @inlinable public static var privateBarrierSuffix: String { ".___PRIVATE_BARRIER___" }
    /// The last component Boardy gives a board's barrier board, `<id>.___PRIVATE_BARRIER___`.
    @inlinable public static var privateBarrierComponent: String { String(privateBarrierSuffix.dropFirst()) }

    /// Whether this is a gateway run's proxy board (`<destination>.___GATEWAY___`).
    @inlinable public var isGatewayProxy: Bool { rawValue.hasSuffix(Self.gatewaySuffix) }
}
