/// A board that wraps an inner motherboard to run a sub-flow (Boardy's `ContinuousBoard`).
///
/// Its inner boards' flow actions bubble up to the parent as this board's own; their outputs and
/// activations stay inside unless relayed, e.g. with ``sendOutput(_:)`` from an inner flow
/// (Boardy rule 21). In traces the inner motherboard is `<parent path>/<this board's id>`.
///
/// ```swift
/// let payment = ContinuousBoard(identifier: .pubPayment, boards: [confirm, charge]) { board, input in
///     board.continuousMotherboard.activate(.pubConfirm, with: input)
/// }
/// payment.continuousMotherboard.registerFlowSteps(.pubConfirm ->> .taskCharge)
/// ```
open class ContinuousBoard: Board, ActivatableBoard {
    /// The inner motherboard.
    public let continuousMotherboard: Motherboard
    private let onActivate: ((ContinuousBoard, Any?) -> Void)?

    /// A continuous board with inner `boards` (and/or a producer); `onActivate` runs on each
    /// activation (subclasses override ``activate(withOption:)`` instead).
    public init(
        identifier: BoardID, boards: [any ActivatableBoard] = [], boardProducer: BoardProducer? = nil,
        onActivate: ((ContinuousBoard, Any?) -> Void)? = nil
    ) {
        continuousMotherboard = Motherboard(identifier: identifier, boards: boards, boardProducer: boardProducer, runtime: nil)
        self.onActivate = onActivate
        super.init(identifier: identifier)
    }

    /// Runs the activation closure given at init.
    open func activate(withOption option: Any?) {
        onActivate?(self, option)
    }

    // Declared here (not left to the protocol's defaults) so subclasses can override them.

    /// Ignores commands; override to handle them.
    open func interact(command: Any?) {}
    /// Accepts any input; override to check it.
    open func inputMismatch(_ option: Any?) -> String? { nil }
    /// Goes through the gateway; override to bypass it.
    open func shouldBypassGatewayBarrier() -> Bool { false }
    /// No activation barrier; override to return one.
    open func activationBarrier(withOption option: Any?) -> ActivationBarrier? { nil }
    /// Accepts every activation; override to turn some down.
    open func activationRejection(withOption option: Any?) -> TraceEvent.CancelReason? { nil }

    func attachInner(runtime: BoardyRuntime, path: String, context: AnyObject?) {
        continuousMotherboard.attach(runtime: runtime, path: path, parent: self, context: context)
    }
}
