/// Owns time for a motherboard: every delayed or asynchronous step goes through it, never through
/// a thread behind the engine's back.
///
/// A scheduler runs its actions on the thread that drives it (``VirtualScheduler/run()`` or
/// ``LiveScheduler/run(for:)``), so the engine stays single-threaded.
public protocol Scheduler: AnyObject {
    /// The current time on this scheduler's clock, since it started.
    var now: TraceTime { get }
    /// Which clock the times are on.
    var clock: TraceHeader.Clock { get }
    /// Runs `action` once `delay` has passed. Call it from the scheduler's thread.
    @discardableResult
    func schedule(after delay: TraceDuration, _ action: @escaping () -> Void) -> ScheduledAction
    /// Calls `handler` each time the scheduler has nothing left to run (quiescence); returns a
    /// token for ``removeQuiescenceHandler(_:)``.
    @discardableResult
    func onQuiescence(_ handler: @escaping () -> Void) -> Int
    /// Stops calling the handler registered under `token`.
    func removeQuiescenceHandler(_ token: Int)
}

/// The quiescence handlers of a scheduler, called in registration order.
struct QuiescenceHandlers {
    private var handlers: [(token: Int, run: () -> Void)] = []
    private var next = 0

    mutating func add(_ handler: @escaping () -> Void) -> Int {
        next += 1
        handlers.append((next, handler))
        return next
    }

    mutating func remove(_ token: Int) { handlers.removeAll { $0.token == token } }

    func callAll() { for h in handlers { h.run() } }
}

/// A scheduled action that can be cancelled before it runs.
public final class ScheduledAction: @unchecked Sendable {
    // Only read and written on the scheduler's thread.
    var isCancelled = false
    init() {}
    /// Stops the action from running, if it has not run yet.
    public func cancel() { isCancelled = true }
}

extension TraceTime {
    /// A duration of `milliseconds`.
    public static func milliseconds(_ ms: Int64) -> TraceTime { TraceTime(microseconds: ms * 1000) }
    /// A duration of whole `seconds`.
    public static func seconds(_ s: Int) -> TraceTime { TraceTime(microseconds: Int64(s) * 1_000_000) }
}

/// An action waiting in a scheduler's queue, ordered by due time, then by scheduling order.
struct ScheduledEntry: Comparable, @unchecked Sendable {
    // The action is only created and run on the scheduler's driving thread.
    var time: Int64
    var order: UInt64
    var token: ScheduledAction
    var action: () -> Void
    /// What the action is, when its scheduler was told (an explorer hashes pending work by it).
    var tag: ScheduleTag? = nil
    static func < (a: ScheduledEntry, b: ScheduledEntry) -> Bool { (a.time, a.order) < (b.time, b.order) }
    static func == (a: ScheduledEntry, b: ScheduledEntry) -> Bool { a.time == b.time && a.order == b.order }
}

/// What a scheduled action will do, in words an explorer can compare across runs: `label` names
/// it the same way every time the same work is scheduled (`script[2]`, `main/pubOtp.onActivate[0]`),
/// and `footprint` is an id its scheduler's owner gives it (what the action may touch; -1 unknown).
public final class ScheduleTag: Sendable, CustomStringConvertible {
    /// The action's name, stable across runs of the same scenario.
    public let label: String
    /// What the action may touch, as an id the owner of the scheduler understands (-1: unknown).
    public let footprint: Int
    /// A tag named `label` with footprint id `footprint`.
    public init(_ label: String, footprint: Int = -1) {
        self.label = label
        self.footprint = footprint
    }
    /// The label.
    public var description: String { label }
}

/// A pending action of a ``VirtualScheduler`` as a chooser sees it: one of those that may run
/// next, or (``VirtualScheduler/pendingActions``) any still waiting.
public struct ScheduleCandidate: Sendable {
    /// The earliest time it can run now (for a pending ranged action, the start of its range).
    public var time: TraceTime
    /// The latest time it can run without passing an action that must run first (its own
    /// time for an action due at a fixed time).
    public var latest: TraceTime
    /// Whether its time is a range (``VirtualScheduler/schedule(between:and:tag:_:)``).
    public var isRanged: Bool
    /// Its tag, if it was scheduled with one.
    public var tag: ScheduleTag?
    /// Its place in scheduling order (unique within a run).
    public var order: UInt64
}

/// Decides which action runs next when more than one may (an explorer, or a replay following
/// recorded choices). Called on the scheduler's thread.
public protocol ScheduleChooser: AnyObject {
    /// Returns the index of the candidate to run and the time to run it at (from its `time` to
    /// its `latest`). `candidates` are sorted by time, then scheduling order.
    func chooseNext(among candidates: [ScheduleCandidate], now: TraceTime) -> (index: Int, at: TraceTime)
    /// The outcome of an open choice named `point` (a step's `"complete": "either"`): the
    /// first option is `true`.
    func outcome(at point: String) -> Bool
    /// Whether actions due at fixed times should be tagged too (an explorer hashing the pending
    /// work wants them; a replay does not).
    var tagsActions: Bool { get }
    /// Told of each action that runs without a choice (the only one that could), before it runs.
    func willRun(_ action: ScheduleCandidate)
    /// Whether a ranged action tagged `tag` may as well run at the start of its range: where it
    /// falls among the other events changes nothing but its timestamps (an explorer knows).
    func fixesTime(of tag: ScheduleTag) -> Bool
    /// Whether the action due next at a fixed time, tagged `tag`, runs now whatever else could:
    /// it commutes with everything (an explorer knows), so no choice is made.
    func runsAtOnce(_ tag: ScheduleTag, at time: TraceTime) -> Bool
}

extension ScheduleChooser {
    /// By default every open outcome is `true`, as in a plain run.
    public func outcome(at point: String) -> Bool { true }
    /// By default actions due at fixed times go untagged.
    public var tagsActions: Bool { false }
    /// By default nothing is done.
    public func willRun(_ action: ScheduleCandidate) {}
    /// By default no ranged action's time is fixed.
    public func fixesTime(of tag: ScheduleTag) -> Bool { false }
    /// By default no action skips the choice.
    public func runsAtOnce(_ tag: ScheduleTag, at time: TraceTime) -> Bool { false }
}
