import BoardyCore

/// A continuous board made of a registration closure and an activation closure (ComponentKit's
/// `FlowBoard`): a place to combine boards into one business flow without writing a board class.
/// It bypasses the gateway (Boardy rule 26).
///
/// ```swift
/// let checkout = FlowBoard(identifier: "flowCheckout", boards: [cart, payment]) { flow in
///     flow.continuousMotherboard.registerFlowSteps("pubCart" ->> "pubPayment")
/// } activation: { flow, input in
///     flow.continuousMotherboard.activate("pubCart", with: input)
/// }
/// ```
public final class FlowBoard: ContinuousBoard, ActivatableBoard {
    private let activation: (FlowBoard, Any?) -> Void

    /// A flow board whose inner motherboard holds `boards` (and/or a producer); `registration`
    /// runs once, now, to register the inner flows; `activation` runs on every activation.
    public init(
        identifier: BoardID, boards: [any ActivatableBoard] = [], boardProducer: (any ActivatableBoardProducer)? = nil,
        registration: (FlowBoard) -> Void, activation: @escaping (FlowBoard, Any?) -> Void
    ) {
        self.activation = activation
        super.init(identifier: identifier, boards: boards, boardProducer: boardProducer)
        registration(self)
    }

    public func activate(withOption option: Any?) {
        activation(self, option)
    }

    public func shouldBypassGatewayBarrier() -> Bool { true }
}
