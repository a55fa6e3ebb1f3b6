import Boardy
import Testing

/// Mirrors of Boardy's LifecycleTests (1.63.1), each named after the case it mirrors and written
/// from what the case checks: destinations hold their source weakly, a removed board no longer
/// drives flows, completion is once, completed boards are released, `activateAllBoards` and the
/// board lookups. (`testStuckGatewayBarrierDoesNotRetainMotherboard` is mirrored in
/// BoardyLifecycleMirrorTests.swift.)
@Suite("Mirrors of Boardy's LifecycleTests")
struct BoardyMirrorLifecycleTests {
    final class Plain: Board, ActivatableBoard {
        func activate(withOption _: Any?) {}
    }

    final class Continuous: ContinuousBoard, ActivatableBoard {
        func activate(withOption _: Any?) {}
    }

    final class Counting: Board, ActivatableBoard {
        private(set) var activations = 0
        func activate(withOption _: Any?) { activations += 1 }
    }

    /// Records the inputs it gets (nil for a missing or mismatched option).
    final class Inputs: Board, DedicatedBoard {
        typealias InputType = String
        private(set) var received: [String?] = []
        func activate(withInput input: String?) { received.append(input) }
    }

    enum NoAction: BoardFlowAction {}

    /// Keeps destinations to a sibling on itself, the shape board templates produce.
    final class KeepsBoardDestinations: Board, ActivatableBoard {
        private var plain: BoardDestination?
        private var typed: BoardGenericDestination<String, String>?
        func activate(withOption _: Any?) {}
        func keepDestinations() {
            plain = ioDestination("sibling")
            typed = BoardGenericDestination<String, String>(destinationID: "sibling", source: self)
        }
    }

    /// Keeps destinations to one of its boards on itself.
    final class KeepsMainboardDestinations: Motherboard {
        private var plain: MainboardDestination?
        private var typed: MainboardGenericDestination<String, String, String, NoAction>?
        func keepDestinations() {
            plain = ioDestination("child")
            typed = MainboardGenericDestination(destinationID: "child", mainboard: self)
        }
    }

    /// Holds a callback that sends an output later, like an in-flight network completion.
    final class LateSender: Board, ActivatableBoard, GuaranteedOutputSendingBoard {
        typealias OutputType = String
        var sendLater: (() -> Void)?
        func activate(withOption _: Any?) {
            sendLater = { [weak self] in self?.sendOutput("late") }
        }
    }

    @Test("LifecycleTests.testStoredBoardDestinationDoesNotRetainItsSource")
    func boardDestinationIsWeak() {
        var board: KeepsBoardDestinations? = KeepsBoardDestinations(identifier: "host")
        weak let released = board
        board?.keepDestinations()
        board = nil
        #expect(released == nil, "a destination kept on its own source does not keep it alive")
    }

    @Test("LifecycleTests.testStoredMainboardDestinationDoesNotRetainItsMotherboard")
    func mainboardDestinationIsWeak() {
        var motherboard: KeepsMainboardDestinations? = KeepsMainboardDestinations(identifier: "host")
        weak let released = motherboard
        motherboard?.keepDestinations()
        motherboard = nil
        #expect(released == nil, "a destination kept on its own motherboard does not keep it alive")
    }

    @Test("LifecycleTests.testDestinationIsInertAfterItsSourceIsReleased")
    func destinationWithoutSourceDoesNothing() {
        var board: KeepsBoardDestinations? = KeepsBoardDestinations(identifier: "host")
        let destination = board!.ioDestination("sibling")
        weak let released = board
        board = nil
        #expect(released == nil)
        // Nothing is left to send to: each of these is a no-op, not a crash.
        destination.activation(with: String.self).activate(with: "ignored")
        destination.interaction(with: String.self).send(command: "ignored")
        destination.completer.complete()
    }

    @Test("LifecycleTests.testOutputFromARemovedBoardDoesNotReachTheMotherboard")
    func removedBoardDoesNotDriveFlows() throws {
        let source = LateSender(identifier: "source")
        let next = Counting(identifier: "next")
        let motherboard: any FlowMotherboard = Motherboard(boards: [source, next])
        motherboard.matchedFlow("source", with: String.self).handle { [unowned motherboard] _ in
            motherboard.activateBoard(identifier: "next", withOption: nil)
        }
        motherboard.activateBoard(identifier: "source", withOption: nil)
        let sendLater = try #require(source.sendLater)
        source.complete()
        #expect(!motherboard.boards.contains { $0.identifier == "source" })
        sendLater()
        #expect(next.activations == 0, "an output sent after the board left does not run its flow")
    }

    @Test("LifecycleTests.testCompletingTwiceIsANoOpRatherThanATrap")
    func secondCompletionIsIgnored() {
        let board = Counting(identifier: "board")
        let motherboard: any FlowMotherboard = Motherboard(boards: [board])
        var completions: [Bool] = []
        motherboard.completionFlow("board").handle { completions.append($0) }
        board.complete(true)
        board.complete(true)
        #expect(motherboard.boards.isEmpty)
        #expect(completions == [true], "the second completion is not delivered")
    }

    @Test("LifecycleTests.testCompleterOnAnAlreadyRemovedBoardIsANoOp")
    func completerAfterCompletionIsIgnored() {
        let board = Counting(identifier: "board")
        let motherboard: any FlowMotherboard = Motherboard(boards: [board])
        var completions: [Bool] = []
        motherboard.completionFlow("board").handle { completions.append($0) }
        board.complete(true)
        motherboard.completer("board").complete(true)
        #expect(motherboard.boards.isEmpty)
        #expect(completions == [true])
    }

    @Test("LifecycleTests.testBoardIsReleasedWhenCompletedBySibling")
    func completedBySiblingIsReleased() {
        let motherboard: any FlowMotherboard = Motherboard(boards: [
            Plain(identifier: "1"), Continuous(identifier: "2", motherboard: Motherboard()),
        ])
        weak let plain = motherboard.boards.first { $0.identifier == "1" }
        weak let continuous = motherboard.boards.first { $0.identifier == "2" }
        #expect(plain != nil)
        #expect(continuous != nil)
        // Board 2 completes board 1 through their motherboard, without touching it.
        continuous?.completer("1").complete()
        #expect(plain == nil, "a board completed by a sibling is released")
        #expect(continuous != nil)
        #expect(motherboard.boards.map(\.identifier) == ["2"])
        motherboard.completer("2").complete()
        #expect(continuous == nil, "a continuous board completed from outside is released")
        #expect(motherboard.boards.isEmpty)
    }

    @Test("LifecycleTests.testBoardIsReleasedWhenItCompletesItself")
    func completedItselfIsReleased() {
        let motherboard: any FlowMotherboard = Motherboard(boards: [Plain(identifier: "1"), Plain(identifier: "2")])
        weak let first = motherboard.boards.first { $0.identifier == "1" }
        weak let second = motherboard.boards.first { $0.identifier == "2" }
        #expect(first != nil)
        #expect(second != nil)
        first?.complete()
        #expect(first == nil, "a board that completes itself is released")
        #expect(second != nil)
        #expect(motherboard.boards.map(\.identifier) == ["2"])
    }

    @Test("LifecycleTests.testActivateAllBoardsWithDefaultInputContinuesAfterMissingInput")
    func activateAllWithDefault() {
        let (one, two, three) = (Inputs(identifier: "1"), Inputs(identifier: "2"), Inputs(identifier: "3"))
        let motherboard: any FlowMotherboard = Motherboard(boards: [one, two, three])
        motherboard.activateAllBoards(
            withInputs: [BoardInput(target: "1", input: "first"), BoardInput(target: "3", input: "third")], defaultInput: "default")
        #expect(one.received == ["first"])
        #expect(two.received == ["default"], "a board without an input of its own gets the default")
        #expect(three.received == ["third"], "the boards after one without an input still get theirs")
    }

    @Test("LifecycleTests.testActivateAllBoardsWithoutDefaultInputContinuesAfterMissingInput")
    func activateAllWithoutDefault() {
        let (one, two, three) = (Inputs(identifier: "1"), Inputs(identifier: "2"), Inputs(identifier: "3"))
        let motherboard: any FlowMotherboard = Motherboard(boards: [one, two, three])
        motherboard.activateAllBoards(withInputs: [BoardInput(target: "1", input: "first"), BoardInput(target: "3", input: "third")])
        #expect(one.received == ["first"])
        #expect(two.received.count == 1, "a board without an input of its own is still activated")
        #expect(two.received.first == .some(nil), "with nil")
        #expect(three.received == ["third"])
    }

    @Test("LifecycleTests.testGetBoardDoesNotInstallBoardForUnknownIdentifier")
    func getBoardHasNoSideEffect() {
        let motherboard = Motherboard(boards: [Plain(identifier: "known")])
        _ = motherboard.getBoard(identifier: "mistyped")
        #expect(motherboard.boards.map(\.identifier) == ["known"], "a lookup installs nothing")
    }

    @Test("LifecycleTests.testGetOrProduceBoardStillInstallsProducedBoard")
    func getOrProduceInstalls() {
        let producer = BoardProducer()
        producer.registerBoard("lazy") { Plain(identifier: $0) }
        let motherboard = Motherboard(boardProducer: producer, boards: [])
        let produced = motherboard.getOrProduceBoard(identifier: "lazy")
        #expect(produced != nil)
        #expect(motherboard.boards.map(\.identifier) == ["lazy"], "the produced board is installed")
    }
}
