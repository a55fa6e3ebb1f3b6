import BoardyLock

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
    @usableFromInline let lock = Lock()
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

        /// The events as they are stored (no copy); the store is empty afterwards.
        @usableFromInline mutating func takeAll() -> RecordedEvents {
            defer { self = Store() }
            if !tail.isEmpty { chunks.append(tail) }
            return RecordedEvents(chunks: chunks, count: count)
        }
    }

    /// A value that owns no memory (short strings are stored inline).
    @usableFromInline static let placeholder = TraceEvent(seq: 0, t: .zero, mb: "", body: .barrierStarted(barrier: "", board: ""))

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

    /// A recorder keeps every batch.
    public var keepsBatches: Bool { true }

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

    /// Takes the events recorded so far as one array, leaving the recorder empty; cheaper than
    /// ``events`` followed by ``removeAll(keepingCapacity:)`` (the events are moved, not copied).
    public func takeEvents() -> [TraceEvent] {
        takeRecording().array()
    }

    /// Takes the events recorded so far as they are stored, without copying or concatenating
    /// them, leaving the recorder empty. A simulation keeps its trace this way: putting a
    /// million events into one fresh array costs a third of the run (page faults and copies).
    public func takeRecording() -> RecordedEvents {
        lock.withLock { store.takeAll() }
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
        let all = events
        return header.jsonl(all, count: all.count)
    }
}


/// Recorded events in order, kept in the batches they arrived in. A collection: iterate it,
/// count it, or make one array of it with ``array()``.
public struct RecordedEvents: Collection, Sendable {
    /// A position: a batch and an offset in it.
    public struct Index: Comparable, Sendable {
        @usableFromInline let chunk: Int
        @usableFromInline let offset: Int
        @inlinable init(chunk: Int, offset: Int) {
            self.chunk = chunk
            self.offset = offset
        }
        /// Orders positions by batch, then offset.
        @inlinable public static func < (a: Index, b: Index) -> Bool { (a.chunk, a.offset) < (b.chunk, b.offset) }
    }

    @usableFromInline let chunks: [[TraceEvent]]
    /// How many events there are.
    public let count: Int

    /// Events in batches (none empty), in order.
    init(chunks: [[TraceEvent]], count: Int) {
        self.chunks = chunks.filter { !$0.isEmpty }
        self.count = count
    }

    /// No events.
    public init() { self.init(chunks: [], count: 0) }

    /// The position of the first event.
    @inlinable public var startIndex: Index { Index(chunk: 0, offset: 0) }
    /// The position after the last event.
    @inlinable public var endIndex: Index { Index(chunk: chunks.count, offset: 0) }
    /// Whether there are no events.
    @inlinable public var isEmpty: Bool { chunks.isEmpty }
    /// The event at `i`.
    @inlinable public subscript(i: Index) -> TraceEvent { chunks[i.chunk][i.offset] }
    /// The position after `i`.
    @inlinable public func index(after i: Index) -> Index {
        i.offset + 1 < chunks[i.chunk].count ? Index(chunk: i.chunk, offset: i.offset + 1) : Index(chunk: i.chunk + 1, offset: 0)
    }

    /// Calls `body` with each event in order (faster than iterating by index).
    @inlinable public func forEachEvent(_ body: (TraceEvent) throws -> Void) rethrows {
        for c in chunks { for e in c { try body(e) } }
    }

    /// The events in one array.
    public func array() -> [TraceEvent] {
        if chunks.count == 1 { return chunks[0] }
        var all: [TraceEvent] = []
        all.reserveCapacity(count)
        for c in chunks { all.append(contentsOf: c) }
        return all
    }

    /// The events as trace lines under `header`, exactly as ``TraceWriter`` writes them.
    public func jsonl(header: TraceHeader) -> String { header.jsonl(chunks.joined(), count: count) }
}
