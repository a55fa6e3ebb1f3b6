import Boardy
import Dispatch
import Foundation
import Testing

/// Mirrors of Boardy's CombineFlowTests (1.63.1), each named after the case it mirrors and
/// written from what it checks.
@Suite("Mirrors of Boardy's CombineFlowTests")
struct BoardyCombineFlowMirrorTests {
    /// Sends what it is activated with.
    final class Sut<Value>: Board, GuaranteedBoard, GuaranteedOutputSendingBoard {
        typealias InputType = Value
        typealias OutputType = Value
        func activate(withGuaranteedInput input: Value) { sendOutput(input) }
    }

    final class Sync: Board, GuaranteedBoard {
        typealias InputType = Any?
        func activate(withGuaranteedInput input: Any?) { sendToMotherboard(data: input) }
    }

    static func boards(_ n: Int) -> (any FlowMotherboard, [BoardID]) {
        let ids = (0..<n).map { BoardID("b\($0)") }
        return (Motherboard(boards: ids.map { Sync(identifier: $0) }), ids)
    }

    static func spec<O>(_ mb: any FlowMotherboard, _ id: BoardID, _: O.Type) -> GuaranteedOutputSpecifications<O> {
        mb.matchedFlow(id, with: O.self).specifications
    }

    @Test("CombineFlowTests.testCombined2FlowHappyCase")
    func combined2() {
        let mb: any FlowMotherboard = Motherboard(boards: [Sut<String?>(identifier: "b1"), Sut<Int>(identifier: "b2")])
        var got: (String?, Int)?
        mb.registerCombinedFlow(mb.matchedFlow("b1", with: String?.self).specifications, mb.matchedFlow("b2", with: Int.self).specifications) { got = ($0, $1) }
        mb.activation("b1", with: String?.self).activate(with: nil)
        mb.activation("b2", with: Int.self).activate(with: 101)
        #expect(got != nil)
        #expect(got?.0 == nil)
        #expect(got?.1 == 101)
    }

    @Test("CombineFlowTests.testDoNextPreservesBoxedNilInIdentifierOrder")
    func boxedNil() throws {
        var batches: [[Any]] = []
        let flow = OutputCombinedFlow(matchedIdentifiers: ["b1", "b2"]) { batches.append($0) }
        let none: String? = nil
        flow.doNext(with: OutputModel(identifier: "b1", data: none))
        flow.doNext(with: OutputModel(identifier: "b2", data: 101))
        let values = try #require(batches.first)
        #expect(batches.count == 1 && values.count == 2)
        let nilValue = Mirror(reflecting: values[0])
        #expect(nilValue.displayStyle == .optional && nilValue.children.isEmpty)
        #expect(values[1] as? Int == 101)
    }

    @Test("CombineFlowTests.testHandlerCanReenterFlowWithSecondBatch")
    func reentrant() throws {
        let storage = Locked<OutputCombinedFlow?>(nil)
        let seen = Locked<(count: Int, second: [Any]?)>((0, nil))
        let done = DispatchSemaphore(value: 0)
        let flow = OutputCombinedFlow(matchedIdentifiers: ["b1", "b2"]) { values in
            let n = seen.withLock { s -> Int in
                s.count += 1
                if s.count == 2 { s.second = values }
                return s.count
            }
            if n == 1 {
                let again = storage.withLock { $0 }
                again?.doNext(with: OutputModel(identifier: "b1", data: "second"))
                again?.doNext(with: OutputModel(identifier: "b2", data: 202))
            } else {
                done.signal()
            }
        }
        storage.withLock { $0 = flow }
        let shared = storage
        DispatchQueue.global().async {
            let f = shared.withLock { $0 }
            f?.doNext(with: OutputModel(identifier: "b1", data: "first"))
            f?.doNext(with: OutputModel(identifier: "b2", data: 101))
        }
        #expect(done.wait(timeout: .now() + 30) == .success, "the handler ran again from inside itself without a deadlock")
        let second = try #require(seen.withLock { $0.second })
        #expect(second[0] as? String == "second" && second[1] as? Int == 202)
        storage.withLock { $0 = nil }
    }

    @Test("CombineFlowTests.testCombinedFlow3AritySlotsAreOrdered, testCombinedFlow4AritySlotsAreOrdered, testCombinedFlow5AritySlotsAreOrdered and testCombinedCollectionFlowDeliversEveryOutput")
    func slots() {
        let (mb, ids) = Self.boards(5)
        func s<O>(_ i: Int, _: O.Type) -> GuaranteedOutputSpecifications<O> { Self.spec(mb, ids[i], O.self) }
        var got3: [String] = [], got4: [String] = [], got5: [String] = []
        mb.registerCombinedFlow(s(0, String.self), s(1, Int.self), s(2, String.self)) { a, b, c in got3 = [a, "\(b)", c] }
        mb.registerCombinedFlow(s(0, String.self), s(1, Int.self), s(2, String.self), s(3, Double.self)) { a, b, c, d in got4 = [a, "\(b)", c, "\(d)"] }
        mb.registerCombinedFlow(s(0, String.self), s(1, Int.self), s(2, String.self), s(3, Double.self), s(4, Bool.self)) { a, b, c, d, e in
            got5 = [a, "\(b)", c, "\(d)", "\(e)"]
        }
        var collected: [[String]] = []
        mb.registerCombinedFlow([s(0, String.self), s(2, String.self)]) { collected.append($0) }
        for (id, v) in zip(ids, ["a", 2, "c", 4.5, true] as [Any]) { mb.activation(id, with: Any?.self).activate(with: v) }
        #expect(got3 == ["a", "2", "c"])
        #expect(got4 == ["a", "2", "c", "4.5"])
        #expect(got5 == ["a", "2", "c", "4.5", "true"])
        #expect(collected == [["a", "c"]])
    }

    final class Target {
        var values: [String] = []
    }

    @Test("CombineFlowTests.testTargetVariantsDeliverToALiveTarget, testTargetVariant3AritySlotsAreOrdered, testTargetVariant4AritySlotsAreOrdered, testTargetVariant5AritySlotsAreOrdered and testCombinedCollectionFlowWithTargetDelivers")
    func targetVariants() {
        let (mb, ids) = Self.boards(5)
        func s(_ i: Int) -> GuaranteedOutputSpecifications<String> { Self.spec(mb, ids[i], String.self) }
        let target = Target()
        mb.registerCombinedFlow(s(0), s(1), target: target) { t, a, b in t.values.append("2:\(a)\(b)") }
        mb.registerCombinedFlow(s(0), s(1), s(2), target: target) { t, a, b, c in t.values.append("3:\(a)\(b)\(c)") }
        mb.registerCombinedFlow(s(0), s(1), s(2), s(3), target: target) { t, a, b, c, d in t.values.append("4:\(a)\(b)\(c)\(d)") }
        mb.registerCombinedFlow(s(0), s(1), s(2), s(3), s(4), target: target) { t, a, b, c, d, e in t.values.append("5:\(a)\(b)\(c)\(d)\(e)") }
        mb.registerCombinedFlow([s(3), s(4)], target: target) { t, v in t.values.append("[]:\(v.joined())") }
        for (i, id) in ids.enumerated() { mb.activation(id, with: Any?.self).activate(with: ["a", "b", "c", "d", "e"][i]) }
        #expect(Set(target.values) == ["2:ab", "3:abc", "4:abcd", "5:abcde", "[]:de"])
    }

    @Test("CombineFlowTests.testTargetVariantsStopDeliveringAfterTargetIsReleased")
    func releasedTargetsGetNothing() {
        let (mb, ids) = Self.boards(2)
        var calls = 0
        do {
            let target = Target()
            mb.registerCombinedFlow(Self.spec(mb, ids[0], String.self), Self.spec(mb, ids[1], String.self), target: target) { _, _, _ in calls += 1 }
        }
        mb.activation(ids[0], with: Any?.self).activate(with: "a")
        mb.activation(ids[1], with: Any?.self).activate(with: "b")
        #expect(calls == 0, "a flow does not keep its target alive, and a released target gets nothing")
    }

    @Test("CombineFlowTests.testBatchOneByOneRequiresAFullNewBatch")
    func batchOneByOne() {
        let (mb, ids) = Self.boards(2)
        var batches: [[String]] = []
        mb.registerCombinedFlow(ids.map { Self.spec(mb, $0, String.self) }, strategy: .batchOneByOne) { batches.append($0) }
        mb.activation(ids[0], with: Any?.self).activate(with: "a1")
        mb.activation(ids[1], with: Any?.self).activate(with: "b1")
        mb.activation(ids[0], with: Any?.self).activate(with: "a2")
        #expect(batches.count == 1, "a partial batch does not fire")
        mb.activation(ids[1], with: Any?.self).activate(with: "b2")
        #expect(batches == [["a1", "b1"], ["a2", "b2"]])
    }

    @Test("CombineFlowTests.testLatestForeverRefiresOnEverySubsequentValue")
    func latestForever() {
        let (mb, ids) = Self.boards(2)
        var batches: [[String]] = []
        mb.registerCombinedFlow(ids.map { Self.spec(mb, $0, String.self) }, strategy: .latestForever) { batches.append($0) }
        mb.activation(ids[0], with: Any?.self).activate(with: "a1")
        mb.activation(ids[1], with: Any?.self).activate(with: "b1")
        mb.activation(ids[0], with: Any?.self).activate(with: "a2")
        #expect(batches == [["a1", "b1"], ["a2", "b1"]])
    }
}
