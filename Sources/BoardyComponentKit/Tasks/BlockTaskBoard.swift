import BoardyCore
import Foundation

/// How a block task ended for one activation.
public enum TaskCompletionStatus: Sendable, Hashable {
    /// The task ran to its end (success or failure).
    case done
    /// The task was cancelled (superseded, turned down while busy).
    case cancelled
}

/// boardy-viz's former name of ``TaskCompletionStatus``.
public typealias BlockTaskCompletion = TaskCompletionStatus

/// How a block task board runs activations that arrive while tasks run (Boardy's
/// `ExecutingType`, Boardy rule 24).
public enum ExecutingType: Sendable, Hashable {
    /// Every activation runs at once, in parallel.
    case `default`
    /// A new activation cancels the running ones.
    case latest
    /// A new activation is turned down while a task runs.
    case only
    /// Activations arriving while a task runs share its result.
    case onlyResult
    /// One at a time, first in, first out.
    case queue
    /// At most `max` at once; the others wait in order.
    case concurrent(max: Int)

    /// At most as many at once as the machine has cores (Boardy's `.concurrent`).
    public static var concurrent: ExecutingType { .concurrent(max: max(1, ProcessInfo.processInfo.activeProcessorCount)) }
}

/// boardy-viz's former name of ``ExecutingType``.
public typealias BlockTaskExecutingType = ExecutingType

/// Cancels a running block task (Boardy's `BlockTaskCanceler`), returned by an executor.
public struct BlockTaskCanceler {
    private let handler: () -> Void
    /// A canceler running `handler`.
    public init(handler: @escaping () -> Void) { self.handler = handler }
    /// Cancels the task.
    public func cancel() { handler() }
    /// A canceler that does nothing.
    public static var none: BlockTaskCanceler { BlockTaskCanceler {} }
    /// A canceler running `handler`.
    public static func `default`(handler: @escaping () -> Void) -> BlockTaskCanceler { BlockTaskCanceler(handler: handler) }
}

/// One activation of a block task board (Boardy's `BlockTaskParameter`): the input and the
/// handlers this activation alone is told through.
///
/// ```swift
/// BlockTaskParameter<String, [Product]>(input: query)
///     .onSuccess { board, products in show(products) }
///     .onCompletion { board, status in ... }
/// ```
public final class BlockTaskParameter<Input, Output>: TraceValueConvertible {
    /// Runs with the board and the output on success.
    public typealias SuccessHandler = (any ActivatableBoard, Output) -> Void
    /// Runs with the board and whether the task is processing.
    public typealias ProcessingHandler = (any ActivatableBoard, Bool) -> Void
    /// Runs with the board and the error on failure.
    public typealias ErrorHandler = (any ActivatableBoard, any Error) -> Void
    /// Runs with the board and how the task ended.
    public typealias CompletionHandler = (any ActivatableBoard, TaskCompletionStatus) -> Void

    /// The task's input.
    public let input: Input
    /// The success handler.
    public private(set) var successHandler: SuccessHandler?
    /// The processing handler.
    public private(set) var processingHandler: ProcessingHandler?
    /// The error handler.
    public private(set) var errorHandler: ErrorHandler?
    /// The completion handler.
    public private(set) var completionHandler: CompletionHandler?

    /// An activation with `input`.
    public init(input: Input) { self.input = input }

    /// Sets the success handler.
    @discardableResult
    public func onSuccess(_ handler: SuccessHandler?) -> Self {
        successHandler = handler
        return self
    }

    /// Sets the success handler, given the output.
    @discardableResult
    public func onSuccess(_ handler: ((Output) -> Void)?) -> Self {
        onSuccess(handler.map { h in { _, o in h(o) } })
    }

    /// Sets the success handler, with `target` held weakly.
    @discardableResult
    public func onSuccess<Target: AnyObject>(target: Target, action: ((Target, Output) -> Void)?) -> Self {
        onSuccess(action.map { a in { [weak target] _, o in if let target { a(target, o) } } })
    }

    /// Sets the processing handler.
    @discardableResult
    public func onProcessing(_ handler: ProcessingHandler?) -> Self {
        processingHandler = handler
        return self
    }

    /// Sets the processing handler, given whether the task is processing.
    @discardableResult
    public func onProcessing(_ handler: ((Bool) -> Void)?) -> Self {
        onProcessing(handler.map { h in { _, p in h(p) } })
    }

    /// Sets the processing handler, with `target` held weakly.
    @discardableResult
    public func onProcessing<Target: AnyObject>(target: Target, action: ((Target, Bool) -> Void)?) -> Self {
        onProcessing(action.map { a in { [weak target] _, p in if let target { a(target, p) } } })
    }

    /// Sets the error handler.
    @discardableResult
    public func onError(_ handler: ErrorHandler?) -> Self {
        errorHandler = handler
        return self
    }

    /// Sets the error handler, given the error.
    @discardableResult
    public func onError(_ handler: ((any Error) -> Void)?) -> Self {
        onError(handler.map { h in { _, e in h(e) } })
    }

    /// Sets the error handler, with `target` held weakly.
    @discardableResult
    public func onError<Target: AnyObject>(target: Target, action: ((Target, any Error) -> Void)?) -> Self {
        onError(action.map { a in { [weak target] _, e in if let target { a(target, e) } } })
    }

    /// Sets the completion handler.
    @discardableResult
    public func onCompletion(_ handler: CompletionHandler?) -> Self {
        completionHandler = handler
        return self
    }

    /// Sets the completion handler, given the status.
    @discardableResult
    public func onCompletion(_ handler: ((TaskCompletionStatus) -> Void)?) -> Self {
        onCompletion(handler.map { h in { _, s in h(s) } })
    }

    /// Sets the completion handler, with `target` held weakly.
    @discardableResult
    public func onCompletion<Target: AnyObject>(target: Target, action: ((Target, TaskCompletionStatus) -> Void)?) -> Self {
        onCompletion(action.map { a in { [weak target] _, s in if let target { a(target, s) } } })
    }

    /// Adds a success handler after the one set.
    @discardableResult
    public func appendingSuccessHandler(_ handler: @escaping SuccessHandler) -> Self {
        let previous = successHandler
        return onSuccess { b, o in
            previous?(b, o)
            handler(b, o)
        }
    }

    /// Adds an error handler after the one set.
    @discardableResult
    public func appendingErrorHandler(_ handler: @escaping ErrorHandler) -> Self {
        let previous = errorHandler
        return onError { b, e in
            previous?(b, e)
            handler(b, e)
        }
    }

    /// Adds a completion handler after the one set.
    @discardableResult
    public func appendingCompletionHandler(_ handler: @escaping CompletionHandler) -> Self {
        let previous = completionHandler
        return onCompletion { b, s in
            previous?(b, s)
            handler(b, s)
        }
    }

    /// Adds a processing handler after the one set.
    @discardableResult
    public func appendingProcessingHandler(_ handler: @escaping ProcessingHandler) -> Self {
        let previous = processingHandler
        return onProcessing { b, p in
            previous?(b, p)
            handler(b, p)
        }
    }

    /// The input, as a trace records it.
    public var traceValue: JSONValue { TraceValue.json(input) ?? .null }
}

extension BlockTaskParameter where Input: ExpressibleByNilLiteral {
    /// An activation with a nil input.
    public convenience init() { self.init(input: nil) }
}

extension BlockTaskParameter where Input == Void {
    /// An activation of a task that takes no input.
    public convenience init() { self.init(input: ()) }
}

/// A task board whose activations carry their own handlers (ComponentKit's `BlockTaskBoard`).
/// Per task: success or error handler, the output (success only), processing (false), then
/// completion `.done`. The board completes (true) once no task runs or waits.
public final class BlockTaskBoard<Input, Output>: Board, GuaranteedBoard, GuaranteedOutputSendingBoard {
    public typealias InputType = BlockTaskParameter<Input, Output>
    /// The task's output, sent on success.
    public typealias OutputType = Output
    /// How the executor reports (Boardy's `ExecutorCompletion`).
    public typealias ExecutorCompletion = (Result<Output, any Error>) -> Void
    /// The work: given the board, the input and a completion to call once; returns how to cancel
    /// it (Boardy's `Executor`).
    public typealias Executor = (BlockTaskBoard<Input, Output>, Input, @escaping ExecutorCompletion) -> BlockTaskCanceler

    /// One run of the executor and the activations it answers (several for `.onlyResult`).
    /// Its fields are only reached under the board's lock.
    private final class Task {
        let id: String
        var parameters: [BlockTaskParameter<Input, Output>]
        /// Completed or cancelled: nothing more is delivered for it.
        var ended = false
        /// Ended by a cancellation (so a canceler the executor hands back late is still called).
        var cancelled = false
        /// How to cancel it, once the executor has returned it.
        var canceler: BlockTaskCanceler?
        init(id: String, _ p: BlockTaskParameter<Input, Output>) {
            self.id = id
            parameters = [p]
        }

        /// Ends the task; returns the canceler to call when it is cancelled and has one.
        func end(cancelled: Bool) -> BlockTaskCanceler? {
            ended = true
            self.cancelled = cancelled
            defer { canceler = nil }
            return cancelled ? canceler : nil
        }
    }

    /// What runs and what waits. Under a lock because executors complete, and apps cancel, from
    /// any thread (Boardy's board is thread-safe too); handlers always run outside it.
    private struct Store {
        var running: [Task] = []
        /// Activations waiting for a slot, with the trace cause of each (their own activation).
        var waiting: [(parameter: BlockTaskParameter<Input, Output>, cause: Int)] = []
        var started = 0
    }

    private let executor: Executor
    /// How overlapping activations run.
    public let executingType: ExecutingType
    private let bypassesGateway: Bool
    private let store = Locked(Store())

    /// A block task board running `executor` as `executingType` says.
    public init(identifier: BoardID, executingType: ExecutingType, allowBypassGatewayBarrier: Bool = true, executor: @escaping Executor) {
        self.executor = executor
        self.executingType = executingType
        bypassesGateway = allowBypassGatewayBarrier
        super.init(identifier: identifier)
    }

    /// A block task board whose executor cannot be cancelled (Boardy's convenience initializer).
    public convenience init(
        identifier: BoardID, executingType: ExecutingType = .default,
        execute work: @escaping (BlockTaskBoard<Input, Output>, Input, @escaping ExecutorCompletion) -> Void
    ) {
        self.init(identifier: identifier, executingType: executingType) { board, input, completion in
            work(board, input, completion)
            return .none
        }
    }

    /// How many tasks run now.
    public var runningCount: Int { store.withLock { $0.running.count } }
    /// How many activations wait for a free slot.
    public var waitingCount: Int { store.withLock { $0.waiting.count } }

    public func shouldBypassGatewayBarrier() -> Bool { bypassesGateway }

    public func activationRejection(withOption option: Any?) -> TraceEvent.CancelReason? {
        guard executingType == .only, store.withLock({ !$0.running.isEmpty }) else { return nil }
        // Turned down while busy: its own completion handler learns it was cancelled.
        if let p = option as? InputType { p.completionHandler?(self, .cancelled) }
        return .busy
    }

    /// A plain input is accepted too, as a parameter without handlers.
    private func parameter(_ option: Any?) -> BlockTaskParameter<Input, Output>? {
        if let p = option as? BlockTaskParameter<Input, Output> { return p }
        if let input = option as? Input { return BlockTaskParameter(input: input) }
        if option == nil, let input = (Optional<Any>.none as Any) as? Input { return BlockTaskParameter(input: input) }
        return nil
    }

    public func inputMismatch(_ option: Any?) -> String? {
        parameter(option) == nil ? "expected BlockTaskParameter<\(Input.self), \(Output.self)> or \(Input.self)" : nil
    }

    public func activate(withOption option: Any?) {
        if let p = parameter(option) { activate(withGuaranteedInput: p) }
    }

    public func activate(withGuaranteedInput parameter: BlockTaskParameter<Input, Output>) {
        switch executingType {
        case .default, .only:
            start(parameter)
        case .latest:
            let superseded = store.withLock { s -> [(parameters: [BlockTaskParameter<Input, Output>], canceler: BlockTaskCanceler?)] in
                let older = s.running.filter { !$0.ended }.map { ($0.parameters, $0.end(cancelled: true)) }
                s.running.removeAll()
                return older
            }
            for (parameters, canceler) in superseded {
                canceler?.cancel()
                for p in parameters { p.completionHandler?(self, .cancelled) }
                sendCancellation(reason: .superseded, detail: "a newer activation replaced this task")
            }
            start(parameter)
        case .onlyResult:
            let joined = store.withLock { s -> Bool in
                guard let current = s.running.first else { return false }
                current.parameters.append(parameter)
                return true
            }
            // The joining activation is processing too, until the shared result arrives.
            if joined { parameter.processingHandler?(self, true) } else { start(parameter) }
        case .queue, .concurrent:
            let cause = currentTraceCause
            let limit = slots
            let waits = store.withLock { s -> Bool in
                guard s.running.count >= limit else { return false }
                s.waiting.append((parameter, cause))
                return true
            }
            if !waits { start(parameter) }
        }
    }

    /// How many tasks may run at once (`.queue` and `.concurrent`; the others do not queue).
    private var slots: Int {
        switch executingType {
        case .queue: return 1
        case let .concurrent(max): return Swift.max(1, max)
        default: return Int.max
        }
    }

    private func start(_ parameter: BlockTaskParameter<Input, Output>) {
        let task = store.withLock { s -> Task in
            s.started += 1
            let task = Task(id: "\(s.started)", parameter)
            s.running.append(task)
            return task
        }
        parameter.processingHandler?(self, true)
        run(task, input: parameter.input) { [self] result in finish(task, result) }
    }

    /// Runs the executor for `task` and keeps the canceler it returns, or calls it at once when
    /// the task was cancelled while the executor ran (a completion meanwhile discards it).
    private func run(_ task: Task, input: Input, completion: @escaping ExecutorCompletion) {
        let canceler = executor(self, input, completion)
        let callNow = store.withLock { _ -> Bool in
            guard task.ended else {
                task.canceler = canceler
                return false
            }
            return task.cancelled
        }
        if callNow { canceler.cancel() }
    }

    private func finish(_ task: Task, _ result: Result<Output, any Error>) {
        let parameters = store.withLock { s -> [BlockTaskParameter<Input, Output>]? in
            guard !task.ended, let index = s.running.firstIndex(where: { $0 === task }) else { return nil }
            s.running.remove(at: index)
            _ = task.end(cancelled: false)  // a second completion call does nothing
            return task.parameters
        }
        guard let parameters else { return }
        for p in parameters {
            switch result {
            case let .success(output):
                p.successHandler?(self, output)
                sendOutput(output)
            case let .failure(error):
                p.errorHandler?(self, error)
            }
            p.processingHandler?(self, false)
            p.completionHandler?(self, .done)
        }
        startWaiting()
        if store.withLock({ $0.running.isEmpty && $0.waiting.isEmpty }) { complete(true) }
    }

    private func startWaiting() {
        let limit = slots
        while let next = store.withLock({ s -> (parameter: BlockTaskParameter<Input, Output>, cause: Int)? in
            guard s.running.count < limit, !s.waiting.isEmpty else { return nil }
            return s.waiting.removeFirst()
        }) {
            withTraceCause(next.cause) { start(next.parameter) }
        }
    }

    /// Cancels every task that runs or waits (Boardy's `cancelPendingTasksIfNeeded`, which its
    /// board also calls when it goes away): each running task's canceler is called once (when
    /// its executor hands it back, if it has not yet), each activation's processing handler gets
    /// `false` (if it got `true`) and its completion handler `.cancelled`, and a completion the
    /// executor reports later is ignored. The board does not complete; each cancellation is
    /// traced as `activation.cancelled` with reason `cancelled`.
    public func cancelPendingTasksIfNeeded() {
        typealias Cancelled = (parameters: [BlockTaskParameter<Input, Output>], canceler: BlockTaskCanceler?)
        let (running, waiting) = store.withLock { s -> ([Cancelled], [BlockTaskParameter<Input, Output>]) in
            let running = s.running.filter { !$0.ended }.map { ($0.parameters, $0.end(cancelled: true)) }
            let waiting = s.waiting.map(\.parameter)
            s.running.removeAll()
            s.waiting.removeAll()
            return (running, waiting)
        }
        for (parameters, canceler) in running {
            canceler?.cancel()
            for p in parameters {
                p.processingHandler?(self, false)
                p.completionHandler?(self, .cancelled)
            }
            sendCancellation(reason: .cancelled, detail: "the board cancelled its pending tasks")
        }
        for p in waiting {
            p.completionHandler?(self, .cancelled)
            sendCancellation(reason: .cancelled, detail: "the board cancelled its pending tasks")
        }
    }

    /// Hands `result` to the task `taskID` (a ``BlockTaskExecutionOperation``'s completion);
    /// nothing happens when no such task runs.
    func finishExecuting(taskID: String, result: Result<Output, any Error>) {
        guard let task = store.withLock({ s in s.running.first { $0.id == taskID } }) else { return }
        finish(task, result)
    }

    /// Runs the executor with `input` (what a ``BlockTaskExecutionOperation`` starts).
    func execute(input: Input, completion: @escaping ExecutorCompletion) -> BlockTaskCanceler {
        executor(self, input, completion)
    }
}

/// Activates a block task board from a board, as its sibling (Boardy's `BlockTaskBoardActivation`).
public struct BlockTaskBoardActivation<In, Out>: BoardActivating {
    /// The activation's parameter.
    public typealias Input = BlockTaskParameter<In, Out>
    /// The board to activate.
    let destinationID: BoardID
    /// The board that asks.
    let source: any ActivatableBoard

    /// Activates the board with `input` and its handlers.
    public func activate(with input: BlockTaskParameter<In, Out>) {
        source.nextToBoard(BoardInput<BlockTaskParameter<In, Out>>(target: destinationID, input: input))
    }

    /// Activates the board with `input`, without handlers.
    public func activate(with input: In) {
        source.nextToBoard(BoardInput<In>(target: destinationID, input: input))
    }
}

extension ActivatableBoard {
    /// Activates the block task board `destinationID`, a sibling of this board.
    public func blockActivation<Input, Output>(_ destinationID: BoardID, with _: BlockTaskParameter<Input, Output>.Type) -> BlockTaskBoardActivation<Input, Output> {
        BlockTaskBoardActivation(destinationID: destinationID, source: self)
    }
}

/// Activates a block task board through a motherboard (Boardy's `BlockTaskMainboardActivation`).
public struct BlockTaskMainboardActivation<In, Out>: BoardActivating {
    /// The activation's parameter.
    public typealias Input = BlockTaskParameter<In, Out>
    /// The board.
    public let destinationID: BoardID
    weak var mainboard: (any MotherboardType)?

    /// Activates the board with `input` and its handlers.
    public func activate(with input: BlockTaskParameter<In, Out>) {
        mainboard?.activateBoard(identifier: destinationID, withOption: input)
    }

    /// Activates the board with `input`, without handlers.
    public func activate(with input: In) {
        activate(with: BlockTaskParameter<In, Out>(input: input))
    }
}

extension MotherboardType {
    /// Activates the block task board `destinationID`.
    public func blockActivation<Input, Output>(_ destinationID: BoardID, with _: BlockTaskParameter<Input, Output>.Type)
        -> BlockTaskMainboardActivation<Input, Output>
    {
        BlockTaskMainboardActivation(destinationID: destinationID, mainboard: self)
    }
}

extension MainboardGenericDestination {
    /// Activates this block task board.
    public var blockActivation: BlockTaskMainboardActivation<Input, Output> {
        BlockTaskMainboardActivation(destinationID: destinationID, mainboard: mainboard)
    }
}

/// One task of a ``BlockTaskBoard`` as an asynchronous `Operation` (Boardy's
/// `BlockTaskExecutionOperation`, internal there; public here because Boardy's tests and apps that
/// drive a board's executor from an `OperationQueue` reach it).
///
/// `start()` runs the board's executor with the input; its completion goes to the board's task
/// `taskID` (if one runs) and finishes the operation. `cancel()` finishes it at once and calls the
/// executor's canceler exactly once, even when the executor hands it back only after the
/// cancellation; a completion after the cancellation is ignored, and a canceler handed back after
/// a completion is dropped.
public final class BlockTaskExecutionOperation<In, Out>: Operation, @unchecked Sendable {
    // @unchecked: the mutable state is only reached under `state`'s lock; the board is held
    // weakly and only its thread-safe entry points are called.
    private enum Phase { case ready, executing, finished }

    private struct State {
        var phase = Phase.ready
        var canceler: BlockTaskCanceler?
        /// How the operation ended, once it has: by a cancellation or a completion.
        var endedByCancellation: Bool?
    }

    private let taskID: String
    private let input: In
    private weak var taskBoard: BlockTaskBoard<In, Out>?
    private let state = Locked(State())

    /// An operation that runs `taskBoard`'s executor with `input` for its task `taskID`.
    public init(taskID: String, input: In, taskBoard: BlockTaskBoard<In, Out>) {
        self.taskID = taskID
        self.input = input
        self.taskBoard = taskBoard
        super.init()
    }

    public override var isAsynchronous: Bool { true }
    public override var isExecuting: Bool { state.withLock { $0.phase == .executing } }
    public override var isFinished: Bool { state.withLock { $0.phase == .finished } }

    public override func start() {
        if isCancelled {
            end(byCancellation: true)
            return
        }
        let begins = state.withLock { s -> Bool in
            guard s.phase == .ready else { return false }
            s.phase = .executing
            return true
        }
        guard begins else { return }
        changed("isExecuting")
        guard let board = taskBoard else {
            end(byCancellation: false)
            return
        }
        let taskID = taskID
        let canceler = board.execute(input: input) { [weak self, weak board] result in
            guard let self, self.end(byCancellation: false) else { return }
            board?.finishExecuting(taskID: taskID, result: result)
        }
        let callNow = state.withLock { s -> Bool in
            switch s.endedByCancellation {
            case nil:
                s.canceler = canceler
                return false
            case let cancelled?: return cancelled
            }
        }
        if callNow { canceler.cancel() }
    }

    public override func cancel() {
        super.cancel()
        end(byCancellation: true)
    }

    /// Ends the operation unless it has ended already; true when this call ended it. A
    /// cancellation calls the canceler the executor has handed back, if it has.
    @discardableResult
    private func end(byCancellation cancelled: Bool) -> Bool {
        let outcome = state.withLock { s -> (won: Bool, wasExecuting: Bool, canceler: BlockTaskCanceler?) in
            guard s.endedByCancellation == nil else { return (false, false, nil) }
            s.endedByCancellation = cancelled
            let wasExecuting = s.phase == .executing
            s.phase = .finished
            defer { s.canceler = nil }
            return (true, wasExecuting, cancelled ? s.canceler : nil)
        }
        guard outcome.won else { return false }
        outcome.canceler?.cancel()
        if outcome.wasExecuting { changed("isExecuting") }
        changed("isFinished")
        return true
    }

    /// Tells observers (an `OperationQueue`) that `key` changed. The new value is already in
    /// place, which is what KVO needs of the "did" half; the "will" half only brackets it.
    private func changed(_ key: String) {
        willChangeValue(forKey: key)
        didChangeValue(forKey: key)
    }
}
