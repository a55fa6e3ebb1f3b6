/// A gate for a whole motherboard or for one board (Boardy's gateway barrier): before a gated
/// board activates, the gate board runs, and the board activates only if the gate passes.
///
/// ```swift
/// mainboard.install(gatewayBarrier: .gate("pubAuth", resolveOn: { ($0 as? AuthOutput).map { $0 == .authenticated } }))
/// mainboard.install(gatewayBarrier: .exempt, for: "pubAuth")
/// mainboard.install(gatewayBarrier: .exempt, for: "pubWelcome")
/// ```
///
/// Gateway runs are per destination (Boardy rule 9): a request for a destination whose run is
/// open joins it; otherwise a run starts and the gate is activated with a ``GatewayRequest`` (the
/// destination and its original input). A run resolves on the first of: the gate's completion, or
/// an output `resolveOn` maps to true or false; later signals are ignored.
///
/// Which gate instance a run uses is ``GateInstances``: by default each run has its own
/// (``GateInstances/perRun``, Boardy's documented `registerWithActivation` wiring, where each
/// destination's proxy has its own motherboard), so runs for different destinations resolve on
/// their own timelines; ``GateInstances/shared`` is one instance in this motherboard, whose one
/// signal resolves every open run, in request order.
public struct GatewayBarrier {
    enum Kind {
        case exempt
        case gate(BoardID, input: ((GatewayRequest) -> Any?)?, resolveOn: ((Any?) -> Bool?)?, instances: GateInstances)
    }

    /// Which instance of the gate board a gateway run uses.
    public enum GateInstances: String, Sendable, Hashable {
        /// Each run has its own instance, produced by the motherboard's producer into a
        /// motherboard of its own (`<path>/<destination>.___GATEWAY___` in traces), whose outputs
        /// the gated motherboard's flows do not see: Boardy's documented wiring, and the default.
        /// A gate the producer cannot produce (a board installed as an instance) can only be
        /// shared.
        case perRun
        /// One instance in the gated motherboard: what Boardy does when the app activates the
        /// gate on its main motherboard.
        case shared
    }

    let kind: Kind

    /// A gate that passes at once (Boardy rule 11): install it for the boards that must stay
    /// reachable, such as the gate itself.
    public static var exempt: GatewayBarrier { GatewayBarrier(kind: .exempt) }

    /// A gate board; its completion resolves, and so does any output `resolveOn` maps to a
    /// verdict (nil: not a resolving output). The gate is activated with the
    /// ``GatewayRequest``, or with what `input` makes of it (for a gate with a typed input).
    /// `instances` chooses between a gate instance per run (the default) and one shared one.
    public static func gate(
        _ board: BoardID, input: ((GatewayRequest) -> Any?)? = nil, resolveOn: ((Any?) -> Bool?)? = nil,
        instances: GateInstances = .perRun
    ) -> GatewayBarrier {
        GatewayBarrier(kind: .gate(board, input: input, resolveOn: resolveOn, instances: instances))
    }

    /// The gate board, or nil for ``exempt``.
    public var gateBoard: BoardID? {
        if case let .gate(board, _, _, _) = kind { return board }
        return nil
    }
}

/// What a gateway's gate board is activated with: the board waiting behind it and that board's
/// original input (Boardy rule 9).
public struct GatewayRequest: TraceValueConvertible {
    /// The gated board.
    public var destination: BoardID
    /// Its original input.
    public var input: Any?

    public var traceValue: JSONValue {
        var o: JSONObject = ["destination": .string(destination.rawValue)]
        if let input = TraceValue.json(input) { o["input"] = input }
        return .object(o)
    }
}
