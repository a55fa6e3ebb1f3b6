import BoardyTrace

/// The intervals a trace implies, found once for every view (timeline, Chrome export, viewer):
/// each barrier wait from its check to what ended it, each activation's run from `performed` to
/// the last event it caused directly, and each stretch a dispatcher held its queue.
///
/// Positions are indices into the events given, so a caller that filters by time clips them.
public struct TraceSpans: Sendable {
    /// How a wait ended.
    public enum WaitEnd: String, Sendable {
        /// The barrier passed and the activation went on.
        case passed
        /// The barrier failed (`barrier-failed`).
        case failed
        /// Cancelled as part of a barrier loop.
        case loop
        /// Still waiting when the trace ends.
        case stuck
    }

    /// One activation waiting on one barrier.
    public struct Wait: Sendable, Hashable {
        /// The motherboard of the check.
        public var mb: String
        /// The waiting board (its destination).
        public var board: String
        /// The barrier identifier (for the gateway, its gate).
        public var barrier: String
        /// A gateway wait (else an activation barrier's).
        public var gateway: Bool
        /// The index of the check that said `wait`.
        public var start: Int
        /// The index of the event that ended it; nil when it never ended.
        public var end: Int?
        /// How it ended.
        public var outcome: WaitEnd
    }

    /// One activation running: from `activation.performed` to the last output or completion it
    /// caused directly. `overlapsUntil` is where an earlier run of the same board ended when this
    /// one began before it had (a queued block task, or concurrent runs).
    public struct Run: Sendable, Hashable {
        /// The motherboard.
        public var mb: String
        /// The board.
        public var board: String
        /// `activation.performed`'s index.
        public var start: Int
        /// The last event it caused directly (its own outputs, commands, completion).
        public var end: Int
        /// While an earlier run of the same board still ran: the index where that one ended.
        public var overlapsUntil: Int?
    }

    /// A dispatcher holding events: from the first `dispatch.blocked` after a send to the next
    /// send (nil end: held to the end of the trace).
    public struct Hold: Sendable, Hashable {
        /// The dispatcher.
        public var dispatcher: String
        /// The first `dispatch.blocked`.
        public var start: Int
        /// The `dispatch.sent` that let the events go.
        public var end: Int?
        /// That send was a flush through a closed barrier.
        public var flushed: Bool
    }

    /// Every wait, in the order of their checks.
    public var waits: [Wait] = []
    /// Every run that lasted past its own instant, in order of `performed`.
    public var runs: [Run] = []
    /// Every hold, in order.
    public var holds: [Hold] = []

    /// The spans of `events` (one trace's, in `seq` order).
    public init(_ events: [TraceEvent]) {
        // seq → index: a trace numbers its events 1, 2, 3…, so position seq - 1 is checked
        // first; the dictionary only holds the others (a hand-edited or merged trace).
        var irregular: [Int: Int] = [:]
        func indexOf(_ seq: Int) -> Int? {
            if seq >= 1, seq <= events.count, events[seq - 1].seq == seq { return seq - 1 }
            return irregular[seq]
        }
        // Per event index (arrays, not dictionaries: this runs over every event of every trace).
        var resolutionOf = [Int32](repeating: -1, count: events.count)  // barrier.resolved → its entry in `resolved`
        var resolved: [(barrier: String, passed: Bool)] = []
        var runOf = [Int32](repeating: -1, count: events.count)  // activation.performed → run number
        // Open waits by motherboard and board (a board waits on one barrier at a time, but keep a
        // list: hostile traces may not), and activation-barrier waits by motherboard and barrier
        // too (a resolution ends them all). A wait closed through one index is skipped in the
        // other when met there.
        var open: [String: [Int]] = [:]  // "mb|board" → wait numbers
        var openOnBarrier: [String: [Int]] = [:]  // "mb|barrier" → activation-barrier wait numbers
        var holding: [String: Int] = [:]  // dispatcher → hold number
        func key(_ mb: String, _ b: String) -> String { mb + "|" + b }
        func close(_ k: String, where match: (Wait) -> Bool, at i: Int, _ outcome: WaitEnd) {
            guard let list = open[k] else { return }
            var kept: [Int] = []
            for w in list where waits[w].end == nil {
                if match(waits[w]) {
                    waits[w].end = i
                    waits[w].outcome = outcome
                } else {
                    kept.append(w)
                }
            }
            open[k] = kept.isEmpty ? nil : kept
        }
        for (i, e) in events.enumerated() {
            if e.seq != i + 1 { irregular[e.seq] = i }
            let causeIndex = e.cause.flatMap(indexOf)
            // Released by a resolution: the resolution's first effect on a board ends its wait.
            if let c = causeIndex, resolutionOf[c] >= 0, !open.isEmpty, let b = e.body.board {
                let r = resolved[Int(resolutionOf[c])]
                close(key(e.mb, b), where: { $0.barrier == r.barrier }, at: c, r.passed ? .passed : .failed)
            }
            if let c = causeIndex, runOf[c] >= 0 {
                switch e.body {
                case .outputSent, .commandSent, .boardCompleted, .activationRequested, .flowRouted: runs[Int(runOf[c])].end = i
                default: break
                }
            }
            switch e.body {
            case .gatewayChecked(let b, let barrier, let result) where result == .wait:
                open[key(e.mb, b), default: []].append(waits.count)
                waits.append(Wait(mb: e.mb, board: b, barrier: barrier, gateway: true, start: i, end: nil, outcome: .stuck))
            case .barrierChecked(let b, let barrier, _, let result) where result == .wait:
                open[key(e.mb, b), default: []].append(waits.count)
                openOnBarrier[key(e.mb, barrier), default: []].append(waits.count)
                waits.append(Wait(mb: e.mb, board: b, barrier: barrier, gateway: false, start: i, end: nil, outcome: .stuck))
            case .barrierResolved(let barrier, let passed, _):
                resolutionOf[i] = Int32(resolved.count)
                resolved.append((barrier, passed))
                // An activation barrier's run is shared: every wait on it in this motherboard ends.
                for w in openOnBarrier.removeValue(forKey: key(e.mb, barrier)) ?? [] where waits[w].end == nil {
                    waits[w].end = i
                    waits[w].outcome = passed ? .passed : .failed
                }
            case .activationCancelled(let b, let reason) where reason == .loop:
                close(key(e.mb, b), where: { _ in true }, at: i, .loop)
            case .activationCancelled(let b, let reason) where reason == .barrierFailed:
                close(key(e.mb, b), where: { _ in true }, at: causeIndex ?? i, .failed)
            case .activationPerformed(let b, _):
                runOf[i] = Int32(runs.count)
                runs.append(Run(mb: e.mb, board: b, start: i, end: i, overlapsUntil: nil))
            case .dispatchBlocked(let d, _):
                if holding[d] == nil {
                    holding[d] = holds.count
                    holds.append(Hold(dispatcher: d, start: i, end: nil, flushed: false))
                }
            case .dispatchSent(let d, _, let flush):
                if let h = holding.removeValue(forKey: d) {
                    holds[h].end = i
                    holds[h].flushed = flush
                }
            default: break
            }
        }
        // Overlaps: a run that began while an earlier run of its board had not ended.
        var latestEnd: [String: Int] = [:]
        for r in runs.indices {
            let k = key(runs[r].mb, runs[r].board)
            if let end = latestEnd[k], end > runs[r].start { runs[r].overlapsUntil = end }
            latestEnd[k] = max(latestEnd[k] ?? 0, runs[r].end)
        }
        // A run that caused nothing, or all within its own instant, is not a span in time.
        runs.removeAll { events[$0.end].t == events[$0.start].t }
    }
}
