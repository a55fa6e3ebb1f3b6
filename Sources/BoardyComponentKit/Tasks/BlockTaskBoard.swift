import BoardyCore

/// How a block task ended for one activation.
public enum BlockTaskCompletion: Sendable, Hashable {
    /// The task finished (successfully or with an error).
    case done
    /// The task was cancelled (superseded, or turned down while the board was busy).
    case cancelled
}

/// How a ``BlockTaskBoard`` runs activations that overlap (Boardy rule 24).
public enum BlockTaskExecutingType: Sendable, Hashable {
    /// Every activation runs at once, in parallel.
    case `default`
    /// A new activation cancels the running ones.
    case latest
    /// While a task runs, new activations are turned down (`.cancelled`, traced as `busy`).
    case only
    /// While a task runs, new activations wait for it and share its result.
    case onlyResult
    /// One at a time, in activation order.
    case queue
    /// At most `max` at a time; the others wait in activation order.
    case concurrent(max: Int)
}

/// One activation of a ``BlockTaskBoard``: its input and its own handlers.
public struct BlockTaskParameter<Input, Output>: TraceValueConvertible {
    /// The task's input.
    public var input: Input
    var onSuccess: ((Output) -> Void)?
    var onProcessing: ((Bool) -> Void)?
    var onError: ((any Error) -> Void)?
    var onCompletion: ((BlockTaskCompletion) -> Void)?

    /// A parameter for `input` without handlers.
    public init(input: Input) { self.input = input }

    /// Adds a success handler that runs while `target` lives.
    public func onSuccess<T: AnyObject>(target: T, _ handler: @escaping (T, Output) -> Void) -> Self {
        var p = self
        p.onSuccess = { [weak target] v in if let target { handler(target, v) } }
        return p
    }

    /// Adds a success handler.
    public func onSuccess(_ handler: @escaping (Output) -> Void) -> Self {
        var p = self
        p.onSuccess = handler
        return p
    }

    /// Adds a processing handler (true when the task starts, false when it ends).
    public func onProcessing(_ handler: @escaping (Bool) -> Void) -> Self {
        var p = self
        p.onProcessing = handler
        return p
    }

    /// Adds an error handler.
    public func onError(_ handler: @escaping (any Error) -> Void) -> Self {
        var p = self
        p.onError = handler
        return p
    }

    /// Adds a completion handler (`.done` or `.cancelled`).
    public func onCompletion(_ handler: @escaping (BlockTaskCompletion) -> Void) -> Self {
        var p = self
        p.onCompletion = handler
        return p
    }

    public var traceValue: JSONValue { TraceValue.json(input) ?? .null }
}

/// A task board whose activations carry their own handlers (ComponentKit's `BlockTaskBoard`).
/// Per task: success or error handler, the output (success only), processing (false), then
/// completion `.done`. The board completes (true) once no task runs or waits.
public final class BlockTaskBoard<Input, Output>: Board, GuaranteedBoard {
    public typealias InputType = BlockTaskParameter<Input, Output>
    /// The task: given the board and the input, it calls the completion once with the result.
    public typealias Executor = (BlockTaskBoard<Input, Output>, Input, @escaping (Result<Output, any Error>) -> Void) -> Void

    private final class Task {
        var parameters: [BlockTaskParameter<Input, Output>]
        var cancelled = false
        init(_ p: BlockTaskParameter<Input, Output>) { parameters = [p] }
    }

    private let executor: Executor
    /// How overlapping activations run.
    public let executingType: BlockTaskExecutingType
    private var running: [Task] = []
    /// Activations waiting for a slot, with the trace cause of each (their own activation).
    private var waiting: [(parameter: BlockTaskParameter<Input, Output>, cause: Int)] = []

    /// A block task board running `executor` as `executingType` says.
    public init(identifier: BoardID, executingType: BlockTaskExecutingType = .default, executor: @escaping Executor) {
        self.executor = executor
        self.executingType = executingType
        super.init(identifier: identifier)
    }

    /// How many tasks run now.
    public var runningCount: Int { running.count }
    /// How many activations wait for a free slot.
    public var waitingCount: Int { waiting.count }

    public func shouldBypassGatewayBarrier() -> Bool { true }

    public func activationRejection(withOption option: Any?) -> TraceEvent.CancelReason? {
        guard executingType == .only, !running.isEmpty else { return nil }
        // Turned down while busy: its own completion handler learns it was cancelled.
        (option as? InputType)?.onCompletion?(.cancelled)
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
            for task in running where !task.cancelled {
                task.cancelled = true
                for p in task.parameters { p.onCompletion?(.cancelled) }
                sendCancellation(reason: .superseded, detail: "a newer activation replaced this task")
            }
            running.removeAll()
            start(parameter)
        case .onlyResult:
            if let current = running.first { current.parameters.append(parameter) } else { start(parameter) }
        case .queue:
            if running.isEmpty { start(parameter) } else { waiting.append((parameter, currentTraceCause)) }
        case let .concurrent(max):
            if running.count < Swift.max(1, max) { start(parameter) } else { waiting.append((parameter, currentTraceCause)) }
        }
    }

    private func start(_ parameter: BlockTaskParameter<Input, Output>) {
        let task = Task(parameter)
        running.append(task)
        parameter.onProcessing?(true)
        executor(self, parameter.input) { [self] result in finish(task, result) }
    }

    private func finish(_ task: Task, _ result: Result<Output, any Error>) {
        guard !task.cancelled, let index = running.firstIndex(where: { $0 === task }) else { return }
        running.remove(at: index)
        task.cancelled = true  // a second completion call does nothing
        for p in task.parameters {
            switch result {
            case let .success(output):
                p.onSuccess?(output)
                sendOutput(output)
            case let .failure(error):
                p.onError?(error)
            }
            p.onProcessing?(false)
            p.onCompletion?(.done)
        }
        startWaiting()
        if running.isEmpty && waiting.isEmpty { complete(true) }
    }

    private func startWaiting() {
        let limit: Int
        switch executingType {
        case .queue: limit = 1
        case let .concurrent(max): limit = Swift.max(1, max)
        default: return
        }
        while running.count < limit, !waiting.isEmpty {
            let next = waiting.removeFirst()
            withTraceCause(next.cause) { start(next.parameter) }
        }
    }
}
