/// Receives every event an engine records, one call per event, in `seq` order.
///
/// The recorder, the file writer, a test's capture and any bridge to another tracing system are
/// all observers. An engine with no observer builds no events at all.
public protocol TraceObserver: AnyObject, Sendable {
    /// Called once per event, in `seq` order (from the engine's thread).
    func record(_ event: TraceEvent)
}

/// Sends every event to several observers, in order.
public final class TraceFanout: TraceObserver {
    /// The observers, called in this order.
    public let observers: [any TraceObserver]
    /// A fan-out to `observers`.
    public init(_ observers: [any TraceObserver]) { self.observers = observers }
    public func record(_ event: TraceEvent) {
        for o in observers { o.record(event) }
    }
}
