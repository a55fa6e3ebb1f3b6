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
    private var nextOrder: UInt64 = 0
    private var quiescenceHandlers = QuiescenceHandlers()
    /// The current virtual time.
    @exclusivity(unchecked) public private(set) var now: TraceTime = .zero
    public var clock: TraceHeader.Clock { .virtual }

    /// A scheduler at time zero with nothing scheduled.
    public init() {}

    /// How many actions are waiting.
    public var pendingCount: Int { queue.count }

    /// Schedules `action` after `delay`; a negative delay means now (after what is already due).
    @discardableResult
    public func schedule(after delay: TraceDuration, _ action: @escaping () -> Void) -> ScheduledAction {
        let token = ScheduledAction()
        queue.insert(ScheduledEntry(time: (now + TraceTime(microseconds: max(0, delay.microseconds))).microseconds, order: nextOrder, token: token, action: action))
        nextOrder &+= 1
        return token
    }

    @discardableResult
    public func onQuiescence(_ handler: @escaping () -> Void) -> Int {
        quiescenceHandlers.add(handler)
    }

    public func removeQuiescenceHandler(_ token: Int) {
        quiescenceHandlers.remove(token)
    }

    /// Runs every action in time order until nothing is left (quiescence), then calls the
    /// quiescence handlers once. Returns how many actions ran.
    @discardableResult
    public func run() -> Int {
        var ran = 0
        while let entry = queue.popMin() {
            now = TraceTime(microseconds: entry.time)
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
        while let first = queue.min, first.time <= deadline.microseconds {
            let entry = queue.removeMin()
            now = TraceTime(microseconds: entry.time)
            guard !entry.token.isCancelled else { continue }
            entry.action()
            ran += 1
        }
        if deadline > now { now = deadline }
        if queue.isEmpty { quiescenceHandlers.callAll() }
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
        while let first = queue.min, deadline.map({ first.time <= $0.microseconds }) ?? true {
            guard shouldContinue() else { return ran }
            let entry = queue.removeMin()
            now = TraceTime(microseconds: entry.time)
            guard !entry.token.isCancelled else { continue }
            entry.action()
            ran += 1
        }
        if advancingClock, let deadline, deadline > now { now = deadline }
        if notifyingQuiescence, queue.isEmpty { quiescenceHandlers.callAll() }
        return ran
    }

    /// Drops every pending action without running it. A run that ends early (cut at `until`, or
    /// halted at a bound) calls it when done: a pending action holds the runtime it belongs to,
    /// which holds this scheduler, and the cycle would keep the whole app alive.
    public func removeAllPending() {
        queue = Heap()
    }

    /// When the next action that is not cancelled falls due, if any.
    public var nextDueTime: TraceTime? {
        while let first = queue.min, first.token.isCancelled { _ = queue.removeMin() }
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
