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
    // `store` is only touched with `lock` held (checked by the 8-thread test and `make tsan`).
    @usableFromInline let lock = NIOLock()
    @usableFromInline @exclusivity(unchecked) var store = Store()
    @usableFromInline let keepsAll: Bool
    /// The payload policy applied before an event is stored.
    public let policy: PayloadPolicy

    /// Events in arrival order: whole batches taken over as they came (no copy), then a tail of
    /// single events and small batches.
    @usableFromInline struct Store {
        @usableFromInline var chunks: [[TraceEvent]] = []
        @usableFromInline var tail: [TraceEvent] = []
        @usableFromInline var count = 0
        @usableFromInline init() {}
    }

    /// Batches of at least this many events are kept as they are, without copying.
    @usableFromInline static let adoptBatchSize = 256

    /// An empty recorder; `reservingCapacity` pre-sizes its storage for single events.
    public init(policy: PayloadPolicy = .keepAll, reservingCapacity capacity: Int = 0) {
        store.tail.reserveCapacity(capacity)
        self.policy = policy
        keepsAll = policy.isKeepAll
    }

    @inlinable
    public func record(_ event: consuming TraceEvent) {
        if keepsAll {
            lock.lock()
            store.tail.append(event)
            store.count += 1
            lock.unlock()
        } else {
            recordFiltered(event)
        }
    }

    @usableFromInline func recordFiltered(_ event: TraceEvent) {
        let e = policy.apply(to: event)
        lock.withLock {
            store.tail.append(e)
            store.count += 1
        }
    }

    /// Takes a batch in order; a large one is kept as it is, without copying its events.
    public func record(contentsOf events: consuming [TraceEvent]) {
        var batch = events
        if !keepsAll { batch = batch.map(policy.apply(to:)) }
        let n = batch.count
        guard n > 0 else { return }
        lock.lock()
        if n >= Self.adoptBatchSize {
            if !store.tail.isEmpty {
                store.chunks.append(store.tail)
                store.tail = []
            }
            store.chunks.append(batch)
        } else {
            store.tail.append(contentsOf: batch)
        }
        store.count += n
        lock.unlock()
    }

    /// A snapshot of the events recorded so far.
    public var events: [TraceEvent] {
        lock.withLock {
            if store.chunks.isEmpty { return store.tail }
            var all: [TraceEvent] = []
            all.reserveCapacity(store.count)
            for c in store.chunks { all.append(contentsOf: c) }
            all.append(contentsOf: store.tail)
            return all
        }
    }

    /// Takes the events recorded so far, leaving the recorder empty; cheaper than ``events``
    /// followed by ``removeAll(keepingCapacity:)`` (large batches are moved, not copied).
    public func takeEvents() -> [TraceEvent] {
        lock.withLock {
            var taken = Store()
            swap(&taken, &store)
            if taken.chunks.isEmpty { return taken.tail }
            var all = taken.chunks.removeFirst()
            all.reserveCapacity(taken.count)
            for c in taken.chunks { all.append(contentsOf: c) }
            all.append(contentsOf: taken.tail)
            return all
        }
    }

    /// How many events were recorded.
    public var count: Int { lock.withLock { store.count } }

    /// Forgets the events recorded so far (keeping the storage for single events when asked).
    public func removeAll(keepingCapacity: Bool = false) {
        lock.withLock {
            store.chunks.removeAll()
            store.tail.removeAll(keepingCapacity: keepingCapacity)
            store.count = 0
        }
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
