import BoardyCore

/// A gate between the event queue and dispatchers (Tealium's `Barrier`).
///
/// Where Tealium's barriers publish observables, ours are asked for their state and call
/// ``onChange`` whenever their state or flushability may have changed; the
/// ``DispatchManager`` then re-evaluates, on its scheduler, and records what changed.
public protocol Barrier: AnyObject {
    /// The barrier's id: its key in the settings and its name in traces.
    var id: String { get }
    /// The barrier's state for dispatcher `dispatcherID`.
    func state(for dispatcherID: String) -> BarrierState
    /// Whether a flush may pass the barrier while it is closed (Tealium rule 4).
    var isFlushable: Bool { get }
    /// Set by the manager: call it whenever ``state(for:)`` or ``isFlushable`` may have changed.
    var onChange: (() -> Void)? { get set }
    /// Called once when the barrier joins a manager: its clock, network and queue.
    func attach(to context: DispatchContext)
    /// For a barrier whose state follows the clock: when it next changes after `now`. The
    /// manager wakes up then, but only while dispatches are held by such barriers alone.
    func nextChange(after now: TraceTime) -> TraceTime?
}

extension Barrier {
    /// Barriers that need no context ignore it.
    public func attach(to context: DispatchContext) {}
    /// Barriers whose state does not follow the clock never change by themselves.
    public func nextChange(after now: TraceTime) -> TraceTime? { nil }
}

/// A barrier that takes settings (Tealium's `ConfigurableBarrier`).
public protocol ConfigurableBarrier: Barrier {
    /// Applies the `configuration` object of its settings entry (`{}` when it has none or the
    /// entry was removed: back to its defaults).
    func updateConfiguration(_ configuration: JSONObject)
    /// Values of the last configuration that were ignored, each naming its key (Tealium is
    /// lenient: a bad value keeps the default). The manager adds them to its warnings.
    var configurationWarnings: [String] { get }
}

extension ConfigurableBarrier {
    /// Barriers that do not check their configuration report nothing.
    public var configurationWarnings: [String] { [] }
}

/// Creates a configurable barrier and says where it applies by default (Tealium's
/// `BarrierFactory`).
public protocol BarrierFactory {
    /// The id of the barriers it creates (the settings' `barrier_id`).
    var id: String { get }
    /// The scopes used when the settings give none.
    func defaultScopes() -> [BarrierScope]
    /// A new barrier with `configuration`.
    func create(context: DispatchContext, configuration: JSONObject) -> any ConfigurableBarrier
}

/// What a barrier may look at: the clock, the network, the queue.
public final class DispatchContext {
    /// The scheduler (virtual clock in simulations).
    public let scheduler: any Scheduler
    /// The simulated network.
    public let network: NetworkMonitor
    unowned let manager: DispatchManager

    init(scheduler: any Scheduler, network: NetworkMonitor, manager: DispatchManager) {
        self.scheduler = scheduler
        self.network = network
        self.manager = manager
    }

    /// Dispatches waiting for `dispatcherID` (queued, unexpired, not in flight; Tealium rule 14).
    public func pendingCount(for dispatcherID: String) -> Int { manager.pendingCount(for: dispatcherID) }

    /// The dispatch limit of `dispatcherID`, or nil for an unknown dispatcher.
    public func dispatchLimit(for dispatcherID: String) -> Int? { manager.dispatcher(dispatcherID)?.dispatchLimit }
}

/// The simulated network monitor; it starts on Wi-Fi.
public final class NetworkMonitor {
    /// The current connection.
    public private(set) var connection: NetworkConnection = .wifi
    private var observers: [(NetworkConnection) -> Void] = []

    init() {}

    /// Changes the connection and tells every observer.
    public func set(_ connection: NetworkConnection) {
        guard connection != self.connection else { return }
        self.connection = connection
        for o in observers { o(connection) }
    }

    /// Calls `observer` on every change.
    public func observe(_ observer: @escaping (NetworkConnection) -> Void) { observers.append(observer) }
}

/// Reads typed values out of a barrier's `configuration`, collecting a warning for each value of
/// the wrong type (Tealium is lenient: a bad value is ignored, the default stays).
struct ConfigurationReader {
    let barrier: String
    let configuration: JSONObject
    var warnings: [String] = []

    mutating func int(_ key: String) -> Int? {
        guard let v = configuration[key] else { return nil }
        guard let i = v.intValue, let n = Int(exactly: i) else {
            warnings.append("\(barrier): configuration.\(key) must be a whole number, found \(v.typeName); ignored")
            return nil
        }
        return n
    }

    /// A whole number in `range`, or nil with a warning (a number past it would overflow when it
    /// is turned into another unit, such as an interval into microseconds).
    mutating func int(_ key: String, in range: ClosedRange<Int>) -> Int? {
        guard let n = int(key) else { return nil }
        guard range.contains(n) else {
            let bounds = range.lowerBound == Int.min ? "at most \(range.upperBound)" : "from \(range.lowerBound) to \(range.upperBound)"
            warnings.append("\(barrier): configuration.\(key) must be \(bounds), found \(n); ignored")
            return nil
        }
        return n
    }

    mutating func bool(_ key: String) -> Bool? {
        guard let v = configuration[key] else { return nil }
        guard let b = v.boolValue else {
            warnings.append("\(barrier): configuration.\(key) must be true or false, found \(v.typeName); ignored")
            return nil
        }
        return b
    }
}

/// Registers barriers at run time (Tealium's `BarrierRegistry`); ``DispatchManager`` is one.
public protocol BarrierRegistry: AnyObject {
    /// Registers `barrier` for `scopes`; registering the same instance again replaces its scopes.
    func registerScopedBarrier(_ barrier: any Barrier, scopes: [BarrierScope])
    /// Removes a registered barrier.
    func unregisterScopedBarrier(_ barrier: any Barrier)
}
