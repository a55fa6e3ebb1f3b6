import BoardyCore

/// What a ``ResultTaskBoard`` sends (Boardy's `BoardResult`): progress along the way, then one
/// final result.
public enum BoardResult<Success, Failure>: TraceValueConvertible {
    /// Progress (sent; the task goes on).
    case progress(fractionCompleted: Double)
    /// The final value (sent, then `complete(true)`).
    case success(Success)
    /// The task failed (sent, then `complete(false)`).
    case failure(Failure)
    /// The task was cancelled (sent, then `complete(false)`).
    case cancel

    /// Progress that has not measured anything yet.
    public static var progress: Self { .progress(fractionCompleted: 0) }

    /// Whether this is progress (the task goes on).
    public var inProgress: Bool {
        if case .progress = self { return true }
        return false
    }

    /// `{"progress": fraction}`, `{"success": value}`, `{"failure": "…"}` or `"cancel"`.
    public var traceValue: JSONValue {
        switch self {
        case let .progress(f): return ["progress": .double(f)]
        case let .success(v): return ["success": TraceValue.json(v) ?? .null]
        case let .failure(e): return ["failure": .string(String(describing: e))]
        case .cancel: return "cancel"
        }
    }
}

/// A task board whose output is a ``BoardResult`` (ComponentKit's `ResultTaskBoard`): progress
/// is only sent; success completes with true; failure and cancel complete with false. One
/// activation at a time (Boardy rule 25): another arriving meanwhile is dropped — traced as
/// `busy` when it comes through a motherboard, and ignored when the board is called directly
/// from several threads at once (the claim is one locked step); a second final result is a
/// no-op.
public final class ResultTaskBoard<Input, Success, Failure>: Board, GuaranteedBoard, GuaranteedOutputSendingBoard {
    /// The task's input.
    public typealias InputType = Input
    /// What the board sends.
    public typealias OutputType = BoardResult<Success, Failure>
    /// How the task reports: any number of progress values, then one final result.
    public typealias ExecutorCallback = (BoardResult<Success, Failure>) -> Void
    /// The task.
    public typealias Executor = (Input, @escaping ExecutorCallback) -> Void

    private let executor: Executor
    private let allowBypassGatewayBarrier: Bool
    private let active = Locked(false)

    /// Whether a task is running.
    public var isProcessing: Bool { active.withLock { $0 } }

    /// A result task board running `executor`; it bypasses the gateway unless told otherwise.
    public init(identifier: BoardID, allowBypassGatewayBarrier: Bool = true, executor: @escaping Executor) {
        self.executor = executor
        self.allowBypassGatewayBarrier = allowBypassGatewayBarrier
        super.init(identifier: identifier)
    }

    /// `busy` while a task runs (traced when the activation comes through a motherboard).
    public func activationRejection(withOption option: Any?) -> TraceEvent.CancelReason? {
        isProcessing ? .busy : nil
    }

    /// Whether the gateway lets it through without its gate (by default it does).
    public func shouldBypassGatewayBarrier() -> Bool { allowBypassGatewayBarrier }

    /// Runs the task, unless one is running (claimed in one locked step).
    public func activate(withGuaranteedInput input: Input) {
        guard active.withLock({ a -> Bool in
            defer { a = true }
            return !a
        }) else { return }
        executor(input) { [weak self] result in self?.report(result) }
    }

    private func report(_ result: BoardResult<Success, Failure>) {
        if case .progress = result {
            if isProcessing { sendOutput(result) }
            return
        }
        // The final result once: releasing is one locked step too.
        guard active.withLock({ a -> Bool in
            defer { a = false }
            return a
        }) else { return }
        sendOutput(result)
        if case .success = result { complete(true) } else { complete(false) }
    }
}
