// `BoardID` itself is in BoardyTrace (the vocabulary every layer shares); Boardy's helpers on it
// are here.

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
    public var gateway: BoardID { appending(Self.gatewayComponent) }
    /// The id of this board's barrier board (`<id>.___PRIVATE_BARRIER___`).
    public var privateBarrier: BoardID { appending(Self.privateBarrierComponent) }
    /// The id under which a gateway board stands for every board (`*`).
    public static let wildcard: BoardID = "*"
}
