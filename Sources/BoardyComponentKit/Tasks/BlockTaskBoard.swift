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

    private final class Task {
        var parameters: [BlockTaskParameter<Input, Output>]
        var cancelled = false
        var canceler = BlockTaskCanceler.none
        init(_ p: BlockTaskParameter<Input, Output>) { parameters = [p] }
    }

    private let executor: Executor
    /// How overlapping activations run.
    public let executingType: ExecutingType
    private let bypassesGateway: Bool
    private var running: [Task] = []
    /// Activations waiting for a slot, with the trace cause of each (their own activation).
    private var waiting: [(parameter: BlockTaskParameter<Input, Output>, cause: Int)] = []

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
    public var runningCount: Int { running.count }
    /// How many activations wait for a free slot.
    public var waitingCount: Int { waiting.count }

    public func shouldBypassGatewayBarrier() -> Bool { bypassesGateway }

    public func activationRejection(withOption option: Any?) -> TraceEvent.CancelReason? {
        guard executingType == .only, !running.isEmpty else { return nil }
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
            for task in running where !task.cancelled {
                task.cancelled = true
                task.canceler.cancel()
                for p in task.parameters { p.completionHandler?(self, .cancelled) }
                sendCancellation(reason: .superseded, detail: "a newer activation replaced this task")
            }
            running.removeAll()
            start(parameter)
        case .onlyResult:
            if let current = running.first {
                // The joining activation is processing too, until the shared result arrives.
                current.parameters.append(parameter)
                parameter.processingHandler?(self, true)
            } else {
                start(parameter)
            }
        case .queue:
            if running.isEmpty { start(parameter) } else { waiting.append((parameter, currentTraceCause)) }
        case let .concurrent(max):
            if running.count < Swift.max(1, max) { start(parameter) } else { waiting.append((parameter, currentTraceCause)) }
        }
    }

    private func start(_ parameter: BlockTaskParameter<Input, Output>) {
        let task = Task(parameter)
        running.append(task)
        parameter.processingHandler?(self, true)
        task.canceler = executor(self, parameter.input) { [self] result in finish(task, result) }
    }

    private func finish(_ task: Task, _ result: Result<Output, any Error>) {
        guard !task.cancelled, let index = running.firstIndex(where: { $0 === task }) else { return }
        running.remove(at: index)
        task.cancelled = true  // a second completion call does nothing
        for p in task.parameters {
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
