import Boardy
import BoardyTestSupport
import Testing

/// Behaviours Boardy's own ActivatableBarrierBoardTests check through its internal barrier
/// board, checked here through the public API. Each test names the Boardy test it mirrors.
@Suite("Mirrors of Boardy's ActivatableBarrierBoardTests")
struct BoardyBarrierMirrorTests {
    /// A gate that counts its runs and completes when told.
    final class Gate: Board, ActivatableBoard {
        var runs = 0
        func activate(withOption option: Any?) { runs += 1 }
    }

    final class Guarded: Board, GuaranteedBoard {
        typealias InputType = String
        let option: ActivationBarrierOption
        let scope: ActivationBarrierScope
        var ran: [String] = []
        init(identifier: BoardID, scope: ActivationBarrierScope = .mainboard, option: ActivationBarrierOption = .void) {
            self.option = option
            self.scope = scope
            super.init(identifier: identifier)
        }
        func activationBarrier(withGuaranteedInput input: String) -> ActivationBarrier? {
            ActivationBarrier(identifier: "gate", scope: scope, option: option)
        }
        func activate(withGuaranteedInput input: String) { ran.append(input) }
    }

    static func setup(_ guarded: Guarded) -> (Motherboard, () -> Gate?) {
        var current: Gate?
        let producer = BoardProducer()
        producer.registerBoard("gate") { id in
            let g = Gate(identifier: id)
            current = g
            return g
        }
        let mb = Motherboard(boardProducer: producer, boards: [guarded])
        return (mb, { current })
    }

    @Test("ActivatableBarrierBoardTests.testActivationBarrierDone and testActivationBarrierNotDone")
    func doneAndNotDone() {
        for done in [true, false] {
            let guarded = Guarded(identifier: "guarded")
            let (mb, gate) = Self.setup(guarded)
            mb.activateBoard(identifier: "guarded", withOption: "a")
            #expect(guarded.ran.isEmpty)
            gate()?.complete(done)
            #expect(guarded.ran == (done ? ["a"] : []))
        }
    }

    @Test("ActivatableBarrierBoardTests.testRepeatedBarrierCyclesDoNotAccumulateFlows")
    func cyclesDoNotAccumulateFlows() {
        let guarded = Guarded(identifier: "guarded")
        let (mb, gate) = Self.setup(guarded)
        let flows = mb.flows.count
        for i in 0..<3 {
            mb.activateBoard(identifier: "guarded", withOption: "\(i)")
            gate()?.complete(true)
        }
        #expect(guarded.ran == ["0", "1", "2"])
        #expect(mb.flows.count == flows)
    }

    @Test("ActivatableBarrierBoardTests.testReentrantEnqueueWaitsUntilCompletingCycleIsRemoved")
    func reentrantEnqueueStartsANewCycle() {
        let guarded = Guarded(identifier: "guarded")
        let (mb, gate) = Self.setup(guarded)
        mb.activateBoard(identifier: "guarded", withOption: "first")
        let firstGate = gate()
        // Requested from the completion of the cycle: it waits on a new cycle, with a new gate run.
        mb.completionFlow("gate").handle { _ in mb.activateBoard(identifier: "guarded", withOption: "second") }
        firstGate?.complete(true)
        #expect(guarded.ran == ["first"])
        #expect(gate() !== firstGate && gate()?.runs == 1)
        gate()?.complete(true)
        #expect(guarded.ran == ["first", "second"])
    }

    @Test("ActivatableBarrierBoardTests.testApplicationBarrierKeepsOwnerUntilCompletionThenHandsOffOnce")
    func applicationBarrierSharedOnce() {
        let runtime = BoardyRuntime(processing: .immediate)
        var gates: [Gate] = []
        let producer = BoardProducer()
        producer.registerBoard("gate") { id in
            let g = Gate(identifier: id)
            gates.append(g)
            return g
        }
        let a = Guarded(identifier: "a", scope: .application)
        let b = Guarded(identifier: "b", scope: .application)
        let first = Motherboard(identifier: "first", boards: [a], boardProducer: producer, runtime: runtime)
        let second = Motherboard(identifier: "second", boards: [b], boardProducer: producer, runtime: runtime)
        first.activateBoard(identifier: "a", withOption: "1")
        second.activateBoard(identifier: "b", withOption: "2")
        #expect(gates.count == 1)  // one run for the whole app, owned by the first motherboard
        gates[0].complete(true)
        gates[0].complete(true)
        #expect(a.ran == ["1"] && b.ran == ["2"])
    }

    @Test("ActivatableBarrierBoardTests.testBarrierIdentifierIsStableAcrossReads and testUnidentifiedBarrierIdentifierIsStablePerActivation")
    func identifiersAreStable() {
        let unique = ActivationBarrier(identifier: "gate", option: .unique("k"))
        #expect(unique.barrierIdentifier == unique.barrierIdentifier)
        #expect(unique.barrierIdentifier == ActivationBarrier(identifier: "gate", option: .unique("k")).barrierIdentifier)
        #expect(unique.barrierIdentifier != ActivationBarrier(identifier: "gate").barrierIdentifier)
        let fresh = ActivationBarrier(identifier: "gate", option: .unidentified(1))
        #expect(fresh.barrierIdentifier == fresh.barrierIdentifier)
    }

    @Test("ActivatableBarrierBoardTests.testApplicationScopeUnidentifiedBarrierKeepsEachActivationIdentity")
    func unidentifiedNeverShares() {
        let guarded = Guarded(identifier: "guarded", scope: .application, option: .unidentified("v"))
        var gates: [Gate] = []
        let producer = BoardProducer()
        producer.registerBoard("gate") { id in
            let g = Gate(identifier: id)
            gates.append(g)
            return g
        }
        let mb = Motherboard(boardProducer: producer, boards: [guarded])
        mb.activateBoard(identifier: "guarded", withOption: "1")
        mb.activateBoard(identifier: "guarded", withOption: "2")
        // Each request its own barrier: the gate runs for each (the second request re-activates
        // the installed gate board), and completing it releases both runs' waiters.
        #expect(gates.count == 1 && gates[0].runs == 2)
        gates[0].complete(true)
        #expect(guarded.ran == ["1", "2"])
    }

    @Test("ActivatableBarrierBoardTests.testBarrierRecoversAfterResetFlows")
    func recoversAfterResetFlows() {
        let guarded = Guarded(identifier: "guarded")
        let (mb, gate) = Self.setup(guarded)
        mb.activateBoard(identifier: "guarded", withOption: "a")
        mb.resetFlows()
        gate()?.complete(true)
        #expect(guarded.ran == ["a"])
    }
}
