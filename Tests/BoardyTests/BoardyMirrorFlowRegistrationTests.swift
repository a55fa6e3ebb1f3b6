import Boardy
import Testing

/// Mirrors of Boardy's FlowRegistrationTests (1.63.1): the registration overloads of a flow
/// holder (general, by id, with a target, completion flows) and the composition ones (onto a
/// bus, out through another board), each named after the case it mirrors and written from what
/// it checks. Every case of the file is mirrored.
@Suite("Mirrors of Boardy's FlowRegistrationTests")
struct BoardyMirrorFlowRegistrationTests {
    /// Sends what it is activated with, and remembers every activation.
    final class Repeater<Value>: Board, GuaranteedBoard, GuaranteedOutputSendingBoard {
        typealias InputType = Value
        typealias OutputType = Value
        private(set) var inputs: [Value] = []
        func activate(withGuaranteedInput input: Value) {
            inputs.append(input)
            sendOutput(input)
        }
    }

    /// Completes at once, with `isDone` from its option (true when it has none).
    final class Finisher: Board, ActivatableBoard {
        func activate(withOption option: Any?) { complete(option as? Bool ?? true) }
    }

    struct Note: Equatable {
        let text: String
    }

    struct Count: Equatable {
        let value: Int
    }

    /// A handler's target (an object, so flows hold it weakly).
    final class Tray {
        private(set) var notes: [Note] = []
        func put(_ note: Note) { notes.append(note) }
    }

    static let alpha: BoardID = "alpha"
    static let beta: BoardID = "beta"
    static let relay: BoardID = "relay"

    // MARK: registerGeneralFlow(target:uniqueOutputType:)

    @Test("FlowRegistrationTests.testGeneralFlowWithTargetIgnoresSenderIdentity")
    func generalFlowAnySender() {
        let first = Repeater<Note>(identifier: Self.alpha)
        let second = Repeater<Note>(identifier: Self.beta)
        let mb = Motherboard(boards: [first, second])
        let tray = Tray()
        mb.registerGeneralFlow(target: tray, uniqueOutputType: Note.self) { tray, note in tray.put(note) }

        first.activate(withGuaranteedInput: Note(text: "one"))
        second.activate(withGuaranteedInput: Note(text: "two"))
        #expect(tray.notes == [Note(text: "one"), Note(text: "two")])
    }

    @Test("FlowRegistrationTests.testGeneralFlowWithTargetSkipsAnotherOutputType")
    func generalFlowOtherType() {
        let notes = Repeater<Note>(identifier: Self.alpha)
        let counts = Repeater<Count>(identifier: Self.beta)
        let mb = Motherboard(boards: [notes, counts])
        let tray = Tray()
        mb.registerGeneralFlow(target: tray, uniqueOutputType: Note.self) { tray, note in tray.put(note) }

        counts.activate(withGuaranteedInput: Count(value: 3))
        #expect(tray.notes.isEmpty, "the output type is the only filter, and a Count is not a Note")

        notes.activate(withGuaranteedInput: Note(text: "kept"))
        #expect(tray.notes == [Note(text: "kept")], "the same flow does take its own type")
    }

    @Test("FlowRegistrationTests.testGeneralFlowHoldsAClassTargetWeakly")
    func generalFlowWeakTarget() {
        let sender = Repeater<Note>(identifier: Self.alpha)
        let mb = Motherboard(boards: [sender])
        var tray: Tray? = Tray()
        weak let probe = tray
        var calls = 0
        mb.registerGeneralFlow(target: tray!, uniqueOutputType: Note.self) { tray, note in
            calls += 1
            tray.put(note)
        }

        sender.activate(withGuaranteedInput: Note(text: "alive"))
        #expect(calls == 1)
        #expect(tray?.notes == [Note(text: "alive")])

        tray = nil
        #expect(probe == nil, "the flow does not keep its target alive")

        sender.activate(withGuaranteedInput: Note(text: "gone"))
        #expect(calls == 1, "with its target gone the handler does not run")
    }

    // MARK: registerFlow(matchedIdentifiers:uniqueOutputType:nextHandler:)

    @Test("FlowRegistrationTests.testDedicatedFlowMatchesOnlyListedIdentifiers")
    func dedicatedFlowListedOnly() {
        let listed = Repeater<Note>(identifier: Self.alpha)
        let unlisted = Repeater<Note>(identifier: Self.beta)
        let mb = Motherboard(boards: [listed, unlisted])
        var got: [Note] = []
        mb.registerFlow(matchedIdentifiers: [Self.alpha], uniqueOutputType: Note.self) { got.append($0) }

        unlisted.activate(withGuaranteedInput: Note(text: "unlisted"))
        #expect(got.isEmpty, "a sender that is not listed does not reach the flow")

        listed.activate(withGuaranteedInput: Note(text: "listed"))
        #expect(got == [Note(text: "listed")])
    }

    @Test("FlowRegistrationTests.testDedicatedFlowSkipsMismatchedTypeWithoutTrapping")
    func dedicatedFlowOtherType() {
        let sender = Repeater<Count>(identifier: Self.alpha)
        let mb = Motherboard(boards: [sender])
        var got: [Note] = []
        mb.registerFlow(matchedIdentifiers: [Self.alpha], uniqueOutputType: Note.self) { got.append($0) }

        sender.activate(withGuaranteedInput: Count(value: 1))
        #expect(got.isEmpty, "data of another type is skipped, not delivered")
    }

    // MARK: registerFlow(matchedIdentifiers:target:uniqueOutputType:nextHandler:)

    @Test("FlowRegistrationTests.testDedicatedFlowWithTargetFiltersAndHoldsTargetWeakly")
    func dedicatedFlowWithTarget() {
        let listed = Repeater<Note>(identifier: Self.alpha)
        let unlisted = Repeater<Note>(identifier: Self.beta)
        let mb = Motherboard(boards: [listed, unlisted])
        var tray: Tray? = Tray()
        weak let probe = tray
        var calls = 0
        mb.registerFlow(matchedIdentifiers: [Self.alpha], target: tray!, uniqueOutputType: Note.self) { tray, note in
            calls += 1
            tray.put(note)
        }

        unlisted.activate(withGuaranteedInput: Note(text: "unlisted"))
        #expect(calls == 0)

        listed.activate(withGuaranteedInput: Note(text: "listed"))
        #expect(tray?.notes == [Note(text: "listed")])

        tray = nil
        #expect(probe == nil, "the flow does not keep its target alive")

        listed.activate(withGuaranteedInput: Note(text: "gone"))
        #expect(calls == 1, "with its target gone the handler does not run")
    }

    // MARK: registerCompletionFlow(matchedIdentifiers:)

    @Test("FlowRegistrationTests.testCompletionFlowDeliversIsDoneForBothOutcomes")
    func completionFlowBothOutcomes() {
        for outcome in [true, false] {
            let board = Finisher(identifier: Self.alpha)
            let mb = Motherboard(boards: [board])
            var seen: [Bool] = []
            mb.registerCompletionFlow(matchedIdentifiers: [Self.alpha]) { seen.append($0) }

            board.activate(withOption: outcome)
            #expect(seen == [outcome], "isDone arrives as the board sent it (\(outcome))")
        }
    }

    @Test("FlowRegistrationTests.testCompletionFlowFiresOnceBecauseCompletingRemovesTheSender")
    func completionFlowOnce() {
        let board = Finisher(identifier: Self.alpha)
        let mb = Motherboard(boards: [board])
        var seen: [Bool] = []
        mb.registerCompletionFlow(matchedIdentifiers: [Self.alpha]) { seen.append($0) }

        board.activate(withOption: true)
        #expect(!mb.boards.contains { $0.identifier == Self.alpha }, "completing takes the board out of its motherboard")

        board.activate(withOption: false)
        #expect(seen == [true], "a board no longer installed reaches no flow")
    }

    @Test("FlowRegistrationTests.testCompletionFlowIgnoresValueOutputFromTheSameIdentifier")
    func completionFlowIgnoresOutputs() {
        let board = Repeater<Note>(identifier: Self.alpha)
        let mb = Motherboard(boards: [board])
        var seen: [Bool] = []
        mb.registerCompletionFlow(matchedIdentifiers: [Self.alpha]) { seen.append($0) }

        board.activate(withGuaranteedInput: Note(text: "an output, not a completion"))
        #expect(seen.isEmpty)
    }

    @Test("FlowRegistrationTests.testCompletionFlowVariadicAndArrayFormsAgree")
    func completionFlowBothSpellings() {
        var byForm: [String: [Bool]] = [:]
        for form in ["variadic", "array"] {
            let board = Finisher(identifier: Self.alpha)
            let mb = Motherboard(boards: [board])
            if form == "variadic" {
                mb.registerCompletionFlow(matchedIdentifiers: Self.alpha) { byForm[form, default: []].append($0) }
            } else {
                mb.registerCompletionFlow(matchedIdentifiers: [Self.alpha]) { byForm[form, default: []].append($0) }
            }
            board.activate(withOption: true)
        }
        #expect(byForm["variadic"] == [true])
        #expect(byForm["array"] == byForm["variadic"])
    }

    // MARK: bindToBus: and sendOutputThrough:

    @Test("FlowRegistrationTests.testBindToBusTransportsMatchedOutputToEveryConnectedCable")
    func busGetsEveryCable() {
        let sender = Repeater<Note>(identifier: Self.alpha)
        let mb = Motherboard(boards: [sender])
        let bus = Bus<Note>()
        var first: [Note] = []
        var second: [Note] = []
        bus.deliver { first.append($0) }
        bus.deliver { second.append($0) }
        mb.registerFlow(matchedIdentifiers: Self.alpha, bindToBus: bus)

        sender.activate(withGuaranteedInput: Note(text: "on the bus"))
        #expect(first == [Note(text: "on the bus")])
        #expect(second == [Note(text: "on the bus")])
    }

    @Test("FlowRegistrationTests.testBindToBusIgnoresUnmatchedSenders")
    func busIgnoresOtherSenders() {
        let matched = Repeater<Note>(identifier: Self.alpha)
        let other = Repeater<Note>(identifier: Self.beta)
        let mb = Motherboard(boards: [matched, other])
        let bus = Bus<Note>()
        var got: [Note] = []
        bus.deliver { got.append($0) }
        mb.registerFlow(matchedIdentifiers: Self.alpha, bindToBus: bus)

        other.activate(withGuaranteedInput: Note(text: "other"))
        #expect(got.isEmpty, "only the listed sender feeds the bus")

        matched.activate(withGuaranteedInput: Note(text: "matched"))
        #expect(got == [Note(text: "matched")])
    }

    @Test("FlowRegistrationTests.testSendOutputThroughReEmitsUnderTheRelayIdentifier")
    func sendThroughRelay() {
        let sender = Repeater<Note>(identifier: Self.alpha)
        let relay = Repeater<Note>(identifier: Self.relay)
        let mb = Motherboard(boards: [sender, relay])
        var fromRelay: [Note] = []
        mb.registerFlow(matchedIdentifiers: [Self.relay], uniqueOutputType: Note.self) { fromRelay.append($0) }
        mb.registerFlow(matchedIdentifiers: Self.alpha, sendOutputThrough: relay)

        sender.activate(withGuaranteedInput: Note(text: "relayed"))
        #expect(fromRelay == [Note(text: "relayed")], "the relay sent it as its own")
        #expect(relay.inputs.isEmpty, "the relay sends it on without being activated")
    }

    @Test("FlowRegistrationTests.testGuaranteedBindToBusTransportsMatchedOutput")
    func guaranteedBus() {
        let sender = Repeater<Note>(identifier: Self.alpha)
        let mb = Motherboard(boards: [sender])
        let bus = Bus<Note>()
        var got: [Note] = []
        bus.deliver { got.append($0) }
        mb.registerGuaranteedFlow(matchedIdentifiers: Self.alpha, bindToBus: bus)

        sender.activate(withGuaranteedInput: Note(text: "guaranteed"))
        #expect(got == [Note(text: "guaranteed")])
    }

    @Test("FlowRegistrationTests.testGuaranteedSendOutputThroughReEmitsUnderTheRelayIdentifier")
    func guaranteedSendThroughRelay() {
        let sender = Repeater<Note>(identifier: Self.alpha)
        let relay = Repeater<Note>(identifier: Self.relay)
        let mb = Motherboard(boards: [sender, relay])
        var fromRelay: [Note] = []
        mb.registerFlow(matchedIdentifiers: [Self.relay], uniqueOutputType: Note.self) { fromRelay.append($0) }
        mb.registerGuaranteedFlow(matchedIdentifiers: Self.alpha, sendOutputThrough: relay)

        sender.activate(withGuaranteedInput: Note(text: "guaranteed relay"))
        #expect(fromRelay == [Note(text: "guaranteed relay")])
    }

    @Test("FlowRegistrationTests.testFlowDoesNotKeepTheBusAliveOnTheCallersBehalf")
    func busNotRetainedByFlow() {
        let sender = Repeater<Note>(identifier: Self.alpha)
        let mb = Motherboard(boards: [sender])
        var got: [Note] = []
        var bus: Bus<Note>? = Bus()
        bus?.deliver { got.append($0) }
        mb.registerFlow(matchedIdentifiers: Self.alpha, bindToBus: bus!)

        sender.activate(withGuaranteedInput: Note(text: "held"))
        #expect(got == [Note(text: "held")])

        weak let probe = bus
        bus = nil
        #expect(probe == nil, "the caller owns the bus; the flow does not keep it")

        sender.activate(withGuaranteedInput: Note(text: "let go"))
        #expect(got.count == 1, "nothing is delivered once the bus is gone")
    }
}
