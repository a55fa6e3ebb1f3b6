import BoardyCore

/// A board that runs a flow of inner boards (Boardy's `FlowingBoard`).
public protocol FlowingBoard: ActivatableBoard, InstallableBoard {
    /// The inner motherboard.
    var motherboard: any FlowMotherboard { get }
}

/// A continuous board made of a registration closure and an activation closure (ComponentKit's
/// `FlowBoard`): a place to combine boards into one business flow without writing a board class.
/// It bypasses the gateway unless told otherwise (Boardy rule 26).
///
/// ```swift
/// let checkout = FlowBoard<String, Receipt, Void, BoardFlowNoneAction>(
///     identifier: "flowCheckout", producer: producer,
///     flowRegistration: { flow in flow.motherboard.registerFlowSteps("pubCart" ->> "pubPayment") },
///     flowActivation: { flow, cartID in flow.motherboard.activateBoard(identifier: "pubCart", withOption: cartID) })
/// ```
open class FlowBoard<Input, Output, Command, Action: BoardFlowAction>: ModernContinuableBoard, GuaranteedBoard, FlowingBoard,
    GuaranteedOutputSendingBoard, GuaranteedActionSendingBoard, GuaranteedCommandBoard
{
    /// What the board is activated with.
    public typealias InputType = Input
    /// What the board sends out.
    public typealias OutputType = Output
    /// The commands it takes.
    public typealias CommandType = Command
    /// The flow actions it sends, which go up to its parent motherboard first.
    public typealias FlowActionType = Action
    /// Registers the inner flows, once, when the board is made.
    public typealias FlowRegistration = (FlowBoard<Input, Output, Command, Action>) -> Void
    /// Runs on each activation.
    public typealias FlowActivation = (FlowBoard<Input, Output, Command, Action>, Input) -> Void
    /// Runs on each command.
    public typealias FlowInteraction = (FlowBoard<Input, Output, Command, Action>, Command) -> Void

    private let flowRegistration: FlowRegistration
    private let flowActivation: FlowActivation
    private let flowInteraction: FlowInteraction
    private let bypassesGateway: Bool

    /// A flow board producing its inner boards with `producer` (Boardy's initializer).
    public init(
        identifier: BoardID, producer: any ActivatableBoardProducer, allowBypassGatewayBarrier: Bool = true,
        flowRegistration: @escaping FlowRegistration, flowActivation: @escaping FlowActivation,
        flowInteraction: @escaping FlowInteraction = { _, _ in }
    ) {
        self.flowRegistration = flowRegistration
        self.flowActivation = flowActivation
        self.flowInteraction = flowInteraction
        bypassesGateway = allowBypassGatewayBarrier
        super.init(identifier: identifier, boardProducer: producer)
        registerFlows()
    }

    /// Runs the registration closure (called once, by the initializer).
    open func registerFlows() { flowRegistration(self) }

    /// Runs the activation closure.
    open func activate(withGuaranteedInput input: Input) { flowActivation(self, input) }

    /// Runs the interaction closure.
    open func interact(guaranteedCommand: Command) { flowInteraction(self, guaranteedCommand) }

    /// Bypasses the gateway unless made with `allowBypassGatewayBarrier: false`.
    open func shouldBypassGatewayBarrier() -> Bool { bypassesGateway }
}
