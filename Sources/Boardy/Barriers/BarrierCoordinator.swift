/// A gate board in one motherboard: a node of the wait-for graph.
struct GateNode: Hashable {
    let motherboard: ObjectIdentifier
    let gate: BoardID
}

/// An activation that waits for a barrier: its request and the motherboard it was made in.
struct PendingActivation {
    let motherboard: Motherboard
    let request: Motherboard.Request
    var board: BoardID { request.board }
    var requestSeq: Int { request.requestSeq }
    var forGate: GateNode? { request.forGate }
}

/// One open run of a gate: the activations waiting for it, in request order.
final class BarrierRun {
    enum Kind {
        case gateway(resolveOn: ((Any?) -> Bool?)?)
        case activation(ActivationBarrierScope, key: ActivationKey)
    }

    let kind: Kind
    /// The barrier identifier, as traced (the gate id for a gateway).
    let identifier: String
    let node: GateNode
    /// The motherboard the gate runs in.
    let owner: Motherboard
    let order: Int
    var waiting: [PendingActivation] = []

    init(kind: Kind, identifier: String, owner: Motherboard, gate: BoardID, order: Int) {
        self.kind = kind
        self.identifier = identifier
        self.owner = owner
        self.node = GateNode(motherboard: ObjectIdentifier(owner), gate: gate)
        self.order = order
    }

    var isGateway: Bool {
        if case .gateway = kind { return true }
        return false
    }
}

/// Where an activation barrier's cycle is registered: its scope's owner and its identifier.
struct ActivationKey: Hashable {
    let scopeOwner: ObjectIdentifier
    let identifier: String
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
        public var motherboard: String
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
    /// Open runs per gate, in start order.
    private var runsByGate: [GateNode: [BarrierRun]] = [:]
    /// Runs in which an activation of a gate waits: the gate's outgoing wait-for edges.
    private var waitedOnBy: [GateNode: [BarrierRun]] = [:]
    private var nextOrder = 0
    private var lastStuckReport: [String: [BoardID]] = [:]

    var isEmpty: Bool { runs.isEmpty }

    /// Forgets every open run (and the activations waiting in them) without resolving them.
    func removeAll() {
        runs = [:]
        activationRuns = [:]
        runsByGate = [:]
        waitedOnBy = [:]
    }

    // MARK: Starting and joining

    /// Registers `pending` as waiting on the activation barrier `barrier` (joining its open
    /// cycle or starting one). Returns the run and whether it is new (its gate must be
    /// activated), or nil when waiting would close a loop (then everything on the loop has been
    /// cancelled and traced).
    func wait(
        _ pending: PendingActivation, onActivationBarrier barrier: ActivationBarrier, key: ActivationKey, runtime: BoardyRuntime
    ) -> (BarrierRun, isNew: Bool)? {
        if let open = activationRuns[key] {
            guard checkLoop(pending, waitingOn: open.node, runtime: runtime) else { return nil }
            add(pending, to: open)
            return (open, false)
        }
        let node = GateNode(motherboard: ObjectIdentifier(pending.motherboard), gate: barrier.gate)
        guard checkLoop(pending, waitingOn: node, runtime: runtime) else { return nil }
        let run = BarrierRun(
            kind: .activation(barrier.scope, key: key), identifier: barrier.identifier, owner: pending.motherboard, gate: barrier.gate,
            order: nextOrder)
        nextOrder += 1
        register(run)
        activationRuns[key] = run
        add(pending, to: run)
        return (run, true)
    }

    /// Registers `pending` as waiting on a new run of the gateway gate `gate`; nil when that
    /// would close a loop.
    func wait(_ pending: PendingActivation, onGateway gate: BoardID, resolveOn: ((Any?) -> Bool?)?, runtime: BoardyRuntime) -> BarrierRun? {
        let node = GateNode(motherboard: ObjectIdentifier(pending.motherboard), gate: gate)
        guard checkLoop(pending, waitingOn: node, runtime: runtime) else { return nil }
        let run = BarrierRun(kind: .gateway(resolveOn: resolveOn), identifier: gate.rawValue, owner: pending.motherboard, gate: gate, order: nextOrder)
        nextOrder += 1
        register(run)
        add(pending, to: run)
        return run
    }

    private func register(_ run: BarrierRun) {
        runs[ObjectIdentifier(run)] = run
        runsByGate[run.node, default: []].append(run)
    }

    private func add(_ pending: PendingActivation, to run: BarrierRun) {
        run.waiting.append(pending)
        if let g = pending.forGate { waitedOnBy[g, default: []].append(run) }
    }

    private func remove(_ run: BarrierRun) {
        runs[ObjectIdentifier(run)] = nil
        if case let .activation(_, key) = run.kind, activationRuns[key] === run { activationRuns[key] = nil }
        runsByGate[run.node]?.removeAll { $0 === run }
        if runsByGate[run.node]?.isEmpty == true { runsByGate[run.node] = nil }
        for w in run.waiting {
            guard let g = w.forGate else { continue }
            waitedOnBy[g]?.removeAll { $0 === run }
            if waitedOnBy[g]?.isEmpty == true { waitedOnBy[g] = nil }
        }
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
        guard let open = runsByGate[node] else { return [] }
        for run in open { remove(run) }
        return open.map { ($0, isDone) }
    }

    /// The gateway runs an output of gate `gate` in `mb` resolves: those whose `resolveOn` gives
    /// the output a verdict.
    func takeGatewayRuns(outputOf gate: BoardID, in mb: Motherboard, output: Any?) -> [(BarrierRun, Bool)] {
        let node = GateNode(motherboard: ObjectIdentifier(mb), gate: gate)
        guard let open = runsByGate[node] else { return [] }
        var resolved: [(BarrierRun, Bool)] = []
        for run in open {
            guard case let .gateway(resolveOn) = run.kind, let verdict = resolveOn?(output) else { continue }
            resolved.append((run, verdict))
        }
        for (run, _) in resolved { remove(run) }
        return resolved
    }

    /// Whether gate `gate` in `mb` has an open run (a cheap check before resolving).
    func hasRuns(gate: BoardID, in mb: Motherboard) -> Bool {
        runsByGate[GateNode(motherboard: ObjectIdentifier(mb), gate: gate)] != nil
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
        var owners: [String: Motherboard] = [:]
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
