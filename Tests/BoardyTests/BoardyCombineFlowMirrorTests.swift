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

    @Test("CombineFlowTests.testCombined5FlowPutsEachValueInItsSlot (arity coverage, 2 to 5 and collections)")
    func slots() {
        let (mb, ids) = Self.boards(5)
        var got: [String] = []
        mb.registerCombinedFlow(Self.spec(mb, ids[0], String.self), Self.spec(mb, ids[1], Int.self), Self.spec(mb, ids[2], String.self),
                                Self.spec(mb, ids[3], Double.self), Self.spec(mb, ids[4], Bool.self)) { a, b, c, d, e in got = [a, "\(b)", c, "\(d)", "\(e)"] }
        var collected: [[String]] = []
        mb.registerCombinedFlow([Self.spec(mb, ids[0], String.self), Self.spec(mb, ids[2], String.self)]) { collected.append($0) }
        for (id, v) in zip(ids, ["a", 2, "c", 4.5, true] as [Any]) { mb.activation(id, with: Any?.self).activate(with: v) }
        #expect(got == ["a", "2", "c", "4.5", "true"])
        #expect(collected == [["a", "c"]])
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
