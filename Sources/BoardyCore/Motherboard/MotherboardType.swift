/// A motherboard as Boardy's API sees it (Boardy's `MotherboardType`): it holds boards,
/// activates them by id, and is itself a board (it can be nested).
public protocol MotherboardType: IdentifiableBoard, OriginalBoard {
    /// The installed boards, in installation order.
    var boards: [any ActivatableBoard] { get }
    /// Activates the board `identifier` with `option` (producing it if needed).
    func activateBoard(identifier: BoardID, withOption option: Any?)
    /// Installs `board`.
    func addBoard(_ board: any ActivatableBoard)
    /// Uninstalls the board `identifier`, without a completion.
    func removeBoard(withIdentifier identifier: BoardID)
    /// The installed board `identifier`, if any; never produces one.
    func getBoard(identifier: BoardID) -> (any ActivatableBoard)?
    /// The installed board `identifier`, or a newly produced and installed one.
    func getOrProduceBoard(identifier: BoardID) -> (any ActivatableBoard)?
    /// The gateway board the producer registers for `identifier`, if any.
    func getGatewayBoard(identifier: BoardID) -> (any ActivatableBoard)?
    /// Uninstalls every board.
    func clearActiveBoards()
}

/// What holds flows (Boardy's `FlowManageable`).
public protocol FlowManageable: AnyObject {
    /// The registered flows, in registration order.
    var flows: [any BoardFlow] { get }
    /// Registers `flow`; it sees messages processed from now on.
    @discardableResult
    func registerFlow(_ flow: any BoardFlow) -> Self
    /// Removes every registered flow.
    func resetFlows()
    /// Removes the flows whose identifier is `identifier`.
    func removeFlow(by identifier: String)
}

/// A motherboard with flows (Boardy's `FlowMotherboard`).
public typealias FlowMotherboard = FlowManageable & MotherboardType

extension MotherboardType {
    /// Activates the board `model` names with its option.
    public func activateBoard(model: any BoardInputModel) {
        activateBoard(identifier: model.identifier, withOption: model.option)
    }

    /// Activates the board `input` names with its input.
    public func activateBoard<Input>(_ input: BoardInput<Input>) {
        activateBoard(identifier: input.identifier, withOption: input.input)
    }

    /// Installs `board` (Boardy's `installBoard(_:)`): ``Motherboard/installBoard(_:)`` on our
    /// motherboard (whatever the static type, so the call does the same either way), `addBoard`
    /// on a motherboard of your own.
    public func installBoard(_ board: any ActivatableBoard) {
        if let engine = self as? Motherboard { engine.installBoard(board) } else { addBoard(board) }
    }

    /// Uninstalls `board`.
    public func removeBoard(_ board: any ActivatableBoard) { removeBoard(withIdentifier: board.identifier) }

    /// The installed board `identifier`, if any.
    public func installedBoard(identifier: BoardID) -> (any ActivatableBoard)? { getBoard(identifier: identifier) }

    /// This motherboard with `boards` installed.
    public func extended(boards: [any ActivatableBoard]) -> Self {
        for b in boards { addBoard(b) }
        return self
    }

    /// Activates every installed board: those `options` names with their option, the others with
    /// `defaultOption`.
    public func activateAllBoards(withOptions options: [BoardID: Any] = [:], defaultOption: Any? = nil) {
        for board in activatableBoards { activateBoard(identifier: board.identifier, withOption: options[board.identifier] ?? defaultOption) }
    }

    /// The installed boards an "activate all" reaches: barrier boards are driven by the
    /// motherboard, not activated (Boardy's ignore whatever such a call hands them).
    private var activatableBoards: [any ActivatableBoard] { boards.filter { !($0 is ActivatableBarrierBoard) } }

    /// Activates every installed board: those `models` name with their option, the others with
    /// `defaultOption`.
    public func activateAllBoards(models: [any BoardInputModel], defaultOption: Any? = nil) {
        var options: [BoardID: Any?] = [:]
        for m in models { options[m.identifier] = m.option }
        for board in activatableBoards { activateBoard(identifier: board.identifier, withOption: options[board.identifier] ?? defaultOption) }
    }

    /// Activates every installed board: those `inputs` name with their input, the others with
    /// `defaultInput`.
    public func activateAllBoards<Input>(withInputs inputs: [BoardInput<Input>] = [], defaultInput: Input) {
        var given: [BoardID: Input] = [:]
        for i in inputs { given[i.identifier] = i.input }
        for board in activatableBoards { activateBoard(identifier: board.identifier, withOption: given[board.identifier] ?? defaultInput) }
    }

    /// Activates every installed board: those `inputs` name with their input, the others with nil.
    public func activateAllBoards<Input>(withInputs inputs: [BoardInput<Input>]) {
        var given: [BoardID: Input] = [:]
        for i in inputs { given[i.identifier] = i.input }
        for board in activatableBoards { activateBoard(identifier: board.identifier, withOption: given[board.identifier].map { $0 as Any }) }
    }

    /// Sends a command to the installed board `command` names.
    public func interactWithBoard(command: any BoardCommandModel) {
        (self as? Motherboard)?.sendCommand(command.data, to: command.identifier)
    }

    /// Sends a typed command to the installed board `input` names.
    public func interactWithBoard<Input>(_ input: BoardCommand<Input>) {
        (self as? Motherboard)?.sendCommand(input.input, to: input.identifier)
    }

    /// Removes the board `identifier` from the installed boards (Boardy's alias of
    /// `removeBoard(withIdentifier:)`).
    public func deactivateBoard(identifier: BoardID) {
        removeBoard(withIdentifier: identifier)
    }

    /// Registers flow steps, `A ->> B ->> C` (see ``Motherboard/registerFlowSteps(_:)-(FlowSteps)``).
    @discardableResult
    public func registerFlowSteps(_ steps: FlowSteps) -> Self {
        (self as? Motherboard)?.registerFlowSteps(steps)
        return self
    }

    /// A completer of the installed board `destinationID`.
    public func completer(_ destinationID: BoardID) -> MainboardCompleter {
        MainboardCompleter(destinationID: destinationID, mainboard: self)
    }
}

/// Completes a board of a motherboard from outside (Boardy's `MainboardCompleter`).
public struct MainboardCompleter: Completable {
    /// The board to complete.
    public let destinationID: BoardID
    weak var mainboard: (any MotherboardType)?

    /// Completes the board, if it is installed (a completed board cannot complete again).
    public func complete(_ isDone: Bool = true) {
        guard let mb = mainboard as? Motherboard else { return }
        mb.completeBoard(destinationID, isDone: isDone)
    }
}

extension FlowManageable {
    /// Registers `flows`, in order.
    @discardableResult
    public func registerFlows(_ flows: [any BoardFlow]) -> Self {
        for f in flows { registerFlow(f) }
        return self
    }

    /// Runs `nextHandler` with every `Output` any board sends (outputs and flow actions alike).
    @discardableResult
    public func registerGeneralFlow<Output>(uniqueOutputType _: Output.Type = Output.self, nextHandler: @escaping (Output) -> Void) -> Self {
        registerFlow(GenericBoardFlow<Output>(matcher: { $0.data is Output }, nextHandler: nextHandler))
    }

    /// Runs `nextHandler` with `target` (held weakly) and every `Output` any board sends.
    @discardableResult
    public func registerGeneralFlow<Target: AnyObject, Output>(
        target: Target, uniqueOutputType _: Output.Type = Output.self, nextHandler: @escaping (Target, Output) -> Void
    ) -> Self {
        registerFlow(GenericBoardFlow<Output>(matcher: { $0.data is Output }) { [weak target] v in if let target { nextHandler(target, v) } })
    }

    /// Runs `nextHandler` with every `Output` the boards `matchedIdentifiers` send; data of
    /// another type is skipped (Boardy's dedicated flow: it never traps).
    @discardableResult
    public func registerFlow<Output>(
        matchedIdentifiers: [FlowStepID], uniqueOutputType _: Output.Type = Output.self, nextHandler: @escaping (Output) -> Void
    ) -> Self {
        registerFlow(
            BoardActivateFlow(
                matchedIdentifiers: matchedIdentifiers,
                outputNextHandler: { message in
                    if let output = flowOutput(message.data, as: Output.self) { nextHandler(output) }
                }))
    }

    /// Runs `nextHandler` with `target` (held weakly when it is an object) and every `Output` the
    /// boards send; data of another type is skipped (Boardy's dedicated flow: it never traps).
    @discardableResult
    public func registerFlow<Target, Output>(
        matchedIdentifiers: [FlowStepID], target: Target, uniqueOutputType _: Output.Type = Output.self,
        nextHandler: @escaping (Target, Output) -> Void
    ) -> Self {
        let box = TargetBox(target)
        return registerFlow(
            BoardActivateFlow(
                matchedIdentifiers: matchedIdentifiers,
                outputNextHandler: { message in
                    if let output = flowOutput(message.data, as: Output.self), let target = box.target { nextHandler(target, output) }
                }))
    }

    /// Runs `nextHandler` with `target` (held weakly when it is an object) and every `Output` the boards send.
    @discardableResult
    public func registerFlow<Target, Output>(
        matchedIdentifiers: FlowStepID..., target: Target, uniqueOutputType: Output.Type = Output.self,
        nextHandler: @escaping (Target, Output) -> Void
    ) -> Self {
        registerFlow(matchedIdentifiers: matchedIdentifiers, target: target, uniqueOutputType: uniqueOutputType, nextHandler: nextHandler)
    }

    /// Runs `handler` with `target` (held weakly when it is an object) and every `Output` the boards send.
    @discardableResult
    public func registerGuaranteedFlow<Target, Output>(
        matchedIdentifiers: [FlowStepID], target: Target, uniqueOutputType: Output.Type = Output.self,
        handler: @escaping (Target, Output) -> Void
    ) -> Self {
        // Boardy's guaranteed flow: data of another type (not one of Boardy's silent models) traps.
        let box = TargetBox(target)
        return registerFlow(
            BoardActivateFlow(
                matchedIdentifiers: matchedIdentifiers,
                guaranteedNextHandler: { (output: Output) in
                    if let target = box.target { handler(target, output) }
                }))
    }

    /// Runs `handler` with `target` (held weakly when it is an object) and every `Output` the boards send.
    @discardableResult
    public func registerGuaranteedFlow<Target, Output>(
        matchedIdentifiers: FlowStepID..., target: Target, uniqueOutputType: Output.Type = Output.self,
        handler: @escaping (Target, Output) -> Void
    ) -> Self {
        registerGuaranteedFlow(matchedIdentifiers: matchedIdentifiers, target: target, uniqueOutputType: uniqueOutputType, handler: handler)
    }

    /// Transports every `Output` the boards send on `bus`.
    @discardableResult
    public func registerFlow<Output>(matchedIdentifiers: FlowStepID..., bindToBus bus: Bus<Output>) -> Self {
        registerFlow(matchedIdentifiers: matchedIdentifiers, target: bus, uniqueOutputType: Output.self) { bus, output in bus.transport(input: output) }
    }

    /// Sends every `Output` the boards send as `board`'s own output.
    @discardableResult
    public func registerFlow<Output, OutBoard: GuaranteedOutputSendingBoard>(
        matchedIdentifiers: FlowStepID..., uniqueOutputType _: Output.Type = Output.self, sendOutputThrough board: OutBoard
    ) -> Self where OutBoard.OutputType == Output {
        registerFlow(matchedIdentifiers: matchedIdentifiers, target: board, uniqueOutputType: Output.self) { board, output in board.sendOutput(output) }
    }

    /// Transports every `Output` the boards send on `bus` (Boardy's guaranteed spelling).
    @discardableResult
    public func registerGuaranteedFlow<Output>(matchedIdentifiers: FlowStepID..., bindToBus bus: Bus<Output>) -> Self {
        registerFlow(matchedIdentifiers: matchedIdentifiers, target: bus, uniqueOutputType: Output.self) { bus, output in bus.transport(input: output) }
    }

    /// Sends every `Output` the boards send as `board`'s own output (Boardy's guaranteed spelling).
    @discardableResult
    public func registerGuaranteedFlow<Output, OutBoard: GuaranteedOutputSendingBoard>(
        matchedIdentifiers: FlowStepID..., uniqueOutputType _: Output.Type = Output.self, sendOutputThrough board: OutBoard
    ) -> Self where OutBoard.OutputType == Output {
        registerFlow(matchedIdentifiers: matchedIdentifiers, target: board, uniqueOutputType: Output.self) { board, output in board.sendOutput(output) }
    }

    /// Runs `nextHandler` with `isDone` when one of the boards completes.
    @discardableResult
    public func registerCompletionFlow(matchedIdentifiers: [FlowStepID], nextHandler: @escaping (_ isDone: Bool) -> Void) -> Self {
        registerFlow(
            BoardActivateFlow(matchedIdentifiers: matchedIdentifiers) { data in
                if let done = data as? CompleteAction { nextHandler(done.isDone) }
            })
    }

    /// Runs `nextHandler` with `isDone` when one of the boards completes.
    @discardableResult
    public func registerCompletionFlow(matchedIdentifiers: FlowStepID..., nextHandler: @escaping (_ isDone: Bool) -> Void) -> Self {
        registerCompletionFlow(matchedIdentifiers: matchedIdentifiers, nextHandler: nextHandler)
    }
}

extension MotherboardType {
    /// The installed board `identifier`, or nil: a motherboard of your own produces nothing
    /// unless it says how.
    public func getOrProduceBoard(identifier: BoardID) -> (any ActivatableBoard)? { getBoard(identifier: identifier) }
}

extension BoardDelegate where Self: FlowManageable {
    /// Runs every registered flow that matches what `board` sent, in registration order (the
    /// delegate of a flow holder of your own; ``Motherboard`` routes through its engine).
    public func board(_ board: any IdentifiableBoard, didSendData data: Any?) {
        let message = BoardOutput(identifier: board.identifier, data: data)
        for flow in flows where flow.match(with: message) { flow.doNext(with: message) }
    }
}
