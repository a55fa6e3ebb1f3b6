import BoardyCore
import BoardyDispatch

/// Static analysis of a scenario, without running it.
public enum StaticCheck {
    /// Every finding, errors first, each group in declaration order.
    public static func check(_ scenario: Scenario) -> [Finding] {
        var findings: [Finding] = []
        findings += loops(scenario)
        findings += gatesThatNeverComplete(scenario)
        let cycles = activationCycles(scenario)
        findings += cycles.filter { $0.severity == .error }
        findings += unreachable(scenario)
        findings += cycles.filter { $0.severity == .warning }
        findings += unknownDispatchers(scenario)
        findings += confusableIDs(scenario)
        return findings
    }

    /// Board ids that differ only by invisible characters (zero-width, format, control, spaces
    /// other than U+0020) or letter case: two boards a reader cannot tell apart (docs/contract.md §1).
    static func confusableIDs(_ s: Scenario) -> [Finding] {
        // One id per visible form; only forms seen twice keep a list (a million distinct ids
        // cost one dictionary entry each, sharing the ids' own storage).
        var first: [String: BoardID] = [:]
        var clashes: [String: [BoardID]] = [:]
        var order: [String] = []
        var seen = Set<BoardID>()
        func add(_ boards: [BoardSpec]) {
            for b in boards {
                if seen.insert(b.id).inserted {
                    let key = visibleKey(b.id.rawValue)
                    if let earlier = first[key] {
                        if clashes[key] == nil {
                            clashes[key] = [earlier]
                            order.append(key)
                        }
                        clashes[key]?.append(b.id)
                    } else {
                        first[key] = b.id
                    }
                }
                add(b.boards)
            }
        }
        add(s.boards)
        for r in s.roots { add(r.boards) }
        return order.compactMap { key in
            guard let ids = clashes[key] else { return nil }
            let shown = ids.map { "\"\(escapedID($0.rawValue))\"" }.joined(separator: ", ")
            return Finding(
                severity: .warning, code: .confusableIDs,
                message: "board ids \(shown) differ only by invisible characters or letter case",
                suggestion: "rename them so they read differently, or make them one board", boards: ids)
        }
    }

    /// What a reader sees of an id: lower-cased, without the characters a terminal does not draw.
    static func visibleKey(_ id: String) -> String {
        // Plain ASCII without capitals is its own visible form: no copy.
        if id.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && !($0 >= 0x41 && $0 <= 0x5A) }) { return id }
        var out = String.UnicodeScalarView()
        for u in id.lowercased().unicodeScalars where !isInvisible(u) { out.append(u) }
        return String(out)
    }

    static func isInvisible(_ u: Unicode.Scalar) -> Bool {
        switch u.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: return true
        case .spaceSeparator: return u != " "
        default: return u.properties.isDefaultIgnorableCodePoint
        }
    }

    /// `id` with its invisible characters spelled out (`\u{200B}`).
    static func escapedID(_ id: String) -> String {
        var out = ""
        for u in id.unicodeScalars {
            if isInvisible(u) { out += "\\u{" + String(u.value, radix: 16, uppercase: true) + "}" } else { out.unicodeScalars.append(u) }
        }
        return out
    }

    /// A motherboard's boards by id (the first of a duplicate), as positions in its array: a
    /// million boards must not be copied into a dictionary of specs.
    struct BoardIndex {
        let boards: [BoardSpec]
        let position: [BoardID: Int]
        init(_ boards: [BoardSpec]) {
            self.boards = boards
            var position: [BoardID: Int] = [:]
            position.reserveCapacity(boards.count)
            for (i, b) in boards.enumerated() where position[b.id] == nil { position[b.id] = i }
            self.position = position
        }
        subscript(_ id: BoardID) -> BoardSpec? { position[id].map { boards[$0] } }
    }

    /// Gates that wait, directly or through other gates, on their own barrier: the gateway's
    /// gate when it is neither exempt nor bypassing, and activation-barrier chains.
    static func loops(_ s: Scenario) -> [Finding] {
        var findings: [Finding] = []
        forEachMotherboard(s) { boards, isMain in
            let byID = BoardIndex(boards)
            // What a board's activation waits on before it can run.
            func waitsOn(_ b: BoardSpec) -> [BoardID] {
                var out: [BoardID] = []
                if isMain, let g = s.gateway, !g.exempt.contains(b.id), !(b.bypassGateway ?? b.kind.bypassesGatewayByDefault) {
                    out.append(g.gate)
                }
                if let gate = b.activationBarrier?.gate { out.append(gate) }
                return out
            }
            var gates: [BoardID] = []
            var seen = Set<BoardID>()
            for b in boards { for g in waitsOn(b) where seen.insert(g).inserted { gates.append(g) } }
            // Linear in the gates and their edges (a 5,000-gate chain used to take minutes).
            let finder = CycleFinder(nodes: gates, edges: Dictionary(gates.map { g in (g, byID[g].map(waitsOn) ?? []) }, uniquingKeysWith: { a, _ in a }), target: { $0 })
            for found in finder.cycles(using: { _ in true }) {
                let cycle = found.map(\.from)
                guard let start = cycle.first else { continue }
                let isGatewaySelf = cycle.count == 1 && isMain && s.gateway?.gate == start
                findings.append(
                    Finding(
                        severity: .error, code: .barrierLoop,
                        message: "barrier loop: \(cycle.map(\.rawValue).joined(separator: " → ")) → \(start): "
                            + (cycle.count == 1 ? "\(start) waits on its own barrier" : "each gate waits on the next"),
                        suggestion: isGatewaySelf
                            ? "exempt \(start) from the gateway (gateway.exempt), or set \"bypassGateway\": true on it"
                            : "remove one of the activation barriers on \(cycle.map(\.rawValue).joined(separator: ", ")), or exempt a gate",
                        boards: cycle))
            }
        }
        return findings
    }

    /// Gates with no way to complete: no `complete` step (task kinds complete by themselves), no
    /// `resolveOn` output they send (gateway), no flow handler or script step completing them.
    static func gatesThatNeverComplete(_ s: Scenario) -> [Finding] {
        var findings: [Finding] = []
        var completedByFlows = Set<BoardID>()
        forEachFlowList(s) { flows in
            for case let .handler(_, _, .complete(id, _)) in flows { completedByFlows.insert(id) }
            for case let .flowActionHandler(_, _, .complete(id, _)) in flows { completedByFlows.insert(id) }
        }
        let completedByScript = Set(s.script.compactMap { step -> BoardID? in
            if case let .complete(id, _) = step.action { return id }
            return nil
        })
        forEachMotherboard(s) { boards, isMain in
            var gates: [(BoardID, isGateway: Bool)] = []
            var seen = Set<BoardID>()
            if isMain, let g = s.gateway {
                gates.append((g.gate, true))
                seen.insert(g.gate)
            }
            for b in boards { if let gate = b.activationBarrier?.gate, seen.insert(gate).inserted { gates.append((gate, false)) } }
            let byID = BoardIndex(boards)
            for (gate, isGateway) in gates {
                guard let spec = byID[gate] else { continue }
                let completesItself = spec.kind == .task || spec.kind == .blockTask || spec.kind == .resultTask
                    || spec.onActivate.contains {
                        switch $0.action {
                        case .complete, .completeEither: return true
                        default: return false
                        }
                    }
                var resolvingOutput = false
                if isGateway, let g = s.gateway {
                    let outputs = Set(spec.onActivate.compactMap { step -> String? in
                        if case let .output(v) = step.action { return v.stringValue }
                        return nil
                    })
                    resolvingOutput = g.resolveOn.contains { outputs.contains($0.output) }
                }
                if !(completesItself || resolvingOutput || completedByFlows.contains(gate) || completedByScript.contains(gate)) {
                    findings.append(
                        Finding(
                            severity: .error, code: .gateNeverCompletes,
                            message: "gate \(gate) can never complete: it has no \"complete\" step"
                                + (isGateway ? ", sends no output listed in the gateway's resolveOn" : "")
                                + ", and no flow or script step completes it, so every board behind it waits forever",
                            suggestion: "add { \"complete\": true } to \(gate)'s onActivate, or a flow or script step that completes it",
                            boards: [gate]))
                }
            }
        }
        return findings
    }

    /// One way activating a board leads to activating another: where it is written and whether
    /// a delay separates them.
    struct ActivationEdge {
        let to: BoardID
        let delayed: Bool
        /// Where the edge is written: `base[index]` (a board's `onActivate` list, or a flow list).
        /// Kept in parts: spelled out only for a finding, so a million edges make no strings.
        let sourceBase: String
        let sourceIndex: Int
        /// Whether `sourceBase` is a board (the edge is one of its steps) rather than a flow list.
        let fromStep: Bool
        var source: String { fromStep ? "\(sourceBase).onActivate[\(sourceIndex)]" : "\(sourceBase)[\(sourceIndex)]" }
    }

    /// Flow cycles that re-activate boards with no gate in between: each activation leads to the
    /// next, forever. Synchronous ones (no delay anywhere on the cycle) are errors: the run never
    /// leaves the moment (Boardy itself overflows its stack there). Delayed ones are warnings: it
    /// may be a polling loop, but the run only ends at its horizon. Boards behind an activation
    /// barrier or the gateway are gated, so edges into them do not count.
    static func activationCycles(_ s: Scenario) -> [Finding] {
        var findings: [Finding] = []
        forEachMotherboardWithFlows(s) { boards, flows, flowsPath, isMain in
            let byID = BoardIndex(boards)
            func gated(_ id: BoardID) -> Bool {
                guard let b = byID[id] else { return true }
                if b.activationBarrier != nil { return true }
                if isMain, let g = s.gateway, !g.exempt.contains(id), !(b.bypassGateway ?? b.kind.bypassesGatewayByDefault) { return true }
                return false
            }
            // What each board does when activated, in step order, until a step completes it.
            struct Effect { let output: JSONValue?; let activates: BoardID?; let delay: TraceTime; let step: Int }
            func effects(_ b: BoardSpec) -> [Effect] {
                var out: [Effect] = []
                var t = TraceTime.zero
                for (i, step) in b.onActivate.enumerated() {
                    t = t + step.after
                    switch step.action {
                    case let .output(v): out.append(Effect(output: v, activates: nil, delay: t, step: i))
                    case let .activate(id, _): out.append(Effect(output: nil, activates: id, delay: t, step: i))
                    case .complete, .completeEither: return out
                    default: break
                    }
                }
                return out
            }
            // The flows by the board whose outputs they route, read once (linear in the flows),
            // held per board position (no dictionary of arrays: a million-step flow is a million
            // routes).
            struct Route { let on: JSONValue?; let to: BoardID; let flow: Int }
            var routes = [[Route]](repeating: [], count: boards.count)
            for (i, flow) in flows.enumerated() {
                switch flow {
                case let .steps(ids):
                    for (a, next) in zip(ids, ids.dropFirst()) { if let p = byID.position[a] { routes[p].append(Route(on: nil, to: next, flow: i)) } }
                case let .handler(from, on, .activate(to, _)):
                    if let p = byID.position[from] { routes[p].append(Route(on: on, to: to, flow: i)) }
                default: break
                }
            }
            var edgesOf = [[ActivationEdge]](repeating: [], count: boards.count)
            for (p, b) in boards.enumerated() where byID.position[b.id] == p {
                let fx = effects(b)
                var out: [ActivationEdge] = []
                for e in fx {
                    if let to = e.activates { out.append(ActivationEdge(to: to, delayed: e.delay > .zero, sourceBase: b.path, sourceIndex: e.step, fromStep: true)) }
                }
                for r in routes[p] {
                    for e in fx where e.output != nil && (r.on == nil || r.on == e.output) {
                        out.append(ActivationEdge(to: r.to, delayed: e.delay > .zero, sourceBase: flowsPath, sourceIndex: r.flow, fromStep: false))
                    }
                }
                routes[p] = []
                edgesOf[p] = out
            }
            routes = []
            let finder = CycleFinder(nodes: boards.map(\.id), edgesOf: edgesOf, index: byID.position, target: \.to)
            var reported = Set<BoardID>()
            for synchronousOnly in [true, false] {
                for cycle in finder.cycles(using: { (!synchronousOnly || !$0.delayed) && !gated($0.to) }) {
                    let ids = cycle.map(\.from)
                    guard let start = ids.first, !ids.contains(where: reported.contains) else { continue }
                    reported.formUnion(ids)
                    let sources = cycle.map { "\($0.from) → \($0.edge.to) at \(s.source(of: $0.edge.source))" }
                    let names = (ids + [start]).map(\.rawValue).joined(separator: " → ")
                    findings.append(
                        Finding(
                            severity: synchronousOnly ? .error : .warning, code: .runawayCycle,
                            message: synchronousOnly
                                ? "runaway cycle: \(names) re-activates itself at once, with no delay or gate in between, so the run never "
                                    + "ends (Boardy overflows its stack; simulate stops it at a bound): " + sources.joined(separator: "; ")
                                : "delayed cycle: \(names) re-activates itself after a delay, with no gate in between; unless it is a polling "
                                    + "loop on purpose, the run only ends at its horizon: " + sources.joined(separator: "; "),
                            suggestion: synchronousOnly
                                ? "break the cycle: route one of its outputs elsewhere, or put a gate (an activation barrier) in front of one board"
                                : "make sure something ends it (a complete step, a gate), or raise --horizon if it polls on purpose",
                            boards: ids))
                }
            }
        }
        return findings
    }

    /// Boards that nothing activates: no stimulus, flow, step or barrier reaches them.
    static func unreachable(_ s: Scenario) -> [Finding] {
        var findings: [Finding] = []
        var reached = Set<BoardID>()
        for step in s.script { if case let .activate(id, _) = step.action { reached.insert(id) } }
        if let g = s.gateway { reached.insert(g.gate) }
        forEachFlowList(s) { flows in
            for f in flows {
                switch f {
                case let .steps(ids): reached.formUnion(ids.dropFirst())
                case let .handler(_, _, .activate(id, _)), let .flowActionHandler(_, _, .activate(id, _)): reached.insert(id)
                default: break
                }
            }
        }
        func visit(_ boards: [BoardSpec]) {
            for b in boards {
                for step in b.onActivate { if case let .activate(id, _) = step.action { reached.insert(id) } }
                if let gate = b.activationBarrier?.gate { reached.insert(gate) }
                visit(b.boards)
            }
        }
        visit(s.boards)
        for r in s.roots { visit(r.boards) }
        // A continuous board's inner boards count only once the board itself is reached.
        func report(_ boards: [BoardSpec]) {
            for b in boards {
                if !reached.contains(b.id) {
                    findings.append(
                        Finding(
                            severity: .warning, code: .unreachableBoard,
                            message: "board \(b.id) is never reached: no script step, flow, step or barrier activates it",
                            suggestion: "add a flow or a script step that activates \(b.id), or remove it", boards: [b.id]))
                } else {
                    report(b.boards)
                }
            }
        }
        report(s.boards)
        for r in s.roots { report(r.boards) }
        return findings
    }

    /// Dispatch barriers scoped to dispatchers the scenario does not declare.
    static func unknownDispatchers(_ s: Scenario) -> [Finding] {
        guard let d = s.dispatch, let barriers = d.barriers else { return [] }
        let ids = Set(d.dispatchers.map(\.id))
        var findings: [Finding] = []
        for entry in BarrierSettings.parse(barriers).entries {
            for case let .dispatcher(id) in entry.scopes where !ids.contains(id) {
                findings.append(
                    Finding(
                        severity: .warning, code: .unknownDispatcher,
                        message: "dispatch barrier \(entry.key) is scoped to \"\(id)\", which is not a declared dispatcher",
                        suggestion: "declare a dispatcher \"\(id)\" or fix the scope (\(ids.sorted().joined(separator: ", ")))", boards: []))
            }
        }
        return findings
    }

    static func forEachMotherboard(_ s: Scenario, _ body: ([BoardSpec], Bool) -> Void) {
        body(s.boards, true)
        func inner(_ boards: [BoardSpec]) {
            for b in boards where !b.boards.isEmpty {
                body(b.boards, false)
                inner(b.boards)
            }
        }
        inner(s.boards)
    }

    /// Each motherboard's boards with its flows and the JSON path of its flow list.
    static func forEachMotherboardWithFlows(_ s: Scenario, _ body: ([BoardSpec], [FlowSpec], String, Bool) -> Void) {
        body(s.boards, s.flows, "flows", true)
        func inner(_ boards: [BoardSpec]) {
            for b in boards where !b.boards.isEmpty {
                body(b.boards, b.flows, "\(b.path).flows", false)
                inner(b.boards)
            }
        }
        inner(s.boards)
    }

    static func forEachFlowList(_ s: Scenario, _ body: ([FlowSpec]) -> Void) {
        body(s.flows)
        for r in s.roots where !r.flows.isEmpty { body(r.flows) }
        func inner(_ boards: [BoardSpec]) {
            for b in boards {
                if !b.flows.isEmpty { body(b.flows) }
                inner(b.boards)
            }
        }
        inner(s.boards)
        for r in s.roots { inner(r.boards) }
    }
}
