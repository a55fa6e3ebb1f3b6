import NIOConcurrencyHelpers

/// Keeps every event in memory. Safe to call from several threads; each call appends whole.
///
/// ```swift
/// let recorder = TraceRecorder()
/// let mainboard = Motherboard(boards: boards, runtime: BoardyRuntime(observer: recorder))
/// ...
/// #expect(recorder.events.map(\.kind) == ["activation.requested", "activation.performed"])
/// ```
public final class TraceRecorder: TraceObserver, @unchecked Sendable {
    // `events` is only touched with `lock` held (checked by the 8-thread test and `make tsan`).
    @usableFromInline let lock = NIOLock()
    @usableFromInline @exclusivity(unchecked) var storage: [TraceEvent]
    @usableFromInline let keepsAll: Bool
    /// The payload policy applied before an event is stored.
    public let policy: PayloadPolicy

    /// An empty recorder; `reservingCapacity` pre-sizes its storage.
    public init(policy: PayloadPolicy = .keepAll, reservingCapacity capacity: Int = 0) {
        var events: [TraceEvent] = []
        events.reserveCapacity(capacity)
        storage = events
        self.policy = policy
        keepsAll = policy.isKeepAll
    }

    @inlinable
    public func record(_ event: consuming TraceEvent) {
        if keepsAll {
            lock.lock()
            storage.append(event)
            lock.unlock()
        } else {
            recordFiltered(event)
        }
    }

    @usableFromInline func recordFiltered(_ event: TraceEvent) {
        let e = policy.apply(to: event)
        lock.withLock { storage.append(e) }
    }

    public func record(contentsOf events: [TraceEvent]) {
        if policy.isKeepAll {
            lock.withLock { storage.append(contentsOf: events) }
        } else {
            let filtered = events.map(policy.apply(to:))
            lock.withLock { storage.append(contentsOf: filtered) }
        }
    }

    /// A snapshot of the events recorded so far.
    public var events: [TraceEvent] { lock.withLock { storage } }

    /// How many events were recorded.
    public var count: Int { lock.withLock { storage.count } }

    /// Forgets the events recorded so far (keeping the storage when asked).
    public func removeAll(keepingCapacity: Bool = false) {
        lock.withLock { storage.removeAll(keepingCapacity: keepingCapacity) }
    }

    /// The events as trace lines under `header`, with newlines: exactly what a ``TraceWriter``
    /// would have written.
    public func jsonl(header: TraceHeader) -> String {
        var w = JSONWriter(capacity: 4096)
        w.writeValue(.object(header.jsonObject))
        w.byte(UInt8(ascii: "\n"))
        for e in events { e.write(to: &w) }
        return w.string
    }
}
