import Dispatch
import HeapModule
import BoardyLock

/// A scheduler on the monotonic wall clock, for recording real runs.
///
/// The thread that calls ``run(for:)`` runs every action, so the engine stays single-threaded.
/// Other threads hand work in with ``post(_:)`` (for example the completion of real I/O); it runs
/// on the driving thread in the order it was posted.
public final class LiveScheduler: Scheduler, @unchecked Sendable {
    // Closures from `schedule` are only created and run on the driving thread; the lock guards
    // the queue they wait in, which `post` (any thread) shares.
    private struct State {
        /// Ordered by time, then by the order of scheduling: a heap, since threads may post far
        /// faster than the driver runs (a sorted array's removeFirst made that quadratic).
        var entries = Heap<ScheduledEntry>()
        var nextOrder: UInt64 = 0
    }

    // The platform's mutex (BoardyLock), which ThreadSanitizer understands: Synchronization.Mutex
    // locks through atomics TSan cannot see, so `make tsan` reported the queue it guards as racing.
    private let lock = Lock()
    private var unsafeState = State()

    /// Runs `body` on the queue's state, under the lock.
    private func withState<R>(_ body: (inout State) -> R) -> R {
        lock.withLock { body(&unsafeState) }
    }
    private let wake = DispatchSemaphore(value: 0)
    private let start = DispatchTime.now().uptimeNanoseconds
    private var quiescenceHandlers = QuiescenceHandlers()

    /// A scheduler whose clock starts now.
    public init() {}

    /// The wall clock (`live`).
    public var clock: TraceHeader.Clock { .live }

    /// Monotonic wall time since the scheduler was created.
    public var now: TraceTime {
        TraceTime(microseconds: Int64((DispatchTime.now().uptimeNanoseconds - start) / 1000))
    }

    /// Runs `action` on the driving thread once `delay` of wall time has passed (a negative
    /// delay is none). Call it from the driving thread; other threads use ``post(_:)``.
    @discardableResult
    public func schedule(after delay: TraceDuration, _ action: @escaping () -> Void) -> ScheduledAction {
        let token = ScheduledAction()
        enqueue(at: (now + TraceTime(microseconds: max(0, delay.microseconds))).microseconds, token: token, action: action)
        return token
    }

    /// Hands `action` to the driving thread from any thread; it runs as soon as possible, after
    /// what was posted before it.
    public func post(_ action: @escaping @Sendable () -> Void) {
        enqueue(at: 0, token: ScheduledAction(), action: action)
    }

    private func enqueue(at time: Int64, token: ScheduledAction, action: @escaping () -> Void) {
        withState { s in
            s.entries.insert(ScheduledEntry(time: time, order: s.nextOrder, token: token, action: action))
            s.nextOrder &+= 1
        }
        wake.signal()
    }

    /// Calls `handler` when ``run(for:)`` without a duration finds nothing left to run, in
    /// registration order; returns a token for ``removeQuiescenceHandler(_:)``.
    @discardableResult
    public func onQuiescence(_ handler: @escaping () -> Void) -> Int {
        quiescenceHandlers.add(handler)
    }

    /// Stops calling the handler registered under `token`.
    public func removeQuiescenceHandler(_ token: Int) {
        quiescenceHandlers.remove(token)
    }

    /// Runs actions as they fall due for `duration` of wall time, or until nothing is scheduled
    /// when `duration` is nil (then calls the quiescence handlers). Returns how many actions ran.
    @discardableResult
    public func run(for duration: TraceDuration? = nil) -> Int {
        let deadline = duration.map { (now + $0).microseconds }
        var ran = 0
        while true {
            let current = now.microseconds
            if let deadline, current >= deadline { return ran }
            let next: ScheduledEntry?? = withState { s -> ScheduledEntry?? in
                guard let first = s.entries.min else { return .none }
                if first.time <= current { return .some(s.entries.removeMin()) }
                return .some(nil)
            }
            switch next {
            case .none:
                if deadline == nil {
                    quiescenceHandlers.callAll()
                    return ran
                }
                _ = wake.wait(timeout: .now() + .microseconds(Int(deadline! - current)))
            case .some(.none):
                let first = withState { $0.entries.min?.time } ?? current
                var wait = first - current
                if let deadline { wait = min(wait, deadline - current) }
                _ = wake.wait(timeout: .now() + .microseconds(Int(max(1, wait))))
            case .some(.some(let entry)):
                if !entry.token.isCancelled {
                    entry.action()
                    ran += 1
                }
            }
        }
    }
}
