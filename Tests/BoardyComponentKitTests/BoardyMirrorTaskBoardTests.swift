import Boardy
import Dispatch
import Testing

/// Mirrors of Boardy's TaskBoardTests (1.63.1), each named after the case it mirrors and written
/// from what the case checks. Boardy's `testExample` completes from `DispatchQueue.main.async`;
/// here the test holds the completion and calls it once the activations are in.
@Suite("Mirrors of Boardy's TaskBoardTests")
struct BoardyMirrorTaskBoardTests {
    /// `@unchecked Sendable`: hands a board or a completion to `concurrentPerform`'s callers, as
    /// Boardy's tests do (the board guards its own state).
    final class Shared<T>: @unchecked Sendable {
        let value: T
        init(_ value: T) { self.value = value }
    }

    @Test("TaskBoardTests.testExample")
    func oneRunWhileBusyThenCompletes() throws {
        var isLoading = false
        var completedSeen = false
        var started: [Int] = []
        var finish: ((Result<String, any Error>) -> Void)?
        let board = TaskBoard<Int, String>(identifier: "test-board") { _, input, completion in
            started.append(input)
            finish = { completion($0) }
        } processingHandler: { board in
            isLoading = board.isProcessing
        } completionHandler: { board in
            if board.isCompleted { completedSeen = true }
        }
        let motherboard: any FlowMotherboard = Motherboard(boards: [board])
        var results: [String?] = []
        motherboard.matchedFlow("test-board", with: String.self).handle { results.append($0) }
        for n in 1...3 { motherboard.activation("test-board", with: Int.self).activate(with: n) }
        #expect(isLoading)
        #expect(started == [1], "activations arriving while the task runs are dropped")
        let complete = try #require(finish)
        complete(.success(String(started[0])))
        #expect(completedSeen)
        #expect(isLoading == false)
        #expect(results == ["1"])
        #expect(motherboard.boards.isEmpty, "the task board leaves once its task is done")
    }

    @Test("TaskBoardTests.testConcurrentActivationRunsTheExecutorExactlyOnce")
    func concurrentActivationRunsOnce() {
        let executions = Locked(0)
        // The completion is never called: the board stays busy for the whole test.
        let board = Shared(TaskBoard<Int, Int>(identifier: "task-board-race") { _, _, _ in executions.withLock { $0 += 1 } })
        DispatchQueue.concurrentPerform(iterations: 100) { _ in board.value.activate(withGuaranteedInput: 1) }
        #expect(executions.withLock { $0 } == 1)
        #expect(board.value.isProcessing)
    }

    @Test("TaskBoardTests.testConcurrentCompletionReturnsTheBoardToIdle")
    func concurrentCompletionEndsIdle() throws {
        let completions = Locked<[(Result<Int, any Error>) -> Void]>([])
        let board = TaskBoard<Int, Int>(identifier: "task-board-release") { _, _, completion in
            completions.withLock { $0.append(completion) }
        }
        board.activate(withGuaranteedInput: 1)
        #expect(completions.withLock { $0.count } == 1)
        let completion = Shared(try #require(completions.withLock { $0.first }))
        DispatchQueue.concurrentPerform(iterations: 50) { _ in completion.value(.success(1)) }
        #expect(board.isCompleted)
        #expect(!board.isProcessing)
    }
}
