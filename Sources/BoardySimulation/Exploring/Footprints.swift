import BoardyCore

/// What each scheduled action of a scenario may touch, worked out from the declaration before any
/// run: a board's steps touch the board, every board its outputs, steps and flows reach, the
/// barriers in front of those boards or gated by them (and so the boards they release), the
/// gateway, and the dispatch pipeline when an output is tracked; a script step touches what its
/// stimulus reaches. Two actions that touch nothing in common commute (partial-order
/// reduction), so an explorer tries only one of their orders.
///
/// It over-approximates on purpose: a board id used in two motherboards is one resource, and a
/// ComponentKit barrier board (whose waiters name their targets at run time) touches everything.
/// Too much overlap only costs orders tried; too little would lose schedules.
struct Footprints {
    /// The footprint id of each declared board (by its scenario path), then of each script step.
    var boardIDs: [String: Int] = [:]
    var scriptIDs: [Int] = []
    /// `independent[a][b]`: footprints `a` and `b` touch nothing in common.
    private var independent: [[Bool]] = []
    /// Whether what an action with this footprint sets off happens at once (no delayed step, no
    /// dispatch, no expectation of a time): run a little later, it does the same, later.
    private var timeless: [Bool] = []
    /// Whether nothing else the scenario can do touches what this footprint touches: such an
    /// action (when timeless too) commutes with everything, so running it first stands for
    /// every order (a persistent set of one).
    private var isolated: [Bool] = []

    init(_ scenario: Scenario) {
        var all: [BoardSpec] = []
        func collect(_ boards: [BoardSpec]) {
            for b in boards {
                all.append(b)
                collect(b.boards)
            }
        }
        collect(scenario.boards)
        for r in scenario.roots { collect(r.boards) }

        // Edges: what activating a board (or its output) may lead to.
        var next: [String: Set<String>] = [:]
        var parent: [String: String] = [:]
        var gatedBy: [String: Set<String>] = [:]  // gate → boards behind it
        var touchesAll = Set<String>()
        func link(_ a: BoardID, _ b: BoardID) { next[a.rawValue, default: []].insert(b.rawValue) }
        func flows(_ list: [FlowSpec], continuous: BoardID?) {
            for f in list {
                switch f {
                case let .steps(ids):
                    for i in 0..<(ids.count - 1) { link(ids[i], ids[i + 1]) }
                case let .handler(from, _, action), let .flowActionHandler(from, _, action):
                    switch action {
                    case let .activate(to, _), let .complete(to, _): link(from, to)
                    case .relay: if let continuous { link(from, continuous) }
                    }
                }
            }
        }
        flows(scenario.flows, continuous: nil)
        for r in scenario.roots { flows(r.flows, continuous: nil) }
        for b in all {
            flows(b.flows, continuous: b.id)
            for inner in b.boards { parent[inner.id.rawValue] = b.id.rawValue }
            for s in b.onActivate {
                switch s.action {
                case let .activate(id, _): link(b.id, id)
                case let .command(_, to): link(b.id, to)
                default: break
                }
            }
            if let g = b.activationBarrier?.gate { gatedBy[g.rawValue, default: []].insert(b.id.rawValue) }
            if b.kind == .barrier { touchesAll.insert(b.id.rawValue) }
        }
        let gateway = scenario.gateway
        let tracked = Set(scenario.dispatch?.trackOutputs.map(\.rawValue) ?? [])
        let mainIDs = Set(scenario.boards.map(\.id.rawValue))
        let bypassing = Set(
            scenario.boards.filter { $0.bypassGateway ?? $0.kind.bypassesGatewayByDefault }.map(\.id.rawValue))
        let exempt = Set(gateway?.exempt.map(\.rawValue) ?? [])
        let behindGateway = mainIDs.subtracting(exempt).subtracting(bypassing)
        let barrierOf = Dictionary(all.compactMap { b in b.activationBarrier.map { (b.id.rawValue, $0.gate.rawValue) } }, uniquingKeysWith: { a, _ in a })

        var memo: [String: Set<String>] = [:]
        func closure(_ start: String) -> Set<String> {
            if let m = memo[start] { return m }
            var seen = Set<String>()
            var out = Set<String>()
            var work = [start]
            while let id = work.popLast() {
                guard seen.insert(id).inserted else { continue }
                out.insert("board:\(id)")
                if touchesAll.contains(id) { out.insert("*") }
                if let p = parent[id] { work.append(p) }  // flow actions and relays go up
                work.append(contentsOf: next[id] ?? [])
                if let g = barrierOf[id] {
                    out.insert("barrier:\(g)")
                    work.append(g)
                    work.append(contentsOf: gatedBy[g] ?? [])
                }
                if let behind = gatedBy[id] {
                    out.insert("barrier:\(id)")
                    work.append(contentsOf: behind)
                }
                if let gateway {
                    if behindGateway.contains(id) {
                        out.insert("gateway")
                        work.append(gateway.gate.rawValue)
                    }
                    if id == gateway.gate.rawValue {
                        out.insert("gateway")
                        work.append(contentsOf: behindGateway)
                    }
                }
                if tracked.contains(id) { out.insert("dispatch") }
            }
            memo[start] = out
            return out
        }

        var sets: [Set<String>] = []
        for b in all {
            boardIDs[b.path] = sets.count
            sets.append(closure(b.id.rawValue))
        }
        for step in scenario.script {
            scriptIDs.append(sets.count)
            switch step.action {
            case let .activate(id, _), let .complete(id, _):
                // A root other than main is its own motherboard, but the ids are merged anyway.
                sets.append(closure(id.rawValue))
            case .network, .track, .flush, .configure:
                sets.append(["dispatch"])
            }
        }
        independent = sets.map { a in sets.map { b in !a.contains("*") && !b.contains("*") && a.isDisjoint(with: b) } }
        // Isolated: disjoint from every script step's footprint but its own and from the
        // footprint of every board outside it (whose steps could run meanwhile).
        let boardSets = all.map { (key: "board:\($0.id.rawValue)", set: sets[boardIDs[$0.path]!]) }
        isolated = sets.indices.map { i in
            let mine = sets[i]
            guard !mine.contains("*") else { return false }
            for (j, other) in sets.enumerated() where j != i && j >= all.count && !mine.isDisjoint(with: other) { return false }
            for b in boardSets where !mine.contains(b.key) && !mine.isDisjoint(with: b.set) { return false }
            return true
        }
        let delayed = Set(all.filter { b in b.onActivate.contains { $0.after.microseconds > 0 || $0.afterUpTo != nil } }.map { "board:\($0.id.rawValue)" })
        let timed = Set(scenario.expectations.compactMap { e -> String? in
            if case let .performed(b, _, at?, _) = e, at >= .zero { return "board:\(b.rawValue)" }
            return nil
        })
        timeless = sets.map { s in !s.contains("*") && !s.contains("dispatch") && s.isDisjoint(with: delayed) && s.isDisjoint(with: timed) }
    }

    /// Whether an action with footprint id `a` commutes with everything else the scenario can
    /// do, whenever it runs (isolated and timeless).
    func isAlone(_ a: Int) -> Bool { a >= 0 && a < isolated.count && isolated[a] && timeless[a] }

    /// Whether an action with footprint id `a` does the same a little later (see `timeless`).
    func isTimeless(_ a: Int) -> Bool { a >= 0 && a < timeless.count && timeless[a] }

    /// Whether actions with footprint ids `a` and `b` commute (unknown ids never do).
    func commute(_ a: Int, _ b: Int) -> Bool {
        a >= 0 && b >= 0 && a < independent.count && b < independent.count && independent[a][b]
    }
}
