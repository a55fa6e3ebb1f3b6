// Boardy's tests call addBoard on the main thread. A Swift Testing test runs off it, where addBoard
// traps in a debug build as Boardy's does (TrapTests), so these call installBoard, which does not check.
//
// Mirrored in part:
// - FlowTests.test_guaranteedFlow: its first half here, the typed delivery to a target; the whole
//   case, with the trap its second half catches, in BoardyMirrorTrapTests.swift.
//
// Boardy's test_ioFlowHandling, test_ioFlowNextActivation and test_ioCompletionFlow have boards
// that send from DispatchQueue.global()/main.async and wait on an expectation; a motherboard here
// is driven from one thread, so their boards send synchronously and the checks follow at once.

import Boardy
import Testing

/// Mirrors of Boardy's FlowTests (1.63.1): chain and guaranteed flows, completion, flow steps,
/// the IO handles (matched, completion and action flows) and a bus's re-entrancy, each named
/// after the case it mirrors and written from what it checks.
@Suite("Mirrors of Boardy's FlowTests")
struct BoardyMirrorFlowTests {
    /// Sends nil whenever it is activated.
    final class Pinger: Board, ActivatableBoard {
        func activate(withOption _: Any?) { sendToMotherboard() }
    }

    /// Counts its activations and sends nothing.
    final class Counter: Board, ActivatableBoard {
        private(set) var activations = 0
        func activate(withOption _: Any?) { activations += 1 }
    }

    /// Sends a fixed value whenever it is activated, whatever the input.
    final class Fixed: Board, ActivatableBoard {
        let value: String?
        init(identifier: BoardID, value: String?) {
            self.value = value
            super.init(identifier: identifier)
        }
        func activate(withOption _: Any?) { sendToMotherboard(data: value) }
    }

    /// Sends its input back.
    final class Mirror: Board, GuaranteedBoard, GuaranteedOutputSendingBoard {
        typealias InputType = String
        typealias OutputType = String
        func activate(withGuaranteedInput input: String) { sendOutput(input) }
    }

    /// Sends its input back, then completes.
    final class SendThenComplete: Board, GuaranteedBoard, GuaranteedOutputSendingBoard {
        typealias InputType = String
        typealias OutputType = String
        func activate(withGuaranteedInput input: String) {
            sendOutput(input)
            complete(true)
        }
    }

    /// Does nothing when activated; the test makes it send.
    final class Idle: Board, ActivatableBoard {
        func activate(withOption _: Any?) {}
    }

    enum Verdict: BoardFlowAction, Equatable {
        case ok
        case nope
    }

    /// A handler's target (Boardy uses the test case itself).
    final class Owner {}

    static let main: BoardID = "test"

    static func setUp() -> (Pinger, any FlowMotherboard) {
        let board = Pinger(identifier: main)
        return (board, Motherboard(boards: [board]))
    }

    @Test("FlowTests.test_chainFlow")
    func chainFlow() {
        let (board, mb) = Self.setUp()
        let owner = Owner()
        var ints: (Owner, Int)?
        var strings: (Owner, String)?
        var rest: (Owner, Any?)?
        mb.registerChainFlow(matchedIdentifiers: [Self.main], target: owner)
            .handle(outputType: Int.self) { ints = ($0, $1) }
            .handle(outputType: String.self) { strings = ($0, $1) }
            .eventuallyHandle { rest = ($0, $1) }

        board.sendToMotherboard(data: 11)
        #expect(ints?.0 === owner)
        #expect(ints?.1 == 11)

        board.sendToMotherboard(data: "text")
        #expect(strings?.0 === owner)
        #expect(strings?.1 == "text")

        board.sendToMotherboard()
        #expect(rest?.0 === owner, "what no typed handler takes ends in the last handler")
        #expect(rest != nil && rest?.1 == nil)
    }

    @Test("FlowTests.test_guaranteedFlow")
    func guaranteedFlow() throws {
        let (board, mb) = Self.setUp()
        let owner = Owner()
        var got: (Owner, String)?
        mb.registerGuaranteedFlow(matchedIdentifiers: [Self.main], target: owner, uniqueOutputType: String.self) { got = ($0, $1) }

        board.sendToMotherboard(data: "text")
        let result = try #require(got)
        #expect(result.0 === owner)
        #expect(result.1 == "text")
    }

    @Test("FlowTests.test_completeFlow")
    func completeFlow() {
        let (board, mb) = Self.setUp()
        #expect(mb.boards.count == 1)
        board.complete(true)
        #expect(mb.boards.count == 0)
    }

    @Test("FlowTests.test_flowSteps")
    func flowSteps() {
        let (board, mb) = Self.setUp()
        let second = Pinger(identifier: "test2")
        let third = Counter(identifier: "test3")
        mb.installBoard(second)
        mb.installBoard(third)
        #expect(mb.boards.count == 3)

        let before = mb.flows.count
        mb.registerFlowSteps(Self.main ->> "test2" ->> "test3")
        #expect(mb.flows.count == before + 2, "A ->> B ->> C is two flows")

        board.activate(withOption: nil)
        #expect(third.activations == 1)
    }

    @Test("FlowTests.test_ioFlowHandling")
    func ioFlowHandling() {
        let (_, mb) = Self.setUp()
        mb.installBoard(Fixed(identifier: "out-test", value: "OUTPUT"))
        var got: String?
        var calls = 0
        mb.matchedFlow("out-test").handle { output in
            got = output as? String
            calls += 1
        }

        mb.activation("out-test").activate(with: "Input" as Any)
        #expect(calls == 1)
        #expect(got == "OUTPUT")
    }

    @Test("FlowTests.test_ioFlowNextActivation")
    func ioFlowNextActivation() {
        let (_, mb) = Self.setUp()
        mb.installBoard(Fixed(identifier: "out-board", value: "VALUE"))
        mb.installBoard(Mirror(identifier: "in-board"))
        #expect(mb.boards.count == 3)

        var got: String?
        mb.matchedFlow("out-board", with: String.self).activate(mb.activation("in-board", with: String.self))
        mb.matchedFlow("in-board", with: String.self).handle { got = $0 }

        mb.activation("out-board").activate()
        #expect(got == "VALUE", "out-board's output activated in-board, whose output reached the handler")
    }

    @Test("FlowTests.test_ioCompletionFlow")
    func ioCompletionFlow() {
        let (_, mb) = Self.setUp()
        let id: BoardID = "completion-board"
        mb.installBoard(SendThenComplete(identifier: id))
        let stranger = Mirror(identifier: "other-board")

        var got: String?
        var completions: [Bool] = []
        mb.matchedFlow(id, with: String.self).handle { got = $0 }
        mb.completionFlow(id).handle { completions.append($0) }

        stranger.complete(true)
        #expect(completions.isEmpty, "a board that is not installed completes nothing")

        mb.activation(id, with: String.self).activate(with: "VALUE")
        #expect(completions == [true])
        #expect(got == "VALUE")
    }

    @Test("FlowTests.test_ioActionFlow")
    func ioActionFlow() {
        let (_, mb) = Self.setUp()
        let sut = Idle(identifier: "sut")
        mb.installBoard(sut)
        var got: [Verdict] = []
        mb.actionFlow("sut", with: Verdict.self).handle { got.append($0) }

        sut.sendFlowAction(Verdict.ok)
        #expect(got == [.ok])
    }

    // MARK: Bus re-entrancy

    @Test("FlowTests.testBusHandlerCanConnectToTheSameBus")
    func busConnectDuringTransport() {
        let bus = Bus<String>()
        var got: [String] = []
        bus.connect(
            BusCable<String> { value in
                got.append("first:\(value)")
                if value == "one" {
                    bus.connect(BusCable<String> { got.append("second:\($0)") })
                }
            })

        bus.transport(input: "one")
        bus.transport(input: "two")
        #expect(got == ["first:one", "first:two", "second:two"], "a cable connected during a transport gets the next one")
    }

    @Test("FlowTests.testBusHandlerCanInvalidateItsOwnCableDuringTransport")
    func busInvalidateDuringTransport() {
        let bus = Bus<String>()
        var got: [String] = []
        let once = BusCable<String> { got.append("once:\($0)") }
        bus.connect(once)
        bus.connect(
            BusCable<String> { value in
                got.append("always:\(value)")
                once.invalidate()
            })

        bus.transport(input: "one")
        bus.transport(input: "two")
        #expect(got == ["once:one", "always:one", "always:two"])
    }

    @Test("FlowTests.testBusHandlerCanReenterTransport")
    func busReentrantTransport() {
        let bus = Bus<String>()
        var got: [String] = []
        bus.connect(
            BusCable<String> { value in
                got.append(value)
                if value == "outer" { bus.transport(input: "inner") }
            })

        bus.transport(input: "outer")
        #expect(got == ["outer", "inner"])
    }
}
