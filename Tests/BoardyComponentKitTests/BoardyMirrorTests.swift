import Boardy
import BoardyTestSupport
import Testing

/// Behaviours Boardy's own ComponentKit tests check with Boardy's internals (so those cases do
/// not compile against Boardy's public API), checked here through ours. Each test names the
/// Boardy test (Example/Tests, 1.63.1) it mirrors.
@Suite("Mirrors of Boardy's BlockTaskTests and BarrierTests")
struct BoardyComponentKitMirrorTests {
    @Test("BlockTaskTests.testDuplicateCompletionDeliversSuccessAndTerminalSequenceOnce")
    func duplicateCompletion() {
        var events: [String] = []
        var finish: ((Result<String, any Error>) -> Void)?
        let board = BlockTaskBoard<String, String>(identifier: "block") { _, _, completion in finish = completion }
        let mainboard = Motherboard(boards: [board])
        let parameter = BlockTaskParameter<String, String>(input: "in")
            .onSuccess { _, output in events.append("success.\(output)") }
            .onProcessing { _, processing in events.append("processing.\(processing)") }
            .onCompletion { _, status in events.append("completion.\(status)") }
        mainboard.activateBoard(identifier: "block", withOption: parameter)
        finish?(.success("a"))
        finish?(.success("b"))
        #expect(events == ["processing.true", "success.a", "processing.false", "completion.done"])
    }

    @Test("BlockTaskTests.testLatestCancelsEveryOlderStartedTaskExactlyOnce")
    func latestCancelsOlderOnce() {
        var cancelled: [String] = []
        var statuses: [String: [TaskCompletionStatus]] = [:]
        let board = BlockTaskBoard<String, String>(identifier: "latest", executingType: .latest) { _, input, _ in
            BlockTaskCanceler { cancelled.append(input) }
        }
        let mainboard = Motherboard(boards: [board])
        for input in ["1", "2", "3"] {
            mainboard.activateBoard(
                identifier: "latest",
                withOption: BlockTaskParameter<String, String>(input: input).onCompletion { (status: TaskCompletionStatus) in statuses[input, default: []].append(status) })
        }
        #expect(cancelled == ["1", "2"])
        #expect(statuses["1"] == [.cancelled] && statuses["2"] == [.cancelled] && statuses["3"] == nil)
    }

    @Test("BlockTaskTests.testConcurrentZeroIsClampedToOneAndDoesNotStall")
    func concurrentZero() {
        var finishes: [(Result<String, any Error>) -> Void] = []
        var done: [String] = []
        let board = BlockTaskBoard<String, String>(identifier: "c0", executingType: .concurrent(max: 0)) { _, _, completion in
            finishes.append(completion)
        }
        let mainboard = Motherboard(boards: [board])
        for input in ["a", "b"] {
            mainboard.activateBoard(
                identifier: "c0", withOption: BlockTaskParameter<String, String>(input: input).onSuccess { (o: String) in done.append(o) })
        }
        #expect(finishes.count == 1)  // one at a time
        finishes[0](.success("a"))
        #expect(finishes.count == 2)  // the second started
        finishes[1](.success("b"))
        #expect(done == ["a", "b"])
    }

    @Test("BarrierTests.testBarrierBoardCancelDropsQueuedProcessesWithoutRunningThem")
    func barrierCancelDropsWaiters() {
        let barrier = BarrierBoard<String>(identifier: "barrier")
        let mainboard = Motherboard(boards: [barrier])
        var ran: [String] = []
        var completions: [Bool] = []
        mainboard.completionFlow("barrier").handle { completions.append($0) }
        for n in ["1", "2"] {
            mainboard.activation("barrier", with: BarrierBoard<String>.Action.self).activate(with: .wait { ran.append("\(n):\($0)") })
        }
        mainboard.activation("barrier", with: BarrierBoard<String>.Action.self).activate(with: .cancel)
        #expect(ran.isEmpty)
        #expect(completions == [false])
        #expect(mainboard.boards.isEmpty)
    }
}

/// Mirrors of Boardy's BlockTaskTests cases that needed a behaviour of ours to change.
@Suite("Mirrors of Boardy's BlockTaskTests (onlyResult)")
struct BoardyBlockTaskMirrorTests {
    @Test("BlockTaskTests.testOnlyResultFansResultToPendingHandlersOnceInActivationOrder")
    func onlyResultFansOut() {
        var events: [String] = []
        var finish: ((Result<String, any Error>) -> Void)?
        var started: [String] = []
        let board = BlockTaskBoard<String, String>(identifier: "block", executingType: .onlyResult) { _, input, completion in
            started.append(input)
            finish = completion
            return .none
        }
        let motherboard = Motherboard(boards: [board])
        motherboard.matchedFlow("block", with: String.self).handle { events.append("output.\($0)") }
        motherboard.completionFlow("block").handle { _ in events.append("board.complete") }
        func parameter(_ input: String) -> BlockTaskParameter<String, String> {
            BlockTaskParameter<String, String>(input: input)
                .onSuccess { _, output in events.append("success.\(input).\(output)") }
                .onProcessing { _, processing in events.append("processing.\(input).\(processing)") }
                .onCompletion { _, status in events.append("completion.\(input).\(status == .done ? "done" : "cancelled")") }
        }
        motherboard.activateBoard(identifier: "block", withOption: parameter("first"))
        motherboard.activateBoard(identifier: "block", withOption: parameter("second"))
        #expect(started == ["first"])
        finish?(.success("shared"))
        #expect(events == [
            "processing.first.true", "processing.second.true", "success.first.shared", "output.shared", "processing.first.false",
            "completion.first.done", "success.second.shared", "output.shared", "processing.second.false", "completion.second.done",
            "board.complete",
        ])
        finish?(.failure(CancellationError()))
        #expect(events.count == 11, "a second result is a no-op")
    }
}
