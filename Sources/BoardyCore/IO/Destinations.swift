// Boardy's destinations: what an app's generated `ioX()` helpers return. A destination holds its
// motherboard (or source board) weakly, so a board may store one without a reference cycle.

/// One board of a motherboard (Boardy's `MainboardDestination`).
public class MainboardDestination {
    /// The board.
    public final let destinationID: BoardID
    /// The motherboard, held weakly.
    public private(set) weak var mainboard: (any FlowMotherboard)?

    /// The board `destinationID` of `mainboard` (held weakly).
    public init(destinationID: BoardID, mainboard: any FlowMotherboard) {
        self.destinationID = destinationID
        self.mainboard = mainboard
    }

    /// Activates the board with typed inputs.
    public func activation<Input>(with inputType: Input.Type = Input.self) -> MainboardActivation<Input> {
        MainboardActivation(destinationID: destinationID, mainboard: mainboard)
    }

    /// Sends the board typed commands.
    public func interaction<Command>(with commandType: Command.Type = Command.self) -> MainboardInteraction<Command> {
        MainboardInteraction(destinationID: destinationID, mainboard: mainboard)
    }

    /// Reacts to the board's typed outputs.
    public func flow<Output>(with outputType: Output.Type = Output.self) -> FlowHandler<Output> {
        FlowHandler(matchedIdentifier: destinationID, manager: mainboard)
    }

    /// Reacts to the board's flow actions of one type.
    public func actionFlow<Action: BoardFlowAction>(with actionType: Action.Type = Action.self) -> ActionFlowHandler<Action> {
        ActionFlowHandler(matchedIdentifier: destinationID, manager: mainboard)
    }

    /// Completes the board from outside.
    public var completer: MainboardCompleter { MainboardCompleter(destinationID: destinationID, mainboard: mainboard) }

    /// Reacts to the board's completion.
    public var completion: CompletionFlowHandler { CompletionFlowHandler(matchedIdentifier: destinationID, manager: mainboard) }
}

/// One board of a motherboard with its types (Boardy's `MainboardGenericDestination`, what an
/// `ioX()` helper returns).
public final class MainboardGenericDestination<Input, Output, Command, Action: BoardFlowAction>: MainboardDestination {
    /// The board `destinationID` of `mainboard` (held weakly), with its types.
    public init(
        destinationID: BoardID, mainboard: any FlowMotherboard, inputType _: Input.Type = Input.self, outputType _: Output.Type = Output.self,
        commandType _: Command.Type = Command.self, actionType _: Action.Type = Action.self
    ) {
        super.init(destinationID: destinationID, mainboard: mainboard)
    }

    /// Activates the board.
    public var activation: MainboardActivation<Input> { activation(with: Input.self) }
    /// Sends the board commands.
    public var interaction: MainboardInteraction<Command> { interaction(with: Command.self) }
    /// Reacts to the board's outputs.
    public var flow: FlowHandler<Output> { flow(with: Output.self) }
    /// Reacts to the board's flow actions.
    public var actionFlow: ActionFlowHandler<Action> { actionFlow(with: Action.self) }
}

extension MotherboardType where Self: FlowManageable {
    /// The board `identifier` of this motherboard.
    public func ioDestination(_ identifier: BoardID) -> MainboardDestination {
        MainboardDestination(destinationID: identifier, mainboard: self)
    }
}

/// Another board, reached through a board's motherboard (Boardy's `BoardDestination`).
public class BoardDestination {
    /// The board.
    public final let destinationID: BoardID
    weak var source: (any ActivatableBoard)?

    /// The board `destinationID`, reached through `source`'s motherboard (`source` held weakly).
    public init(destinationID: BoardID, source: any ActivatableBoard) {
        self.destinationID = destinationID
        self.source = source
    }

    /// Activates the board with typed inputs.
    public func activation<Input>(with inputType: Input.Type = Input.self) -> BoardActivation<Input> {
        BoardActivation(destinationID: destinationID, source: source)
    }

    /// Sends the board typed commands.
    public func interaction<Command>(with commandType: Command.Type = Command.self) -> BoardInteraction<Command> {
        BoardInteraction(destinationID: destinationID, source: source)
    }

    /// Completes the board.
    public var completer: BoardCompleter { BoardCompleter(destinationID: destinationID, source: source) }
}

/// Another board with its types (Boardy's `BoardGenericDestination`).
public final class BoardGenericDestination<Input, Command>: BoardDestination {
    /// The board `destinationID`, reached through `source`'s motherboard, with its types.
    public init(
        destinationID: BoardID, source: any ActivatableBoard, inputType _: Input.Type = Input.self, commandType _: Command.Type = Command.self
    ) {
        super.init(destinationID: destinationID, source: source)
    }

    /// Activates the board.
    public var activation: BoardActivation<Input> { activation(with: Input.self) }
    /// Sends the board commands.
    public var interaction: BoardInteraction<Command> { interaction(with: Command.self) }
}

extension ActivatableBoard {
    /// The board `identifier`, reached through this board's motherboard.
    public func ioDestination(_ identifier: BoardID) -> BoardDestination {
        BoardDestination(destinationID: identifier, source: self)
    }
}
