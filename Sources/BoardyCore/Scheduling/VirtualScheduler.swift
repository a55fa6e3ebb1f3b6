import HeapModule

/// A deterministic scheduler on a virtual clock: time is integer microseconds that advance only
/// when the next scheduled action is due. Actions due at the same time run in the order they were
/// scheduled, so the same inputs always give the same order and the same timestamps.
///
/// ```swift
/// let scheduler = VirtualScheduler()
/// let mainboard = Motherboard(boards: boards, runtime: BoardyRuntime(scheduler: scheduler))
/// mainboard.activate("pubWelcome")
/// scheduler.run()          // to quiescence
/// ```
public final class VirtualScheduler: Scheduler {
    private var queue = Heap<ScheduledEntry>()
    /// Actions due at some time in a range, not yet run (``schedule(between:and:tag:_:)``);
    /// `time` is the start of the range. Usually empty: then nothing varies and the heap alone
    /// decides.
    private var ranged: [(entry: ScheduledEntry, latest: Int64)] = []
    private var nextOrder: UInt64 = 0
    private var candidateBuffer: [ScheduleCandidate] = []
    private var sourceBuffer: [Int] = []
    /// Decides what runs next when a ranged action may run before, between or after others;
    /// without one, the earliest candidate runs (each range at its start).
    public var chooser: (any ScheduleChooser)?
    /// Told of every action taken, right before it runs: `picked` is the candidate, `among` how
    /// many could have run next (more than one only while a ranged action is pending). A
    /// recorder writes down the picks made among several, so a replay takes the same one (the
    /// order the run broke a tie in is otherwise not in its trace); a replay writes the recorded
    /// ones back at their places.
    public var onPick: ((_ picked: ScheduleCandidate, _ among: Int) -> Void)?
    private var quiescenceHandlers = QuiescenceHandlers()
    /// The current virtual time.
    @exclusivity(unchecked) public private(set) var now: TraceTime = .zero
    /// The virtual clock (`virtual`).
    public var clock: TraceHeader.Clock { .virtual }

    /// A scheduler at time zero with nothing scheduled.
    public init() {}

    /// How many actions are waiting.
    public var pendingCount: Int { queue.count + ranged.count }

    /// Schedules `action` after `delay`; a negative delay means now (after what is already due).
    @discardableResult
    public func schedule(after delay: TraceDuration, _ action: @escaping () -> Void) -> ScheduledAction {
        schedule(after: delay, tag: nil, action)
    }

    /// Schedules `action` after `delay`, tagged with what it is (for an explorer).
    @discardableResult
    public func schedule(after delay: TraceDuration, tag: ScheduleTag?, _ action: @escaping () -> Void) -> ScheduledAction {
        let token = ScheduledAction()
        queue.insert(
            ScheduledEntry(
                time: (now + TraceTime(microseconds: max(0, delay.microseconds))).microseconds, order: nextOrder, token: token, action: action, tag: tag))
        nextOrder &+= 1
        return token
    }

    /// Schedules `action` at some time from `earliest` to `latest` after now: which one is not
    /// fixed. It may run before, between or after the other actions due in its range, as the
    /// ``chooser`` decides (by default at the start of its range, after what is already due
    /// then).
    @discardableResult
    public func schedule(between earliest: TraceDuration, and latest: TraceDuration, tag: ScheduleTag, _ action: @escaping () -> Void) -> ScheduledAction {
        let lo = max(0, earliest.microseconds)
        let hi = max(lo, latest.microseconds)
        let token = ScheduledAction()
        let entry = ScheduledEntry(time: now.microseconds &+ lo, order: nextOrder, token: token, action: action, tag: tag)
        ranged.append((entry, now.microseconds &+ hi))
        nextOrder &+= 1
        return token
    }

    /// Every action still pending, fixed or ranged, in the order they would run without a
    /// chooser (`time` is a ranged action's start).
    public var pendingActions: [ScheduleCandidate] {
        var out: [ScheduleCandidate] = []
        for e in queue.unordered where !e.token.isCancelled {
            let t = TraceTime(microseconds: e.time)
            out.append(ScheduleCandidate(time: t, latest: t, isRanged: false, tag: e.tag, order: e.order))
        }
        for r in ranged where !r.entry.token.isCancelled {
            out.append(
                ScheduleCandidate(
                    time: TraceTime(microseconds: r.entry.time), latest: TraceTime(microseconds: r.latest), isRanged: true, tag: r.entry.tag,
                    order: r.entry.order))
        }
        out.sort { ($0.time, $0.order) < ($1.time, $1.order) }
        return out
    }

    /// Takes the next action to run (due at or before `deadline`, when given) off the queues and
    /// moves the clock to its time. With ranged actions pending, the candidates are the first
    /// fixed action and every ranged one that can run before it and before every range ends;
    /// the ``chooser`` picks one when there are several.
    @inline(__always)
    private func takeNext(deadline: Int64?) -> ScheduledEntry? {
        if ranged.isEmpty {
            guard let first = queue.min, deadline.map({ first.time <= $0 }) ?? true else { return nil }
            let entry = queue.removeMin()
            now = TraceTime(microseconds: entry.time)
            if let chooser, !entry.token.isCancelled {
                chooser.willRun(ScheduleCandidate(time: now, latest: now, isRanged: false, tag: entry.tag, order: entry.order))
            }
            if let onPick, !entry.token.isCancelled {
                onPick(ScheduleCandidate(time: now, latest: now, isRanged: false, tag: entry.tag, order: entry.order), 1)
            }
            return entry
        }
        return takeNextAmongRanged(deadline: deadline)
    }

    private func takeNextAmongRanged(deadline: Int64?) -> ScheduledEntry? {
        ranged.removeAll { $0.entry.token.isCancelled }
        while let first = queue.min, first.token.isCancelled { _ = queue.removeMin() }
        if ranged.isEmpty { return takeNext(deadline: deadline) }
        let fixed = queue.min?.time ?? .max
        var mustEnd = Int64.max
        for r in ranged where r.latest < mustEnd { mustEnd = r.latest }
        var bound = min(fixed, mustEnd)
        // Only what can run by the deadline; a range that reaches past it may wait.
        if let deadline { bound = min(bound, deadline) }
        if fixed <= mustEnd, fixed <= (deadline ?? .max), let chooser, let f = queue.min, let tag = f.tag,
            chooser.runsAtOnce(tag, at: TraceTime(microseconds: f.time))
        {
            now = TraceTime(microseconds: f.time)
            onPick?(ScheduleCandidate(time: now, latest: now, isRanged: false, tag: f.tag, order: f.order), 1 + ranged.count)
            return queue.removeMin()
        }
        // Candidates, and where each comes from: an index into `ranged`, or -1 for the fixed one.
        // The buffers of the last step, reused: this runs at every step while ranges are pending.
        var candidates = candidateBuffer
        var sources = sourceBuffer
        candidateBuffer = []
        sourceBuffer = []
        candidates.removeAll(keepingCapacity: true)
        sources.removeAll(keepingCapacity: true)
        defer {
            candidateBuffer = candidates
            sourceBuffer = sources
        }
        if fixed <= mustEnd, fixed <= (deadline ?? .max), let f = queue.min {
            let t = TraceTime(microseconds: f.time)
            candidates.append(ScheduleCandidate(time: t, latest: t, isRanged: false, tag: f.tag, order: f.order))
            sources.append(-1)
        }
        for (i, r) in ranged.enumerated() {
            let t = max(now.microseconds, r.entry.time)
            guard t <= bound else { continue }
            candidates.append(
                ScheduleCandidate(
                    time: TraceTime(microseconds: t), latest: TraceTime(microseconds: min(r.latest, bound)), isRanged: true, tag: r.entry.tag,
                    order: r.entry.order))
            sources.append(i)
        }
        guard !candidates.isEmpty else { return nil }
        // Sorted by time, then scheduling order (an insertion sort: a handful of candidates):
        // the first is what runs without a chooser.
        for i in 1..<candidates.count {
            var j = i
            while j > 0, (candidates[j].time, candidates[j].order) < (candidates[j - 1].time, candidates[j - 1].order) {
                candidates.swapAt(j, j - 1)
                sources.swapAt(j, j - 1)
                j -= 1
            }
        }
        var pick = 0
        var at = candidates[0].time
        if let chooser {
            if candidates.count > 1 || candidates[0].isRanged {
                let c = chooser.chooseNext(among: candidates, now: now)
                pick = min(max(0, c.index), candidates.count - 1)
                at = min(max(c.at, candidates[pick].time), candidates[pick].latest)
            } else {
                chooser.willRun(candidates[0])
            }
        }
        let entry: ScheduledEntry
        if sources[pick] < 0 {
            entry = queue.removeMin()
            at = TraceTime(microseconds: entry.time)
        } else {
            entry = ranged.remove(at: sources[pick]).entry
        }
        now = at
        if let onPick, !entry.token.isCancelled { onPick(candidates[pick], candidates.count) }
        return entry
    }

    /// Calls `handler` at each quiescence (a run that leaves nothing to run, or
    /// ``notifyQuiescence()``); returns a token for ``removeQuiescenceHandler(_:)``.
    @discardableResult
    public func onQuiescence(_ handler: @escaping () -> Void) -> Int {
        quiescenceHandlers.add(handler)
    }

    /// Stops calling the handler registered under `token`.
    public func removeQuiescenceHandler(_ token: Int) {
        quiescenceHandlers.remove(token)
    }

    /// Runs every action in time order until nothing is left (quiescence), then calls the
    /// quiescence handlers once. Returns how many actions ran.
    @discardableResult
    public func run() -> Int {
        var ran = 0
        while let entry = takeNext(deadline: nil) {
            guard !entry.token.isCancelled else { continue }
            entry.action()
            ran += 1
        }
        quiescenceHandlers.callAll()
        return ran
    }

    /// Runs the actions due at or before `deadline`, then sets the clock to `deadline`. Does not
    /// call the quiescence handlers unless nothing is left.
    @discardableResult
    public func run(until deadline: TraceTime) -> Int {
        var ran = 0
        while let entry = takeNext(deadline: deadline.microseconds) {
            guard !entry.token.isCancelled else { continue }
            entry.action()
            ran += 1
        }
        if deadline > now { now = deadline }
        if queue.isEmpty && ranged.isEmpty { quiescenceHandlers.callAll() }
        return ran
    }

    /// Runs actions in time order (only those due at or before `deadline`, when given) while
    /// `shouldContinue` says so, checked before each action. Calls the quiescence handlers when
    /// nothing is left (unless `notifyingQuiescence` is false), and sets the clock to `deadline`
    /// when it ran out of due actions (unless `advancingClock` is false: then the clock stays at
    /// the last action, the time the run went quiet). Returns how many actions ran. A replay uses it to stop
    /// soon after its first divergence.
    @discardableResult
    public func run(
        until deadline: TraceTime? = nil, notifyingQuiescence: Bool = true, advancingClock: Bool = true, while shouldContinue: () -> Bool
    ) -> Int {
        var ran = 0
        let limit = deadline?.microseconds
        while hasDue(by: limit) {
            guard shouldContinue() else { return ran }
            guard let entry = takeNext(deadline: limit) else { break }
            guard !entry.token.isCancelled else { continue }
            entry.action()
            ran += 1
        }
        if advancingClock, let deadline, deadline > now { now = deadline }
        if notifyingQuiescence, queue.isEmpty, ranged.isEmpty { quiescenceHandlers.callAll() }
        return ran
    }

    /// Drops every pending action without running it. A run that ends early (cut at `until`, or
    /// halted at a bound) calls it when done: a pending action holds the runtime it belongs to,
    /// which holds this scheduler, and the cycle would keep the whole app alive.
    public func removeAllPending() {
        queue = Heap()
        ranged = []
    }

    /// Whether an action is pending that can run by `deadline` (any, when nil).
    @inline(__always)
    private func hasDue(by deadline: Int64?) -> Bool {
        if ranged.isEmpty {
            guard let first = queue.min else { return false }
            return deadline.map { first.time <= $0 } ?? true
        }
        guard let next = nextDueTime else { return false }
        return deadline.map { next.microseconds <= $0 } ?? true
    }

    /// When the next action that is not cancelled falls due, if any.
    public var nextDueTime: TraceTime? {
        while let first = queue.min, first.token.isCancelled { _ = queue.removeMin() }
        if !ranged.isEmpty {
            var earliest = queue.min?.time ?? .max
            for r in ranged where !r.entry.token.isCancelled { earliest = min(earliest, max(now.microseconds, r.entry.time)) }
            if earliest != .max { return TraceTime(microseconds: earliest) }
        }
        return queue.min.map { TraceTime(microseconds: $0.time) }
    }

    /// Calls the quiescence handlers (stuck reports) now, as a run that ends does.
    public func notifyQuiescence() {
        quiescenceHandlers.callAll()
    }

    /// Advances the clock by `duration`, running what falls due.
    @discardableResult
    public func advance(by duration: TraceDuration) -> Int {
        run(until: now + duration)
    }
}
