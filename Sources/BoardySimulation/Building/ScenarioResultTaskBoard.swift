import BoardyComponentKit
import BoardyCore

/// A scenario's `resultTask` board: ComponentKit's ``ResultTaskBoard`` rules (rule 25) with
/// progress values of any JSON, as the scenario format allows (Boardy's progress is a fraction).
/// Its outputs trace as `{"progress": V}`, `{"success": V}`, `{"failure": "…"}` and `"cancel"`.
final class ScenarioResultTaskBoard: Board, GuaranteedBoard {
    typealias InputType = Any?

    /// What it sends.
    enum Result: TraceValueConvertible {
        case progress(JSONValue)
        case success(JSONValue)
        case failure(any Error)

        var traceValue: JSONValue {
            switch self {
            case let .progress(v): return ["progress": v]
            case let .success(v): return ["success": v]
            case let .failure(e): return ["failure": .string(String(describing: e))]
            }
        }
    }

    typealias Executor = (ScenarioResultTaskBoard, @escaping (Result) -> Void) -> Void
    private let executor: Executor
    private(set) var isProcessing = false

    init(identifier: BoardID, executor: @escaping Executor) {
        self.executor = executor
        super.init(identifier: identifier)
    }

    func activationRejection(withOption option: Any?) -> TraceEvent.CancelReason? { isProcessing ? .busy : nil }

    func shouldBypassGatewayBarrier() -> Bool { true }

    func activate(withGuaranteedInput input: Any?) {
        isProcessing = true
        executor(self) { [self] result in report(result) }
    }

    private func report(_ result: Result) {
        guard isProcessing else { return }
        sendOutput(result)
        switch result {
        case .progress: return
        case .success:
            isProcessing = false
            complete(true)
        case .failure:
            isProcessing = false
            complete(false)
        }
    }
}
