/// Receives what a board sends (Boardy's `BoardDelegate`): a ``Motherboard`` is the delegate of
/// the boards installed in it.
public protocol BoardDelegate: AnyObject {
    /// `board` sent `data`: an output, or one of Boardy's models (``BoardInputModel`` asks for an
    /// activation, ``BoardCommandModel`` for a command, ``BoardFlowAction`` is a flow action,
    /// ``CompleteAction`` a completion).
    func board(_ board: any IdentifiableBoard, didSendData data: Any?)
}

/// A board's root context (Boardy's `OriginalBoard`): a window or view controller in an app, any
/// object headless.
public protocol OriginalBoard {
    /// The context, held weakly.
    var context: AnyObject? { get }
    /// Puts the board into `context`.
    func putIntoContext(_ context: AnyObject)
}

/// A board with an id and a delegate it sends through (Boardy's `IdentifiableBoard`).
public protocol IdentifiableBoard: AnyObject, CustomDebugStringConvertible {
    /// Where the board sends what it emits (its motherboard once installed).
    var delegate: (any BoardDelegate)? { get set }
    /// The board's id.
    var identifier: BoardID { get }
}

/// Something that completes (Boardy's `Completable`): a board, a gateway proxy, a completer.
public protocol Completable {
    /// Completes, with success or not.
    func complete(_ isDone: Bool)
}

/// A request to activate a board (Boardy's `BoardInputModel`).
public protocol BoardInputModel {
    /// The board to activate.
    var identifier: BoardID { get }
    /// Its input.
    var option: Any? { get }
}

/// A typed request to activate a board (Boardy's `BoardInput`).
public struct BoardInput<Input>: BoardInputModel {
    /// The board to activate.
    public let identifier: BoardID
    /// Its input.
    public let input: Input
    /// The input, untyped.
    public var option: Any? { input }

    /// A request to activate `target` with `input`.
    public init(target: BoardID, input: Input) {
        identifier = target
        self.input = input
    }

    /// A request to activate `id` with `input`.
    public static func target<InputValue>(_ id: BoardID, _ input: InputValue) -> BoardInput<InputValue> {
        BoardInput<InputValue>(target: id, input: input)
    }
}

extension BoardInput where Input == Void {
    /// A request to activate `target`, which takes no input.
    public init(target: BoardID) { self.init(target: target, input: ()) }
    /// A request to activate `id`, which takes no input.
    public static func target(_ id: BoardID) -> BoardInput<Void> { BoardInput<Void>(target: id, input: ()) }
}

extension BoardInput where Input: ExpressibleByNilLiteral {
    /// A request to activate `target` with nil.
    public init(target: BoardID) { self.init(target: target, input: nil) }
    /// A request to activate `id` with nil.
    public static func target(_ id: BoardID) -> BoardInput<Input> { BoardInput<Input>(target: id, input: nil) }
}

extension BoardID {
    /// A request to activate this board with `input`.
    public func with<Input>(input: Input) -> BoardInput<Input> { BoardInput(target: self, input: input) }
    /// A request to activate this board, which takes no input.
    public var withoutInput: BoardInput<Void> { BoardInput(target: self, input: ()) }
}

/// What a board sent, as a flow sees it (Boardy's `BoardOutputModel`).
public protocol BoardOutputModel {
    /// The sender.
    var identifier: BoardID { get }
    /// What it sent.
    var data: Any? { get }
}

/// A board's message as flows match it: the sender and the data.
public struct BoardOutput: BoardOutputModel {
    /// The sender.
    public let identifier: BoardID
    /// What it sent.
    public let data: Any?

    /// The message `data` from `identifier`.
    public init(identifier: BoardID, data: Any?) {
        self.identifier = identifier
        self.data = data
    }
}

/// A command for another board (Boardy's `BoardCommandModel`).
public protocol BoardCommandModel {
    /// The board the command is for.
    var identifier: BoardID { get }
    /// The command.
    var data: Any? { get }
}

/// A typed command for another board (Boardy's `BoardCommand`).
public struct BoardCommand<Input>: BoardCommandModel {
    /// The board the command is for.
    public let identifier: BoardID
    /// The command.
    public let input: Input
    /// The command, untyped.
    public var data: Any? { input }

    /// A command `input` for `identifier`.
    public init(identifier: BoardID, input: Input) {
        self.identifier = identifier
        self.input = input
    }

    /// A command `input` for `id`.
    public static func target<Value>(_ id: BoardID, _ input: Value) -> BoardCommand<Value> { BoardCommand<Value>(identifier: id, input: input) }
}

extension BoardCommand {
    /// The same command for another board.
    public func withIdentifier(_ identifier: BoardID) -> BoardCommand { BoardCommand(identifier: identifier, input: input) }
}

extension BoardCommand where Input == Void {
    /// A command for `identifier`, which takes no data.
    public init(identifier: BoardID) { self.init(identifier: identifier, input: ()) }
    /// A command for `id`, which takes no data.
    public static func target(_ id: BoardID) -> BoardCommand<Input> { BoardCommand<Input>(identifier: id) }
}

extension BoardCommand where Input: ExpressibleByNilLiteral {
    /// A command for `identifier` with nil.
    public init(identifier: BoardID) { self.init(identifier: identifier, input: nil) }
    /// A command for `id` with nil.
    public static func target(_ id: BoardID) -> BoardCommand<Input> { BoardCommand<Input>(identifier: id) }
}

/// A flow action (Boardy's `BoardFlowAction`): a message that goes up to the parent
/// motherboard first and is matched by type (`actionFlow`, `registerGeneralFlow`).
public protocol BoardFlowAction {}

/// No flow action (Boardy's `BoardFlowNoneAction`), for boards that send none.
public enum BoardFlowNoneAction: BoardFlowAction {}

/// A board's completion as its delegate receives it. Boardy keeps this type internal; it is
/// public here so a delegate other than a motherboard can tell a completion from an output. As in
/// Boardy it is not a ``BoardOutputModel``: a flow over outputs never receives a completion.
public struct CompleteAction {
    /// The board that completed.
    public let identifier: BoardID
    /// Whether the board completed successfully.
    public let isDone: Bool
    /// The completion, as data.
    public var data: Any? { isDone }
    /// The completion of `identifier` with `isDone`.
    public init(identifier: BoardID, isDone: Bool) {
        self.identifier = identifier
        self.isDone = isDone
    }
}

extension IdentifiableBoard {
    /// Sends a flow action to the delegate (Boardy's `sendFlowAction(_:)` on any board).
    public func sendFlowAction(_ action: any BoardFlowAction) {
        delegate?.board(self, didSendData: action)
    }

    /// Completes the board through its delegate (Boardy's `complete(_:)` on any board).
    public func complete(_ isDone: Bool = true) {
        delegate?.board(self, didSendData: CompleteAction(identifier: identifier, isDone: isDone))
    }

    /// The board's type, id and motherboard on one line (Boardy's default for a board that is not
    /// a ``Board``).
    public var debugDescription: String {
        var desc = "    🏝 [\(String(describing: type(of: self)))] ➤ \(identifier.rawValue)"
        if let motherboard = delegate as? any IdentifiableBoard {
            desc += "    🌏 [\(String(describing: type(of: motherboard)))] ➤ \(motherboard.identifier.rawValue)"
        }
        return desc
    }

    /// Sends `data` to the delegate (Boardy's `sendToMotherboard(data:)`).
    public func sendToMotherboard(data: Any? = nil) {
        guard let delegate else {
            // Nothing receives it; Boardy's console says so.
            BoardyConsole.warn(
                "⚠️ [\(String(describing: type(of: self)))] [sendToMotherboard(data:)] [\(identifier.rawValue)] sent a message with data \(String(describing: data)) to its Motherboard but it seems to have no Motherboards."
            )
            return
        }
        delegate.board(self, didSendData: data)
    }

    /// Asks the delegate to activate the board `model` names.
    public func nextToBoard(model: any BoardInputModel) {
        delegate?.board(self, didSendData: model)
    }

    /// Asks the delegate to activate the board `input` names.
    public func nextToBoard<Input>(_ input: BoardInput<Input>) {
        delegate?.board(self, didSendData: input)
    }

    /// Sends a command to another board through the delegate.
    public func interactWithOtherBoard(command: any BoardCommandModel) {
        delegate?.board(self, didSendData: command)
    }

    /// Sends a typed command to another board through the delegate.
    public func interactWithOtherBoard<Input>(_ input: BoardCommand<Input>) {
        delegate?.board(self, didSendData: input)
    }

    /// A completer of the board `id`, a sibling in this board's motherboard.
    public func completer(_ id: BoardID) -> BoardCompleter {
        BoardCompleter(destinationID: id, source: self)
    }
}

/// Completes a sibling board through a board's motherboard (Boardy's `BoardCompleter`).
public struct BoardCompleter: Completable {
    /// The board to complete.
    public let destinationID: BoardID
    weak var source: (any IdentifiableBoard)?

    /// Completes the board, if it is installed.
    public func complete(_ isDone: Bool = true) {
        guard let mb = (source as? Board)?.host ?? (source as? Motherboard) else { return }
        mb.completeBoard(destinationID, isDone: isDone)
    }
}

/// Boardy's name of the message a board sends (``BoardOutput``).
public typealias OutputModel = BoardOutput
