import BoardyCore

/// Blocks dispatches while the network is down, or on cellular with `wifi_only` (Tealium rule
/// 11). Flushable whenever any connection is available, so a flush sends over cellular even with
/// `wifi_only`. Reopens by itself when connectivity returns.
public final class ConnectivityBarrier: ConfigurableBarrier {
    /// The built-in barrier id.
    public static let barrierID = "ConnectivityBarrier"
    /// Its id in settings and traces, ``barrierID``.
    public var id: String { Self.barrierID }
    /// Set by the manager; called when the network or the configuration changes.
    public var onChange: (() -> Void)?
    private var network: NetworkMonitor?
    /// `wifi_only` (default false).
    public private(set) var wifiOnly = false
    /// Values of the wrong type in the last configuration.
    public private(set) var configurationWarnings: [String] = []

    /// A connectivity barrier with `configuration`.
    public init(configuration: JSONObject = [:]) { updateConfiguration(configuration) }

    /// Watches the context's network, so a change of connection re-evaluates the barrier.
    public func attach(to context: DispatchContext) {
        network = context.network
        context.network.observe { [weak self] _ in self?.onChange?() }
    }

    /// Reads `wifi_only` (false when absent or of the wrong type).
    public func updateConfiguration(_ configuration: JSONObject) {
        var r = ConfigurationReader(barrier: id, configuration: configuration)
        wifiOnly = r.bool("wifi_only") ?? false
        configurationWarnings = r.warnings
        onChange?()
    }

    /// Open while connected, except on cellular with `wifi_only`; the same for every dispatcher.
    public func state(for dispatcherID: String) -> BarrierState {
        let connection = network?.connection ?? .wifi
        return connection.isConnected && !(wifiOnly && connection == .cellular) ? .open : .closed
    }

    /// Flushable while connected, cellular included.
    public var isFlushable: Bool { (network?.connection ?? .wifi).isConnected }

    /// Creates connectivity barriers; by default scoped to the `collect` dispatcher.
    public struct Factory: BarrierFactory {
        /// The id of the barriers it creates, ``ConnectivityBarrier/barrierID``.
        public var id: String { ConnectivityBarrier.barrierID }
        let scopes: [BarrierScope]
        /// A factory with `defaultScopes`.
        public init(defaultScopes: [BarrierScope] = [.dispatcher(id: "collect")]) { scopes = defaultScopes }
        /// The scopes it was made with.
        public func defaultScopes() -> [BarrierScope] { scopes }
        /// A new connectivity barrier with `configuration`.
        public func create(context: DispatchContext, configuration: JSONObject) -> any ConfigurableBarrier {
            ConnectivityBarrier(configuration: configuration)
        }
    }
}

/// Blocks dispatches until enough are queued (Tealium rule 10): the effective batch is 1 for an
/// unknown dispatcher, the dispatcher's `dispatchLimit` when `batch_size` is absent, else
/// `max(min(batch_size, dispatchLimit), 1)`. Always flushable.
public final class BatchingBarrier: ConfigurableBarrier {
    /// The built-in barrier id.
    public static let barrierID = "BatchingBarrier"
    /// Its id in settings and traces, ``barrierID``.
    public var id: String { Self.barrierID }
    /// Set by the manager; called when the configuration changes.
    public var onChange: (() -> Void)?
    private weak var context: DispatchContext?
    /// `batch_size`, when configured.
    public private(set) var batchSize: Int?
    /// Values of the wrong type in the last configuration.
    public private(set) var configurationWarnings: [String] = []

    /// A batching barrier with `configuration`.
    public init(configuration: JSONObject = [:]) { updateConfiguration(configuration) }

    /// Keeps the context, to read queue counts and dispatch limits.
    public func attach(to context: DispatchContext) { self.context = context }

    /// Reads `batch_size` (none when absent or of the wrong type).
    public func updateConfiguration(_ configuration: JSONObject) {
        var r = ConfigurationReader(barrier: id, configuration: configuration)
        batchSize = r.int("batch_size")
        configurationWarnings = r.warnings
        onChange?()
    }

    /// The batch that opens the barrier for `dispatcherID`.
    public func effectiveBatch(for dispatcherID: String) -> Int {
        guard let limit = context?.dispatchLimit(for: dispatcherID) else { return 1 }
        guard let batchSize else { return limit }
        return max(min(batchSize, limit), 1)
    }

    /// Open once the dispatcher's pending dispatches reach ``effectiveBatch(for:)``.
    public func state(for dispatcherID: String) -> BarrierState {
        (context?.pendingCount(for: dispatcherID) ?? 0) >= effectiveBatch(for: dispatcherID) ? .open : .closed
    }

    /// Always flushable.
    public var isFlushable: Bool { true }

    /// Creates batching barriers; by default for every dispatcher.
    public struct Factory: BarrierFactory {
        /// The id of the barriers it creates, ``BatchingBarrier/barrierID``.
        public var id: String { BatchingBarrier.barrierID }
        let scopes: [BarrierScope]
        /// A factory with `defaultScopes`.
        public init(defaultScopes: [BarrierScope] = [.all]) { scopes = defaultScopes }
        /// The scopes it was made with.
        public func defaultScopes() -> [BarrierScope] { scopes }
        /// A new batching barrier with `configuration`.
        public func create(context: DispatchContext, configuration: JSONObject) -> any ConfigurableBarrier {
            BatchingBarrier(configuration: configuration)
        }
    }
}

/// The reference's custom timer barrier on the virtual clock: open for one second every
/// `interval` seconds (at interval, 2×interval, …; `interval` default 30, at least 2). Its state
/// follows the clock, so it schedules nothing itself. Flushable.
public final class TimerBarrier: ConfigurableBarrier {
    /// The barrier id in settings.
    public static let barrierID = "TimerBarrier"
    /// Its id in settings and traces, ``barrierID``.
    public var id: String { Self.barrierID }
    /// Set by the manager; called when the configuration changes.
    public var onChange: (() -> Void)?
    private var scheduler: (any Scheduler)?
    /// Seconds between openings.
    public private(set) var interval = 30
    /// Values of the wrong type in the last configuration.
    public private(set) var configurationWarnings: [String] = []

    /// A timer barrier with `configuration`.
    public init(configuration: JSONObject = [:]) { updateConfiguration(configuration) }

    /// Keeps the context's scheduler, whose clock it reads.
    public func attach(to context: DispatchContext) { scheduler = context.scheduler }

    /// Reads `interval` in seconds (30 when absent or invalid; at least 2).
    public func updateConfiguration(_ configuration: JSONObject) {
        var r = ConfigurationReader(barrier: id, configuration: configuration)
        // Seconds, turned into microseconds: at most the clock's limit (10^12 s).
        interval = max(2, r.int("interval", in: Int.min...1_000_000_000_000) ?? 30)
        configurationWarnings = r.warnings
        onChange?()
    }

    private var period: Int64 { Int64(interval) * 1_000_000 }

    /// Open for one second from each multiple of ``interval`` past zero, for every dispatcher.
    public func state(for dispatcherID: String) -> BarrierState {
        let t = scheduler?.now.microseconds ?? 0
        return t >= period && t % period < 1_000_000 ? .open : .closed
    }

    /// When the current opening ends, or else when the next one starts.
    public func nextChange(after now: TraceTime) -> TraceTime? {
        let t = now.microseconds
        let phase = t % period
        if t >= period && phase < 1_000_000 { return TraceTime(microseconds: t - phase + 1_000_000) }
        return TraceTime(microseconds: t - phase + period)
    }

    /// Always flushable.
    public var isFlushable: Bool { true }

    /// Creates timer barriers; by default for every dispatcher.
    public struct Factory: BarrierFactory {
        /// The id of the barriers it creates, ``TimerBarrier/barrierID``.
        public var id: String { TimerBarrier.barrierID }
        /// A factory.
        public init() {}
        /// Every dispatcher.
        public func defaultScopes() -> [BarrierScope] { [.all] }
        /// A new timer barrier with `configuration`.
        public func create(context: DispatchContext, configuration: JSONObject) -> any ConfigurableBarrier {
            TimerBarrier(configuration: configuration)
        }
    }
}

/// The reference's scheduled barrier on the virtual clock: open from `start_hour` to `end_hour`
/// inclusive (default 9 and 17) of the virtual day, where hour = (t / 3600) mod 24. Its state
/// follows the clock. Not flushable.
public final class ScheduledBarrier: ConfigurableBarrier {
    /// The barrier id in settings.
    public static let barrierID = "ScheduledBarrier"
    /// Its id in settings and traces, ``barrierID``.
    public var id: String { Self.barrierID }
    /// Set by the manager; called when the configuration changes.
    public var onChange: (() -> Void)?
    private var scheduler: (any Scheduler)?
    /// The first open hour.
    public private(set) var startHour = 9
    /// The last open hour.
    public private(set) var endHour = 17
    /// Values of the wrong type in the last configuration.
    public private(set) var configurationWarnings: [String] = []

    /// A scheduled barrier with `configuration`.
    public init(configuration: JSONObject = [:]) { updateConfiguration(configuration) }

    /// Keeps the context's scheduler, whose clock it reads.
    public func attach(to context: DispatchContext) { scheduler = context.scheduler }

    /// Reads `start_hour` and `end_hour` (9 and 17 when absent or of the wrong type).
    public func updateConfiguration(_ configuration: JSONObject) {
        var r = ConfigurationReader(barrier: id, configuration: configuration)
        startHour = r.int("start_hour") ?? 9
        endHour = r.int("end_hour") ?? 17
        configurationWarnings = r.warnings
        onChange?()
    }

    private static let hour: Int64 = 3_600_000_000

    /// Open from hour ``startHour`` to ``endHour`` of the virtual day, for every dispatcher.
    public func state(for dispatcherID: String) -> BarrierState {
        let h = Int((scheduler?.now.microseconds ?? 0) / Self.hour % 24)
        return h >= startHour && h <= endHour ? .open : .closed
    }

    /// The next whole virtual hour, where the state may change.
    public func nextChange(after now: TraceTime) -> TraceTime? {
        TraceTime(microseconds: now.microseconds - now.microseconds % Self.hour + Self.hour)
    }

    /// Not flushable: a flush does not pass it while it is closed.
    public var isFlushable: Bool { false }

    /// Creates scheduled barriers; by default for every dispatcher.
    public struct Factory: BarrierFactory {
        /// The id of the barriers it creates, ``ScheduledBarrier/barrierID``.
        public var id: String { ScheduledBarrier.barrierID }
        /// A factory.
        public init() {}
        /// Every dispatcher.
        public func defaultScopes() -> [BarrierScope] { [.all] }
        /// A new scheduled barrier with `configuration`.
        public func create(context: DispatchContext, configuration: JSONObject) -> any ConfigurableBarrier {
            ScheduledBarrier(configuration: configuration)
        }
    }
}
