/// An event bus inside a board (Boardy's `Bus<T>`): delivers each transport to a snapshot of its
/// connections in connection order; targets are held weakly, and a connection made during a
/// delivery gets the next transport only (Boardy rule 28).
public final class Bus<Transport> {
    private struct Connection {
        weak var target: AnyObject?
        let handler: (AnyObject, Transport) -> Void
    }

    private var connections: [Connection] = []

    /// An empty bus.
    public init() {}

    /// Connects `target`; `handler` runs for each transport while `target` lives.
    public func connect<Target: AnyObject>(target: Target, handler: @escaping (Target, Transport) -> Void) {
        connections.append(Connection(target: target) { t, v in handler(unsafeDowncast(t, to: Target.self), v) })
    }

    /// Disconnects every connection of `target`.
    public func disconnect(target: AnyObject) {
        connections.removeAll { $0.target == nil || $0.target === target }
    }

    /// How many live targets are connected.
    public var connectionCount: Int { connections.filter { $0.target != nil }.count }

    /// Delivers `input` to the live connections, in connection order.
    public func transport(input: Transport) {
        connections.removeAll { $0.target == nil }
        let snapshot = connections
        for c in snapshot {
            if let target = c.target { c.handler(target, input) }
        }
    }
}
