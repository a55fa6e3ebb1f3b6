import BoardyCore

/// What a ``ResultTaskBoard`` sends: progress along the way, then one final result.
public enum BoardResult<Value>: TraceValueConvertible {
    /// Intermediate progress (sent, the task goes on).
    case progress(Value)
    /// The final value (sent, then `complete(true)`).
    case success(Value)
    /// The task failed (sent, then `complete(false)`).
    case failure(any Error)
    /// The task was cancelled (sent, then `complete(false)`).
    case cancel

    public var traceValue: JSONValue {
        switch self {
        case let .progress(v): return ["progress": TraceValue.json(v) ?? .null]
        case let .success(v): return ["success": TraceValue.json(v) ?? .null]
        case let .failure(e): return ["failure": .string(String(describing: e))]
        case .cancel: return "cancel"
        }
    }
}

/// A task board without side handlers (ComponentKit's `ResultTaskBoard`): everything it has to
/// say goes out as a ``BoardResult``. Progress is only sent; success completes with true; failure
/// and cancel complete with false. One activation at a time; another arriving meanwhile is
/// dropped (`busy`) (Boardy rule 25).
public final class ResultTaskBoard<Input, Output>: Board, GuaranteedBoard {
    public typealias InputType = Input
    /// The task: it reports through `send`, any number of progress values, then one final result.
    public typealias Executor = (ResultTaskBoard<Input, Output>, Input, @escaping (BoardResult<Output>) -> Void) -> Void

    private let executor: Executor
    /// Whether a task is running.
    public private(set) var isProcessing = false

    /// A result task board running `executor`.
    public init(identifier: BoardID, executor: @escaping Executor) {
        self.executor = executor
        super.init(identifier: identifier)
    }

    public func activationRejection(withOption option: Any?) -> TraceEvent.CancelReason? {
        isProcessing ? .busy : nil
    }

    public func shouldBypassGatewayBarrier() -> Bool { true }

    public func activate(withGuaranteedInput input: Input) {
        isProcessing = true
        executor(self, input) { [self] result in report(result) }
    }

    private func report(_ result: BoardResult<Output>) {
        guard isProcessing else { return }
        sendOutput(result)
        switch result {
        case .progress: return
        case .success:
            isProcessing = false
            complete(true)
        case .failure, .cancel:
            isProcessing = false
            complete(false)
        }
    }
}
