/// A whole trace in memory: its header and its events (read by ``TraceReader``, written by
/// ``TraceWriter``, kept by ``TraceRecorder``).
public struct Trace: Sendable, Hashable {
    /// Line 1.
    public var header: TraceHeader
    /// The events, in `seq` order.
    public var events: [TraceEvent]
    /// What the reader accepted with a warning.
    public var warnings: [TraceReadWarning]

    /// A trace of `events` under `header`.
    public init(header: TraceHeader, events: [TraceEvent], warnings: [TraceReadWarning] = []) {
        self.header = header
        self.events = events
        self.warnings = warnings
    }

    /// The trace as JSON Lines, exactly as ``TraceWriter`` writes it.
    public var jsonl: String { header.jsonl(events, count: events.count) }
}
