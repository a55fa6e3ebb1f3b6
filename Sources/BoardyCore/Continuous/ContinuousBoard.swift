/// A board that holds a motherboard of its own (Boardy's `ContinuableBoard`).
public protocol ContinuableBoard: IdentifiableBoard, OriginalBoard {
    /// The inner motherboard.
    var motherboard: any FlowMotherboard { get }
}

extension ContinuableBoard {
    /// Activates a board of the inner motherboard.
    public func continueBoard<Input>(_ input: BoardInput<Input>) {
        motherboard.activateBoard(identifier: input.identifier, withOption: input.input)
    }

    /// Activates the board `model` names in the inner motherboard.
    public func continueBoard(model: any BoardInputModel) {
        motherboard.activateBoard(model: model)
    }

    /// Sends a command to a board of the inner motherboard.
    public func continueInteractWithBoard<Input>(_ input: BoardCommand<Input>) {
        motherboard.interactWithBoard(input)
    }

    /// Sends a command to a board of the inner motherboard.
    public func continueInteractWithBoard(command: any BoardCommandModel) {
        motherboard.interactWithBoard(command: command)
    }
}

/// A board that wraps an inner motherboard to run a sub-flow (Boardy's `ContinuousBoard`).
///
/// Its inner boards' flow actions bubble up to the parent as this board's own; their outputs and
/// activations stay inside unless relayed, e.g. with `sendOutput(_:)` from an inner flow
/// (Boardy rule 21). In traces the inner motherboard is `<parent path>/<this board's id>`.
/// As in Boardy, a subclass adopts ``ActivatableBoard`` and activates its inner boards:
///
/// ```swift
/// final class PaymentBoard: ContinuousBoard, ActivatableBoard {
///     func activate(withOption option: Any?) {
///         motherboard.activateBoard(identifier: .pubConfirm, withOption: option)
///     }
/// }
/// let payment = PaymentBoard(identifier: .pubPayment, boards: [confirm, charge])
/// payment.continuousMotherboard.registerFlowSteps(.pubConfirm ->> .taskCharge)
/// ```
open class ContinuousBoard: Board, ContinuableBoard {
    /// The inner motherboard.
    public let continuousMotherboard: Motherboard

    /// The inner motherboard, as Boardy's API names it.
    public var motherboard: any FlowMotherboard { continuousMotherboard }

    /// A continuous board with inner `boards` (and/or a producer).
    public init(identifier: BoardID, boards: [any ActivatableBoard] = [], boardProducer: (any ActivatableBoardProducer)? = nil) {
        continuousMotherboard = Motherboard(identifier: identifier, boards: boards, boardProducer: boardProducer, runtime: nil)
        super.init(identifier: identifier)
    }

    /// A continuous board producing its inner boards with `boardProducer` (Boardy's initializer).
    public init(identifier: BoardID, boardProducer: any ActivatableBoardProducer) {
        continuousMotherboard = Motherboard(identifier: identifier, boards: [], boardProducer: boardProducer, runtime: nil)
        super.init(identifier: identifier)
    }

    /// A continuous board around `motherboard`'s boards and producer (Boardy's initializer; the
    /// inner motherboard is made here, so it gets this board's trace path).
    public init(identifier: BoardID, motherboard: any FlowMotherboard) {
        let source = motherboard as? Motherboard
        continuousMotherboard = Motherboard(identifier: identifier, boards: motherboard.boards.filter { !($0 is ActivatableBarrierBoard) }, boardProducer: source?.boardProducer, runtime: nil)
        super.init(identifier: identifier)
    }

    /// Puts the board and its inner motherboard (and the boards in it) into `context`.
    open override func putIntoContext(_ context: AnyObject) {
        super.putIntoContext(context)
        continuousMotherboard.putIntoContext(context)
    }

    func attachInner(runtime: BoardyRuntime, path: MotherboardPath, context: AnyObject?) {
        continuousMotherboard.attach(runtime: runtime, path: path, parent: self, context: context)
    }
}

/// A continuous board whose activation is a closure (handy in tests and small flows).
///
/// ```swift
/// let payment = ClosureContinuousBoard(identifier: .pubPayment, boards: [confirm, charge]) { board, input in
///     board.continuousMotherboard.activate(.pubConfirm, with: input)
/// }
/// ```
public final class ClosureContinuousBoard: ContinuousBoard, ActivatableBoard {
    private let onActivate: (ClosureContinuousBoard, Any?) -> Void
    private let bypassesGateway: Bool

    /// A continuous board with inner `boards` (and/or a producer) running `onActivate` on each
    /// activation.
    public init(
        identifier: BoardID, boards: [any ActivatableBoard] = [], boardProducer: (any ActivatableBoardProducer)? = nil,
        bypassGateway: Bool = false, onActivate: @escaping (ClosureContinuousBoard, Any?) -> Void
    ) {
        self.onActivate = onActivate
        self.bypassesGateway = bypassGateway
        super.init(identifier: identifier, boards: boards, boardProducer: boardProducer)
    }

    /// Runs `onActivate` with the option.
    public func activate(withOption option: Any?) { onActivate(self, option) }
    /// The `bypassGateway` it was made with.
    public func shouldBypassGatewayBarrier() -> Bool { bypassesGateway }
}

/// Boardy's `ModernContinuableBoard`: a continuous board whose inner boards come from `producer`
/// (which falls back to the outer producer when it is a ``BoardProducer`` made with one).
open class ModernContinuableBoard: ContinuousBoard {
    /// The producer of the inner boards.
    public let producer: any ActivatableBoardProducer

    /// A board producing its inner boards with `boardProducer`.
    public override init(identifier: BoardID, boardProducer: any ActivatableBoardProducer) {
        producer = boardProducer
        super.init(identifier: identifier, boardProducer: boardProducer)
    }

    /// Puts the board and its inner motherboard into `context` (Boardy's override).
    open override func putIntoContext(_ context: AnyObject) {
        super.putIntoContext(context)
    }
}
