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
    public init(_ events: [TraceEvent]) { self.init(source: EventsSource(events: events)) }

    /// The spans of a trace read with the fast path: the columns for every event, and only the
    /// lines of barrier checks, resolutions, cancellations and dispatch holds decoded.
    public init(_ table: TraceTable) { self.init(source: TableSource(table: table)) }

    init<S: SpanSource>(source events: S) {
        // seq → index: a trace numbers its events 1, 2, 3…, so position seq - 1 is checked
        // first; the dictionary only holds the others (a hand-edited or merged trace).
        var irregular: [Int: Int] = [:]
        func indexOf(_ seq: Int) -> Int? {
            if seq >= 1, seq <= events.count, events.seq(seq - 1) == seq { return seq - 1 }
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
        for i in 0..<events.count {
            let seq = events.seq(i)
            if seq != i + 1 { irregular[seq] = i }
            let causeIndex = events.cause(i).flatMap(indexOf)
            // Released by a resolution: the resolution's first effect on a board ends its wait.
            if let c = causeIndex, resolutionOf[c] >= 0, !open.isEmpty, let b = events.board(i) {
                let r = resolved[Int(resolutionOf[c])]
                close(key(events.mb(i), b), where: { $0.barrier == r.barrier }, at: c, r.passed ? .passed : .failed)
            }
            let kind = events.kind(i)
            if let c = causeIndex, runOf[c] >= 0 {
                switch kind {
                case .outputSent, .commandSent, .boardCompleted, .activationRequested, .flowRouted: runs[Int(runOf[c])].end = i
                default: break
                }
            }
            switch kind {
            case .activationPerformed:
                // From the columns: a quarter of a trace's events, none decoded.
                runOf[i] = Int32(runs.count)
                runs.append(Run(mb: events.mb(i), board: events.board(i) ?? "", start: i, end: i, overlapsUntil: nil))
                continue
            case .gatewayChecked, .barrierChecked, .barrierResolved, .activationCancelled, .dispatchBlocked, .dispatchSent: break
            default: continue
            }
            let e = events.event(i)
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
        runs.removeAll { events.t($0.end) == events.t($0.start) }
    }
}

/// What ``TraceSpans`` reads of a trace: the common fields of every event, and the whole event
/// only for the kinds whose fields it needs.
protocol SpanSource {
    var count: Int { get }
    func seq(_ i: Int) -> Int
    func t(_ i: Int) -> TraceTime
    func cause(_ i: Int) -> Int?
    func kind(_ i: Int) -> EventKind?
    func mb(_ i: Int) -> String
    func board(_ i: Int) -> String?
    /// The whole event (asked only for barrier, cancellation and dispatch kinds).
    func event(_ i: Int) -> TraceEvent
}

struct EventsSource: SpanSource {
    let events: [TraceEvent]
    var count: Int { events.count }
    func seq(_ i: Int) -> Int { events[i].seq }
    func t(_ i: Int) -> TraceTime { events[i].t }
    func cause(_ i: Int) -> Int? { events[i].cause }
    func kind(_ i: Int) -> EventKind? {
        // A body of an unknown kind is not read as the known kind its string names (only code
        // can build one; the decoder never does).
        if case .unknown = events[i].body { return nil }
        return events[i].eventKind
    }
    func mb(_ i: Int) -> String { events[i].mb }
    func board(_ i: Int) -> String? { events[i].body.board }
    func event(_ i: Int) -> TraceEvent { events[i] }
}

struct TableSource: SpanSource {
    let table: TraceTable
    var count: Int { table.count }
    func seq(_ i: Int) -> Int { table.seqs[i] }
    func t(_ i: Int) -> TraceTime { table.times[i] }
    func cause(_ i: Int) -> Int? { table.causes[i] == 0 ? nil : table.causes[i] }
    func kind(_ i: Int) -> EventKind? { table.eventKind(at: i) }
    func mb(_ i: Int) -> String { table.strings[table.mbs[i]] }
    func board(_ i: Int) -> String? { table.boards[i] < 0 ? nil : table.strings[table.boards[i]] }
    func event(_ i: Int) -> TraceEvent {
        // The table read every line, so each decodes; a line that did not would be the table's
        // own fault, and an event without fields leaves the spans as they are.
        (try? table.event(at: i)) ?? TraceEvent(seq: seq(i), t: t(i), mb: mb(i), body: .unknown(kind: "", fields: JSONObject()))
    }
}
