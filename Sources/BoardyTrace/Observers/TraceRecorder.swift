import NIOConcurrencyHelpers

/// Keeps every event in memory. Safe to call from several threads; each call appends whole.
///
/// ```swift
/// let recorder = TraceRecorder()
/// let mainboard = Motherboard(boards: boards, runtime: BoardyRuntime(observer: recorder))
/// ...
/// #expect(recorder.events.map(\.kind) == ["activation.requested", "activation.performed"])
/// ```
public final class TraceRecorder: TraceObserver {
    private let storage: NIOLockedValueBox<[TraceEvent]>
    /// The payload policy applied before an event is stored.
    public let policy: PayloadPolicy

    /// An empty recorder; `reservingCapacity` pre-sizes its storage.
    public init(policy: PayloadPolicy = .keepAll, reservingCapacity capacity: Int = 0) {
        var events: [TraceEvent] = []
        events.reserveCapacity(capacity)
        storage = NIOLockedValueBox(events)
        self.policy = policy
    }

    public func record(_ event: consuming TraceEvent) {
        if policy.isKeepAll {
            storage.withLockedValue { [event = consume event] in $0.append(event) }
        } else {
            let e = policy.apply(to: event)
            storage.withLockedValue { $0.append(e) }
        }
    }

    public func record(contentsOf events: [TraceEvent]) {
        if policy.isKeepAll {
            storage.withLockedValue { $0.append(contentsOf: events) }
        } else {
            let filtered = events.map(policy.apply(to:))
            storage.withLockedValue { $0.append(contentsOf: filtered) }
        }
    }

    /// A snapshot of the events recorded so far.
    public var events: [TraceEvent] { storage.withLockedValue { $0 } }

    /// How many events were recorded.
    public var count: Int { storage.withLockedValue { $0.count } }

    /// Forgets the events recorded so far (keeping the storage when asked).
    public func removeAll(keepingCapacity: Bool = false) {
        storage.withLockedValue { $0.removeAll(keepingCapacity: keepingCapacity) }
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
