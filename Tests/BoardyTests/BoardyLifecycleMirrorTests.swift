import Boardy
import Testing

/// Mirrors of cases in Boardy's LifecycleTests and ProducerTests that failed on our engine, each
/// named after the Boardy case; written from what the case checks, not from its code.
@Suite("Mirrors of Boardy's LifecycleTests and ProducerTests")
struct BoardyLifecycleMirrorTests {
    /// A gate that never completes.
    final class StuckGate: Board, ActivatableBoard {
        func activate(withOption _: Any?) {}
    }

    /// Counts its activations.
    final class Counting: Board, ActivatableBoard {
        private(set) var activations = 0
        func activate(withOption _: Any?) { activations += 1 }
    }

    final class Stub: Board, ActivatableBoard {
        func activate(withOption _: Any?) {}
    }

    @Test("LifecycleTests.testStuckGatewayBarrierDoesNotRetainMotherboard")
    func stuckGatewayDoesNotRetainTheMotherboard() {
        weak var weakMotherboard: Motherboard?
        weak var weakGuarded: Counting?
        do {
            let producer = BoardProducer()
            producer.registerGatewayBoard("guarded") { StuckGate(identifier: $0) }
            let guarded = Counting(identifier: "guarded")
            let motherboard = Motherboard(boardProducer: producer, boards: [guarded])
            weakMotherboard = motherboard
            weakGuarded = guarded
            motherboard.activateBoard(identifier: "guarded", withOption: "payload")
            #expect(guarded.activations == 0, "the gate is still pending")
        }
        #expect(weakMotherboard == nil, "the motherboard leaked through the pending gateway activation")
        #expect(weakGuarded == nil, "the guarded board leaked through the pending gateway activation")
    }

    @Test("ProducerTests.testRegistrationLookupReturnsTheStoredFactory")
    func lookupReturnsTheStoredFactoryElseANoBoard() {
        let producer = BoardProducer()
        producer.registerBoard("a") { _ in Stub(identifier: "board-a") }
        producer.registerBoard("b") { _ in Stub(identifier: "board-b") }
        #expect(producer.produceBoard(identifier: "a")?.identifier == "board-a")
        #expect(producer.produceBoard(identifier: "b")?.identifier == "board-b")
        #expect(producer.produceBoard(identifier: "missing") is NoBoard)
        producer.remove(registration: BoardRegistration("a") { _ in nil })
        #expect(producer.produceBoard(identifier: "a") is NoBoard)
        #expect(producer.produceBoard(identifier: "b")?.identifier == "board-b")
    }

    @Test("an unregistered id is still recorded as an unregistered activation, not a NoBoard run")
    func unregisteredStaysUnregistered() {
        let recorder = TraceRecorder()
        let runtime = BoardyRuntime(scheduler: VirtualScheduler(), observer: recorder)
        let motherboard = Motherboard(boardProducer: BoardProducer(), boards: [], runtime: runtime)
        motherboard.activateBoard(identifier: "missing", withOption: nil)
        #expect(recorder.events.contains { $0.kind == "activation.cancelled" && $0.jsonObject["reason"] == "unregistered" }, "\(recorder.events.map(\.kind))")
        #expect(!recorder.events.contains { $0.kind == "activation.performed" })
    }
}
