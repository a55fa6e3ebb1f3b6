import Foundation

/// What a barrier board needs of the motherboard it guards activations in: boards to install
/// itself among, a delegate to send its gate's activation to, and flows to hear the gate complete
/// (Boardy's `BarrierOwningMotherboard`).
public typealias BarrierOwningMotherboard = MotherboardType & BoardDelegate & FlowManageable

/// A motherboard that activations wait in, held weakly: a barrier that never opens must not keep
/// the flow that waits on it alive. One per motherboard and barrier board, so a completion heard
/// through a flow registered for one owner can never finish another owner's cycle.
final class BarrierOwnerToken: @unchecked Sendable {
    // @unchecked: `motherboard` is only read (weak loads are atomic); `completionFlow` is only
    // read or written under the barrier board's lock.
    weak var motherboard: (any BarrierOwningMotherboard)?
    let identity: ObjectIdentifier
    /// The identifier of the completion flow the barrier registered on this owner, while it is
    /// registered.
    var completionFlow: String?

    init(_ motherboard: any BarrierOwningMotherboard) {
        self.motherboard = motherboard
        identity = ObjectIdentifier(motherboard)
    }

    var isAlive: Bool { motherboard != nil }
}

/// An activation waiting behind a barrier board (Boardy's `BarrierPendingTask`).
public struct BarrierPendingTask {
    /// The board whose activation waits.
    public let target: BoardID
    /// What the gate is activated with when this task opens a cycle.
    public let barrierOptionValue: Any?
    /// Runs the activation once the gate has completed with `true`; nil for a task shown by a
    /// ``Motherboard``, whose engine releases it.
    let perform: (() -> Void)?
    /// The motherboard the activation was requested in; nil for a task shown by a ``Motherboard``.
    let owner: BarrierOwnerToken?
}

/// The board that holds activations behind an activation barrier or a gateway until the gate
/// completes (Boardy's `ActivatableBarrierBoard`, internal there; public here because Boardy's
/// tests and motherboards of an app's own reach it).
///
/// In a motherboard of your own (any ``MotherboardType`` that is also a ``BoardDelegate`` and
/// ``FlowManageable``), it works as Boardy's does: the first activation opens a cycle; the board
/// installs itself in the requesting motherboard, registers a flow there that hears the gate
/// complete, and asks its delegate to activate the gate. Activations that arrive while the cycle
/// is open join it; on `complete(true)` they all run in request order, on `complete(false)` none
/// does, and the board completes (its motherboard usually removes it). Activations that arrive
/// while a completed cycle is still releasing wait for the next cycle. An `.application` barrier
/// is one board for the whole process (``ActivationBarrierFactory``), so a cycle opened by one
/// motherboard is joined by requests from others and handed on when it ends; a cycle whose
/// motherboard has gone away is abandoned by the next request, and its activations are
/// discarded (counted in ``discardedCount``).
///
/// A ``Motherboard`` runs barriers in its engine (traced, with loop detection); while one of its
/// barrier runs is open it shows it in ``Motherboard/boards`` as a board of this class, whose
/// ``pendingTasks`` and ``isProcessing`` describe the run. Activating that view does nothing.
public final class ActivatableBarrierBoard: Board, ActivatableBoard, @unchecked Sendable {
    // @unchecked: the cycle state lives in `state`, only reached under its lock; the rest is
    // immutable, or the engine's run, read on the engine's thread.

    /// The gate whose completion releases the activations.
    public let completableIdentifier: BoardID

    private struct Start {
        let cycle: Int
        let owner: BarrierOwnerToken
        let gateInput: Any?
    }

    private enum Phase { case idle, open, releasing }

    private struct State {
        var phase = Phase.idle
        var owner: BarrierOwnerToken?
        var cycle = 0
        var waiting: [BarrierPendingTask] = []
        /// Activations that arrived while a completed cycle released its own: the next cycle's.
        var arrivedWhileReleasing: [BarrierPendingTask] = []
        var owners: [ObjectIdentifier: BarrierOwnerToken] = [:]
        var discarded = 0

        func owns(_ start: Start) -> Bool { phase == .open && cycle == start.cycle && owner === start.owner }

        mutating func reset() {
            phase = .idle
            owner = nil
            waiting = []
        }

        /// Opens a cycle for the tasks whose motherboard is still there (and is not `excluded`);
        /// the others are discarded.
        mutating func open(_ tasks: [BarrierPendingTask], excluding excluded: BarrierOwnerToken? = nil) -> Start? {
            let live = tasks.filter { $0.owner.map { $0 !== excluded && $0.isAlive } ?? false }
            discarded += tasks.count - live.count
            guard let first = live.first, let owner = first.owner else {
                reset()
                return nil
            }
            cycle += 1
            phase = .open
            self.owner = owner
            waiting = live
            return Start(cycle: cycle, owner: owner, gateInput: first.barrierOptionValue)
        }
    }

    private let state = Locked(State())
    /// For a board shown by a ``Motherboard``: the engine's run it describes.
    private weak var run: BarrierRun?

    /// A barrier board `identifier` (a barrier identifier, `<gate>.___PRIVATE_BARRIER___`) whose
    /// cycles end when the board `completableIdentifier` completes.
    public init(identifier: BoardID, completableIdentifier: BoardID) {
        self.completableIdentifier = completableIdentifier
        super.init(identifier: identifier)
    }

    /// The view of an engine run.
    init(showing run: BarrierRun, identifier: BoardID) {
        completableIdentifier = run.node.gate
        self.run = run
        super.init(identifier: identifier)
    }

    /// The activations waiting for the gate: the open cycle's, then those that arrived while the
    /// last cycle released its own.
    public var pendingTasks: [BarrierPendingTask] {
        if let run {
            guard run.isOpen else { return [] }
            return run.waiting.map { BarrierPendingTask(target: $0.board, barrierOptionValue: run.gateInput, perform: nil, owner: nil) }
        }
        return state.withLock { $0.waiting + $0.arrivedWhileReleasing }
    }

    /// Whether a cycle is open or releasing.
    public var isProcessing: Bool {
        if let run { return run.isOpen }
        return state.withLock { $0.phase != .idle }
    }

    /// How many activations were dropped because the motherboard they were requested in went
    /// away (or could not host the barrier) before the gate completed. Boardy only logs them; a
    /// dropped activation is otherwise indistinguishable from one still waiting.
    public var discardedCount: Int { state.withLock { $0.discarded } }

    /// The token of `owner`: the same one for as long as `owner` lives.
    func ownerToken(for owner: any BarrierOwningMotherboard) -> BarrierOwnerToken {
        let identity = ObjectIdentifier(owner)
        return state.withLock { s in
            s.owners = s.owners.filter { $0.value.isAlive }
            if let token = s.owners[identity] { return token }
            let token = BarrierOwnerToken(owner)
            s.owners[identity] = token
            return token
        }
    }

    /// Takes a waiting activation (a ``BarrierPendingTask``; anything else is ignored, as Boardy's
    /// `activateAllBoards` may hand the board an ordinary option).
    public func activate(withOption option: Any?) {
        guard run == nil, let task = option as? BarrierPendingTask else { return }
        let start = state.withLock { s -> Start? in
            switch s.phase {
            case .idle:
                return s.open([task])
            case .open:
                if s.owner?.isAlive == true {
                    s.waiting.append(task)
                    return nil
                }
                // The cycle's motherboard is gone: nobody will hear its gate complete.
                s.discarded += s.waiting.count
                s.reset()
                return s.open([task])
            case .releasing:
                s.arrivedWhileReleasing.append(task)
                return nil
            }
        }
        if let start { perform(start) }
    }

    private func isDelegate(_ owner: any BarrierOwningMotherboard) -> Bool {
        (delegate as AnyObject?) === (owner as AnyObject)
    }

    /// Installs the board in the cycle's motherboard, listens there for the gate, and activates
    /// the gate; the cycle is abandoned if the motherboard is gone or does not host the board.
    private func perform(_ start: Start) {
        guard state.withLock({ $0.owns(start) }) else { return }
        guard let owner = start.owner.motherboard else { return abandon(start, cleaning: nil) }
        if let installed = owner.boards.first(where: { $0.identifier == identifier }) {
            guard installed === self else { return abandon(start, cleaning: owner) }
        } else if let engine = owner as? Motherboard {
            // The engine's own install: the barrier run's thread is the engine's, not the user's.
            engine.installBoard(self)
        } else {
            owner.installBoard(self)
        }
        guard state.withLock({ $0.owns(start) }), isDelegate(owner) else { return abandon(start, cleaning: owner) }
        listenForGate(on: owner, token: start.owner)
        guard state.withLock({ $0.owns(start) }), isDelegate(owner) else { return abandon(start, cleaning: owner) }
        nextToBoard(completableIdentifier, with: start.gateInput)
    }

    /// Gives up a cycle that could not start: its owner's activations are discarded, the others
    /// open the next cycle.
    private func abandon(_ start: Start, cleaning owner: (any BarrierOwningMotherboard)?) {
        let next = state.withLock { s -> Start?? in
            guard s.owns(start) else { return .none }
            let waiting = s.waiting
            s.reset()
            return .some(s.open(waiting, excluding: start.owner))
        }
        guard case let .some(nextStart) = next else { return }
        if let owner { uninstall(intendedOwner: owner) }
        if let nextStart { perform(nextStart) }
    }

    /// The gate completed, as heard by the flow registered on `token`'s motherboard.
    private func gateCompleted(heardBy token: BarrierOwnerToken, isDone: Bool) {
        let released = state.withLock { s -> [BarrierPendingTask]? in
            guard s.phase == .open, s.owner === token, token.isAlive else { return nil }
            let tasks = s.waiting
            s.waiting = []
            s.phase = .releasing
            return tasks
        }
        guard let released else { return }
        if let owner = token.motherboard, isDelegate(owner) {
            complete(true)
            stopListening(on: owner)
            if isDone { for task in released { task.perform?() } }
        } else {
            // The board was moved to another delegate meanwhile: nobody it belongs to asked for
            // these activations any more.
            if let owner = token.motherboard { uninstall(intendedOwner: owner) }
            state.withLock { $0.discarded += released.count }
        }
        let next = state.withLock { s -> Start? in
            guard s.phase == .releasing else { return nil }
            let arrived = s.arrivedWhileReleasing
            s.arrivedWhileReleasing = []
            s.reset()
            return s.open(arrived)
        }
        if let next { perform(next) }
    }

    /// Registers the flow that hears the gate complete on `owner`, unless it is registered there
    /// still (checked against the live flows: `resetFlows()` may have dropped it).
    private func listenForGate(on owner: any BarrierOwningMotherboard, token: BarrierOwnerToken) {
        let flowID = "boardy.barrier.completion.\(identifier.rawValue)"
        let live = Set(owner.flows.map(\.identifier))
        let register = state.withLock { s -> Bool in
            guard s.owners[token.identity] === token else { return false }
            if let registered = token.completionFlow, live.contains(registered) { return false }
            token.completionFlow = flowID
            return true
        }
        guard register else { return }
        owner.registerFlow(
            BoardActivateFlow(identifier: flowID, matchedIdentifiers: [completableIdentifier]) { [weak self, token] data in
                guard let done = data as? CompleteAction else { return }
                self?.gateCompleted(heardBy: token, isDone: done.isDone)
            })
    }

    /// Takes the completion flow back off `owner`: each cycle registers it again, and a flow left
    /// behind would be matched against every message `owner` routes, forever.
    private func stopListening(on owner: any BarrierOwningMotherboard) {
        let flowID = state.withLock { s -> String? in
            guard let token = s.owners[ObjectIdentifier(owner)] else { return nil }
            defer { token.completionFlow = nil }
            return token.completionFlow
        }
        if let flowID { owner.removeFlow(by: flowID) }
    }

    /// Removes the board (and its completion flow) from the motherboard it was meant to be
    /// installed in and from the one that became its delegate instead, and detaches it.
    private func uninstall(intendedOwner: any BarrierOwningMotherboard) {
        let current = delegate as? any BarrierOwningMotherboard
        remove(from: intendedOwner)
        if let current, (current as AnyObject) !== (intendedOwner as AnyObject) { remove(from: current) }
        delegate = nil
    }

    private func remove(from owner: any BarrierOwningMotherboard) {
        stopListening(on: owner)
        guard owner.boards.contains(where: { $0 === self }) else { return }
        owner.removeBoard(withIdentifier: identifier)
    }
}

/// Makes the barrier board for a barrier (Boardy's `ActivationBarrierFactory`): a fresh one for
/// a `.mainboard` barrier and for an `.application` barrier whose `.unidentified` value makes it
/// one of a kind; otherwise the one board of the whole process for that identifier.
public enum ActivationBarrierFactory {
    /// The `.application` barrier boards, by barrier identifier. Never emptied, as in Boardy: an
    /// app has a fixed set of application barriers.
    public static let cache = SafeDictionary<BoardID, ActivatableBarrierBoard>()

    /// The barrier board for `barrier`, named `identifier` (its barrier identifier by default).
    public static func makeBarrierBoard(_ barrier: ActivationBarrier, identifier: BoardID? = nil) -> ActivatableBarrierBoard {
        let id = identifier ?? barrier.barrierIdentifier
        let make = { ActivatableBarrierBoard(identifier: id, completableIdentifier: barrier.identifier) }
        switch (barrier.scope, barrier.option.identity) {
        case (.mainboard, _), (.application, .fresh): return make()
        case (.application, _): return cache.value(forKey: id, orInsert: make)
        }
    }
}

extension MotherboardType {
    /// Activates the board `identifier` on a motherboard of your own, as Boardy does: gets or
    /// produces it, then holds the activation behind the gateway board ``getGatewayBoard(identifier:)``
    /// returns (when it is an ``ActivatableBarrierBoard`` and the board does not bypass it) and
    /// behind the board's own activation barrier. Barriers need the motherboard to be a
    /// ``BarrierOwningMotherboard`` (to hear its gate complete); one that is not cannot hold an
    /// activation, and drops one that has a barrier, as Boardy does. ``Motherboard`` runs its
    /// barriers in its engine instead.
    public func activateBoard(identifier: BoardID, withOption option: Any?) {
        guard let board = getOrProduceBoard(identifier: identifier) else { return }
        guard !board.identifier.isGatewayProxy, !board.shouldBypassGatewayBarrier(),
            let gateway = getGatewayBoard(identifier: identifier) as? ActivatableBarrierBoard,
            let owner = self as? any BarrierOwningMotherboard
        else {
            activateBehindBarrier(board, withOption: option)
            return
        }
        let task = BarrierPendingTask(
            target: identifier, barrierOptionValue: GatewayRequest(destination: identifier, input: option),
            perform: { [weak owner, weak board] in
                // Neither is retained: a gateway that never opens must not keep the flow alive.
                guard let owner, let board else { return }
                owner.activateBehindBarrier(board, withOption: option)
            }, owner: gateway.ownerToken(for: owner))
        gateway.activate(withOption: task)
    }

    /// Activates `board` now, or, when it declares an activation barrier, once the barrier opens.
    func activateBehindBarrier(_ board: any ActivatableBoard, withOption option: Any?) {
        guard let barrier = board.activationBarrier(withOption: option) else {
            board.activate(withOption: option)
            return
        }
        guard let owner = self as? any BarrierOwningMotherboard else { return }
        let barrierID = barrier.barrierIdentifier
        let barrierBoard: ActivatableBarrierBoard
        if let installed = boards.first(where: { $0.identifier == barrierID }) {
            // Another kind of board under a barrier's identifier: nothing can hold the activation.
            guard let installed = installed as? ActivatableBarrierBoard else { return }
            barrierBoard = installed
        } else {
            barrierBoard = ActivationBarrierFactory.makeBarrierBoard(barrier, identifier: barrierID)
        }
        let task = BarrierPendingTask(
            target: board.identifier, barrierOptionValue: barrier.option.value,
            perform: { [weak owner, weak board] in
                guard owner != nil, let board else { return }
                board.activate(withOption: option)
            }, owner: barrierBoard.ownerToken(for: owner))
        barrierBoard.activate(withOption: task)
    }
}
