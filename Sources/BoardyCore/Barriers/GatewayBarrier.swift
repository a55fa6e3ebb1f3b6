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
public final class GatewayBarrierRegistration {
    enum Kind {
        case exempt
        case gate(BoardID, input: ((GatewayRequest) -> Any?)?, resolveOn: ((Any?) -> Bool?)?, instances: GateInstances)
        /// Boardy's wiring: a proxy board per run, `<destination>.___GATEWAY___`, with its own
        /// motherboard; `activation` runs when the proxy is activated (with the destination's
        /// input), `flowRegistration` when it is made. The run resolves on the proxy's completion.
        case proxy(activation: (any GatewayBarrierBoard, Any?) -> Void, flowRegistration: (any GatewayBarrierBoard) -> Void)
    }

    private(set) var kind: Kind

    init(kind: Kind) { self.kind = kind }

    /// Boardy's gateway: for each gated destination a proxy board (a ``GatewayBarrierBoard``,
    /// with a motherboard of its own sharing the main producer) is activated with the
    /// destination's input and `activation` runs; the destination goes on when the proxy
    /// completes true. A request for a destination whose proxy is open joins it.
    ///
    /// ```swift
    /// .registerWithActivation { barrier, option in
    ///     barrier.motherboard.activateBoard(identifier: .pubAuth, withOption: option)
    /// }.withFlowRegistration { barrier in
    ///     barrier.motherboard.completionFlow(.pubAuth).handle { barrier.complete($0) }
    /// }
    /// ```
    public static func registerWithActivation(_ activation: @escaping (_ barrier: any GatewayBarrierBoard, _ option: Any?) -> Void)
        -> GatewayBarrierRegistration
    {
        GatewayBarrierRegistration(kind: .proxy(activation: activation, flowRegistration: { _ in }))
    }

    /// Sets what runs when each proxy is made: register the flows that complete it.
    public func withFlowRegistration(_ flowRegistration: @escaping (_ barrier: any GatewayBarrierBoard) -> Void) -> Self {
        if case let .proxy(activation, _) = kind { kind = .proxy(activation: activation, flowRegistration: flowRegistration) }
        return self
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

    /// A gate that passes at once (Boardy rule 11): install it for the boards that must stay
    /// reachable, such as the gate itself.
    public static var exempt: GatewayBarrierRegistration { GatewayBarrierRegistration(kind: .exempt) }

    /// Boardy's deprecated spelling of ``exempt``, with a zero-width space (U+200B) before it.
    @available(*, deprecated, message: "This spelling contains a zero-width space (U+200B) and renders identically to `exempt`. Retype the call site as `exempt`.")
    public static var ​exempt: GatewayBarrierRegistration { exempt }

    /// A gate board; its completion resolves, and so does any output `resolveOn` maps to a
    /// verdict (nil: not a resolving output). The gate is activated with the
    /// ``GatewayRequest``, or with what `input` makes of it (for a gate with a typed input).
    /// `instances` chooses between a gate instance per run (the default) and one shared one.
    public static func gate(
        _ board: BoardID, input: ((GatewayRequest) -> Any?)? = nil, resolveOn: ((Any?) -> Bool?)? = nil,
        instances: GateInstances = .perRun
    ) -> GatewayBarrierRegistration {
        GatewayBarrierRegistration(kind: .gate(board, input: input, resolveOn: resolveOn, instances: instances))
    }

    /// The gate board, or nil for ``exempt``.
    public var gateBoard: BoardID? {
        if case let .gate(board, _, _, _) = kind { return board }
        return nil
    }
}

/// boardy-viz's name for Boardy's ``GatewayBarrierRegistration``.
public typealias GatewayBarrier = GatewayBarrierRegistration

/// The proxy a ``GatewayBarrierRegistration/registerWithActivation(_:)`` gateway hands its
/// closures (Boardy's `GatewayBarrierBoard`): complete it to resolve the run; its `motherboard`
/// is its own.
public typealias GatewayBarrierBoard = Completable & ContinuableBoard

/// A gateway run's proxy board (Boardy's `GatewayBarrierProxy`): a continuous board named
/// `<destination>.___GATEWAY___`, made per run.
final class GatewayBarrierProxy: ContinuousBoard, ActivatableBoard, Completable {
    private let activation: (any GatewayBarrierBoard, Any?) -> Void

    init(destination: BoardID, producer: (any ActivatableBoardProducer)?, registration: GatewayBarrierRegistration) {
        guard case let .proxy(activation, flowRegistration) = registration.kind else { preconditionFailure("not a proxy registration") }
        self.activation = activation
        super.init(identifier: destination.gateway, boards: [], boardProducer: producer)
        flowRegistration(self)
    }

    func activate(withOption option: Any?) { activation(self, option) }

    /// The proxy is the gateway: it is not gated itself.
    func shouldBypassGatewayBarrier() -> Bool { true }
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
