import Boardy

/// The verdict on one `expect` entry.
public struct ExpectationResult: Sendable {
    /// The entry, as written in the scenario (`performed pubReceipt times 1`).
    public var expectation: String
    /// Whether it holds.
    public var passed: Bool
    /// What the trace shows, when it does not.
    public var detail: String
}

extension Expectation {
    /// A short spelling of the entry.
    public var summary: String {
        switch self {
        case let .performed(b, times, at, input):
            var s = "performed \(b)"
            if let times { s += " times \(times)" }
            if let at { s += " at \(at)" }
            if let input { s += " input \(input.jsonText)" }
            return s
        case let .never(b, cancelled): return "never \(b)" + (cancelled ? " (cancelled)" : "")
        case let .stuck(v): return "stuck \(v)"
        case let .loop(v): return "loop \(v)"
        case let .sent(d, n): return "sent \(d) events \(n)"
        }
    }

    /// Checks the entry against a run's events; a failure says what was expected and what the
    /// trace shows instead.
    public func check(_ events: [TraceEvent]) -> ExpectationResult {
        func result(_ ok: Bool, _ detail: @autoclosure () -> String) -> ExpectationResult {
            ExpectationResult(expectation: summary, passed: ok, detail: ok ? "" : detail())
        }
        func lifecycle(_ board: BoardID) -> String {
            let lines = events.filter { $0.body.board == board.rawValue && ["activation.requested", "activation.cancelled", "activation.performed", "gateway.checked", "barrier.checked"].contains($0.kind) }
                .prefix(6).map { "seq \($0.seq) t=\($0.t) \($0.kind)" + ($0.body.cancelReason.map { " (\($0))" } ?? "") }
            return lines.isEmpty ? "the trace never mentions \(board)" : lines.joined(separator: "; ")
        }
        switch self {
        case let .performed(board, times, at, input):
            let all = events.filter { if case .activationPerformed(board.rawValue, _) = $0.body { return true } else { return false } }
            let matching = all.filter { e in
                if let at, e.t != at { return false }
                if let input, case let .activationPerformed(_, actual) = e.body, actual != input { return false }
                return true
            }
            let ok = times.map { matching.count == $0 } ?? !matching.isEmpty
            let times = "\(matching.count) matching time\(matching.count == 1 ? "" : "s")"
            return result(ok, "expected \(summary); the trace shows \(times) (\(all.count) in all): \(lifecycle(board))")
        case let .never(board, cancelled):
            let performed = events.filter { if case .activationPerformed(board.rawValue, _) = $0.body { return true } else { return false } }
            let wasCancelled = events.contains { if case .activationCancelled(board.rawValue, _) = $0.body { return true } else { return false } }
            if let first = performed.first {
                return result(false, "expected \(board) never to run; it ran at seq \(first.seq) (t=\(first.t))")
            }
            return result(!cancelled || wasCancelled, "expected a cancellation of \(board); the trace shows none: \(lifecycle(board))")
        case let .stuck(expected):
            let stuck = events.filter { if case .stuckBarrier = $0.body { return true } else { return false } }
            let names = stuck.map { e -> String in
                if case let .stuckBarrier(b, g, w) = e.body { return "\(b) (gate \(g), waiting: \(w.joined(separator: ", ")))" }
                return ""
            }
            return result(!stuck.isEmpty == expected, expected ? "expected a stuck barrier; the run ended with none" : "expected nothing stuck; stuck: \(names.joined(separator: "; "))")
        case let .loop(expected):
            let loops = events.filter { $0.kind == "barrier.loop" }
            let cycles = loops.compactMap { e -> String? in
                if case let .barrierLoop(_, c) = e.body { return c.joined(separator: " → ") }
                return nil
            }
            return result(!loops.isEmpty == expected, expected ? "expected a barrier loop; none was recorded" : "expected no loop; recorded: \(cycles.joined(separator: "; "))")
        case let .sent(dispatcher, n):
            let total = events.reduce(0) { sum, e in
                if case let .dispatchSent(d, count, _) = e.body, d == dispatcher { return sum + count }
                return sum
            }
            let held = events.last { if case .stuckDispatcher(dispatcher, _) = $0.body { return true } else { return false } }
            var detail = "expected \(n) events sent to \(dispatcher); the trace shows \(total)"
            if case let .stuckDispatcher(_, waiting)? = held?.body { detail += " (\(waiting.count) still held at the end)" }
            return result(total == n, detail)
        }
    }
}

extension TraceEvent.Body {
    var cancelReason: String? {
        if case let .activationCancelled(_, r) = self { return r.rawValue }
        return nil
    }
}
