/// A gate board in one motherboard: a node of the wait-for graph.
struct GateNode: Hashable {
    let motherboard: ObjectIdentifier
    let gate: BoardID
}

/// An activation that waits for a barrier: its request and the motherboard it was made in.
///
/// The motherboard is not retained (Boardy's pending activations do not keep their flow alive):
/// a motherboard that goes away while its activations wait forgets them in its `deinit`
/// (``BarrierCoordinator/forget(motherboard:)``), so the reference never outlives it.
struct PendingActivation {
    unowned let motherboard: Motherboard
    /// `motherboard`'s identity, readable while it is being deinitialized.
    let motherboardID: ObjectIdentifier
    let request: Motherboard.Request

    init(motherboard: Motherboard, request: Motherboard.Request) {
        self.motherboard = motherboard
        motherboardID = ObjectIdentifier(motherboard)
        self.request = request
    }
    var board: BoardID { request.board }
    var requestSeq: Int { request.requestSeq }
    var forGate: GateNode? { request.forGate }
}

/// One open run of a gate: the activations waiting for it, in request order.
final class BarrierRun {
    enum Kind {
        case gateway(resolveOn: ((Any?) -> Bool?)?, join: GatewayKey)
        case activation(ActivationBarrierScope, key: ActivationKey)
    }

    let kind: Kind
    /// The barrier identifier, as traced (the gate id for a gateway).
    let identifier: String
    /// The gate as a node of the wait-for graph (loops).
    let node: GateNode
    /// The gate instance whose completion and outputs resolve the run: `node`, except for a
    /// gateway run with its own gate instance, whose gate runs in `gateHost`.
    let signal: GateNode
    /// The motherboard the run was requested in (where it is traced and resolved); not retained,
    /// as ``PendingActivation/motherboard``. When it goes away, the run passes to a motherboard
    /// that still waits in it, or is forgotten.
    unowned var owner: Motherboard
    /// `owner`'s identity, readable while it is being deinitialized.
    var ownerID: ObjectIdentifier
    /// The motherboard of the run's own gate instance (Boardy's gateway proxy), kept alive by the
    /// run; nil when the gate runs in `owner`'s tree as one shared instance.
    let gateHost: Motherboard?
    let order: Int
    var waiting: [PendingActivation] = []
    /// The barrier the run is for (nil for a gateway run), to name its barrier board.
    let barrier: ActivationBarrier?
    /// Whether a gateway run's proxy is a board of its own (Boardy's `registerWithActivation`
    /// wiring, or a producer's gateway board), whose activation and completion are its own.
    var hasProxyBoard = false
    /// The identifier of the barrier board Boardy would install for this run
    /// (`<gate>.___PRIVATE_BARRIER___…`), under which ``Motherboard/boards`` shows it. Made only
    /// when asked for: spelling it costs string work that a run should not pay for.
    var boardID: BoardID {
        if let barrier { return barrier.barrierIdentifier }
        guard case let .gateway(_, join) = kind else { return node.gate }
        return ActivationBarrier(identifier: join.destination.gateway).barrierIdentifier
    }
    /// What the gate was activated with.
    let gateInput: Any?
    /// Whether the run still waits for its gate (false once taken to be resolved or cancelled).
    var isOpen = true
    /// The run as a barrier board, made the first time a motherboard shows it.
    var view: ActivatableBarrierBoard?

    init(
        kind: Kind, identifier: String, owner: Motherboard, node: GateNode, gateHost: Motherboard?, order: Int, barrier: ActivationBarrier?,
        gateInput: Any?
    ) {
        self.kind = kind
        self.barrier = barrier
        self.gateInput = gateInput
        self.identifier = identifier
        self.owner = owner
        ownerID = ObjectIdentifier(owner)
        self.node = node
        self.gateHost = gateHost
        self.signal = gateHost.map { GateNode(motherboard: ObjectIdentifier($0), gate: node.gate) } ?? node
        self.order = order
    }

    var isGateway: Bool {
        if case .gateway = kind { return true }
        return false
    }
}

/// Where an activation barrier's cycle is registered: its scope's owner and its identity.
struct ActivationKey: Hashable {
    let scopeOwner: ObjectIdentifier
    let gate: BoardID
    /// The `.unique` key; nil for `.void`; a run number for a fresh `.unidentified` run.
    let option: AnyHashable?
}

/// An activation barrier request's identity (see ``BarrierCoordinator/identity(of:)``).
struct BarrierIdentity {
    /// The barrier identifier as traced.
    let traced: String
    /// What equal requests share (besides scope and gate).
    let option: AnyHashable?
}

/// A gateway run's identity (Boardy rule 9: one per destination, `<dest>.___GATEWAY___`): the
/// motherboard the request was made in and the destination.
struct GatewayKey: Hashable {
    let motherboard: ObjectIdentifier
    let destination: BoardID
}

/// What waits on what, as a value: the open barrier runs of a runtime, for assertions such as
/// "nothing is stuck" and for the stuck report.
public struct WaitForGraph: Sendable, Hashable {
    /// One barrier still open.
    public struct Barrier: Sendable, Hashable {
        /// The barrier identifier (the gate id for a gateway).
        public var barrier: String
        /// The gate board.
        public var gate: BoardID
        /// The path of the motherboard the gate runs in.
        public var motherboard: MotherboardPath
        /// Whether it is a gateway run (else an activation barrier).
        public var isGateway: Bool
        /// The boards waiting on it, in request order.
        public var waiting: [BoardID]
        /// The gates this barrier's gate itself waits on, if any.
        public var gateWaitsOn: [BoardID]
    }

    /// The open barriers, in the order they started.
    public var barriers: [Barrier]

    /// Whether no activation waits on any barrier.
    public var isEmpty: Bool { barriers.isEmpty }
}

/// Owns every barrier run of a runtime (both scopes, all motherboards): checks for loops before
/// anything waits, resolves runs when gates signal, and reports what is stuck at quiescence.
final class BarrierCoordinator {
    private var runs: [ObjectIdentifier: BarrierRun] = [:]
    private var activationRuns: [ActivationKey: BarrierRun] = [:]
    private var gatewayRuns: [GatewayKey: BarrierRun] = [:]
    /// Open runs per gate node, in start order (the wait-for graph).
    private var runsByGate: [GateNode: [BarrierRun]] = [:]
    /// Open runs per gate instance whose signals resolve them, in start order.
    private var runsBySignal: [GateNode: [BarrierRun]] = [:]
    /// Fresh `.unidentified` runs started so far, to number them.
    private var freshRuns = 0
    /// Runs in which an activation of a gate waits: the gate's outgoing wait-for edges.
    private var waitedOnBy: [GateNode: [BarrierRun]] = [:]
    private var nextOrder = 0
    private var lastStuckReport: [String: [BoardID]] = [:]

    var isEmpty: Bool { runs.isEmpty }

    /// Forgets every open run (and the activations waiting in them) without resolving them.
    func removeAll() {
        runs = [:]
        activationRuns = [:]
        gatewayRuns = [:]
        runsByGate = [:]
        runsBySignal = [:]
        waitedOnBy = [:]
    }

    // MARK: Starting and joining

    /// The identity of a request's barrier: its traced identifier and what it joins on. Boardy
    /// rule 12b: a fresh `.unidentified` barrier gets an identity no other request shares,
    /// numbered in the order they are checked, so the trace is the same on every run.
    func identity(of barrier: ActivationBarrier) -> BarrierIdentity {
        switch barrier.option.identity {
        case .shared: return BarrierIdentity(traced: barrier.traceIdentifier, option: nil)
        case let .keyed(key): return BarrierIdentity(traced: barrier.traceIdentifier, option: key)
        case .none: return BarrierIdentity(traced: barrier.traceIdentifier, option: "#none")
        case .fresh:
            freshRuns += 1
            return BarrierIdentity(traced: barrier.traceIdentifier + String(freshRuns), option: -freshRuns)
        }
    }

    /// Registers `pending` as waiting on the activation barrier `barrier` in the scope owned by
    /// `scopeOwner` (joining its open cycle or starting one). Returns the run and whether it is
    /// new (its gate must be activated), or nil when waiting would close a loop (then everything
    /// on the loop has been cancelled and traced).
    func wait(
        _ pending: PendingActivation, onActivationBarrier barrier: ActivationBarrier, identity: BarrierIdentity, scopeOwner: ObjectIdentifier,
        runtime: BoardyRuntime
    ) -> (BarrierRun, isNew: Bool)? {
        let identifier = identity.traced
        let option = identity.option
        let key = ActivationKey(scopeOwner: scopeOwner, gate: barrier.identifier, option: option)
        if let open = activationRuns[key] {
            guard checkLoop(pending, waitingOn: open.node, runtime: runtime) else { return nil }
            add(pending, to: open)
            return (open, false)
        }
        let node = GateNode(motherboard: ObjectIdentifier(pending.motherboard), gate: barrier.identifier)
        guard checkLoop(pending, waitingOn: node, runtime: runtime) else { return nil }
        let run = BarrierRun(
            kind: .activation(barrier.scope, key: key), identifier: identifier, owner: pending.motherboard, node: node, gateHost: nil,
            order: nextOrder, barrier: barrier, gateInput: barrier.gateInput)
        nextOrder += 1
        register(run)
        activationRuns[key] = run
        add(pending, to: run)
        return (run, true)
    }

    /// Registers `pending` as waiting on the gateway run of its destination (Boardy rule 9):
    /// joins the open one, or starts one whose gate is `gate` in the gateway's motherboard
    /// `home` (the wait-for node), running in `makeGateHost()` when each run has its own gate
    /// instance. Nil when waiting would close a loop.
    func wait(
        _ pending: PendingActivation, onGateway gate: BoardID, home: Motherboard, resolveOn: ((Any?) -> Bool?)?,
        makeGateHost: (() -> Motherboard)?, runtime: BoardyRuntime
    ) -> (BarrierRun, isNew: Bool)? {
        let join = GatewayKey(motherboard: ObjectIdentifier(pending.motherboard), destination: pending.board)
        if let open = gatewayRuns[join] {
            guard checkLoop(pending, waitingOn: open.node, runtime: runtime) else { return nil }
            add(pending, to: open)
            return (open, false)
        }
        let node = GateNode(motherboard: ObjectIdentifier(home), gate: gate)
        guard checkLoop(pending, waitingOn: node, runtime: runtime) else { return nil }
        let run = BarrierRun(
            kind: .gateway(resolveOn: resolveOn, join: join), identifier: MotherboardPath.encode(gate.rawValue), owner: pending.motherboard, node: node,
            gateHost: makeGateHost?(), order: nextOrder,
            barrier: nil, gateInput: pending.request.input)
        nextOrder += 1
        register(run)
        gatewayRuns[join] = run
        add(pending, to: run)
        return (run, true)
    }

    private func register(_ run: BarrierRun) {
        runs[ObjectIdentifier(run)] = run
        runsByGate[run.node, default: []].append(run)
        runsBySignal[run.signal, default: []].append(run)
    }

    private func add(_ pending: PendingActivation, to run: BarrierRun) {
        run.waiting.append(pending)
        if let g = pending.forGate { waitedOnBy[g, default: []].append(run) }
    }

    private func remove(_ run: BarrierRun) {
        run.isOpen = false
        runs[ObjectIdentifier(run)] = nil
        switch run.kind {
        case let .activation(_, key): if activationRuns[key] === run { activationRuns[key] = nil }
        case let .gateway(_, join): if gatewayRuns[join] === run { gatewayRuns[join] = nil }
        }
        runsByGate[run.node]?.removeAll { $0 === run }
        if runsByGate[run.node]?.isEmpty == true { runsByGate[run.node] = nil }
        runsBySignal[run.signal]?.removeAll { $0 === run }
        if runsBySignal[run.signal]?.isEmpty == true { runsBySignal[run.signal] = nil }
        for w in run.waiting {
            guard let g = w.forGate else { continue }
            waitedOnBy[g]?.removeAll { $0 === run }
            if waitedOnBy[g]?.isEmpty == true { waitedOnBy[g] = nil }
        }
    }

    /// Forgets what a motherboard that is going away had open (called from its `deinit`): its
    /// activations waiting in any run, and the runs it owns, which pass to a motherboard still
    /// waiting in them or, with none, are dropped. Boardy keeps neither alive: a flow left waiting
    /// on a gate that never completes does not leak.
    func forget(motherboard id: ObjectIdentifier) {
        guard !runs.isEmpty else { return }
        for run in Array(runs.values) {
            let gone = run.waiting.filter { $0.motherboardID == id }
            if !gone.isEmpty {
                run.waiting.removeAll { $0.motherboardID == id }
                for w in gone {
                    guard let g = w.forGate else { continue }
                    if let i = waitedOnBy[g]?.firstIndex(where: { $0 === run }) { waitedOnBy[g]?.remove(at: i) }
                    if waitedOnBy[g]?.isEmpty == true { waitedOnBy[g] = nil }
                }
            }
            guard run.ownerID == id else { continue }
            if let heir = run.waiting.first {
                run.owner = heir.motherboard
                run.ownerID = heir.motherboardID
            } else {
                remove(run)
            }
        }
    }

    /// The open runs `motherboard` owns, as barrier boards (one per barrier board identifier, in
    /// start order), for ``Motherboard/boards``.
    func views(ownedBy motherboard: Motherboard) -> [ActivatableBarrierBoard] {
        let id = ObjectIdentifier(motherboard)
        var seen = Set<BoardID>()
        var views: [ActivatableBarrierBoard] = []
        for run in runs.values.sorted(by: { $0.order < $1.order }) where run.ownerID == id {
            let view = run.view ?? ActivatableBarrierBoard(showing: run, identifier: run.boardID)
            run.view = view
            if seen.insert(view.identifier).inserted { views.append(view) }
        }
        return views
    }

    // MARK: Loops

    /// Whether `pending` may wait on a barrier gated by `target`. A gate activation that would
    /// wait, directly or through other gates, on its own gate is a loop: it is traced as
    /// `barrier.loop`, and every activation waiting on a gate of the loop (directly or
    /// transitively) is cancelled with reason `loop`, `pending` last.
    private func checkLoop(_ pending: PendingActivation, waitingOn target: GateNode, runtime: BoardyRuntime) -> Bool {
        guard let me = pending.forGate, let path = pathOfWaits(from: target, to: me) else { return true }
        let mb = pending.motherboard
        let cycle = path.map(\.gate.rawValue)
        let loopSeq = runtime.record(mb, cause: pending.requestSeq, .barrierLoop(board: pending.board.rawValue, cycle: cycle))
        // Every gate that waits, directly or transitively, on a gate of the loop.
        var doomed = Set(path)
        var frontier = path
        while let node = frontier.popLast() {
            for run in runsByGate[node] ?? [] {
                for w in run.waiting {
                    if let g = w.forGate, doomed.insert(g).inserted { frontier.append(g) }
                }
            }
        }
        let cancelled = doomed.flatMap { runsByGate[$0] ?? [] }.sorted { $0.order < $1.order }
        for run in cancelled {
            remove(run)
            // A run's own gate instance may be the motherboard whose work is running now.
            if let host = run.gateHost { runtime.keepAlive(host) }
            for w in run.waiting {
                runtime.record(
                    w.motherboard, cause: loopSeq == 0 ? w.requestSeq : loopSeq,
                    .activationCancelled(board: w.board.rawValue, reason: .loop))
            }
        }
        runtime.record(mb, cause: loopSeq == 0 ? pending.requestSeq : loopSeq, .activationCancelled(board: pending.board.rawValue, reason: .loop))
        return false
    }

    /// The gates from `start` to `goal` following "waits on" edges, or nil if `goal` is not
    /// reachable. Iterative: chains of any depth.
    private func pathOfWaits(from start: GateNode, to goal: GateNode) -> [GateNode]? {
        if start == goal { return [start] }
        var parent: [GateNode: GateNode] = [:]
        var seen: Set<GateNode> = [start]
        var stack = [start]
        while let node = stack.popLast() {
            for run in waitedOnBy[node] ?? [] where seen.insert(run.node).inserted {
                parent[run.node] = node
                if run.node == goal {
                    var path = [goal]
                    var cur = goal
                    while let p = parent[cur] {
                        path.append(p)
                        cur = p
                    }
                    return path.reversed()
                }
                stack.append(run.node)
            }
        }
        return nil
    }

    // MARK: Resolution

    /// The runs the completion of gate `gate` in `mb` resolves, with its verdict: every open
    /// gateway run and activation cycle of that gate (Boardy rule 14: only the gate's own
    /// completion in the owning motherboard). They leave the coordinator before their waiters are
    /// released, so a request arriving meanwhile starts a new cycle (rule 13).
    func takeRuns(completedGate gate: BoardID, in mb: Motherboard, isDone: Bool) -> [(BarrierRun, Bool)] {
        let node = GateNode(motherboard: ObjectIdentifier(mb), gate: gate)
        guard let open = runsBySignal[node] else { return [] }
        for run in open { remove(run) }
        return open.map { ($0, isDone) }
    }

    /// The gateway runs an output of gate `gate` in `mb` resolves: those whose `resolveOn` gives
    /// the output a verdict.
    func takeGatewayRuns(outputOf gate: BoardID, in mb: Motherboard, output: Any?) -> [(BarrierRun, Bool)] {
        let node = GateNode(motherboard: ObjectIdentifier(mb), gate: gate)
        guard let open = runsBySignal[node] else { return [] }
        var resolved: [(BarrierRun, Bool)] = []
        for run in open {
            guard case let .gateway(resolveOn, _) = run.kind, let verdict = resolveOn?(output) else { continue }
            resolved.append((run, verdict))
        }
        for (run, _) in resolved { remove(run) }
        return resolved
    }

    /// Whether gate `gate` in `mb` has an open run (a cheap check before resolving).
    func hasRuns(gate: BoardID, in mb: Motherboard) -> Bool {
        runsBySignal[GateNode(motherboard: ObjectIdentifier(mb), gate: gate)] != nil
    }

    // MARK: Reports

    /// The open runs grouped per barrier, in start order.
    var graph: WaitForGraph {
        var groups: [String: Int] = [:]
        var barriers: [WaitForGraph.Barrier] = []
        for run in runs.values.sorted(by: { $0.order < $1.order }) {
            let key = "\(run.isGateway)|\(run.owner.path)|\(run.identifier)"
            let waits = (waitedOnBy[run.node] ?? []).map(\.node.gate)
            if let i = groups[key] {
                barriers[i].waiting += run.waiting.map(\.board)
            } else {
                groups[key] = barriers.count
                barriers.append(
                    WaitForGraph.Barrier(
                        barrier: run.identifier, gate: run.node.gate, motherboard: run.owner.path, isGateway: run.isGateway,
                        waiting: run.waiting.map(\.board), gateWaitsOn: waits))
            }
        }
        return WaitForGraph(barriers: barriers)
    }

    /// Records a `stuck` event for each open barrier whose waiting list changed since the last
    /// report (called when the scheduler has nothing left to run).
    func reportStuck(runtime: BoardyRuntime, extra: JSONObject = JSONObject(), force: Bool = false) {
        var owners: [MotherboardPath: Motherboard] = [:]
        for run in runs.values { owners[run.owner.path] = run.owner }
        var reported: [String: [BoardID]] = [:]
        for b in graph.barriers {
            let key = "\(b.isGateway)|\(b.motherboard)|\(b.barrier)"
            reported[key] = b.waiting
            guard force || lastStuckReport[key] != b.waiting, let mb = owners[b.motherboard] else { continue }
            runtime.record(mb, cause: 0, .stuckBarrier(barrier: b.barrier, gate: b.gate.rawValue, waiting: b.waiting.map(\.rawValue)), extra: extra)
        }
        lastStuckReport = reported
    }
}
