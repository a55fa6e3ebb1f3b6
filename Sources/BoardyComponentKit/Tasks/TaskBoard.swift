import BoardyCore

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
/// Complete through the scheduler (``Board/schedule(after:_:)``, or ``LiveScheduler/post(_:)`` from
/// another thread) so that runs stay deterministic.
public final class TaskBoard<Input, Output>: Board, GuaranteedBoard {
    public typealias InputType = Input
    /// The task: given the board and the input, it calls the completion once with the result.
    public typealias Executor = (TaskBoard<Input, Output>, Input, @escaping (Result<Output, any Error>) -> Void) -> Void

    private let executor: Executor
    private let successHandler: ((TaskBoard<Input, Output>, Output) -> Void)?
    private let processingHandler: ((TaskBoard<Input, Output>) -> Void)?
    private let errorHandler: ((TaskBoard<Input, Output>, any Error) -> Void)?
    private let completionHandler: ((TaskBoard<Input, Output>, Bool) -> Void)?

    /// Whether a task is running.
    public private(set) var isProcessing = false

    /// A task board running `executor`; the handlers run in Boardy's order: on success the
    /// success handler, the output, processing (false), the completion handler, `complete(true)`;
    /// on failure the error handler, processing (false), the completion handler, `complete(false)`.
    public init(
        identifier: BoardID, executor: @escaping Executor,
        successHandler: ((TaskBoard<Input, Output>, Output) -> Void)? = nil,
        processingHandler: ((TaskBoard<Input, Output>) -> Void)? = nil,
        errorHandler: ((TaskBoard<Input, Output>, any Error) -> Void)? = nil,
        completionHandler: ((TaskBoard<Input, Output>, Bool) -> Void)? = nil
    ) {
        self.executor = executor
        self.successHandler = successHandler
        self.processingHandler = processingHandler
        self.errorHandler = errorHandler
        self.completionHandler = completionHandler
        super.init(identifier: identifier)
    }

    public func activationRejection(withOption option: Any?) -> TraceEvent.CancelReason? {
        isProcessing ? .busy : nil
    }

    public func shouldBypassGatewayBarrier() -> Bool { true }

    public func activate(withGuaranteedInput input: Input) {
        isProcessing = true
        processingHandler?(self)
        executor(self, input) { [self] result in finish(result) }
    }

    private func finish(_ result: Result<Output, any Error>) {
        guard isProcessing else { return }  // a second completion call does nothing
        switch result {
        case let .success(output):
            successHandler?(self, output)
            sendOutput(output)
            isProcessing = false
            processingHandler?(self)
            completionHandler?(self, true)
            complete(true)
        case let .failure(error):
            errorHandler?(self, error)
            isProcessing = false
            processingHandler?(self)
            completionHandler?(self, false)
            complete(false)
        }
    }
}
