import BoardyTrace

/// How two runs' outcomes differ: per board, how often it ran and was cancelled (by reason);
/// barrier loops, stuck barriers and events dispatched. A counterfactual replay uses it to say
/// where the run now goes.
public struct OutcomeDelta: Sendable, Hashable {
    /// One count that differs.
    public struct Change: Sendable, Hashable, CustomStringConvertible {
        /// What is counted (`pubReceipt performed`, `stuck barriers`, ...).
        public var what: String
        /// In the recorded run.
        public var before: Int
        /// In the new run.
        public var after: Int
        /// A count of `what` that went from `before` to `after`.
        public init(what: String, before: Int, after: Int) {
            self.what = what
            self.before = before
            self.after = after
        }
        public var description: String { "\(what): \(before) → \(after)" }
    }

    /// The counts that differ, in a stable order (boards by first appearance, then totals).
    public var changes: [Change]

    /// Compares the outcomes of `recorded` with those of `run`.
    public init(recorded: [TraceEvent], run: [TraceEvent]) {
        let a = Counts(recorded)
        let b = Counts(run)
        var keys = a.order
        for k in b.order where a.values[k] == nil { keys.append(k) }
        changes = keys.compactMap { k in
            let x = a.values[k] ?? 0
            let y = b.values[k] ?? 0
            return x == y ? nil : Change(what: k, before: x, after: y)
        }
    }

    /// Counts per outcome, in first-seen order.
    private struct Counts {
        var values: [String: Int] = [:]
        var order: [String] = []

        init(_ events: [TraceEvent]) {
            for e in events {
                let place = MotherboardPath(e.mb) == .main ? "" : " [\(e.mb)]"
                switch e.body {
                case let .activationPerformed(board, _): bump("\(board)\(place) performed")
                case let .activationCancelled(board, reason): bump("\(board)\(place) cancelled (\(reason.rawValue))")
                case let .boardCompleted(board, success): bump("\(board)\(place) completed \(success.map { $0 ? "true" : "false" } ?? "")")
                case let .barrierResolved(barrier, passed, _): bump("barrier \(barrier)\(place) \(passed ? "passed" : "failed")")
                default: break
                }
            }
            // Totals last, present even when zero.
            for e in events {
                switch e.body {
                case .barrierLoop: bump("barrier loops")
                case .stuckBarrier: bump("stuck barriers")
                case let .dispatchSent(_, n, _): bump("events dispatched", by: n)
                default: break
                }
            }
            for total in ["barrier loops", "stuck barriers", "events dispatched"] where values[total] == nil { bump(total, by: 0) }
        }

        mutating func bump(_ key: String, by n: Int = 1) {
            if values[key] == nil { order.append(key) }
            values[key, default: 0] += n
        }
    }
}
