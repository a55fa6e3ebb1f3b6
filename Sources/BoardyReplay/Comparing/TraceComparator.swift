import BoardyTrace

/// Compares a run's events, as the engine records them, with a recorded trace, event by event
/// (every field: `seq`, `t`, `kind`, `mb`, `cause` and the kind's own fields, unknown ones
/// included), and keeps the first place they differ.
///
/// It stores nothing while the two agree (unless asked to keep the run), so comparing a
/// million-event replay costs one equality check per event. Confined to the thread that runs
/// the replay (the engine hands it events on that thread).
final class TraceComparator: TraceObserver, @unchecked Sendable {
    /// The recorded events.
    let expected: ExpectedEvents
    /// How many of the run's events after the first difference are kept for the report.
    let tailLimit: Int
    /// Whether every event of the run is kept (a counterfactual run writes them out).
    let keepsRun: Bool

    /// Events the run has recorded so far.
    private(set) var count = 0
    /// The index (from 0) of the first event that differs, once one did.
    private(set) var firstDifference: Int?
    /// The run's events from the first difference on (at most `tailLimit`).
    private(set) var tail: [TraceEvent] = []
    /// Every event of the run, when `keepsRun`.
    private(set) var run: [TraceEvent] = []

    init(expected: ExpectedEvents, tailLimit: Int = 8, keepsRun: Bool = false) {
        self.expected = expected
        self.tailLimit = tailLimit
        self.keepsRun = keepsRun
    }

    /// Whether the comparison has what it needs: a difference and the events after it.
    var isSettled: Bool { firstDifference != nil && tail.count >= tailLimit }

    func record(_ event: consuming TraceEvent) {
        let i = count
        count += 1
        if keepsRun { run.append(copy event) }
        if firstDifference == nil {
            if expected.matches(event, at: i) { return }
            firstDifference = i
        }
        if tail.count < tailLimit { tail.append(event) }
    }

    func record(contentsOf events: consuming [TraceEvent]) {
        for e in events { record(e) }
    }

    /// The index of the first difference once the run is over (the trace has `recorded` events):
    /// a differing event, or where one side ran out of events first. Nil when they are the same.
    func difference(recorded: Int) -> Int? {
        if let firstDifference { return firstDifference }
        return count == recorded ? nil : min(count, recorded)
    }
}
