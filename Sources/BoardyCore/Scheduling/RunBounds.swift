/// The bounds of one run on a virtual clock (docs/contract.md §3.4): where it is cut (`until`),
/// and when it is stopped as a runaway: work scheduled past the horizon (counted from the last
/// stimulus), or more events than the budget. A flow that keeps re-activating itself ends with a
/// `runaway` event naming the bound, never by exhausting memory.
public struct RunBounds: Sendable, Hashable {
    /// Cut the run at this virtual time (open waits are then reported with `"until": true`).
    public var until: TraceTime?
    /// How far past the last stimulus scheduled work may fall before the run is a runaway.
    public var horizon: TraceDuration
    /// The most events a run may record.
    public var maxEvents: Int

    /// 24 virtual hours.
    public static let defaultHorizon = TraceDuration.seconds(86_400)
    /// Ten million events.
    public static let defaultMaxEvents = 10_000_000

    /// Bounds with the defaults of the contract.
    public init(until: TraceTime? = nil, horizon: TraceDuration = RunBounds.defaultHorizon, maxEvents: Int = RunBounds.defaultMaxEvents) {
        self.until = until
        self.horizon = horizon
        self.maxEvents = maxEvents
    }

    /// The fields a trace header carries so that a replay runs with the same bounds: only those
    /// that differ from the defaults (`until` is written by the caller, as before).
    public var headerFields: JSONObject {
        var o = JSONObject()
        if horizon != Self.defaultHorizon { o["horizon"] = horizon.jsonValue }
        if maxEvents != Self.defaultMaxEvents { o["maxEvents"] = .int(Int64(maxEvents)) }
        return o
    }

    /// The bounds a recorded trace's header names (the defaults where it names none).
    public init(header: TraceHeader, until: TraceTime? = nil) {
        self.init(until: until)
        if let h = header.extra["horizon"], let t = TraceTime(checkedSeconds: h) { horizon = t }
        if case let .int(n)? = header.extra["maxEvents"], n > 0 { maxEvents = Int(n) }
    }
}

/// How a bounded run ended.
public enum RunEnd: Sendable, Hashable {
    /// Nothing was left to run.
    case quiescent
    /// Work was left after the `until` time.
    case cut
    /// The caller's condition stopped it.
    case stopped
    /// A bound halted it (`horizon` or `max-events`); a `runaway` event says so.
    case runaway(bound: String)
}

extension BoardyRuntime {
    /// Runs `scheduler` within `bounds`: to quiescence (calling the quiescence handlers, which
    /// report what is stuck, unless `notifyingQuiescence` is false), to the `until` time, or to
    /// a bound, while `shouldContinue` says so. `lastStimulus` is the time of the last outside
    /// input, from which the horizon counts. The clock is left at the last action run: a stuck
    /// barrier is stamped with the time the run went quiet, not the `until` time.
    ///
    /// `unrecordedWork` says, when nothing is due within the bounds and the event bound is spent, whether
    /// work the scheduler never held was left (a replay: inputs its trace did not record); then
    /// the run stops at the event bound as the recorded one did, instead of going quiet.
    public func drive(
        _ scheduler: VirtualScheduler, bounds: RunBounds, lastStimulus: TraceTime, notifyingQuiescence: Bool = true,
        unrecordedWork: () -> Bool = { false }, while shouldContinue: () -> Bool = { true }
    ) -> RunEnd {
        // The horizon counts from the last stimulus: those known before the run, or any that
        // fired later (a stimulus whose time an explorer chose is known only once it fires).
        var horizonEnd = lastStimulus + bounds.horizon
        eventBudget = bounds.maxEvents
        var stoppedByCaller = false
        scheduler.run(until: bounds.until, notifyingQuiescence: false, advancingClock: false) {
            if haltedBy != nil { return false }
            if lastSeq >= bounds.maxEvents {
                // What is pending is not named: a replay schedules the same work in another
                // order of insertion, so only what both runs share is recorded.
                halt(bound: "max-events", fields: ["maxEvents": .int(Int64(bounds.maxEvents))])
                return false
            }
            if lastStimulusTime > lastStimulus { horizonEnd = max(horizonEnd, lastStimulusTime + bounds.horizon) }
            if let next = scheduler.nextDueTime, next > horizonEnd {
                halt(
                    bound: "horizon",
                    fields: ["horizon": bounds.horizon.jsonValue, "next": next.jsonValue])
                return false
            }
            if !shouldContinue() {
                stoppedByCaller = true
                return false
            }
            return true
        }
        // Nothing left to run within the bounds (none at all, or only past the cut).
        let nothingDue = scheduler.nextDueTime.map { next in bounds.until.map { next > $0 } ?? false } ?? true
        if haltedBy == nil, !stoppedByCaller, nothingDue, lastSeq >= bounds.maxEvents, unrecordedWork() {
            halt(bound: "max-events", fields: ["maxEvents": .int(Int64(bounds.maxEvents))])
        }
        if let bound = haltedBy { return .runaway(bound: bound) }
        if stoppedByCaller { return .stopped }
        if scheduler.nextDueTime == nil {
            if notifyingQuiescence { scheduler.notifyQuiescence() }
            return .quiescent
        }
        return .cut
    }
}
