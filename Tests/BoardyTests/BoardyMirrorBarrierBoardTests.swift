import Boardy
import Dispatch
import Testing

/// Mirrors of the cases of Boardy's ActivatableBarrierBoardTests (1.63.1) that drive barriers
/// through a motherboard of the test's own (barriers on any `MotherboardType`), reach the barrier
/// board a `Motherboard` shows, or its factory and `SafeDictionary`. Each is named after the case
/// it mirrors and written from what the case checks. (The cases checked through `Motherboard`'s
/// engine alone are in BoardyMirrorTests.swift.)
@Suite("Mirrors of Boardy's ActivatableBarrierBoardTests (own motherboards, barrier boards)")
struct BoardyMirrorBarrierBoardTests {
    /// A motherboard written by hand, as an app's test double would be: it counts what is
    /// installed and removed, activates what its boards ask for and removes what completes.
    final class HandMotherboard: Board, MotherboardType, BoardDelegate, FlowManageable, @unchecked Sendable {
        // @unchecked: the tests order every access from other threads with semaphores.
        let gate: BoardID
        private(set) var boards: [any ActivatableBoard] = []
        private(set) var flows: [any BoardFlow] = []
        private(set) var gateRuns = 0
        private(set) var installs: [BoardID: Int] = [:]
        private(set) var removals: [BoardID: Int] = [:]
        private(set) var repeatedInstalls = 0
        private(set) var removalsOfAbsentBoards = 0
        var onInstall: ((any ActivatableBoard) -> Void)?

        init(gate: BoardID) {
            self.gate = gate
            super.init(identifier: .random())
            registerGeneralFlow { [weak self] (request: any BoardInputModel) in self?.activateBoard(model: request) }
            registerGeneralFlow { [weak self] (done: CompleteAction) in self?.removeBoard(withIdentifier: done.identifier) }
        }

        @discardableResult
        func registerFlow(_ flow: any BoardFlow) -> Self {
            flows.append(flow)
            return self
        }
        func resetFlows() { flows = [] }
        func removeFlow(by identifier: String) { flows.removeAll { $0.identifier == identifier } }

        func addBoard(_ board: any ActivatableBoard) {
            guard !boards.contains(where: { $0.identifier == board.identifier }) else {
                repeatedInstalls += 1
                return
            }
            boards.append(board)
            board.delegate = self
            installs[board.identifier, default: 0] += 1
            onInstall?(board)
        }

        func removeBoard(withIdentifier identifier: BoardID) {
            guard boards.contains(where: { $0.identifier == identifier }) else {
                removalsOfAbsentBoards += 1
                return
            }
            boards.removeAll { $0.identifier == identifier }
            removals[identifier, default: 0] += 1
        }

        /// Produces the gate on demand: a board that counts its runs here.
        func getBoard(identifier: BoardID) -> (any ActivatableBoard)? {
            if let board = boards.first(where: { $0.identifier == identifier }) { return board }
            guard identifier == gate else { return nil }
            let counter = ClosureGate(identifier: identifier) { [weak self] in self?.gateRuns += 1 }
            installBoard(counter)
            return counter
        }

        func getGatewayBoard(identifier: BoardID) -> (any ActivatableBoard)? { nil }
        func clearActiveBoards() { boards = [] }

        /// Completes the gate, if it is installed.
        func completeGate(_ isDone: Bool) -> Bool {
            guard let gate = boards.first(where: { $0.identifier == gate }) else { return false }
            gate.complete(isDone)
            return true
        }

        func installed(_ id: BoardID) -> (any ActivatableBoard)? { boards.first { $0.identifier == id } }
    }

    final class ClosureGate: Board, ActivatableBoard {
        let ran: () -> Void
        init(identifier: BoardID, ran: @escaping () -> Void) {
            self.ran = ran
            super.init(identifier: identifier)
        }
        func activate(withOption option: Any?) { ran() }
    }

    /// A board behind an `.application` barrier on `gate`; it can hold its activation (to test
    /// what happens while a cycle releases).
    final class Guarded: Board, GuaranteedBoard, @unchecked Sendable {
        typealias InputType = String
        let gate: BoardID
        let scope: ActivationBarrierScope
        private let values = Locked<[String]>([])
        var onActivate: ((String) -> Void)?
        init(gate: BoardID, scope: ActivationBarrierScope = .application) {
            self.gate = gate
            self.scope = scope
            super.init(identifier: .random())
        }
        var ran: [String] { values.withLock { $0 } }
        func activationBarrier(withGuaranteedInput input: String) -> ActivationBarrier? {
            ActivationBarrier(identifier: gate, scope: scope, option: .void)
        }
        func activate(withGuaranteedInput input: String) {
            values.withLock { $0.append(input) }
            onActivate?(input)
        }
    }

    static func barrierID(_ gate: BoardID) -> BoardID { ActivationBarrier(identifier: gate, scope: .application).barrierIdentifier }

    /// Runs `body` on another thread; the returned semaphore signals when it returns.
    static func inBackground(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            body()
            done.signal()
        }
        return done
    }

    /// Hands objects to another thread; the semaphores order every access.
    final class Handoff<T>: @unchecked Sendable {
        let value: T
        init(_ value: T) { self.value = value }
    }

    @Test("ActivatableBarrierBoardTests.testFailedBarrierInstallationRemovesPartialBoard")
    func failedInstallationRemovesThePartialBoard() {
        let gate: BoardID = .random()
        let target = Guarded(gate: gate)
        let owner = HandMotherboard(gate: gate)
        let elsewhere = HandMotherboard(gate: gate)
        owner.installBoard(target)
        let barrierID = Self.barrierID(gate)
        // The install hands the barrier to another delegate: the barrier cannot run in `owner`.
        owner.onInstall = { board in if board.identifier == barrierID { board.delegate = elsewhere } }
        owner.activateBoard(identifier: target.identifier, withOption: "blocked")
        #expect(owner.installed(barrierID) == nil)
        #expect(elsewhere.installed(barrierID) == nil)
        #expect(target.ran.isEmpty)
        #expect(owner.removals[barrierID] == 1)
        #expect(owner.gateRuns == 0)
    }

    @Test("ActivatableBarrierBoardTests.testCompletionDelegateMismatchCleansOldInstallationBeforeNextOwner")
    func delegateMovedMeanwhileCleansUpBeforeTheNextOwner() throws {
        let gate: BoardID = .random()
        let targetA = Guarded(gate: gate)
        let targetB = Guarded(gate: gate)
        let a = HandMotherboard(gate: gate)
        let b = HandMotherboard(gate: gate)
        a.installBoard(targetA)
        b.installBoard(targetB)
        let barrierID = Self.barrierID(gate)
        a.activateBoard(identifier: targetA.identifier, withOption: "a")
        let barrier = try #require(a.installed(barrierID))
        #expect(barrier is ActivatableBarrierBoard)
        barrier.delegate = b
        #expect(a.completeGate(true))
        #expect(a.installed(barrierID) == nil)
        #expect(targetA.ran.isEmpty, "a completion heard by a motherboard that no longer hosts the barrier releases nothing")
        b.activateBoard(identifier: targetB.identifier, withOption: "b")
        #expect(b.installed(barrierID) === barrier)
        #expect(barrier.delegate === b)
        #expect(b.completeGate(true))
        #expect(targetB.ran == ["b"])
        #expect(b.installed(barrierID) == nil)
    }

    @Test("ActivatableBarrierBoardTests.testReentrantEnqueueWaitsUntilCompletingCycleIsRemoved")
    func requestDuringReleaseWaitsForTheNextCycle() {
        let gate: BoardID = .random()
        let first = Guarded(gate: gate)
        let second = Guarded(gate: gate)
        let mb = HandMotherboard(gate: gate)
        mb.installBoard(first)
        mb.installBoard(second)
        let barrierID = Self.barrierID(gate)
        mb.activateBoard(identifier: first.identifier, withOption: "first")
        let barrier = mb.installed(barrierID)
        let flowsWithBarrier = mb.flows.count
        #expect(mb.gateRuns == 1)
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        first.onActivate = { _ in
            entered.signal()
            _ = release.wait(timeout: .now() + 60)
        }
        let handoff = Handoff(mb)
        let returned = Self.inBackground { _ = handoff.value.completeGate(true) }
        #expect(entered.wait(timeout: .now() + 60) == .success, "the first activation is being released")
        #expect(mb.installed(barrierID) == nil)
        mb.activateBoard(identifier: second.identifier, withOption: "second")
        #expect(mb.gateRuns == 1, "no gate run while the last cycle releases")
        #expect(second.ran.isEmpty)
        release.signal()
        #expect(returned.wait(timeout: .now() + 60) == .success)
        #expect(mb.installed(barrierID) === barrier, "the same barrier board, installed again for the next cycle")
        #expect(mb.installs[barrierID] == 2)
        #expect(mb.removals[barrierID] == 1)
        #expect(mb.gateRuns == 2)
        #expect(mb.flows.count == flowsWithBarrier)
        #expect(mb.repeatedInstalls == 0)
        #expect(second.ran.isEmpty)
        #expect(mb.completeGate(true))
        #expect(second.ran == ["second"])
        #expect(mb.installed(barrierID) == nil)
        #expect(mb.removals[barrierID] == 2)
        #expect(mb.removalsOfAbsentBoards == 0)
    }

    @Test("ActivatableBarrierBoardTests.testApplicationBarrierKeepsOwnerUntilCompletionThenHandsOffOnce")
    func applicationBarrierHandsOffToTheNextOwnerOnce() throws {
        let gate: BoardID = .random()
        let targetA = Guarded(gate: gate)
        let joinsB = Guarded(gate: gate)
        let nextB = Guarded(gate: gate)
        let a = HandMotherboard(gate: gate)
        let b = HandMotherboard(gate: gate)
        a.installBoard(targetA)
        b.installBoard(joinsB)
        b.installBoard(nextB)
        let barrierID = Self.barrierID(gate)
        let flowsBefore = a.flows.count
        a.activateBoard(identifier: targetA.identifier, withOption: "a")
        let barrier = try #require(a.installed(barrierID))
        #expect(a.flows.count == flowsBefore + 1, "one completion flow")
        b.activateBoard(identifier: joinsB.identifier, withOption: "b-joins")
        #expect(b.installed(barrierID) == nil, "b's request joins a's cycle")
        #expect(barrier.delegate === a)
        #expect(a.gateRuns == 1 && b.gateRuns == 0)
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        targetA.onActivate = { _ in
            entered.signal()
            _ = release.wait(timeout: .now() + 60)
        }
        let handoff = Handoff(a)
        let returned = Self.inBackground { _ = handoff.value.completeGate(true) }
        #expect(entered.wait(timeout: .now() + 60) == .success)
        #expect(a.installed(barrierID) == nil && b.installed(barrierID) == nil)
        #expect(barrier.delegate === a)
        b.activateBoard(identifier: nextB.identifier, withOption: "b-next")
        #expect(b.gateRuns == 0)
        release.signal()
        #expect(returned.wait(timeout: .now() + 60) == .success)
        #expect(targetA.ran == ["a"])
        #expect(joinsB.ran == ["b-joins"])
        #expect(nextB.ran.isEmpty)
        #expect(b.installed(barrierID) === barrier)
        #expect(barrier.delegate === b)
        #expect(a.installs[barrierID] == 1 && b.installs[barrierID] == 1)
        #expect(a.flows.count == flowsBefore, "the completion flow left a along with the barrier")
        #expect(b.gateRuns == 1)
        #expect(a.repeatedInstalls + b.repeatedInstalls == 0)
        #expect(b.completeGate(true))
        #expect(nextB.ran == ["b-next"])
        #expect(b.installed(barrierID) == nil)
        #expect(b.removals[barrierID] == 1)
        #expect(a.removalsOfAbsentBoards + b.removalsOfAbsentBoards == 0)
    }

    @Test("ActivatableBarrierBoardTests.testDeadApplicationOwnerIsRecoveredAndLateCompletionCannotFinishNewOwner")
    func deadOwnerIsRecoveredAndItsLateCompletionIgnored() throws {
        let gate: BoardID = .random()
        let targetA = Guarded(gate: gate)
        var a: HandMotherboard? = HandMotherboard(gate: gate)
        a?.installBoard(targetA)
        a?.activateBoard(identifier: targetA.identifier, withOption: "orphan")
        let barrierID = Self.barrierID(gate)
        let barrier = try #require(a?.installed(barrierID))
        let lateCompletion = try #require(a?.flows.last)
        weak let gone = a
        a = nil
        #expect(gone == nil, "a pending barrier does not keep its motherboard alive")
        let targetB = Guarded(gate: gate)
        let b = HandMotherboard(gate: gate)
        b.installBoard(targetB)
        b.activateBoard(identifier: targetB.identifier, withOption: "new-owner")
        #expect(b.installed(barrierID) === barrier)
        #expect(barrier.delegate === b)
        #expect(b.gateRuns == 1)
        #expect(targetA.ran.isEmpty && targetB.ran.isEmpty)
        #expect((barrier as? ActivatableBarrierBoard)?.discardedCount == 1, "the orphan's activation is discarded, and counted")
        lateCompletion.doNext(with: OutputModel(identifier: gate, data: CompleteAction(identifier: gate, isDone: true)))
        #expect(b.installed(barrierID) === barrier, "the dead owner's flow cannot finish b's cycle")
        #expect(b.gateRuns == 1)
        #expect(targetA.ran.isEmpty && targetB.ran.isEmpty)
        #expect(b.completeGate(true))
        #expect(targetB.ran == ["new-owner"])
        #expect(b.installed(barrierID) == nil)
        #expect(b.removals[barrierID] == 1)
        #expect(b.repeatedInstalls == 0 && b.removalsOfAbsentBoards == 0)
    }

    @Test("A completion with isDone false releases nothing on a motherboard of your own")
    func notDoneReleasesNothing() {
        let gate: BoardID = .random()
        let target = Guarded(gate: gate, scope: .mainboard)
        let mb = HandMotherboard(gate: gate)
        mb.installBoard(target)
        mb.activateBoard(identifier: target.identifier, withOption: "x")
        #expect(mb.completeGate(false))
        #expect(target.ran.isEmpty)
        #expect(mb.installed(ActivationBarrier(identifier: gate).barrierIdentifier) == nil)
        // The next request opens a new cycle.
        mb.activateBoard(identifier: target.identifier, withOption: "y")
        #expect(mb.gateRuns == 2)
        #expect(mb.completeGate(true))
        #expect(target.ran == ["y"])
    }

    // MARK: The barrier board a Motherboard shows

    final class SlowGate: Board, ActivatableBoard {
        func activate(withOption option: Any?) {}
    }

    final class Stub: Board, GuaranteedBoard {
        typealias InputType = String
        var value: String?
        let gate: BoardID
        init(identifier: BoardID, gate: BoardID) {
            self.gate = gate
            super.init(identifier: identifier)
        }
        func activationBarrier(withOption option: Any?) -> ActivationBarrier? { ActivationBarrier(identifier: gate) }
        func activate(withGuaranteedInput input: String) { value = input }
    }

    @Test("ActivatableBarrierBoardTests.testActivationBarrierDone: the open run is a barrier board with its pending tasks")
    func motherboardShowsItsOpenRunAsABarrierBoard() throws {
        let gate = SlowGate(identifier: "auth")
        let one = Stub(identifier: "one", gate: "auth")
        let two = Stub(identifier: "two", gate: "auth")
        // Recorded rather than trapped: activating every board hands nil to String boards, which
        // Boardy's guaranteed boards assert on.
        let mb = Motherboard(boards: [gate, one, two], runtime: BoardyRuntime(processing: .immediate, misuse: .record))
        let baseline = mb.flows.count
        mb.activateBoard(identifier: "one", withOption: "v")
        mb.activateBoard(identifier: "two", withOption: "v")
        let barrier = try #require(mb.getBoard(identifier: BoardID("auth").appending("___PRIVATE_BARRIER___")) as? ActivatableBarrierBoard)
        #expect(barrier.isProcessing)
        #expect(barrier.pendingTasks.map(\.target) == ["one", "two"])
        #expect(barrier.completableIdentifier == "auth")
        #expect(mb.boards.contains { $0 === barrier })
        // Activating every board does not activate the barrier board (it is driven by the run).
        mb.activateAllBoards(defaultOption: nil)
        #expect(barrier.pendingTasks.count == 2)
        gate.complete(true)
        #expect(one.value == "v" && two.value == "v")
        #expect(!barrier.isProcessing && barrier.pendingTasks.isEmpty)
        #expect(!mb.boards.contains { $0 is ActivatableBarrierBoard })
        #expect(mb.flows.count == baseline)
    }

    // MARK: Factory and SafeDictionary

    @Test("ActivatableBarrierBoardTests.testApplicationScopeUnidentifiedBarrierKeepsEachActivationIdentity (factory)")
    func unidentifiedBarriersAreEachTheirOwnBoard() {
        let gate: BoardID = .random()
        let first = ActivationBarrier(identifier: gate, scope: .application, option: .unidentified("payload"))
        let second = ActivationBarrier(identifier: gate, scope: .application, option: .unidentified("payload"))
        #expect(first.barrierIdentifier != second.barrierIdentifier)
        #expect(first.barrierIdentifier == first.barrierIdentifier)
        #expect(ActivationBarrierFactory.makeBarrierBoard(first) !== ActivationBarrierFactory.makeBarrierBoard(second))
    }

    @Test("ActivatableBarrierBoardTests.testApplicationScopeUniqueBarrierStillReusesCachedBoard")
    func uniqueBarriersShareTheCachedBoard() {
        let gate: BoardID = .random()
        let first = ActivationBarrier(identifier: gate, scope: .application, option: .unique(AnyHashable("payload")))
        let second = ActivationBarrier(identifier: gate, scope: .application, option: .unique(AnyHashable("payload")))
        #expect(first.barrierIdentifier == second.barrierIdentifier)
        #expect(ActivationBarrierFactory.makeBarrierBoard(first) === ActivationBarrierFactory.makeBarrierBoard(second))
        let local = ActivationBarrier(identifier: gate, scope: .mainboard)
        #expect(ActivationBarrierFactory.makeBarrierBoard(local) !== ActivationBarrierFactory.makeBarrierBoard(local), "mainboard barriers are never shared")
    }

    final class Reference: Sendable {}

    @Test("ActivatableBarrierBoardTests.testSafeDictionaryValueOrInsertReturnsOneSharedReference")
    func safeDictionaryHandsOutOneValue() {
        let dictionary = SafeDictionary<String, Reference>()
        let seen = Locked<Set<ObjectIdentifier>>([])
        DispatchQueue.concurrentPerform(iterations: 100) { _ in
            let value = dictionary.value(forKey: "shared") { Reference() }
            seen.withLock { _ = $0.insert(ObjectIdentifier(value)) }
        }
        #expect(seen.withLock { $0.count } == 1)
        #expect(dictionary.count == 1)
    }

    @Test("ActivatableBarrierBoardTests.testSafeDictionaryFactoryCanReenterTheSameKey")
    func safeDictionaryFactoryMayReenter() {
        let dictionary = SafeDictionary<String, Reference>()
        let result = Locked<Reference?>(nil)
        let done = Self.inBackground {
            let value = dictionary.value(forKey: "shared") { dictionary.value(forKey: "shared") { Reference() } }
            result.withLock { $0 = value }
        }
        #expect(done.wait(timeout: .now() + 60) == .success, "no deadlock")
        #expect(result.withLock { $0 } === dictionary["shared"])
    }
}
