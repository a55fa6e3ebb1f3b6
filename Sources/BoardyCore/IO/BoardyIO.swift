// Boardy's IO helpers: typed handles on a board id, through a motherboard (`Mainboard...`) or
// through a board's own motherboard (`Board...`). Boardy apps generate `ioX()` functions that
// return these; the engine's own ``IOInterface`` is the same idea with fewer types.

/// Something that activates one board with a typed input (Boardy's `BoardActivating`).
public protocol BoardActivating {
    /// The input type.
    associatedtype Input
    /// Activates the board with `input`.
    func activate(with input: Input)
}

/// A handle on one board id (Boardy's `BoardActivatingDestination`).
public protocol BoardActivatingDestination {
    /// The board.
    var destinationID: BoardID { get }
}

extension BoardActivating where Input: ExpressibleByNilLiteral {
    /// Activates the board with nil.
    public func activate() { activate(with: nil) }
}

extension BoardActivating where Input == Void {
    /// Activates a board that takes no input.
    public func activate() { activate(with: ()) }
}

extension BoardActivatingDestination {
    /// A barrier whose gate is this board (Boardy's `ioX().activation.barrier()`), in `scope`
    /// (``ActivationBarrierScope/mainboard`` by default, as Boardy's documentation says).
    public func barrier(scope: ActivationBarrierScope = .mainboard, option: ActivationBarrierOption = .void) -> ActivationBarrier {
        ActivationBarrier(identifier: destinationID, scope: scope, option: option)
    }
}

/// Activates a board through a motherboard (Boardy's `MainboardActivation`).
public struct MainboardActivation<Input>: BoardActivating, BoardActivatingDestination {
    /// The board.
    public let destinationID: BoardID
    weak var mainboard: (any MotherboardType)?

    /// Activates the board with `input`.
    public func activate(with input: Input) {
        mainboard?.activateBoard(identifier: destinationID, withOption: input)
    }

    /// A fresh barrier on this board for every request, activated with `input`.
    public func barrier(scope: ActivationBarrierScope = .mainboard, with input: Input) -> ActivationBarrier {
        ActivationBarrier(identifier: destinationID, scope: scope, option: .unidentified(input))
    }

    /// A barrier on this board shared by the requests with an equal `input`, which the gate gets.
    public func uniqueBarrier(scope: ActivationBarrierScope = .mainboard, with input: Input) -> ActivationBarrier where Input: Hashable {
        ActivationBarrier(identifier: destinationID, scope: scope, option: .unique(input))
    }
}

/// Activates a board through a board's motherboard (Boardy's `BoardActivation`).
public struct BoardActivation<Input>: BoardActivating, BoardActivatingDestination {
    /// The board.
    public let destinationID: BoardID
    weak var source: (any IdentifiableBoard)?

    /// Asks the source's motherboard to activate the board with `input`.
    public func activate(with input: Input) {
        source?.nextToBoard(BoardInput<Input>(target: destinationID, input: input))
    }

    /// A fresh barrier on this board for every request, activated with `input`.
    public func barrier(scope: ActivationBarrierScope = .mainboard, with input: Input) -> ActivationBarrier {
        ActivationBarrier(identifier: destinationID, scope: scope, option: .unidentified(input))
    }

    /// A barrier on this board shared by the requests with an equal `input`, which the gate gets.
    public func uniqueBarrier(scope: ActivationBarrierScope = .mainboard, with input: Input) -> ActivationBarrier where Input: Hashable {
        ActivationBarrier(identifier: destinationID, scope: scope, option: .unique(input))
    }
}

extension MotherboardType {
    /// Activates `destinationID` with typed inputs.
    public func activation<Input>(_ destinationID: BoardID, with _: Input.Type) -> MainboardActivation<Input> {
        MainboardActivation(destinationID: destinationID, mainboard: self)
    }

    /// Activates `destinationID` with any input.
    public func activation(_ destinationID: BoardID) -> MainboardActivation<Any?> {
        MainboardActivation(destinationID: destinationID, mainboard: self)
    }

    /// Sends typed commands to `destinationID`.
    public func interaction<Input>(_ destinationID: BoardID, with _: Input.Type) -> MainboardInteraction<Input> {
        MainboardInteraction(destinationID: destinationID, mainboard: self)
    }

    /// Sends commands to `destinationID`.
    public func interaction(_ destinationID: BoardID) -> MainboardInteraction<Any?> {
        MainboardInteraction(destinationID: destinationID, mainboard: self)
    }
}

extension ActivatableBoard {
    /// Asks this board's motherboard to activate `destinationID` with typed inputs.
    public func activation<Input>(_ destinationID: BoardID, with _: Input.Type) -> BoardActivation<Input> {
        BoardActivation(destinationID: destinationID, source: self)
    }

    /// Asks this board's motherboard to activate `destinationID`.
    public func activation(_ destinationID: BoardID) -> BoardActivation<Any?> {
        BoardActivation(destinationID: destinationID, source: self)
    }

    /// Sends typed commands to `destinationID` through this board's motherboard.
    public func interaction<Input>(_ destinationID: BoardID, with _: Input.Type) -> BoardInteraction<Input> {
        BoardInteraction(destinationID: destinationID, source: self)
    }

    /// Sends commands to `destinationID` through this board's motherboard.
    public func interaction(_ destinationID: BoardID) -> BoardInteraction<Any?> {
        BoardInteraction(destinationID: destinationID, source: self)
    }
}

/// Something that sends typed commands to one board (Boardy's `BoardInteracting`).
public protocol BoardInteracting {
    /// The command type.
    associatedtype IncomeCommand
    /// Sends `command`.
    func send(command: IncomeCommand)
}

extension BoardInteracting where IncomeCommand == Void {
    /// Sends the command of a board whose commands carry nothing.
    public func send() { send(command: ()) }
}

extension BoardInteracting where IncomeCommand: ExpressibleByNilLiteral {
    /// Sends nil.
    public func send() { send(command: nil) }
}

/// Sends commands to a board of a motherboard (Boardy's `MainboardInteraction`).
public struct MainboardInteraction<Input>: BoardInteracting {
    /// The board.
    public let destinationID: BoardID
    weak var mainboard: (any MotherboardType)?
    /// Sends `command`, if the board is installed.
    public func send(command: Input) { mainboard?.interactWithBoard(BoardCommand(identifier: destinationID, input: command)) }
}

/// Sends commands to a board through a board's motherboard (Boardy's `BoardInteraction`).
public struct BoardInteraction<Input>: BoardInteracting {
    /// The board.
    public let destinationID: BoardID
    weak var source: (any IdentifiableBoard)?
    /// Sends `command`, if the board is installed.
    public func send(command: Input) { source?.interactWithOtherBoard(BoardCommand(identifier: destinationID, input: command)) }
}

/// Reacts to one board's typed outputs (Boardy's `FlowHandling`).
public protocol FlowHandling {
    /// The output type.
    associatedtype Output
    /// Runs `action` with `target` (held weakly) and each output.
    func addTarget<Target>(_ target: Target, action: @escaping (Target, Output) -> Void)
    /// Runs `handler` with each output.
    func handle(_ handler: @escaping (Output) -> Void)
}

extension FlowHandling {
    /// Activates `activation`'s board with each output.
    public func activate<NextActivation: BoardActivating>(_ activation: NextActivation) where NextActivation.Input == Output {
        handle { activation.activate(with: $0) }
    }

    /// Activates `activation`'s board with each output for which `condition` holds.
    public func activate<NextActivation: BoardActivating>(_ activation: NextActivation, where condition: @escaping (Output) -> Bool)
    where NextActivation.Input == Output {
        handle { if condition($0) { activation.activate(with: $0) } }
    }

    /// Transports each output on `bus`.
    public func bind(to bus: Bus<Output>) { handle { bus.transport(input: $0) } }

    /// Transports each output for which `condition` holds on `bus`.
    public func bind(to bus: Bus<Output>, where condition: @escaping (Output) -> Bool) {
        handle { if condition($0) { bus.transport(input: $0) } }
    }

    /// Sends each output out of `board` as its own.
    public func sendOutput<OutBoard: GuaranteedOutputSendingBoard>(through board: OutBoard) where OutBoard.OutputType == Output {
        addTarget(board) { board, output in board.sendOutput(output) }
    }
}

extension FlowHandling where Output == Void {
    /// Runs `handler` on each output of a board whose outputs carry nothing.
    public func handle(_ handler: @escaping () -> Void) { handle { (_: Void) in handler() } }
    /// Runs `action` with `target` (held weakly) on each output.
    public func addTarget<Target>(_ target: Target, action: @escaping (Target) -> Void) {
        addTarget(target) { (t: Target, _: Void) in action(t) }
    }
}

/// Reacts to one board's typed outputs through a motherboard (Boardy's `FlowHandler`).
public struct FlowHandler<Output>: FlowHandling {
    /// The board.
    public let matchedIdentifier: BoardID
    weak var manager: (any FlowManageable)?

    /// Runs `action` with `target` (held weakly) and each output.
    public func addTarget<Target>(_ target: Target, action: @escaping (Target, Output) -> Void) {
        let box = TargetBox(target)
        handle { output in if let target = box.target { action(target, output) } }
    }

    /// Runs `handler` with each output. As in Boardy, a handler whose type also takes Boardy's
    /// other messages gets them too: a completion as ``CompleteAction`` (`CompleteAction`, `Any`,
    /// `Any?`), a flow action (`Any`, `Any?`, the action's type).
    public func handle(_ handler: @escaping (Output) -> Void) {
        guard let manager else { return }
        guard let mb = manager as? Motherboard else {
            manager.registerFlow(IDGenericBoardFlow<Output>(matchedBoardIDs: [matchedIdentifier], nextHandler: handler))
            return
        }
        let id = matchedIdentifier
        let label = String(describing: Output.self)
        mb.registerFlow(
            FlowRoute(source: id, trigger: .output(matches: { BoardValue.cast($0, to: Output.self) != nil }), action: "handler", label: label) {
                _, value in
                if let output = BoardValue.cast(value, to: Output.self) { handler(output) }
            })
        if BoardValue.cast(CompleteAction(identifier: id, isDone: true), to: Output.self) != nil {
            mb.registerFlow(
                FlowRoute(source: id, trigger: .completion(isDone: nil), action: "handler", label: label) { _, value in
                    guard let done = value as? Bool, let output = CompleteAction(identifier: id, isDone: done) as Any as? Output else { return }
                    handler(output)
                })
        }
        if Output.self == Any.self || Output.self == Any?.self || Output.self is any BoardFlowAction.Type {
            mb.registerFlow(
                FlowRoute(source: id, trigger: .flowAction(matches: { $0 is Output }), action: "handler", label: label) { _, value in
                    if let output = value as? Output { handler(output) }
                })
        }
    }
}

/// Reacts to one board's completion (Boardy's `CompletionFlowHandler`).
public struct CompletionFlowHandler {
    /// The board.
    public let matchedIdentifier: BoardID
    weak var manager: (any FlowManageable)?

    /// Runs `handler` with `isDone` when the board completes.
    public func handle(_ handler: @escaping (_ isDone: Bool) -> Void) {
        guard let manager else { return }
        if let mb = manager as? Motherboard {
            mb.registerFlow(
                FlowRoute(source: matchedIdentifier, trigger: .completion(isDone: nil), action: "completion") { _, value in
                    if let done = value as? Bool { handler(done) }
                })
        } else {
            manager.registerFlow(
                BoardActivateFlow(matchedIdentifiers: [matchedIdentifier]) { data in
                    if let done = data as? CompleteAction { handler(done.isDone) }
                })
        }
    }

    /// Runs `action` with `target` (held weakly) and `isDone` when the board completes.
    public func addTarget<Target>(_ target: Target, action: @escaping (Target, Bool) -> Void) {
        let box = TargetBox(target)
        handle { done in if let target = box.target { action(target, done) } }
    }
}

/// Reacts to one board's flow actions of one type (Boardy's `ActionFlowHandler`).
public struct ActionFlowHandler<Action: BoardFlowAction> {
    /// The board.
    public let matchedIdentifier: BoardID
    weak var manager: (any FlowManageable)?

    /// Runs `handler` with each `Action` the board sends.
    public func handle(_ handler: @escaping (Action) -> Void) {
        guard let manager else { return }
        if let mb = manager as? Motherboard {
            mb.registerFlow(
                FlowRoute(
                    source: matchedIdentifier, trigger: .flowAction(matches: { $0 is Action }), action: "handler", label: String(describing: Action.self)
                ) { _, value in
                    if let action = value as? Action { handler(action) }
                })
        } else {
            manager.registerFlow(IDGenericBoardFlow<Action>(matchedBoardIDs: [matchedIdentifier], nextHandler: handler))
        }
    }

    /// Runs `action` with `target` (held weakly) and each `Action`.
    public func addTarget<Target>(_ target: Target, action: @escaping (Target, Action) -> Void) {
        let box = TargetBox(target)
        handle { a in if let target = box.target { action(target, a) } }
    }
}

extension FlowManageable {
    /// Reacts to `identifier`'s outputs of type `Output`.
    public func matchedFlow<Output>(_ identifier: BoardID, with _: Output.Type) -> FlowHandler<Output> {
        FlowHandler(matchedIdentifier: identifier, manager: self)
    }

    /// Reacts to `identifier`'s outputs.
    public func matchedFlow(_ identifier: BoardID) -> FlowHandler<Any?> {
        FlowHandler(matchedIdentifier: identifier, manager: self)
    }

    /// Reacts to `identifier`'s completion.
    public func completionFlow(_ identifier: BoardID) -> CompletionFlowHandler {
        CompletionFlowHandler(matchedIdentifier: identifier, manager: self)
    }

    /// Reacts to `identifier`'s flow actions of type `Action`.
    public func actionFlow<Action: BoardFlowAction>(_ identifier: BoardID, with _: Action.Type) -> ActionFlowHandler<Action> {
        ActionFlowHandler(matchedIdentifier: identifier, manager: self)
    }
}

/// A handler's target as Boardy holds it: weakly when it is an object (so a flow does not keep
/// its target alive), as a value otherwise.
final class TargetBox<Target> {
    private weak var object: AnyObject?
    private let value: Target?

    init(_ target: Target) {
        if type(of: target as Any) is AnyClass {
            object = target as AnyObject
            value = nil
        } else {
            value = target
        }
    }

    var target: Target? { value ?? (object as? Target) }
}
