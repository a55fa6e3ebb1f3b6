import BoardyTrace

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

    /// Every finding: that the import understood too little of the app (when it did), loops and
    /// self-gated boards, then gates that never complete.
    public static func check(_ app: ImportedApp) -> [Finding] {
        var out: [Finding] = []
        // Said first: a check over code the import could not read is no all-clear.
        if app.understoodTooLittle {
            let t = app.totalResolution
            let share = String(format: "%.1f", t.percentResolved)
            let what = app.boards.isEmpty
                ? "found no board"
                : "understood \(share)% of the app's activation call sites (\(t.direct + t.throughCallers) of \(t.total))"
            out.append(Finding(
                severity: .warning, code: .partlyUnderstood,
                message: "the import \(what), below the threshold of \(Int(ImportedApp.understoodThreshold))%: \(t.unresolved) unresolved, \(t.unreached) in code no registration it resolved reaches, \(app.unresolved.count) items unresolved in all; the other findings are on the understood part only",
                suggestion: "run `boardy-viz import` on the same folder to see what was not understood, and `--explain ID` for a board that is missing",
                sources: Array((app.unresolved.map(\.source) + app.unreached.map(\.source)).prefix(5))))
        }
        for l in loops(app) {
            let places = l.edges.map { "\($0.to) waits on \($0.from) (\($0.kind.rawValue), \($0.source))" }.joined(separator: "; ")
            if l.boards.count == 1 {
                out.append(Finding(
                    severity: .error, code: .selfGated,
                    message: "\(l.boards[0]) is gated by itself: \(places)",
                    suggestion: l.edges[0].kind == .gateway ? "exempt the gate from its gateway (install(gatewayBarrier: .exempt, for: …))" : "gate it with another board, or remove its activation barrier",
                    sources: l.edges.map(\.source)))
            } else {
                out.append(Finding(
                    severity: .error, code: .barrierLoop,
                    message: "barrier loop \((l.boards + [l.boards[0]]).joined(separator: " → ")): \(places)",
                    suggestion: "break the cycle: one of these gates must not wait, directly or through others, on the barrier it resolves",
                    sources: l.edges.map(\.source)))
            }
        }
        for g in app.gatesWithoutCompletion {
            out.append(Finding(
                severity: .warning, code: .gateNeverCompletes,
                message: "gate \(g.id) (registered at \(g.source)) has no reachable complete(…) or resolving output in its code: boards behind it would wait for ever",
                suggestion: "complete the gate (complete(true) or complete(false)) on every path", sources: [g.source]))
        }
        return out
    }
}
