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
