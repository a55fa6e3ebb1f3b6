import BoardyCore

/// Tealium's dispatch pipeline on the engine's scheduler, with every decision in the trace: the
/// queue, the barriers (configured from settings, or registered at runtime), flushes and
/// dispatchers.
///
/// ```swift
/// let dispatch = DispatchManager(runtime: runtime, dispatchers: [SimulatedDispatcher(id: "collect", dispatchLimit: 10)],
///                                settings: BarrierSettings.parse(json))
/// mainboard.trackOutputs(of: ["pubReceipt"], into: dispatch)
/// dispatch.network.set(.cellular)
/// dispatch.flush()
/// ```
///
/// The rules are those of Tealium's Prism SDK (tealium-semantics.md 1–20): which barriers apply to
/// a dispatcher, the combined state, flushes (flushable barriers ignored, ending when the queue is
/// empty or after 5 s), pulls of up to `min(dispatchLimit, 50)` oldest events repeated while full,
/// a global queue limit that evicts the oldest, expiry.
public final class DispatchManager: BarrierRegistry {
    /// The runtime whose scheduler and trace it uses.
    public let runtime: BoardyRuntime
    /// The motherboard path its events are recorded under.
    public let path: MotherboardPath
    /// The simulated network (starts on Wi-Fi).
    public let network = NetworkMonitor()
    /// What barriers and dispatchers may look at.
    public private(set) var context: DispatchContext!
    /// Most dispatches stored at once; storing one more evicts the oldest. Negative: unlimited.
    public var queueLimit = 100
    /// Dispatches older than this are never pulled or counted.
    public var expiry: TraceDuration = .seconds(86_400)
    /// How long a flush lasts at most.
    public static let flushDuration: TraceDuration = .seconds(5)
    /// The most dispatches in flight per dispatcher, and per pull.
    public static let maxInFlight = 50
    /// Settings problems: ignored entries, unknown barrier ids, values of the wrong type.
    public private(set) var warnings: [String] = []

    private struct Configured {
        let barrier: any ConfigurableBarrier
        var scopes: [BarrierScope]
        let factory: any BarrierFactory
    }

    private struct Queued {
        let number: Int
        let event: JSONValue
        let time: TraceTime
        var remaining: [String]
    }

    private var factories: [any BarrierFactory] = []
    private var configured: [Configured] = []
    private var registered: [(barrier: any Barrier, scopes: [BarrierScope])] = []
    private var dispatcherList: [any Dispatcher] = []
    private var queue: [Queued] = []
    private var nextNumber = 0
    private var inFlight: [String: Set<Int>] = [:]
    private var flushUntil: [String: TraceTime] = [:]
    private var lastBarrier: [String: (BarrierState, Bool)] = [:]
    private var lastCombined: [String: BarrierState] = [:]
    private var evaluating = false
    private var dirty = false
    private var wakeupAt: TraceTime?
    private var lastProgress: TraceTime = .zero
    private var quiescenceToken: Int?
    private var lastStuck: [String: Int] = [:]

    /// A manager with `dispatchers`, barrier `factories` (a connectivity barrier on `collect` is
    /// added unless one with its id is given: the first wins) and `settings`. Barriers are created
    /// for the connectivity factory and for every factory the settings name.
    public init(
        runtime: BoardyRuntime, path: MotherboardPath = .main, dispatchers: [any Dispatcher] = [],
        factories: [any BarrierFactory] = DispatchManager.builtInFactories, settings: BarrierSettings = BarrierSettings()
    ) {
        self.runtime = runtime
        self.path = path
        context = DispatchContext(scheduler: runtime.scheduler, network: network, manager: self)
        for f in [ConnectivityBarrier.Factory()] + factories where !self.factories.contains(where: { $0.id == f.id }) {
            self.factories.append(f)
        }
        // Tealium rule 9: the connectivity barrier is always there; the first factory wins.
        if let first = factories.first(where: { $0.id == ConnectivityBarrier.barrierID }) {
            self.factories.removeAll { $0.id == ConnectivityBarrier.barrierID }
            self.factories.insert(first, at: 0)
        }
        for d in dispatchers { add(d) }
        apply(settings, initial: true)
        quiescenceToken = runtime.scheduler.onQuiescence { [unowned(unsafe) self] in self.reportStuck() }
        reevaluate()
    }

    deinit {
        if let quiescenceToken { runtime.scheduler.removeQuiescenceHandler(quiescenceToken) }
    }

    /// The factories available by default: batching, and the reference's timer and scheduled
    /// barriers (created only when settings name them).
    public static var builtInFactories: [any BarrierFactory] {
        [BatchingBarrier.Factory(), TimerBarrier.Factory(), ScheduledBarrier.Factory()]
    }

    // MARK: Dispatchers

    /// The dispatchers, in the order added.
    public var dispatchers: [any Dispatcher] { dispatcherList }

    /// The dispatcher `id`, if any.
    public func dispatcher(_ id: String) -> (any Dispatcher)? { dispatcherList.first { $0.id == id } }

    private func add(_ d: any Dispatcher) {
        guard dispatcher(d.id) == nil else {
            warnings.append("dispatcher \(d.id): added twice; the second is ignored")
            return
        }
        dispatcherList.append(d)
        d.attach(to: context)
    }

    /// Adds a dispatcher; only events tracked from now on are queued for it.
    public func addDispatcher(_ d: any Dispatcher) {
        add(d)
        reevaluate()
    }

    /// Removes a dispatcher and deletes its queue (Tealium rule 20).
    public func removeDispatcher(_ id: String) {
        dispatcherList.removeAll { $0.id == id }
        for i in queue.indices { queue[i].remaining.removeAll { $0 == id } }
        queue.removeAll { $0.remaining.isEmpty }
        inFlight[id] = nil
        flushUntil[id] = nil
        reevaluate()
    }

    // MARK: Barriers

    /// The barriers that apply to `dispatcherID`: configured ones in creation order, then
    /// registered ones in registration order (Tealium rule 1).
    public func barriers(for dispatcherID: String) -> [any Barrier] {
        configured.filter { $0.scopes.contains { $0.applies(to: dispatcherID) } }.map(\.barrier)
            + registered.filter { $0.scopes.contains { $0.applies(to: dispatcherID) } }.map(\.barrier)
    }

    /// The configured barrier with `id`, if any.
    public func configuredBarrier(_ id: String) -> (any ConfigurableBarrier)? { configured.first { $0.barrier.id == id }?.barrier }

    /// Registers `barrier` with `scopes` (Tealium's `registerScopedBarrier`); registering the same
    /// instance again replaces its scopes. Registered barriers never receive settings.
    public func registerScopedBarrier(_ barrier: any Barrier, scopes: [BarrierScope]) {
        if let i = registered.firstIndex(where: { $0.barrier === barrier }) {
            registered[i].scopes = scopes
        } else {
            registered.append((barrier, scopes))
            hook(barrier)
        }
        reevaluate()
    }

    /// Removes a registered barrier (Tealium's `unregisterScopedBarrier`).
    public func unregisterScopedBarrier(_ barrier: any Barrier) {
        registered.removeAll { $0.barrier === barrier }
        barrier.onChange = nil
        reevaluate()
    }

    private func hook(_ barrier: any Barrier) {
        barrier.attach(to: context)
        barrier.onChange = { [weak self] in self?.reevaluate() }
    }

    /// Applies new settings (Tealium rule 7): every configured barrier gets its entry's
    /// configuration (`{}` when the entry is gone: back to its defaults) and its scopes (the
    /// entry's, else the factory's defaults, else all); barriers for newly named factories are
    /// created.
    public func configure(_ settings: BarrierSettings) {
        apply(settings, initial: false)
        reevaluate()
    }

    private func apply(_ settings: BarrierSettings, initial: Bool) {
        warnings.append(contentsOf: settings.warnings)
        for entry in settings.entries where !factories.contains(where: { $0.id == entry.barrierID }) {
            warnings.append("barriers.\(entry.key): unknown barrier_id \"\(entry.barrierID)\"; entry ignored")
        }
        for factory in factories {
            let entry = settings.entry(for: factory.id)
            let scopes = entry?.scopes ?? (factory.defaultScopes().isEmpty ? [.all] : factory.defaultScopes())
            let configuration = entry?.configuration ?? JSONObject()
            if let i = configured.firstIndex(where: { $0.factory.id == factory.id }) {
                configured[i].scopes = scopes
                configured[i].barrier.updateConfiguration(configuration)
            } else if entry != nil || factory.id == ConnectivityBarrier.barrierID {
                let barrier = factory.create(context: context, configuration: configuration)
                configured.append(Configured(barrier: barrier, scopes: scopes, factory: factory))
                hook(barrier)
            }
            if let b = configured.first(where: { $0.factory.id == factory.id })?.barrier {
                warnings.append(contentsOf: b.configurationWarnings)
            }
        }
    }

    // MARK: Tracking, flushing

    /// Queues `event` for `dispatcherID`, or for every current dispatcher, then releases what
    /// the barriers let through (Tealium rules 15, 16, 19).
    public func track(_ event: JSONValue, dispatcher dispatcherID: String? = nil) {
        let targets = dispatcherID.map { id in dispatcherList.filter { $0.id == id }.map(\.id) } ?? dispatcherList.map(\.id)
        guard !targets.isEmpty else {
            record(.dispatchDropped(fields: ["event": event, "reason": "no-dispatcher"]))
            return
        }
        let entry = Queued(number: nextNumber, event: event, time: runtime.scheduler.now, remaining: targets)
        nextNumber += 1
        queue.append(entry)
        for d in targets { record(.dispatchQueued(dispatcher: d, event: event)) }
        if queueLimit >= 0 {
            while queue.count > queueLimit, let oldest = queue.first {
                queue.removeFirst()
                for d in oldest.remaining {
                    record(.dispatchDropped(fields: ["dispatcher": .string(d), "event": oldest.event, "reason": "queue-limit"]))
                }
            }
        }
        reevaluate(enqueued: Set(targets))
    }

    /// Starts a flush for every dispatcher with something pending (Tealium rule 13): flushable
    /// barriers are ignored until its queue is empty or 5 s have passed.
    public func flush() {
        let until = runtime.scheduler.now + Self.flushDuration
        var started: [String] = []
        for d in dispatcherList where pendingCount(for: d.id) > 0 {
            flushUntil[d.id] = until
            started.append(d.id)
        }
        guard !started.isEmpty else { return }
        // A later flush moves a dispatcher's end; this one ends only what it still owns.
        runtime.scheduleTraced(after: Self.flushDuration) { [weak self] in
            guard let self else { return }
            for d in started where self.flushUntil[d] == until { self.flushUntil[d] = nil }
            self.reevaluate()
        }
        reevaluate(flushed: Set(started))
    }

    /// Whether `dispatcherID` is in a flush now.
    public func isFlushing(_ dispatcherID: String) -> Bool { flushUntil[dispatcherID] != nil }

    // MARK: Queue

    /// Dispatches waiting for `dispatcherID`: queued, unexpired, not in flight (Tealium rule 14).
    public func pendingCount(for dispatcherID: String) -> Int {
        let now = runtime.scheduler.now
        let flying = inFlight[dispatcherID] ?? []
        return queue.reduce(0) { n, q in
            n + (q.remaining.contains(dispatcherID) && !flying.contains(q.number) && now - q.time < expiry ? 1 : 0)
        }
    }

    /// The events waiting for `dispatcherID`, oldest first.
    public func pendingEvents(for dispatcherID: String) -> [JSONValue] {
        let now = runtime.scheduler.now
        let flying = inFlight[dispatcherID] ?? []
        return queue.filter { $0.remaining.contains(dispatcherID) && !flying.contains($0.number) && now - $0.time < expiry }.map(\.event)
    }

    // MARK: Evaluation

    /// The combined state of `dispatcherID` (Tealium rules 2 and 4): whether it is open, whether
    /// only a flush opens it, and the barriers that hold it closed.
    public func combinedState(for dispatcherID: String) -> (state: BarrierState, byFlush: Bool, closedBy: [String]) {
        let closed = barriers(for: dispatcherID).filter { $0.state(for: dispatcherID) == .closed }
        if closed.isEmpty { return (.open, false, []) }
        if flushUntil[dispatcherID] != nil {
            let blocking = closed.filter { !$0.isFlushable }
            return blocking.isEmpty ? (.open, true, []) : (.closed, false, blocking.map(\.id))
        }
        return (.closed, false, closed.map(\.id))
    }

    /// Records barrier changes, then pulls for dispatchers that opened (or got an event while
    /// open). Re-entrant calls (a barrier changing during a pull) run again afterwards.
    private func reevaluate(enqueued: Set<String> = [], flushed: Set<String> = []) {
        if evaluating {
            dirty = true
            return
        }
        evaluating = true
        defer { evaluating = false }
        dropExpired()
        var enqueued = enqueued
        var flushed = flushed
        repeat {
            dirty = false
            recordBarrierChanges()
            for d in dispatcherList {
                let (state, _, closedBy) = combinedState(for: d.id)
                let opened = state == .open && lastCombined[d.id] != .open
                lastCombined[d.id] = state
                if state == .open {
                    if opened || enqueued.contains(d.id) || flushed.contains(d.id) { pull(d) }
                } else if enqueued.contains(d.id) || flushed.contains(d.id) {
                    record(.dispatchBlocked(dispatcher: d.id, barriers: closedBy))
                }
            }
            enqueued = []
            flushed = []
        } while dirty
        scheduleWakeup()
    }

    /// Takes dispatches past their expiry out of the queue, recording `dispatch.dropped`
    /// (reason `expired`, the events in queue order) for each dispatcher that still waited for
    /// them. Expiry has no timer of its own: it is found at the next evaluation (a track, pull,
    /// flush or barrier change) or at the end of the run, and recorded then, so nothing leaves the
    /// queue unseen. Dispatches in flight are not dropped: they were sent.
    private func dropExpired() {
        let now = runtime.scheduler.now
        guard queue.contains(where: { now - $0.time >= expiry }) else { return }
        for d in dispatcherList {
            let flying = inFlight[d.id] ?? []
            let expired = queue.filter { now - $0.time >= expiry && $0.remaining.contains(d.id) && !flying.contains($0.number) }
            guard !expired.isEmpty else { continue }
            let numbers = Set(expired.map(\.number))
            for i in queue.indices where numbers.contains(queue[i].number) { queue[i].remaining.removeAll { $0 == d.id } }
            record(.dispatchDropped(fields: ["dispatcher": .string(d.id), "reason": "expired", "events": .array(expired.map(\.event))]))
        }
        queue.removeAll { $0.remaining.isEmpty }
    }

    private func recordBarrierChanges() {
        for d in dispatcherList {
            for b in barriers(for: d.id) {
                let key = "\(ObjectIdentifier(b))|\(d.id)"
                let now = (b.state(for: d.id), b.isFlushable)
                if let last = lastBarrier[key], last == now { continue }
                lastBarrier[key] = now
                record(.dispatchBarrier(barrier: b.id, dispatcher: d.id, state: now.0.rawValue, flushable: now.1))
            }
        }
    }

    /// Pulls batches for `d` while it is open and each pull is full (Tealium rules 16–18).
    private func pull(_ d: any Dispatcher) {
        let size = min(d.dispatchLimit, Self.maxInFlight)
        while true {
            let (state, byFlush, _) = combinedState(for: d.id)
            guard state == .open else { return }
            let room = Self.maxInFlight - (inFlight[d.id]?.count ?? 0)
            let now = runtime.scheduler.now
            let flying = inFlight[d.id] ?? []
            let batch = queue.filter { $0.remaining.contains(d.id) && !flying.contains($0.number) && now - $0.time < expiry }
                .prefix(min(size, room))
            guard !batch.isEmpty else { return }
            let numbers = Set(batch.map(\.number))
            inFlight[d.id, default: []].formUnion(numbers)
            lastProgress = now
            record(.dispatchSent(dispatcher: d.id, events: batch.count, flush: byFlush))
            d.dispatch(batch.map(\.event)) { [weak self] in self?.delivered(numbers, to: d.id) }
            if batch.count < d.dispatchLimit { return }
        }
    }

    private func delivered(_ numbers: Set<Int>, to dispatcherID: String) {
        inFlight[dispatcherID]?.subtract(numbers)
        for i in queue.indices where numbers.contains(queue[i].number) { queue[i].remaining.removeAll { $0 == dispatcherID } }
        queue.removeAll { $0.remaining.isEmpty }
        if flushUntil[dispatcherID] != nil && pendingCount(for: dispatcherID) == 0 { flushUntil[dispatcherID] = nil }
        reevaluate()
    }

    /// While dispatches are held only by barriers that follow the clock, wake up when the next
    /// of them changes; give up after seven virtual days without a dispatch (never a hang).
    private func scheduleWakeup() {
        let now = runtime.scheduler.now
        guard now - lastProgress < .seconds(7 * 86_400) else { return }
        var next: TraceTime?
        for d in dispatcherList where pendingCount(for: d.id) > 0 {
            let closed = barriers(for: d.id).filter { $0.state(for: d.id) == .closed }
            let times = closed.map { $0.nextChange(after: now) }
            guard !closed.isEmpty, !times.contains(where: { $0 == nil }) else { continue }
            for t in times.compactMap({ $0 }) where next == nil || t < next! { next = t }
        }
        guard let next, next > now, wakeupAt == nil || next < wakeupAt! else { return }
        wakeupAt = next
        runtime.scheduleTraced(after: next - now) { [weak self] in
            guard let self, self.wakeupAt == next else { return }
            self.wakeupAt = nil
            self.reevaluate()
        }
    }

    // MARK: Trace

    private func record(_ body: TraceEvent.Body) {
        runtime.recordEvent(mb: path, body)
    }

    /// Records `stuck` for each dispatcher still holding events (at quiescence; once per change).
    public func reportStuck() { reportHeld(extra: JSONObject(), force: false) }

    /// Records every dispatcher holding events as `stuck` with `extra` fields (a simulation
    /// stopped at `--until` adds `"until": true`).
    public func reportHeld(extra: JSONObject, force: Bool = true) {
        dropExpired()
        for d in dispatcherList {
            let held = pendingEvents(for: d.id)
            defer { lastStuck[d.id] = held.count }
            guard !held.isEmpty, force || lastStuck[d.id] != held.count else { continue }
            runtime.recordEvent(mb: path, cause: 0, .stuckDispatcher(dispatcher: d.id, waiting: held), extra: extra)
        }
    }
}

extension Motherboard {
    /// Tracks every output of `boards` as a dispatch (`trackOutputs` in scenarios): a flow with
    /// action `track` queues the output's JSON in `manager`.
    public func trackOutputs(of boards: [BoardID], into manager: DispatchManager) {
        for id in boards {
            registerFlow(
                FlowRoute(source: id, trigger: .output(matches: { _ in true }), action: "track") { _, output in
                    manager.track(TraceValue.json(output) ?? .null)
                })
        }
    }
}
