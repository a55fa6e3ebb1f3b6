import Boardy
import Dispatch
import Testing

// testDuplicateCompletionDeliversSuccessAndTerminalSequenceOnce, testLatestCancelsEveryOlderStartedTaskExactlyOnce,
//   testOnlyResultFansResultToPendingHandlersOnceInActivationOrder and testConcurrentZeroIsClampedToOneAndDoesNotStall
//   are mirrored in BoardyMirrorTests.swift.

/// Mirrors of Boardy's BlockTaskTests (1.63.1), each named after the case it mirrors and written
/// from what the case checks. Where Boardy delivers a completion from `DispatchQueue.main.async`,
/// the test thread delivers it here (still another thread than the executor's).
@Suite("Mirrors of Boardy's BlockTaskTests")
struct BoardyMirrorBlockTaskTests {
    typealias Task = BlockTaskBoard<String, String>
    typealias Parameter = BlockTaskParameter<String, String>

    struct Failed: Error {}

    /// Events, appended from any thread.
    final class Events: Sendable {
        private let storage = Locked<[String]>([])
        var values: [String] { storage.withLock { $0 } }
        func append(_ value: String) { storage.withLock { $0.append(value) } }
    }

    /// An executor the test finishes by hand: it keeps each run's input and completion, and
    /// counts the cancellations of each input.
    final class HandDriven: Sendable {
        private struct Run {
            let input: String
            let completion: Task.ExecutorCompletion
        }
        private let runs = Locked<[Run]>([])
        private let cancellations = Locked<[String: Int]>([:])

        var executor: Task.Executor {
            { [weak self] _, input, completion in
                guard let self else { return .none }
                runs.withLock { $0.append(Run(input: input, completion: completion)) }
                return .default { [weak self] in self?.cancellations.withLock { $0[input, default: 0] += 1 } }
            }
        }

        var started: [String] { runs.withLock { $0.map(\.input) } }

        func cancellationCount(for input: String) -> Int { cancellations.withLock { $0[input, default: 0] } }

        /// Calls the latest completion of `input`; false when `input` never started.
        @discardableResult
        func finish(_ input: String, with result: Result<String, any Error>) -> Bool {
            guard let completion = runs.withLock({ $0.last { $0.input == input }?.completion }) else { return false }
            completion(result)
            return true
        }
    }

    /// `@unchecked Sendable`: hands the board and its parameter to the thread that activates it,
    /// as Boardy's test does; the test's semaphores order every access.
    final class Handoff: @unchecked Sendable {
        let board: Task
        let parameter: Parameter
        init(_ board: Task, _ parameter: Parameter) {
            self.board = board
            self.parameter = parameter
        }
    }

    let id: BoardID = "block-task"

    @Test("BlockTaskTests.testFailurePreservesErrorProcessingCompletionAndBoardOrder")
    func failureOrder() {
        let executor = HandDriven()
        let events = Events()
        let motherboard = Motherboard()
        motherboard.installBoard(Task(identifier: id, executingType: .default, executor: executor.executor))
        motherboard.completionFlow(id).handle { _ in events.append("board.complete") }
        let parameter = Parameter(input: "input")
            .onSuccess { _, _ in events.append("success") }
            .onProcessing { _, processing in events.append("processing.\(processing)") }
            .onError { _, _ in events.append("error") }
            .onCompletion { _, status in events.append(status == .done ? "completion.done" : "completion.cancelled") }
        motherboard.activateBoard(.target(id, parameter))
        #expect(executor.finish("input", with: .failure(Failed())))
        let expected = ["processing.true", "error", "processing.false", "completion.done", "board.complete"]
        #expect(events.values == expected)
        #expect(executor.finish("input", with: .success("late")))
        #expect(events.values == expected, "a completion after the failure is ignored")
    }

    @Test("BlockTaskTests.testQueueStartsNextOnlyAfterCurrentTerminalTransition")
    func queueStartsNextAfterTerminal() {
        let executor = HandDriven()
        let events = Events()
        let motherboard = Motherboard()
        motherboard.installBoard(Task(identifier: id, executingType: .queue, executor: executor.executor))
        func parameter(_ input: String) -> Parameter {
            Parameter(input: input)
                .onSuccess { _, output in events.append("success.\(input).\(output)") }
                .onCompletion { (status: TaskCompletionStatus) in
                    events.append("completion.\(input).\(status == .done ? "done" : "cancelled")")
                }
        }
        motherboard.activateBoard(.target(id, parameter("first")))
        motherboard.activateBoard(.target(id, parameter("second")))
        #expect(executor.started == ["first"])
        #expect(executor.finish("first", with: .success("one")))
        #expect(executor.started == ["first", "second"])
        #expect(events.values == ["success.first.one", "completion.first.done"])
        #expect(executor.finish("second", with: .success("two")))
        #expect(events.values == ["success.first.one", "completion.first.done", "success.second.two", "completion.second.done"])
    }

    @Test("BlockTaskTests.testQueueReentrantActivationDefersBoardCompletionUntilReentrantTaskFinishes")
    func queueReentrantActivationDefersCompletion() {
        let executor = HandDriven()
        let motherboard = Motherboard()
        motherboard.installBoard(Task(identifier: id, executingType: .queue, executor: executor.executor))
        var boardCompletions = 0
        var statuses: [String: TaskCompletionStatus] = [:]
        motherboard.completionFlow(id).handle { _ in boardCompletions += 1 }
        let second = Parameter(input: "second").onCompletion { (status: TaskCompletionStatus) in statuses["second"] = status }
        let first = Parameter(input: "first")
            .onSuccess { [unowned motherboard, id] _, _ in motherboard.activateBoard(.target(id, second)) }
            .onCompletion { (status: TaskCompletionStatus) in statuses["first"] = status }
        motherboard.activateBoard(.target(id, first))
        #expect(executor.finish("first", with: .success("first")))
        #expect(executor.started == ["first", "second"], "the activation made from the success handler starts")
        #expect(statuses["first"] == .done)
        #expect(boardCompletions == 0, "the board does not complete while the reentrant task runs")
        #expect(executor.finish("second", with: .success("second")))
        #expect(statuses["second"] == .done)
        #expect(boardCompletions == 1)
    }

    @Test("BlockTaskTests.testCompletionBeforeDirectCancelerInstallationCompletesImmediatelyAndDiscardsCanceler")
    func completionBeforeCancelerReturns() {
        let entered = DispatchSemaphore(value: 0)
        let mayReturn = DispatchSemaphore(value: 0)
        let returned = DispatchSemaphore(value: 0)
        let stored = Locked<Task.ExecutorCompletion?>(nil)
        let cancellations = Locked(0)
        let events = Events()
        let board = Task(identifier: id, executingType: .default) { _, _, completion in
            stored.withLock { $0 = completion }
            entered.signal()
            _ = mayReturn.wait(timeout: .now() + 30)
            return .default { cancellations.withLock { $0 += 1 } }
        }
        let motherboard = Motherboard()
        motherboard.installBoard(board)
        motherboard.completionFlow(id).handle { _ in events.append("board.complete") }
        let parameter = Parameter(input: "input")
            .onSuccess { _, output in events.append("success.\(output)") }
            .onProcessing { (processing: Bool) in events.append("processing.\(processing)") }
            .onCompletion { (status: TaskCompletionStatus) in events.append(status == .done ? "completion.done" : "completion.cancelled") }
        let handoff = Handoff(board, parameter)
        DispatchQueue.global().async {
            handoff.board.activate(withGuaranteedInput: handoff.parameter)
            returned.signal()
        }
        #expect(entered.wait(timeout: .now() + 30) == .success, "the executor started")
        // The executor has not returned its canceler yet: the completion arrives first.
        stored.withLock { $0 }?(.success("input"))
        #expect(events.values == ["processing.true", "success.input", "processing.false", "completion.done", "board.complete"])
        #expect(cancellations.withLock { $0 } == 0)
        mayReturn.signal()
        #expect(returned.wait(timeout: .now() + 30) == .success, "the activation returned")
        #expect(cancellations.withLock { $0 } == 0, "the canceler returned after the completion is discarded, not run")
        #expect(events.values.last == "board.complete")
    }

    @Test("BlockTaskTests.testDirectCancellationInvokesRetainedCancelerAndIgnoresLateCompletion")
    func cancellationCallsTheCancelerAndIgnoresALateCompletion() {
        let executor = HandDriven()
        let events = Events()
        let board = Task(identifier: id, executingType: .default, executor: executor.executor)
        let motherboard = Motherboard()
        motherboard.installBoard(board)
        motherboard.completionFlow(id).handle { _ in events.append("board.complete") }
        let parameter = Parameter(input: "input")
            .onSuccess { _, _ in events.append("success") }
            .onProcessing { _, processing in events.append("processing.\(processing)") }
            .onError { _, _ in events.append("error") }
            .onCompletion { _, status in events.append(status == .done ? "completion.done" : "completion.cancelled") }
        motherboard.activateBoard(.target(id, parameter))
        board.cancelPendingTasksIfNeeded()
        let cancelled = ["processing.true", "processing.false", "completion.cancelled"]
        #expect(executor.cancellationCount(for: "input") == 1)
        #expect(events.values == cancelled, "cancelled, and the board does not complete")
        #expect(executor.finish("input", with: .success("late")))
        #expect(executor.cancellationCount(for: "input") == 1)
        #expect(events.values == cancelled, "the late completion is ignored")
    }

    @Test("BlockTaskTests.testCancellationBeforeDirectCancelerInstallationWinsExactlyOnce")
    func cancellationBeforeTheCancelerReturnsCallsItOnceItDoes() {
        let entered = DispatchSemaphore(value: 0)
        let mayReturn = DispatchSemaphore(value: 0)
        let returned = DispatchSemaphore(value: 0)
        let stored = Locked<Task.ExecutorCompletion?>(nil)
        let cancellations = Locked(0)
        let events = Events()
        let board = Task(identifier: id, executingType: .default) { _, _, completion in
            stored.withLock { $0 = completion }
            entered.signal()
            _ = mayReturn.wait(timeout: .now() + 30)
            return .default { cancellations.withLock { $0 += 1 } }
        }
        Motherboard().installBoard(board)
        let parameter = Parameter(input: "input")
            .onProcessing { (processing: Bool) in events.append("processing.\(processing)") }
            .onCompletion { (status: TaskCompletionStatus) in events.append(status == .done ? "completion.done" : "completion.cancelled") }
        let handoff = Handoff(board, parameter)
        DispatchQueue.global().async {
            handoff.board.activate(withGuaranteedInput: handoff.parameter)
            returned.signal()
        }
        #expect(entered.wait(timeout: .now() + 30) == .success, "the executor started")
        board.cancelPendingTasksIfNeeded()
        let cancelled = ["processing.true", "processing.false", "completion.cancelled"]
        #expect(events.values == cancelled)
        #expect(cancellations.withLock { $0 } == 0, "no canceler yet")
        mayReturn.signal()
        #expect(returned.wait(timeout: .now() + 30) == .success, "the activation returned")
        #expect(cancellations.withLock { $0 } == 1, "the canceler handed back after the cancellation runs, once")
        stored.withLock { $0 }?(.success("late"))
        #expect(events.values == cancelled)
        #expect(cancellations.withLock { $0 } == 1)
    }

    /// Hands an operation to the thread that starts it; the semaphores order every access.
    final class OperationHandoff: @unchecked Sendable {
        let operation: BlockTaskExecutionOperation<String, String>
        init(_ operation: BlockTaskExecutionOperation<String, String>) { self.operation = operation }
    }

    @Test("BlockTaskTests.testOperationCancellationBeforeCancelerInstallationInvokesCancelerAndFinishesOnce")
    func operationCancelledBeforeTheCancelerReturns() {
        let entered = DispatchSemaphore(value: 0)
        let mayReturn = DispatchSemaphore(value: 0)
        let returned = DispatchSemaphore(value: 0)
        let cancellations = Locked(0)
        let board = Task(identifier: id, executingType: .default) { _, _, _ in
            entered.signal()
            _ = mayReturn.wait(timeout: .now() + 30)
            return .default { cancellations.withLock { $0 += 1 } }
        }
        let operation = BlockTaskExecutionOperation(taskID: "task", input: "input", taskBoard: board)
        let handoff = OperationHandoff(operation)
        DispatchQueue.global().async {
            handoff.operation.start()
            returned.signal()
        }
        #expect(entered.wait(timeout: .now() + 30) == .success, "the executor started")
        operation.cancel()
        operation.cancel()
        #expect(operation.isCancelled)
        #expect(operation.isFinished, "finished at once, without waiting for the executor")
        #expect(cancellations.withLock { $0 } == 0)
        mayReturn.signal()
        #expect(returned.wait(timeout: .now() + 30) == .success, "start returned")
        #expect(cancellations.withLock { $0 } == 1, "the late canceler runs once")
        #expect(operation.isFinished)
    }

    @Test("BlockTaskTests.testBlockTaskInputAdapterUsesControlledExecutor")
    func plainInputThroughBlockActivation() {
        let executor = HandDriven()
        let motherboard = Motherboard()
        motherboard.installBoard(Task(identifier: id, executingType: .default, executor: executor.executor))
        var output: String?
        var boardCompletions = 0
        motherboard.matchedFlow(id, with: String.self).handle { output = $0 }
        motherboard.completionFlow(id).handle { _ in boardCompletions += 1 }
        motherboard.blockActivation(id, with: Parameter.self).activate(with: "input")
        #expect(executor.started == ["input"])
        #expect(executor.finish("input", with: .success("output")))
        #expect(output == "output")
        #expect(boardCompletions == 1)
    }

    @Test("BlockTaskTests.testTerminalSequenceStaysOnActivationExecutor")
    func terminalSequenceStaysOnTheCallingQueue() {
        let queue = DispatchQueue(label: "boardy-viz.mirror.block-task")
        let key = DispatchSpecificKey<String>()
        let marker = "block-task-executor"
        queue.setSpecific(key: key, value: marker)
        func whereAmI() -> String { DispatchQueue.getSpecific(key: key) == marker ? marker : "other" }
        let events = Events()
        var stored: Task.ExecutorCompletion?
        let motherboard = Motherboard()
        motherboard.installBoard(Task(identifier: id, executingType: .default) { _, _, completion in
            events.append("executor.\(whereAmI())")
            stored = completion
            return .default {}
        })
        motherboard.matchedFlow(id, with: String.self).handle { events.append("output.\($0).\(whereAmI())") }
        motherboard.completionFlow(id).handle { _ in events.append("board.complete.\(whereAmI())") }
        let parameter = Parameter(input: "input")
            .onSuccess { _, output in events.append("success.\(output).\(whereAmI())") }
            .onProcessing { _, processing in events.append("processing.\(processing).\(whereAmI())") }
            .onCompletion { _, status in events.append("completion.\(status == .done ? "done" : "cancelled").\(whereAmI())") }
        queue.sync {
            motherboard.activateBoard(.target(id, parameter))
            stored?(.success("output"))
        }
        #expect(events.values == [
            "processing.true.\(marker)", "executor.\(marker)", "success.output.\(marker)", "output.output.\(marker)",
            "processing.false.\(marker)", "completion.done.\(marker)", "board.complete.\(marker)",
        ])
    }
}
