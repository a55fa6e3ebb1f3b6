// Mirrored elsewhere:
// - FlowPrimitiveTests.testDoNextWithMismatchedNonSilentType_trapsOnAssertionFailure: in
//   BoardyMirrorTrapTests.swift, with the other cases that catch a trap.

import Boardy
import Testing

/// Mirrors of Boardy's FlowPrimitiveTests (1.63.1): the flow types on their own, without a
/// motherboard (id filters, typed delivery, weakly held targets, whole-message flows), each named
/// after the case it mirrors and written from what it checks.
@Suite("Mirrors of Boardy's FlowPrimitiveTests")
struct BoardyMirrorFlowPrimitiveTests {
    /// Sends what it is activated with (its output type is what the `of:` initializers infer).
    final class Echo<Value>: Board, GuaranteedBoard, GuaranteedOutputSendingBoard {
        typealias InputType = Value
        typealias OutputType = Value
        func activate(withGuaranteedInput input: Value) { sendOutput(input) }
    }

    /// A handler's target, to see whether a flow keeps it alive.
    final class Inbox<Value> {
        var last: Value?
    }

    /// A flow action nobody asked a typed flow about: it must pass through quietly.
    enum Tick: BoardFlowAction { case tick }

    static func message(_ id: BoardID, _ data: Any?) -> OutputModel { OutputModel(identifier: id, data: data) }

    // MARK: Matching by id

    @Test("FlowPrimitiveTests.testIdentifierFiltering_acceptsEveryListedIdentifier")
    func acceptsEveryListedID() {
        let flow = IDGenericBoardFlow<String>(matchedBoardIDs: ["one", "two"]) { _ in }
        #expect(flow.match(with: Self.message("one", "v")))
        #expect(flow.match(with: Self.message("two", "v")))
    }

    @Test("FlowPrimitiveTests.testIdentifierFiltering_rejectsIdentifierNotInList")
    func rejectsUnlistedID() {
        let flow = IDGenericBoardFlow<String>(matchedBoardIDs: ["one", "two"]) { _ in }
        #expect(!flow.match(with: Self.message("three", "v")))
    }

    @Test("FlowPrimitiveTests.testIdentifierFiltering_matchesNothingWhenListIsEmpty")
    func emptyListMatchesNothing() {
        let flow = IDGenericBoardFlow<String>(matchedBoardIDs: []) { _ in }
        #expect(!flow.match(with: Self.message("one", "v")))
        #expect(!flow.match(with: Self.message("whatever", nil)))
    }

    // MARK: Typed delivery

    @Test("FlowPrimitiveTests.testDoNextWithMatchingType_deliversUnwrappedTypedValue")
    func deliversTypedValue() {
        var got: String?
        let flow = IDGenericBoardFlow<String>(matchedBoardIDs: ["one"]) { got = $0 }
        let message = Self.message("one", "payload")
        #expect(flow.match(with: message))
        flow.doNext(with: message)
        #expect(got == "payload")
    }

    @Test("FlowPrimitiveTests.testDoNextWithMismatchedSilentType_returnsWithoutAssertingOrCallingHandler")
    func flowActionSkipsTypedHandler() {
        var calls = 0
        let flow = IDGenericBoardFlow<String>(matchedBoardIDs: ["one"]) { _ in calls += 1 }
        flow.doNext(with: Self.message("one", Tick.tick))
        #expect(calls == 0, "a flow action is not a String: the typed handler never sees it")
    }

    // MARK: IDGenericBoardFlow's initializers

    @Test("FlowPrimitiveTests.testIDGenericBoardFlowArrayAndVariadicInits_produceSameMatchingBehaviour")
    func arrayAndVariadicAgree() {
        var viaArray: Int?
        var viaVariadic: Int?
        let array = IDGenericBoardFlow<Int>(matchedBoardIDs: ["one", "two"]) { viaArray = $0 }
        let variadic = IDGenericBoardFlow<Int>(matchedBoardIDs: "one", "two") { viaVariadic = $0 }
        #expect(array.matchedBoardIDs == variadic.matchedBoardIDs)

        let listed = Self.message("one", 9)
        let unlisted = Self.message("three", 9)
        #expect(array.match(with: listed) && variadic.match(with: listed))
        #expect(!array.match(with: unlisted) && !variadic.match(with: unlisted))

        array.doNext(with: listed)
        variadic.doNext(with: listed)
        #expect(viaArray == 9)
        #expect(viaVariadic == 9)
    }

    @Test("FlowPrimitiveTests.testIDGenericBoardFlowWithTarget_holdsTargetWeakly")
    func idFlowTargetIsWeak() {
        var inbox: Inbox<String>? = Inbox()
        weak let probe = inbox
        var seen: Inbox<String>?
        let flow = IDGenericBoardFlow<String>(matchedBoardIDs: ["one"], target: inbox!) { target, value in
            seen = target
            target.last = value
        }

        flow.doNext(with: Self.message("one", "first"))
        #expect(seen != nil && seen === inbox, "the handler gets the target itself")
        #expect(seen?.last == "first")

        seen = nil
        inbox = nil
        #expect(probe == nil, "the flow does not keep its target alive")

        flow.doNext(with: Self.message("one", "second"))
        #expect(seen == nil, "with its target gone the handler does not run")
    }

    @Test("FlowPrimitiveTests.testIDGenericBoardFlowOfTypeInits_inferOutputFromBoardType")
    func ofTypeInitializers() {
        let board = Echo<String>(identifier: "one")
        var plain: String?
        var targeted: (board: Echo<String>, value: String)?
        let withoutTarget = IDGenericBoardFlow(matchedBoardID: "one", of: Echo<String>.self) { (value: String) in plain = value }
        let withTarget = IDGenericBoardFlow(matchedBoardID: "one", of: Echo<String>.self, target: board) { target, value in
            targeted = (target, value)
        }

        let message = Self.message("one", "inferred")
        #expect(withoutTarget.match(with: message))
        #expect(withTarget.match(with: message))
        withoutTarget.doNext(with: message)
        withTarget.doNext(with: message)

        #expect(plain == "inferred")
        #expect(targeted?.value == "inferred")
        #expect(targeted?.board === board)
    }

    @Test("FlowPrimitiveTests.testIDGenericBoardFlowVariadicTargetInit_agreesWithArrayFormAndHoldsTargetWeakly")
    func variadicTargetInitializer() {
        var inbox: Inbox<String>? = Inbox()
        weak let probe = inbox
        var viaArray: String?
        var viaVariadic: String?
        let array = IDGenericBoardFlow<String>(matchedBoardIDs: ["one"], target: inbox!) { _, value in viaArray = value }
        let variadic = IDGenericBoardFlow<String>(matchedBoardIDs: "one", target: inbox!) { _, value in viaVariadic = value }
        #expect(array.matchedBoardIDs == variadic.matchedBoardIDs)

        array.doNext(with: Self.message("one", "array"))
        variadic.doNext(with: Self.message("one", "variadic"))
        #expect(viaArray == "array")
        #expect(viaVariadic == "variadic")

        inbox = nil
        #expect(probe == nil, "neither form keeps the target alive")

        array.doNext(with: Self.message("one", "late"))
        variadic.doNext(with: Self.message("one", "late"))
        #expect(viaArray == "array", "the array form stops once its target is gone")
        #expect(viaVariadic == "variadic", "the variadic form stops once its target is gone")
    }

    // MARK: BoardActivateFlow

    @Test("FlowPrimitiveTests.testBoardActivateFlowWithMatcher_deliversWholeBoardOutputModel")
    func matcherGetsWholeMessage() {
        var sender: BoardID?
        var data: Any?
        let flow = BoardActivateFlow(matcher: { $0.identifier == "one" }, outputNextHandler: { message in
            sender = message.identifier
            data = message.data
        })
        #expect(flow.match(with: Self.message("one", "payload")))
        #expect(!flow.match(with: Self.message("two", "payload")))

        flow.doNext(with: Self.message("one", "payload"))
        #expect(sender == "one")
        #expect(data as? String == "payload")
    }

    @Test("FlowPrimitiveTests.testBoardActivateFlowWithMatcher_dedicatedHandlerYieldsNilOnTypeMismatch")
    func matcherDedicatedGetsNilForOtherTypes() {
        var nils = 0
        var strings: [String] = []
        let flow = BoardActivateFlow(matcher: { $0.identifier == "one" }, dedicatedNextHandler: { (value: String?) in
            if let value { strings.append(value) } else { nils += 1 }
        })
        flow.doNext(with: Self.message("one", 42))
        flow.doNext(with: Self.message("one", "fine"))
        #expect(nils == 1, "data of another type arrives as nil, without a trap")
        #expect(strings == ["fine"])
    }

    @Test("FlowPrimitiveTests.testBoardActivateFlowWithMatchedIdentifiers_deliversWholeBoardOutputModel")
    func identifiersGetWholeMessage() {
        var sender: BoardID?
        var data: Any?
        let flow = BoardActivateFlow(matchedIdentifiers: ["left", "right"], outputNextHandler: { message in
            sender = message.identifier
            data = message.data
        })
        #expect(flow.match(with: Self.message("left", "v")))
        #expect(flow.match(with: Self.message("right", "v")))
        #expect(!flow.match(with: Self.message("middle", "v")))

        flow.doNext(with: Self.message("right", "v2"))
        #expect(sender == "right")
        #expect(data as? String == "v2")
    }

    @Test("FlowPrimitiveTests.testBoardActivateFlowWithMatchedIdentifiers_dedicatedHandlerYieldsNilOnTypeMismatch")
    func identifiersDedicatedGetsNilForOtherTypes() {
        var nils = 0
        var strings: [String] = []
        let flow = BoardActivateFlow(matchedIdentifiers: ["one"], dedicatedNextHandler: { (value: String?) in
            if let value { strings.append(value) } else { nils += 1 }
        })
        flow.doNext(with: Self.message("one", 99))
        flow.doNext(with: Self.message("one", "hello"))
        #expect(nils == 1)
        #expect(strings == ["hello"])
    }

    // MARK: GenericBoardFlow

    @Test("FlowPrimitiveTests.testGenericBoardFlowDefaultMatcher_acceptsAnyOutput")
    func genericFlowMatchesEverything() {
        var got: Int?
        let flow = GenericBoardFlow<Int>(nextHandler: { got = $0 })
        #expect(flow.match(with: Self.message("a", 1)))
        #expect(flow.match(with: Self.message("b", 2)))
        #expect(flow.match(with: Self.message("c", nil)))

        flow.doNext(with: Self.message("a", 1))
        #expect(got == 1)
    }

    @Test("FlowPrimitiveTests.testGenericBoardFlowWithTarget_holdsTargetWeakly")
    func genericFlowTargetIsWeak() {
        var inbox: Inbox<Int>? = Inbox()
        weak let probe = inbox
        var seen: Inbox<Int>?
        let flow = GenericBoardFlow<Int>(matcher: { _ in true }, target: inbox!) { target, value in
            seen = target
            target.last = value
        }

        flow.doNext(with: Self.message("one", 1))
        #expect(seen != nil && seen === inbox)
        #expect(seen?.last == 1)

        seen = nil
        inbox = nil
        #expect(probe == nil, "the flow does not keep its target alive")

        flow.doNext(with: Self.message("one", 2))
        #expect(seen == nil, "with its target gone the handler does not run")
    }
}
