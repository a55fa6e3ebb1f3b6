import Foundation

/// A flow as Boardy declares it (Boardy's `BoardFlow`): it looks at every message a motherboard
/// routes (the sender and the data) and reacts to those it matches. Register one with
/// `Motherboard.registerFlow(_:)` (for `any BoardFlow`); the engine runs every matching flow in
/// registration order, with the routes registered through ``FlowRoute``, and traces each
/// reaction as `flow.routed` (action `handler`).
public protocol BoardFlow {
    /// The flow's identifier (for ``FlowManageable/removeFlow(by:)``).
    var identifier: String { get }
    /// Whether the flow reacts to `output`.
    func match(with output: any BoardOutputModel) -> Bool
    /// The reaction.
    func doNext(with output: any BoardOutputModel)
    /// Boardy's message when the flow, matching `output`, cannot take its data (a typed flow
    /// handed another type, or nil); nil when it can. Boardy traps on it (an assertion): the
    /// engine asks first and reports the misuse (``MisusePolicy``) instead of running the flow.
    func dataMismatch(_ output: any BoardOutputModel) -> String?
}

extension BoardFlow {
    /// Untyped flows take any data.
    public func dataMismatch(_ output: any BoardOutputModel) -> String? { nil }
}

/// `data` as a flow's `Output`: nil counts for a `Void` or optional type, and for `Any`.
func flowOutput<Output>(_ data: Any?, as _: Output.Type) -> Output? {
    if let v = BoardValue.cast(data, to: Output.self) { return v }
    if data == nil, let v = data as? Output { return v }
    return nil
}

/// Boardy's message for a typed flow handed data it cannot convert (nil for Boardy's silent
/// data types, which typed flows pass over).
func flowMismatchMessage<Output>(_ output: any BoardOutputModel, _: Output.Type) -> String? {
    if flowOutput(output.data, as: Output.self) != nil { return nil }
    if isSilentData(output.data) { return nil }
    return "🔥 [Flow with mismatch data type] [\(output.identifier)]  Cannot convert output of board \(output.identifier) from type \(String(describing: output.data)) to type \(Output.self)"
}

/// Reports a typed flow's mismatch where no engine runs it (a flow called directly): Boardy's
/// trap.
func reportFlowMismatch(_ message: String, _ output: any BoardOutputModel) {
    BoardyMisuse(.flowTypeMismatch, board: output.identifier, message: message).report(runtime: nil, mb: nil)
}

/// A flow that matches its senders by id (Boardy's `IDMatchBoardFlow`).
public protocol IDMatchBoardFlow: BoardFlow {
    /// The senders it matches.
    var matchedBoardIDs: [BoardID] { get }
}

extension IDMatchBoardFlow {
    /// Matches the senders in ``matchedBoardIDs``.
    public func match(with output: any BoardOutputModel) -> Bool { matchedBoardIDs.contains(output.identifier) }
}

/// A flow that reacts to data of one type (Boardy's `DataMatchBoardFlow`).
public protocol DataMatchBoardFlow: BoardFlow {
    /// The data type.
    associatedtype Output
    /// The reaction to well-typed data.
    func doNext(withData data: Output)
}

extension DataMatchBoardFlow {
    /// Reacts when the data has the flow's type (nil counts for a `Void` or optional type, and
    /// for `Any`, which holds it, as Boardy's `data as? Output` does).
    public func doNext(with output: any BoardOutputModel) {
        if let data = BoardValue.cast(output.data, to: Output.self) {
            doNext(withData: data)
        } else if output.data == nil, let data = output.data as? Output {
            doNext(withData: data)
        } else if let message = flowMismatchMessage(output, Output.self) {
            // Boardy traps here (an assertion: a debug build); silent data passes quietly.
            reportFlowMismatch(message, output)
        }
    }

    /// Boardy's message when `output`'s data is not an `Output` (nor one of its silent types).
    public func dataMismatch(_ output: any BoardOutputModel) -> String? { flowMismatchMessage(output, Output.self) }
}

/// A flow that matches senders by id and data by type (Boardy's `GuaranteedBoardFlow`).
public protocol GuaranteedBoardFlow: DataMatchBoardFlow, IDMatchBoardFlow {}

/// A flow on the data of some senders, of one type (Boardy's `IDGenericBoardFlow`).
public struct IDGenericBoardFlow<Out>: GuaranteedBoardFlow {
    /// The data type.
    public typealias Output = Out
    /// The flow's identifier.
    public let identifier: String
    /// The senders it matches.
    public let matchedBoardIDs: [BoardID]
    private let nextHandler: (Out) -> Void

    /// A flow running `nextHandler` with each `Out` the boards `matchedBoardIDs` send.
    public init(identifier: String = UUID().uuidString, matchedBoardIDs: [BoardID], nextHandler: @escaping (Out) -> Void) {
        self.identifier = identifier
        self.matchedBoardIDs = matchedBoardIDs
        self.nextHandler = nextHandler
    }

    /// A flow running `nextHandler` with each `Out` the boards `matchedBoardIDs` send.
    public init(identifier: String = UUID().uuidString, matchedBoardIDs: BoardID..., nextHandler: @escaping (Out) -> Void) {
        self.init(identifier: identifier, matchedBoardIDs: matchedBoardIDs, nextHandler: nextHandler)
    }

    /// A flow running `nextHandler` with `target` (held weakly when it is an object) and each `Out`.
    public init<HandlerTarget>(
        identifier: String = UUID().uuidString, matchedBoardIDs: [BoardID], target: HandlerTarget, nextHandler: @escaping (HandlerTarget, Out) -> Void
    ) {
        let box = TargetBox(target)
        self.init(identifier: identifier, matchedBoardIDs: matchedBoardIDs) { value in
            if let target = box.target { nextHandler(target, value) }
        }
    }

    /// A flow running `nextHandler` with `target` (held weakly when it is an object) and each `Out`.
    public init<HandlerTarget>(
        identifier: String = UUID().uuidString, matchedBoardIDs: BoardID..., target: HandlerTarget, nextHandler: @escaping (HandlerTarget, Out) -> Void
    ) {
        self.init(identifier: identifier, matchedBoardIDs: matchedBoardIDs, target: target, nextHandler: nextHandler)
    }

    /// A flow on the outputs of the board `matchedBoardID`, of type `BoardType`'s output.
    public init<BoardType: GuaranteedOutputSendingBoard, HandlerTarget>(
        identifier: String = UUID().uuidString, matchedBoardID: BoardID, of _: BoardType.Type, target: HandlerTarget,
        nextHandler: @escaping (HandlerTarget, BoardType.OutputType) -> Void
    ) where BoardType.OutputType == Out {
        self.init(identifier: identifier, matchedBoardIDs: [matchedBoardID], target: target, nextHandler: nextHandler)
    }

    /// A flow on the outputs of the board `matchedBoardID`, of type `BoardType`'s output.
    public init<BoardType: GuaranteedOutputSendingBoard>(
        identifier: String = UUID().uuidString, matchedBoardID: BoardID, of _: BoardType.Type, nextHandler: @escaping (BoardType.OutputType) -> Void
    ) where BoardType.OutputType == Out {
        self.init(identifier: identifier, matchedBoardIDs: [matchedBoardID], nextHandler: nextHandler)
    }

    /// Runs the handler.
    public func doNext(withData data: Out) { nextHandler(data) }
}

/// A flow on data of one type from any sender its matcher accepts (Boardy's `GenericBoardFlow`).
public struct GenericBoardFlow<Out>: DataMatchBoardFlow {
    /// The data type.
    public typealias Output = Out
    /// The flow's identifier.
    public var identifier: String
    private let matcher: (any BoardOutputModel) -> Bool
    private let nextHandler: (Out) -> Void

    /// A flow running `nextHandler` with each `Out` whose message `matcher` accepts.
    public init(
        identifier: String = UUID().uuidString, matcher: @escaping (any BoardOutputModel) -> Bool = { _ in true },
        nextHandler: @escaping (Out) -> Void
    ) {
        self.identifier = identifier
        self.matcher = matcher
        self.nextHandler = nextHandler
    }

    /// A flow running `nextHandler` with `target` (held weakly when it is an object) and each
    /// `Out` whose message `matcher` accepts.
    public init<HandlerTarget>(
        identifier: String = UUID().uuidString, matcher: @escaping (any BoardOutputModel) -> Bool = { _ in true }, target: HandlerTarget,
        nextHandler: @escaping (HandlerTarget, Out) -> Void
    ) {
        let box = TargetBox(target)
        self.init(identifier: identifier, matcher: matcher) { value in
            if let target = box.target { nextHandler(target, value) }
        }
    }

    /// Whether the matcher accepts `output`.
    public func match(with output: any BoardOutputModel) -> Bool { matcher(output) }
    /// Runs the handler.
    public func doNext(withData data: Out) { nextHandler(data) }
}

/// A flow that reacts to messages of some senders (Boardy's `BoardActivateFlow`).
public struct BoardActivateFlow: BoardFlow {
    /// The flow's identifier.
    public let identifier: String
    private let matcher: (any BoardOutputModel) -> Bool
    private let next: (any BoardOutputModel) -> Void
    /// For a guaranteed handler: Boardy's message when a message's data is not its type.
    private var mismatch: ((any BoardOutputModel) -> String?)?

    /// A flow running `outputNextHandler` with each message `matcher` accepts.
    public init(
        identifier: String = UUID().uuidString, matcher: @escaping (any BoardOutputModel) -> Bool,
        outputNextHandler: @escaping (any BoardOutputModel) -> Void
    ) {
        self.identifier = identifier
        self.matcher = matcher
        next = outputNextHandler
    }

    /// A flow running `nextHandler` with the data of each message `matcher` accepts.
    public init(identifier: String = UUID().uuidString, matcher: @escaping (any BoardOutputModel) -> Bool, nextHandler: @escaping (Any?) -> Void) {
        self.init(identifier: identifier, matcher: matcher) { nextHandler($0.data) }
    }

    /// A flow running `dedicatedNextHandler` with each message `matcher` accepts: its data as
    /// `Output`, or nil when it is not one.
    public init<Output>(identifier: String = UUID().uuidString, matcher: @escaping (any BoardOutputModel) -> Bool, dedicatedNextHandler: @escaping (Output?) -> Void) {
        self.init(identifier: identifier, matcher: matcher) { dedicatedNextHandler(BoardValue.cast($0.data, to: Output.self)) }
    }

    /// A flow running `guaranteedNextHandler` with each message `matcher` accepts whose data is
    /// an `Output`.
    public init<Output>(identifier: String = UUID().uuidString, matcher: @escaping (any BoardOutputModel) -> Bool, guaranteedNextHandler: @escaping (Output) -> Void) {
        self.init(identifier: identifier, matcher: matcher) {
            if let v = BoardValue.cast($0.data, to: Output.self) {
                guaranteedNextHandler(v)
            } else if let message = flowMismatchMessage($0, Output.self) {
                reportFlowMismatch(message, $0)
            }
        }
        mismatch = { flowMismatchMessage($0, Output.self) }
    }

    /// A flow running `dedicatedNextHandler` with each message of `matchedIdentifiers`: its data
    /// as `Output`, or nil when it is not one.
    public init<Output>(identifier: String = UUID().uuidString, matchedIdentifiers: [FlowStepID], dedicatedNextHandler: @escaping (Output?) -> Void) {
        self.init(identifier: identifier, matcher: { matchedIdentifiers.contains($0.identifier) }, dedicatedNextHandler: dedicatedNextHandler)
    }

    /// A flow running `outputNextHandler` with each message of `matchedIdentifiers`.
    public init(identifier: String = UUID().uuidString, matchedIdentifiers: [FlowStepID], outputNextHandler: @escaping (any BoardOutputModel) -> Void) {
        self.init(identifier: identifier, matcher: { matchedIdentifiers.contains($0.identifier) }, outputNextHandler: outputNextHandler)
    }

    /// A flow running `nextHandler` with the data of each message of `matchedIdentifiers`.
    public init(identifier: String = UUID().uuidString, matchedIdentifiers: [FlowStepID], nextHandler: @escaping (Any?) -> Void) {
        self.init(identifier: identifier, matcher: { matchedIdentifiers.contains($0.identifier) }) { nextHandler($0.data) }
    }

    /// A flow running `guaranteedNextHandler` with each `Output` of `matchedIdentifiers`.
    public init<Output>(identifier: String = UUID().uuidString, matchedIdentifiers: [FlowStepID], guaranteedNextHandler: @escaping (Output) -> Void) {
        self.init(identifier: identifier, matcher: { matchedIdentifiers.contains($0.identifier) }, guaranteedNextHandler: guaranteedNextHandler)
    }

    /// Whether the flow reacts to `output`.
    public func match(with output: any BoardOutputModel) -> Bool { matcher(output) }
    /// The reaction.
    public func doNext(with output: any BoardOutputModel) { next(output) }
    /// For a guaranteed handler, Boardy's message when `output`'s data is not its type.
    public func dataMismatch(_ output: any BoardOutputModel) -> String? { mismatch?(output) }
}

/// A board id in a flow step (Boardy's `FlowStepID`).
public typealias FlowStepID = BoardID

/// A flow whose handlers are tried in order, by the type of the data, until one takes it
/// (Boardy's `ChainBoardFlow`, from `FlowManageable.registerChainFlow(matchedIdentifiers:target:)`).
public final class ChainBoardFlow<Target>: BoardFlow {
    /// The flow's identifier.
    public let identifier: String
    private let matcher: (any BoardOutputModel) -> Bool
    private var handlers: [(Target, Any?) -> Bool] = []
    private weak var manager: (any FlowManageable)?
    /// The target, held weakly when it is an object, as Boardy holds it.
    private let target: TargetBox<Target>

    /// A chain for `target` on the messages `matcher` accepts, registered with `manager` by
    /// `FlowManageable.registerChainFlow(matchedIdentifiers:target:)`.
    public init(
        identifier: String = UUID().uuidString, manager: any FlowManageable, target: Target, matcher: @escaping (any BoardOutputModel) -> Bool
    ) {
        self.identifier = identifier
        self.manager = manager
        self.matcher = matcher
        self.target = TargetBox(target)
    }

    /// Adds a handler for data of type `Output`.
    @discardableResult
    public func handle<Output>(outputType _: Output.Type, handler: @escaping (Target, Output) -> Void) -> Self {
        handlers.append { target, data in
            guard let value = data as? Output else { return false }
            handler(target, value)
            return true
        }
        return self
    }

    /// Adds the last handler, for data of type `Output` or nil; returns the flows' holder.
    @discardableResult
    public func eventuallyHandle<Output>(outputType _: Output.Type, handler: @escaping (Target, Output?) -> Void) -> any FlowManageable {
        handlers.append { target, data in
            handler(target, data as? Output)
            return true
        }
        // As in Boardy, the chain is registered only once it ends.
        return manager!.registerFlow(self)
    }

    /// Adds the last handler, for any data (flow actions skipped when `skipSilentData`).
    @discardableResult
    public func eventuallyHandle(skipSilentData: Bool = true, handler: @escaping (Target, Any?) -> Void) -> any FlowManageable {
        handlers.append { target, data in
            // Silent data (flow actions, requests, commands, completions) ends the chain unhandled.
            if skipSilentData && isBoardyMessage(data) { return true }
            handler(target, data)
            return true
        }
        return manager!.registerFlow(self)
    }

    /// Ends the chain without a last handler (and registers it); returns the flows' holder.
    @discardableResult
    public func eventuallySkipHandling() -> any FlowManageable { eventuallyHandle { _, _ in } }

    /// Whether the chain reacts to `output`.
    public func match(with output: any BoardOutputModel) -> Bool { matcher(output) }

    /// Runs the first handler that takes the data.
    public func doNext(with output: any BoardOutputModel) {
        guard let target = target.target else { return }
        for h in handlers where h(target, output.data) { return }
    }
}

extension FlowManageable {
    /// Registers a chain of handlers by data type for the boards `matchedIdentifiers`.
    public func registerChainFlow<Target>(matchedIdentifiers: [FlowStepID], target: Target) -> ChainBoardFlow<Target> {
        // Registered when the chain ends (`eventuallyHandle`, `eventuallySkipHandling`), as in Boardy.
        ChainBoardFlow(manager: self, target: target) { matchedIdentifiers.contains($0.identifier) }
    }

    /// Registers a chain of handlers by data type for the boards `matchedIdentifiers`.
    public func registerChainFlow<Target>(matchedIdentifiers: FlowStepID..., target: Target) -> ChainBoardFlow<Target> {
        registerChainFlow(matchedIdentifiers: matchedIdentifiers, target: target)
    }
}
