import BoardyCore
import BoardyLock

/// A board that runs one piece of logic (a request, a query) and sends its result (ComponentKit's
/// `TaskBoard`). One activation runs at a time: another arriving meanwhile is dropped, and traced
/// as `activation.cancelled` with reason `busy` (Boardy rule 23). After its work the board
/// completes: `complete(true)` on success, `complete(false)` on failure.
///
/// ```swift
/// TaskBoard<String, [Product]>(identifier: "taskFetchProducts") { board, query, completion in
///     board.schedule(after: .seconds(1)) { completion(.success(products(matching: query))) }
/// }
/// ```
///
/// Complete through the scheduler (`Board.schedule(after:_:)`, or `LiveScheduler.post(_:)` from
/// another thread) so that runs stay deterministic.
open class TaskBoard<Input, Output>: Board, GuaranteedBoard, TaskingBoard, GuaranteedOutputSendingBoard {
    /// The task's input.
    public typealias InputType = Input
    /// The task's output, sent on success.
    public typealias OutputType = Output
    /// How the executor reports (Boardy's `ExecutorCompletion`).
    public typealias ExecutorCompletion = (Result<Output, any Error>) -> Void
    /// The work: given the board, the input and a completion to call once.
    public typealias Executor = (any TaskingBoard, Input, @escaping ExecutorCompletion) -> Void
    /// Runs with the output on success.
    public typealias SuccessHandler = (TaskBoard<Input, Output>, Output) -> Void
    /// Runs when processing starts and ends (read ``isProcessing``).
    public typealias ProcessingHandler = (TaskBoard<Input, Output>) -> Void
    /// Runs with the error on failure.
    public typealias ErrorHandler = (TaskBoard<Input, Output>, any Error) -> Void
    /// Runs when the task ends, either way (read ``isCompleted``; the board then completes with
    /// success or failure).
    public typealias CompletionHandler = (TaskBoard<Input, Output>) -> Void

    private let executor: Executor
    private let successHandler: SuccessHandler
    private let processingHandler: ProcessingHandler
    private let errorHandler: ErrorHandler
    private let completionHandler: CompletionHandler
    private let bypassesGateway: Bool

    /// Whether an activation is running. Claimed and released under a lock: Boardy's tests call
    /// `activate` from many threads at once, and exactly one call may run the executor.
    public var isProcessing: Bool { slot.withLock { busy } }
    private let slot = Lock()
    private var busy = false
    private var finishing = false
    /// Whether no activation is running (Boardy's `isCompleted`).
    public var isCompleted: Bool { !isProcessing }

    /// A task board running `executor` for one activation at a time (Boardy's initializer; it
    /// bypasses the gateway unless `allowBypassGatewayBarrier` is false).
    public init(
        identifier: BoardID, allowBypassGatewayBarrier: Bool = true, executor: @escaping Executor,
        successHandler: @escaping SuccessHandler = { _, _ in }, processingHandler: @escaping ProcessingHandler = { _ in },
        errorHandler: @escaping ErrorHandler = { _, _ in }, completionHandler: @escaping CompletionHandler = { _ in }
    ) {
        self.executor = executor
        self.successHandler = successHandler
        self.processingHandler = processingHandler
        self.errorHandler = errorHandler
        self.completionHandler = completionHandler
        bypassesGateway = allowBypassGatewayBarrier
        super.init(identifier: identifier)
    }

    /// `busy` while an activation is running (Boardy rule 23).
    public func activationRejection(withOption option: Any?) -> TraceEvent.CancelReason? {
        isProcessing ? .busy : nil
    }

    /// Claims the one activation slot; false when an activation already holds it.
    private func claim() -> Bool {
        slot.withLock {
            if busy { return false }
            busy = true
            return true
        }
    }

    /// Claims the end of the running activation; false when it is not running or is ending
    /// already (a second completion call, from any thread, does nothing).
    private func claimFinish() -> Bool {
        slot.withLock {
            guard busy, !finishing else { return false }
            finishing = true
            return true
        }
    }

    /// Frees the slot for the next activation.
    private func release() {
        slot.withLock {
            busy = false
            finishing = false
        }
    }

    /// The `allowBypassGatewayBarrier` it was made with (true by default).
    public func shouldBypassGatewayBarrier() -> Bool { bypassesGateway }

    /// Runs the executor with `input`, unless an activation is running: then the call is dropped.
    public func activate(withGuaranteedInput input: Input) {
        // Called directly (not through a motherboard, which turns a busy board's activation into
        // a traced `busy` cancellation), a second activation is dropped here.
        guard claim() else { return }
        handleProgress()
        executor(self, input) { [self] result in finish(result) }
    }

    /// Runs the success handler (override to add behaviour; call `super`).
    open func handleSuccess(_ output: Output) { successHandler(self, output) }
    /// Runs the processing handler (override to add behaviour; call `super`).
    open func handleProgress() { processingHandler(self) }
    /// Runs the error handler (override to add behaviour; call `super`).
    open func handleError(_ error: any Error) { errorHandler(self, error) }
    /// Runs the completion handler, right before the board completes (Boardy's `willComplete()`;
    /// override to add behaviour, call `super`).
    open func willComplete() { completionHandler(self) }

    private func finish(_ result: Result<Output, any Error>) {
        guard claimFinish() else { return }
        switch result {
        case let .success(output):
            handleSuccess(output)
            sendOutput(output)
            release()
            handleProgress()
            willComplete()
            complete(true)
        case let .failure(error):
            handleError(error)
            release()
            handleProgress()
            willComplete()
            complete(false)
        }
    }
}

/// A board that runs a task (Boardy's `TaskingBoard`).
public protocol TaskingBoard: ActivatableBoard, InstallableBoard {
    /// Whether no activation is running.
    var isCompleted: Bool { get }
    /// Whether an activation is running.
    var isProcessing: Bool { get }
}
