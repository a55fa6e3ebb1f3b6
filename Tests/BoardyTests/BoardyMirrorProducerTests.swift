import Boardy
import Testing

/// Mirrors of Boardy's ProducerTests (1.63.1), each named after the case it mirrors and written
/// from what the case checks: the weak producer box, and which factory wins a duplicate
/// registration. (`testRegistrationLookupReturnsTheStoredFactory` is mirrored in
/// BoardyLifecycleMirrorTests.swift.)
@Suite("Mirrors of Boardy's ProducerTests")
struct BoardyMirrorProducerTests {
    final class Stub: Board, ActivatableBoard {
        func activate(withOption _: Any?) {}
    }

    @Test("ProducerTests.testBoxedProducer")
    func boxHoldsTheProducerWeakly() {
        var producer: BoardProducer? = BoardProducer(registrations: [])
        let box = BoardDynamicProducerBox(producer: producer)
        #expect(box.producer != nil)
        box.registerBoard("add-one") { Stub(identifier: $0) }
        let produced = producer?.produceBoard(identifier: "add-one")
        #expect(produced != nil && !(produced is NoBoard), "a registration through the box reaches the producer")
        #expect(produced?.identifier == "add-one")
        producer = nil
        #expect(box.producer == nil, "the box does not keep the producer alive")
    }

    @Test("ProducerTests.testDefaultDuplicateRegistrationKeepsTheHistoricalWinner")
    func defaultDuplicateWinners() {
        let producer = BoardProducer()
        producer.registerBoard("dup") { _ in Stub(identifier: "first") }
        producer.registerBoard("dup") { _ in Stub(identifier: "second") }
        #expect(producer.produceBoard(identifier: "dup")?.identifier == "first", "BoardProducer keeps the first factory")

        let container = BoardContainer()
        container.registerBoard("dup") { _ in Stub(identifier: "first") }
        container.registerBoard("dup") { _ in Stub(identifier: "second") }
        #expect(container.produceBoard(identifier: "dup")?.identifier == "second", "BoardContainer keeps the last factory")
    }

    @Test("ProducerTests.testExplicitDuplicateRegistrationAgreesAcrossProducers")
    func explicitDuplicateAgrees() {
        let makers: [(String, () -> any BoardDynamicProducer)] = [("BoardProducer", { BoardProducer() }), ("BoardContainer", { BoardContainer() })]
        for (name, make) in makers {
            let replacing = make()
            replacing.registerBoard("dup", replacingExisting: false) { _ in Stub(identifier: "first") }
            replacing.registerBoard("dup", replacingExisting: true) { _ in Stub(identifier: "second") }
            #expect(replacing.produceBoard(identifier: "dup")?.identifier == "second", "\(name) replaces when told to")

            let keeping = make()
            keeping.registerBoard("dup", replacingExisting: false) { _ in Stub(identifier: "first") }
            keeping.registerBoard("dup", replacingExisting: false) { _ in Stub(identifier: "second") }
            #expect(keeping.produceBoard(identifier: "dup")?.identifier == "first", "\(name) keeps when told to")
        }
    }
}

