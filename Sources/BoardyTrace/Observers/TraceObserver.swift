/// Receives every event an engine records, one call per event, in `seq` order.
///
/// The recorder, the file writer, a test's capture and any bridge to another tracing system are
/// all observers. An engine with no observer builds no events at all.
public protocol TraceObserver: AnyObject, Sendable {
    /// Receives one event; the observer owns it (engines hand it over without copying).
    func record(_ event: consuming TraceEvent)
    /// Receives several events in `seq` order: an engine hands over what one step of its run
    /// recorded in one call, before control returns to its caller. The default calls
    /// ``record(_:)`` for each.
    func record(contentsOf events: consuming [TraceEvent])
    /// Whether the observer keeps the batches it is handed (the arrays themselves) rather than
    /// letting them go: an engine then asks the system for a batch's memory up front, since
    /// every batch is new memory. False by default, and for ``TraceRecorder``, which moves the
    /// events into memory of its own.
    var keepsBatches: Bool { get }
    /// Writes out what the observer still buffers (a file writer's last lines), ignoring errors:
    /// called right before the process stops on a trap, so the trace ends with the event that
    /// names the misuse. Does nothing by default.
    func flushBeforeTrap()
}

extension TraceObserver {
    /// By default an observer lets its batches go.
    public var keepsBatches: Bool { false }

    /// By default there is nothing buffered to write out.
    public func flushBeforeTrap() {}

    /// By default, ``record(_:)`` for each event, in order.
    public func record(contentsOf events: consuming [TraceEvent]) {
        for e in events { record(e) }
    }
}

/// Sends every event to several observers, in order.
public final class TraceFanout: TraceObserver {
    /// The observers, called in this order.
    public let observers: [any TraceObserver]
    /// A fan-out to `observers`.
    public init(_ observers: [any TraceObserver]) { self.observers = observers }
    /// Hands a copy of the event to each observer, in order.
    public func record(_ event: consuming TraceEvent) {
        for o in observers { o.record(copy event) }
    }
    /// Hands the batch to each observer in order: the last gets the batch itself, others copies.
    public func record(contentsOf events: consuming [TraceEvent]) {
        // The last observer gets the batch itself: a recorder moves the events out of an array
        // only it holds, and copies them out of a shared one.
        guard let last = observers.last else { return }
        for o in observers.dropLast() { o.record(contentsOf: copy events) }
        last.record(contentsOf: events)
    }
    /// Asks each observer to write out what it buffers.
    public func flushBeforeTrap() {
        for o in observers { o.flushBeforeTrap() }
    }
    /// True when one of the observers keeps the batches it is handed.
    public var keepsBatches: Bool { observers.contains { $0.keepsBatches } }
}
