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
    /// Whether the policy keeps every payload as it is (nothing to apply per event).
    @usableFromInline package let keepsAll: Bool
    /// The payload policy applied before an event is stored.
    public let policy: PayloadPolicy

    /// Events in arrival order, in segments of memory the recorder manages (see
    /// ``EventSegment``): the first ones small, then growing to a few megabytes, which the
    /// system can back with huge pages.
    @usableFromInline struct Store {
        @usableFromInline var segments: [EventSegment] = []
        /// The segment being filled (segments after it are empty, kept for reuse).
        @usableFromInline var open = 0
        @usableFromInline var count = 0
        @usableFromInline init() {}

        /// The segment with room for at least one more event.
        @usableFromInline mutating func room() -> EventSegment {
            while open < segments.count {
                if segments[open].count < segments[open].capacity { return segments[open] }
                open += 1
            }
            let next = EventSegment(capacity: EventSegment.capacity(after: segments.last?.capacity ?? 0))
            segments.append(next)
            return next
        }

        @inlinable mutating func append(_ event: consuming TraceEvent) {
            let segment = room()
            (segment.base + segment.count).initialize(to: event)
            segment.count += 1
            count += 1
        }

        /// Moves `n` events from `events` in, leaving that memory uninitialized.
        mutating func moveIn(_ events: UnsafeMutablePointer<TraceEvent>, _ n: Int) {
            var done = 0
            while done < n {
                let segment = room()
                let k = min(n - done, segment.capacity - segment.count)
                (segment.base + segment.count).moveInitialize(from: events + done, count: k)
                segment.count += k
                done += k
            }
            count += n
        }

        /// The events as they are stored (no copy); the store is empty afterwards.
        mutating func takeAll() -> RecordedEvents {
            defer { self = Store() }
            return RecordedEvents(segments: segments.filter { $0.count > 0 }, count: count)
        }

        /// Forgets every event; with `keepingCapacity`, the segments stay for the next ones.
        mutating func removeAll(keepingCapacity: Bool) {
            guard keepingCapacity else {
                self = Store()
                return
            }
            for s in segments { s.removeAll() }
            open = 0
            count = 0
        }
    }

    /// An empty recorder; `reservingCapacity` pre-sizes its storage.
    public init(policy: PayloadPolicy = .keepAll, reservingCapacity capacity: Int = 0) {
        if capacity > 0 { store.segments.append(EventSegment(capacity: capacity)) }
        self.policy = policy
        keepsAll = policy.isKeepAll
    }

    /// Appends the event, after ``policy``, under the lock.
    @inlinable
    public func record(_ event: consuming TraceEvent) {
        if keepsAll {
            lock.lock()
            store.append(event)
            lock.unlock()
        } else {
            recordFiltered(event)
        }
    }

    @usableFromInline func recordFiltered(_ event: TraceEvent) {
        let e = policy.apply(to: event)
        lock.withLock { store.append(e) }
    }

    /// Takes a batch in order (moved in when the batch is not shared, copied when it is).
    public func record(contentsOf events: consuming [TraceEvent]) {
        var batch = events
        if !keepsAll { batch = batch.map(policy.apply(to:)) }
        let n = batch.count
        guard n > 0 else { return }
        batch.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            lock.withLock { store.moveIn(base, n) }
            // The batch still counts its events: refill it with an event that owns no memory,
            // so letting it go releases nothing twice.
            base.initialize(repeating: Self.placeholder, count: n)
        }
    }

    /// Takes `count` events at `events` in order, moving them: the memory is left
    /// uninitialized, for the caller to reuse. How an engine hands over its batches without an
    /// array per batch.
    package func record(moving events: UnsafeMutablePointer<TraceEvent>, count: Int) {
        guard count > 0 else { return }
        if keepsAll {
            lock.withLock { store.moveIn(events, count) }
        } else {
            // The policy runs user code: outside the lock, on events already taken from the
            // caller's memory.
            record(contentsOf: Array(unsafeUninitializedCapacity: count) { buffer, n in
                buffer.baseAddress!.moveInitialize(from: events, count: count)
                n = count
            })
        }
    }

    /// A value that owns no memory (short strings are stored inline).
    @usableFromInline static let placeholder = TraceEvent(seq: 0, t: .zero, mb: "", body: .barrierStarted(barrier: "", board: ""))

    /// A snapshot of the events recorded so far.
    public var events: [TraceEvent] {
        lock.withLock {
            var all: [TraceEvent] = []
            all.reserveCapacity(store.count)
            for s in store.segments where s.count > 0 { all.append(contentsOf: UnsafeBufferPointer(start: s.base, count: s.count)) }
            return all
        }
    }

    /// Takes the events recorded so far as they are stored, without copying or concatenating
    /// them, leaving the recorder empty. A simulation keeps its trace this way: putting a
    /// million events into one fresh array costs a third of the run (page faults and copies).
    public func takeRecording() -> RecordedEvents {
        lock.withLock { store.takeAll() }
    }

    /// How many events were recorded.
    public var count: Int { lock.withLock { store.count } }

    /// Forgets the events recorded so far (keeping the storage for the next ones when asked).
    public func removeAll(keepingCapacity: Bool = false) {
        lock.withLock { store.removeAll(keepingCapacity: keepingCapacity) }
    }

    /// The events as trace lines under `header`, with newlines: exactly what a ``TraceWriter``
    /// would have written.
    public func jsonl(header: TraceHeader) -> String {
        let all = events
        return header.jsonl(all, count: all.count)
    }
}


/// Recorded events in order, kept in the segments they were recorded into. A collection:
/// iterate it, count it, or make one array of it with ``array()``.
public struct RecordedEvents: Collection, Sendable {
    /// A position: a segment and an offset in it.
    public struct Index: Comparable, Sendable {
        @usableFromInline let chunk: Int
        @usableFromInline let offset: Int
        @inlinable init(chunk: Int, offset: Int) {
            self.chunk = chunk
            self.offset = offset
        }
        /// Orders positions by segment, then offset.
        @inlinable public static func < (a: Index, b: Index) -> Bool { (a.chunk, a.offset) < (b.chunk, b.offset) }
    }

    /// Segments, none empty, no longer written.
    @usableFromInline let segments: [EventSegment]
    /// How many events there are.
    public let count: Int

    init(segments: [EventSegment], count: Int) {
        self.segments = segments
        self.count = count
    }

    /// No events.
    public init() { self.init(segments: [], count: 0) }

    /// The position of the first event.
    @inlinable public var startIndex: Index { Index(chunk: 0, offset: 0) }
    /// The position after the last event.
    @inlinable public var endIndex: Index { Index(chunk: segments.count, offset: 0) }
    /// Whether there are no events.
    @inlinable public var isEmpty: Bool { segments.isEmpty }
    /// The event at `i`.
    @inlinable public subscript(i: Index) -> TraceEvent {
        let s = segments[i.chunk]
        precondition(i.offset >= 0 && i.offset < s.count, "index out of range")
        return s.base[i.offset]
    }
    /// The position after `i`.
    @inlinable public func index(after i: Index) -> Index {
        i.offset + 1 < segments[i.chunk].count ? Index(chunk: i.chunk, offset: i.offset + 1) : Index(chunk: i.chunk + 1, offset: 0)
    }

    /// Calls `body` with each event in order (faster than iterating by index).
    @inlinable public func forEachEvent(_ body: (TraceEvent) throws -> Void) rethrows {
        for s in segments {
            for i in 0..<s.count { try body(s.base[i]) }
        }
    }

    /// The events in one array.
    public func array() -> [TraceEvent] {
        var all: [TraceEvent] = []
        all.reserveCapacity(count)
        for s in segments { all.append(contentsOf: UnsafeBufferPointer(start: s.base, count: s.count)) }
        return all
    }

    /// The events as trace lines under `header`, exactly as ``TraceWriter`` writes them.
    public func jsonl(header: TraceHeader) -> String { header.jsonl(self, count: count) }
}
