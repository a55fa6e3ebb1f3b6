/// A board whose activation is a closure: handy in tests and small flows.
///
/// ```swift
/// let cart = ClosureBoard<String>(identifier: "pubShoppingCart") { board, cartID in
///     board.sendOutput("order-\(cartID)")
/// }
/// ```
public final class ClosureBoard<Input>: Board, GuaranteedBoard, InteractableBoard {
    /// The input its activation closure takes.
    public typealias InputType = Input
    private let onActivate: (ClosureBoard<Input>, Input) -> Void
    private let onCommand: ((ClosureBoard<Input>, Any?) -> Void)?
    private let bypassesGateway: Bool
    private let barrier: ((Input) -> ActivationBarrier?)?

    /// A board running `onActivate` on each activation and `onCommand` on each command; `barrier`
    /// gives the activation barrier for an input.
    public init(
        identifier: BoardID, bypassGateway: Bool = false, barrier: ((Input) -> ActivationBarrier?)? = nil,
        onCommand: ((ClosureBoard<Input>, Any?) -> Void)? = nil, onActivate: @escaping (ClosureBoard<Input>, Input) -> Void
    ) {
        self.onActivate = onActivate
        self.onCommand = onCommand
        self.bypassesGateway = bypassGateway
        self.barrier = barrier
        super.init(identifier: identifier)
    }

    /// The `barrier` closure's barrier for `input`; none without one.
    public func activationBarrier(withGuaranteedInput input: Input) -> ActivationBarrier? { barrier?(input) }

    /// Without a barrier closure there is nothing to cast the input for.
    public func activationBarrier(withOption option: Any?) -> ActivationBarrier? {
        guard let barrier, let input = BoardValue.cast(option, to: Input.self) else { return nil }
        return barrier(input)
    }

    /// Runs `onActivate` with the input.
    public func activate(withGuaranteedInput input: Input) { onActivate(self, input) }
    /// Runs `onCommand` with the command; ignores it without one.
    public func interact(command: Any?) { onCommand?(self, command) }
    /// The `bypassGateway` it was made with.
    public func shouldBypassGatewayBarrier() -> Bool { bypassesGateway }
}
