import Boardy
import BoardyImport
import BoardySimulation
import BoardyTrace
import BoardyVizCore

// MARK: The flow graph of an imported app

extension FlowModel {
    /// The flow graph of an app read from its sources: boards in their modules and continuous
    /// boards, `activates` and `flow` edges as flows, barriers and the gateway from their gates,
    /// exempt boards marked, barrier loops in red; every node and edge carries its `file:line`.
    public init(imported app: ImportedApp) {
        self.init(title: app.name, source: "sources")
        // Motherboard paths from parents: main, main/<parent>, main/<parent>/<child>…
        var byID: [String: ImportedBoard] = [:]
        for b in app.boards { byID[b.id] = b }
        func path(_ id: String?, depth: Int = 0) -> String {
            guard let id, let b = byID[id], depth < 32 else { return MotherboardPath.main.rawValue }
            return path(b.parent, depth: depth + 1) + "/" + id
        }
        func key(_ id: String) -> String { Board.key(mb: byID[id].map { path($0.parent) } ?? MotherboardPath.main.rawValue, id: id) }
        let exempt = Set(app.edges.filter { $0.kind == .exempt }.map(\.to))
        let parents = Set(app.boards.compactMap(\.parent))
        for b in app.boards {
            var board = Board(
                mb: path(b.parent), id: b.id, module: b.module, kind: b.kind, exempt: exempt.contains(b.id), bypass: b.bypassesGateway,
                inner: parents.contains(b.id) ? path(b.id) : nil)
            board.source = b.source.description
            boards.append(board)
        }
        let loops = ImportCheck.loops(app)
        let loopEdges = Set(loops.flatMap { $0.edges }.map { "\($0.from)|\($0.to)|\($0.kind.rawValue)" })
        for e in app.edges where e.kind != .exempt {
            let kind: Link.Kind = e.kind == .barrier ? .barrier : e.kind == .gateway ? .gateway : .flow
            let label: String
            switch e.kind {
            case .activates: label = e.on.map { "\($0) → activates" } ?? "activates"
            case .flow: label = e.on.map { "output \($0)" } ?? "outputs"
            case .barrier: label = e.from
            default: label = "gateway"
            }
            var l = Link(from: key(e.from), to: key(e.to), kind: kind, label: label, inLoop: loopEdges.contains("\(e.from)|\(e.to)|\(e.kind.rawValue)"))
            l.source = e.source.description
            links.append(l)
        }
    }

    /// Weights the links of a declared graph (an imported app's, or a scenario's) by how often
    /// `traces` exercised them, and counts each board's activations and each dispatcher's sends: an
    /// `activates` or `flow` link by the routings and activations a trace records from its
    /// source board to its target, a barrier or gateway link by the waits on its gate.
    public mutating func weigh(by traces: [Trace]) {
        coverage = true
        var counts: [String: Int] = [:]
        var performed: [String: Int] = [:]
        var sent: [String: Int] = [:]
        var tracked: [String: Int] = [:]
        var direct = 0
        for t in traces {
            let observed = FlowModel(trace: t)
            for b in observed.boards { performed[b.key, default: 0] += b.count ?? 0 }
            for d in observed.dispatch?.dispatchers ?? [] { sent[d.id, default: 0] += d.sent ?? 0 }
            for tr in observed.dispatch?.tracked ?? [] { tracked[tr.board, default: 0] += tr.count ?? 0 }
            direct += observed.dispatch?.directTracks ?? 0
            var routed = Set<String>()
            for l in observed.links {
                let from = Self.lastID(l.from), to = Self.lastID(l.to)
                let key = "\(from)|\(to)|\(l.kind == .flow ? "flow" : "wait")"
                counts[key, default: 0] += l.count ?? 1
                routed.insert(key)
                // A scenario's flow names its output: counted per output too.
                if l.kind == .flow { counts[key + "|" + Self.output(of: l.label), default: 0] += l.count ?? 1 }
            }
            // An activation made by a board's code: the trace names the board performing when
            // the request is made (its cause). Where a flow routed it, the routing counted it.
            // (A scenario's own `activate` steps are not flows.)
            guard source != "scenario" else { continue }
            for (from, to) in Self.activations(in: t) where !routed.contains("\(from)|\(to)|flow") { counts["\(from)|\(to)|flow", default: 0] += 1 }
        }
        for i in links.indices {
            let from = Self.lastID(links[i].from), to = Self.lastID(links[i].to)
            var key = "\(from)|\(to)|\(links[i].kind == .flow ? "flow" : "wait")"
            // A scenario's handler on one output is exercised by routings of that output only
            // (flow steps and handlers on any output by every routing).
            if source == "scenario", links[i].kind == .flow, !Self.anyOutput(links[i].label) { key += "|" + Self.output(of: links[i].label) }
            links[i].count = counts[key] ?? 0
        }
        for i in boards.indices { boards[i].count = performed[boards[i].key] ?? 0 }
        if var d = dispatch {
            for i in d.dispatchers.indices { d.dispatchers[i].sent = sent[d.dispatchers[i].id] ?? 0 }
            d.tracked = d.tracked.map { ($0.board, tracked[$0.board] ?? 0) }
            d.directTracks = direct
            dispatch = d
        }
    }

    /// The output a flow label names: the part before ` → ` (`paid → complete(true)`: `paid`).
    static func output(of label: String) -> String {
        guard let r = label.range(of: " → ") else { return label }
        return String(label[..<r.lowerBound])
    }

    /// A flow label that matches every output: flow steps' and handlers' without `on`.
    static func anyOutput(_ label: String) -> Bool {
        let o = output(of: label)
        return o == "any output" || o.hasPrefix("flow action")
    }

    private static func lastID(_ key: String) -> String { key.split(separator: "/").last.map(String.init) ?? key }

    /// (board whose activation caused it, board requested) for every activation request a trace
    /// records with a cause.
    private static func activations(in t: Trace) -> [(String, String)] {
        var boardOf: [Int: String] = [:]
        var out: [(String, String)] = []
        for e in t.events {
            if let b = e.body.board { boardOf[e.seq] = b }
            if case .activationRequested(let target, let source, _) = e.body, let from = source ?? e.cause.flatMap({ boardOf[$0] }), from != target {
                out.append((from, target))
            }
        }
        return out
    }
}

// MARK: Checking an imported app

/// Barrier loops and self-gated boards found in an app's code (errors), and gates whose code has
/// no reachable completion (warnings), each with the places in the code that make them.
public enum ImportCheck {
    /// A cycle of boards each waiting on the next's gate.
    public struct Loop: Sendable, Hashable {
        /// The boards, in order (a single board gates itself).
        public var boards: [String]
        /// The barrier and gateway edges that make it.
        public var edges: [ImportedEdge]
    }

    /// One finding.
    public struct Finding: Sendable, Hashable {
        /// Errors make `check` exit 3.
        public var severity: BoardySimulation.Finding.Severity
        /// `barrier-loop`, `self-gated`, `gate-never-completes`.
        public var code: String
        /// What is wrong, with `file:line`.
        public var message: String
        /// How to fix it.
        public var suggestion: String
        /// The places in the code.
        public var sources: [SourceLocation]
    }

    /// The barrier loops: cycles in "waits on the gate" (barrier and gateway edges), each once,
    /// starting from its smallest id.
    public static func loops(_ app: ImportedApp) -> [Loop] {
        let waits = app.edges.filter { $0.kind == .barrier || $0.kind == .gateway }
        // gate → boards it gates; a cycle gate₁ → b = gate₂ → … → gate₁.
        var next: [String: [ImportedEdge]] = [:]
        for e in waits { next[e.from, default: []].append(e) }
        var found: [Loop] = []
        var seen = Set<[String]>()
        for start in next.keys.sorted() {
            var stack: [(node: String, path: [ImportedEdge])] = [(start, [])]
            var visited = Set<String>()
            while let (node, path) = stack.popLast() {
                for e in next[node] ?? [] {
                    if e.to == start {
                        let cycle = path + [e]
                        let boards = cycle.map(\.from)
                        guard boards.min() == start else { continue }
                        if seen.insert(boards).inserted { found.append(Loop(boards: boards, edges: cycle)) }
                    } else if !visited.contains(e.to), e.to > start, path.count < 32 {
                        visited.insert(e.to)
                        stack.append((e.to, path + [e]))
                    }
                }
            }
        }
        return found.sorted { $0.boards.lexicographicallyPrecedes($1.boards) }
    }

    /// Every finding: loops and self-gated boards first, then gates that never complete.
    public static func check(_ app: ImportedApp) -> [Finding] {
        var out: [Finding] = []
        for l in loops(app) {
            let places = l.edges.map { "\($0.to) waits on \($0.from) (\($0.kind.rawValue), \($0.source))" }.joined(separator: "; ")
            if l.boards.count == 1 {
                out.append(Finding(
                    severity: .error, code: "self-gated",
                    message: "\(l.boards[0]) is gated by itself: \(places)",
                    suggestion: l.edges[0].kind == .gateway ? "exempt the gate from its gateway (install(gatewayBarrier: .exempt, for: …))" : "gate it with another board, or remove its activation barrier",
                    sources: l.edges.map(\.source)))
            } else {
                out.append(Finding(
                    severity: .error, code: "barrier-loop",
                    message: "barrier loop \((l.boards + [l.boards[0]]).joined(separator: " → ")): \(places)",
                    suggestion: "break the cycle: one of these gates must not wait, directly or through others, on the barrier it resolves",
                    sources: l.edges.map(\.source)))
            }
        }
        for g in app.gatesWithoutCompletion {
            out.append(Finding(
                severity: .warning, code: "gate-never-completes",
                message: "gate \(g.id) (registered at \(g.source)) has no reachable complete(…) or resolving output in its code: boards behind it would wait for ever",
                suggestion: "complete the gate (complete(true) or complete(false)) on every path", sources: [g.source]))
        }
        return out
    }
}

// MARK: A scenario skeleton

extension ImportedApp {
    /// A scenario (contract §1) with every board, flow, barrier and gateway the app's code makes,
    /// each with its `source`, ready to be given behaviour and simulated. Gates whose code
    /// completes get `onActivate: [{"complete": true}]`; the app's entry points are activated at
    /// 0. What a scenario cannot say (an activation across motherboards, a handler that activates
    /// nothing) is left out and listed in `notes`.
    public func scenarioSkeleton() -> (scenario: JSONValue, notes: [String]) {
        var notes: [String] = []
        var byID: [String: ImportedBoard] = [:]
        for b in boards { byID[b.id] = b }
        let children = Dictionary(grouping: boards.filter { $0.parent != nil }, by: { $0.parent! })
        let gates = Set(edges.filter { $0.kind == .barrier || $0.kind == .gateway }.map(\.from))
        let silentGates = Set(gatesWithoutCompletion.map(\.id))
        let exempt = edges.filter { $0.kind == .exempt }.map(\.to)
        func sameMB(_ a: String, _ b: String) -> Bool { byID[a]?.parent == byID[b]?.parent }

        func board(_ b: ImportedBoard) -> JSONValue {
            var o: JSONObject = ["id": .string(b.id)]
            if let m = b.module { o["module"] = .string(m) }
            let inner = children[b.id] ?? []
            var kind = b.kind
            if !inner.isEmpty, kind != "continuous", kind != "flow" { kind = "continuous" }
            // A continuous board with nothing registered inside works on the motherboard around
            // it (Boardy's inner producer falls back to the outer one): a plain board here.
            if inner.isEmpty, kind == "continuous" || kind == "flow" {
                kind = "board"
                notes.append("\(b.source): \(b.id) registers no inner boards; simulated as a plain board beside the boards it activates")
            }
            if kind != "board" { o["kind"] = .string(kind) }
            if b.bypassesGateway, kind == "board" || kind == "continuous" { o["bypassGateway"] = true }
            if let barrier = edges.first(where: { $0.kind == .barrier && $0.to == b.id }) {
                if sameMB(barrier.from, b.id) {
                    o["activationBarrier"] = ["board": .string(barrier.from), "source": .string(barrier.source.description)]
                } else {
                    notes.append("\(barrier.source): \(b.id)'s gate \(barrier.from) is in another motherboard; left out")
                }
            }
            var steps: [JSONValue] = []
            // What the board's own code activates: in its inner motherboard for a continuous
            // board, else beside it.
            for e in edges where e.kind == .activates && e.from == b.id && !e.byOutput {
                let target = byID[e.to]
                if target?.parent == (kind == "board" ? b.parent : b.id) {
                    steps.append(["activate": .string(e.to)])
                } else {
                    notes.append("\(e.source): \(b.id) activates \(e.to) in another motherboard; left out")
                }
            }
            if gates.contains(b.id), !silentGates.contains(b.id), b.kind == "board" || b.kind == "continuous" { steps.append(["complete": true]) }
            if !steps.isEmpty { o["onActivate"] = .array(steps) }
            if !inner.isEmpty {
                o["boards"] = .array(inner.map(board))
                let fl = flows(in: b.id)
                if !fl.isEmpty { o["flows"] = .array(fl) }
            }
            o["source"] = .string(b.source.description)
            return .object(o)
        }

        func flows(in parent: String?) -> [JSONValue] {
            var out: [JSONValue] = []
            // Activations made on an output (in a handler, or a flow step) are flows.
            for e in edges where e.kind == .activates && e.byOutput && byID[e.from]?.parent == parent {
                guard sameMB(e.from, e.to) else {
                    notes.append("\(e.source): a handler of \(e.from)'s outputs activates \(e.to) in another motherboard; left out")
                    continue
                }
                var o: JSONObject = ["from": .string(e.from)]
                if let on = e.on { o["on"] = .string(on) }
                o["activate"] = .string(e.to)
                o["source"] = .string(e.source.description)
                out.append(.object(o))
            }
            return out
        }

        var root: JSONObject = ["scenario": .string(name)]
        root["boards"] = .array(boards.filter { $0.parent == nil }.map(board))
        let fl = flows(in: nil)
        if !fl.isEmpty { root["flows"] = .array(fl) }
        if let g = edges.first(where: { $0.kind == .gateway }) {
            var o: JSONObject = ["barrier": .string(g.from)]
            let ex = exempt.filter { byID[$0]?.parent == nil }
            if !ex.isEmpty { o["exempt"] = .array(ex.map(JSONValue.string)) }
            o["source"] = .string(g.source.description)
            root["gateway"] = .object(o)
        }
        let starts = entries.filter { byID[$0.board]?.parent == nil }
        if !starts.isEmpty { root["script"] = .array(starts.map { ["at": 0, "activate": .string($0.board)] }) }
        return (.object(root), notes)
    }
}

// MARK: JSON for people

extension JSONValue {
    /// The JSON text indented two spaces a level, for files people edit (scenario skeletons).
    public var prettyText: String {
        var out = ""
        func write(_ v: JSONValue, _ indent: String) {
            switch v {
            case .array(let a) where !a.isEmpty:
                // Short arrays of scalars on one line.
                if a.allSatisfy({ $0.arrayValue == nil && $0.objectValue == nil }), a.map(\.jsonText).joined(separator: ", ").count < 80 {
                    out += "[" + a.map(\.jsonText).joined(separator: ", ") + "]"
                    return
                }
                out += "[\n"
                for (i, x) in a.enumerated() {
                    out += indent + "  "
                    write(x, indent + "  ")
                    out += i == a.count - 1 ? "\n" : ",\n"
                }
                out += indent + "]"
            case .object(let o) where !o.isEmpty:
                if o.members.allSatisfy({ $0.value.arrayValue == nil && $0.value.objectValue == nil }), v.jsonText.count < 100 {
                    out += o.members.map { JSONValue.string($0.key).jsonText + ": " + $0.value.jsonText }.joined(separator: ", ").wrapped
                    return
                }
                out += "{\n"
                for (i, m) in o.members.enumerated() {
                    out += indent + "  " + JSONValue.string(m.key).jsonText + ": "
                    write(m.value, indent + "  ")
                    out += i == o.members.count - 1 ? "\n" : ",\n"
                }
                out += indent + "}"
            default:
                out += v.jsonText
            }
        }
        write(self, "")
        return out + "\n"
    }
}

extension String {
    fileprivate var wrapped: String { "{ " + self + " }" }
}
