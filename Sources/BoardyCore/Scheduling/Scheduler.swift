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
    static func < (a: ScheduledEntry, b: ScheduledEntry) -> Bool { (a.time, a.order) < (b.time, b.order) }
    static func == (a: ScheduledEntry, b: ScheduledEntry) -> Bool { a.time == b.time && a.order == b.order }
}
