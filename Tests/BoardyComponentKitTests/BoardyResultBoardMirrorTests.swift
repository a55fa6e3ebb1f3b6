import Boardy
import Dispatch
import Testing

/// Mirrors of Boardy's ResultBoardTests (1.63.1), each named after the case it mirrors and
/// written from what it checks.
@Suite("Mirrors of Boardy's ResultBoardTests")
struct BoardyResultBoardMirrorTests {
    struct Oops: Error {}

    @Test("ResultBoardTests.testExample")
    func progressThenSuccess() {
        var finish: ((BoardResult<String, any Error>) -> Void)?
        let board = ResultTaskBoard<String, String, any Error>(identifier: "result-board") { input, callback in
            callback(.progress)
            finish = { callback($0) }
            _ = input
        }
        var isLoading = false
        var result: String?
        let motherboard: any FlowMotherboard = Motherboard(boards: [board])
        motherboard.matchedFlow("result-board", with: BoardResult<String, any Error>.self).handle { r in
            switch r {
            case let .success(data):
                result = data
                isLoading = false
            case .progress: isLoading = true
            default: isLoading = false
            }
        }
        motherboard.activation("result-board", with: String.self).activate(with: "DATA")
        #expect(isLoading)
        finish?(.success("DATA"))
        #expect(!isLoading)
        #expect(result == "DATA")
        #expect(motherboard.boards.isEmpty, "a completed task board is uninstalled")
    }

    @Test("ResultBoardTests.testConcurrentActivationRunsTheExecutorExactlyOnce")
    func concurrentActivationRunsOnce() {
        let executions = Locked(0)
        let board = ResultTaskBoard<Int, Int, any Error>(identifier: "result-board-race") { _, _ in
            executions.withLock { $0 += 1 }
        }
        let shared = UncheckedBox(board)
        DispatchQueue.concurrentPerform(iterations: 100) { _ in shared.value.activate(withGuaranteedInput: 1) }
        #expect(executions.withLock { $0 } == 1)
    }

    /// `@unchecked Sendable`: hands the board to the concurrent callers, as Boardy's test does.
    final class UncheckedBox<T>: @unchecked Sendable {
        let value: T
        init(_ value: T) { self.value = value }
    }
}
