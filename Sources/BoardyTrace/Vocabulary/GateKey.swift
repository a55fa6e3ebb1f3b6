/// A gate as traces name it: a barrier's name within the motherboard (path) that raised it. Two
/// motherboards may each have a barrier of the same name; this key tells them apart.
public struct GateKey: Hashable, Sendable, CustomStringConvertible {
    /// The motherboard's path (``MotherboardPath``'s raw value).
    public var mb: String
    /// The barrier's name, as in `barrier.*` events.
    public var barrier: String

    /// The gate `barrier` of motherboard `mb`.
    public init(mb: String, barrier: String) {
        self.mb = mb
        self.barrier = barrier
    }

    /// `mb|barrier`, for messages.
    public var description: String { "\(mb)|\(barrier)" }

    /// Each barrier's gate board, from the `barrier.started` events of `events`.
    public static func gates(in events: some Sequence<TraceEvent>) -> [GateKey: String] {
        var gateOf: [GateKey: String] = [:]
        for e in events {
            if case .barrierStarted(let barrier, let gate) = e.body { gateOf[GateKey(mb: e.mb, barrier: barrier)] = gate }
        }
        return gateOf
    }
}
