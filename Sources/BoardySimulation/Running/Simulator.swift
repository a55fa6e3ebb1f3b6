import BoardyCore
import BoardyDispatch

/// What a run of a scenario produced.
public struct SimulationResult: Sendable {
    /// Line 1 of the trace.
    public var header: TraceHeader
    /// The events, as the recorder kept them (not copied into one array).
    public var events: RecordedEvents
    /// The trace (header and events in one array; built when asked).
    public var trace: Trace { Trace(header: header, events: events.array()) }
    /// The trace as JSON Lines, byte for byte what a `TraceWriter` writes.
    public var jsonl: String { events.jsonl(header: header) }
    /// The virtual time the run ended at.
    public var endTime: TraceTime
    /// Settings warnings (Tealium is lenient: invalid barrier entries are ignored).
    public var warnings: [String]
    /// Counts for the summary: counted as the events were recorded when they were not kept,
    /// else computed from the kept events when asked (not on the run's hot path).
    public var summary: SimulationSummary {
        if let counted { return counted }
        let counter = SimulationSummary.Counter()
        events.forEachEvent { counter.record($0) }
        return counter.summary(end: endTime)
    }
    /// The summary counted during a run that kept no events.
    var counted: SimulationSummary?
}

/// The summary `simulate` prints.
public struct SimulationSummary: Sendable, Hashable {
    /// Events recorded.
    public var events: Int
    /// Distinct boards whose activate ran.
    public var boardsActivated: Int
    /// `barrier.resolved` events.
    public var barriersResolved: Int
    /// `barrier.loop` events.
    public var loops: Int
    /// `stuck` events for activation or gateway barriers (not counting `--until` ones).
    public var stuckBarriers: Int
    /// `stuck` events for dispatchers holding events.
    public var heldDispatchers: Int
    /// `runaway` events: runs (or synchronous flow cycles) stopped at a bound.
    public var runaways: Int
    /// The virtual time the run ended at.
    public var endTime: TraceTime

    /// Whether the run found a barrier loop (``loops``), a stuck activation or gateway barrier
    /// (``stuckBarriers``: not the waits a `--until` cut left open) or a runaway (``runaways``):
    /// `simulate` then exits 3. Dispatchers left holding events (``heldDispatchers``) do not count.
    public var foundProblems: Bool { loops > 0 || stuckBarriers > 0 || runaways > 0 }

    /// Counts events as a run records them (an observer), so a summary needs no stored trace.
    public final class Counter: TraceObserver, @unchecked Sendable {
        // `@unchecked Sendable` because TraceObserver requires Sendable: safe by confinement, as
        // the engine's own state is. Only the thread that drives the run records, and the summary
        // is read after the run returns, on the same thread.
        struct Performed: Hashable { let mb: String, board: String }
        private var performed = Set<Performed>()
        private var events = 0, resolved = 0, loops = 0, stuck = 0, held = 0, runaways = 0

        /// A counter at zero.
        public init() {}

        public func record(_ e: consuming TraceEvent) {
            events += 1
            switch e.body {
            case let .activationPerformed(b, _): performed.insert(Performed(mb: e.mb, board: b))
            case .barrierResolved: resolved += 1
            case .barrierLoop: loops += 1
            case .stuckBarrier: if e.extra["until"] == nil { stuck += 1 }
            case .stuckDispatcher: held += 1
            case .runaway: runaways += 1
            default: break
            }
        }

        /// The summary of what was counted, for a run that ended at `end`.
        public func summary(end: TraceTime) -> SimulationSummary {
            SimulationSummary(
                events: events, boardsActivated: performed.count, barriersResolved: resolved, loops: loops, stuckBarriers: stuck,
                heldDispatchers: held, runaways: runaways, endTime: end)
        }
    }
}

/// Runs scenarios on the real engine, on a virtual clock: the same scenario gives the same trace,
/// byte for byte, on every run and machine.
public enum Simulator {
    /// Runs `scenario` to quiescence, or until virtual time `until` (open waits are then recorded
    /// as `stuck` with `"until": true). `observer` also receives every event (a file writer).
    public static func run(_ scenario: Scenario, until: TraceTime? = nil, observer: (any TraceObserver)? = nil) -> SimulationResult {
        run(scenario, bounds: RunBounds(until: until), observer: observer)
    }

    /// The header line of `scenario`'s trace under `bounds`: known before the run, so a writer
    /// can stream the events after it. A cut run says where it was cut, and bounds other than
    /// the defaults are named, so a replay runs the same way.
    public static func header(of scenario: Scenario, bounds: RunBounds) -> TraceHeader {
        var extra = bounds.headerFields
        if let until = bounds.until { extra["until"] = until.jsonValue }
        // Where the run broke a tie (several actions could run next, a ranged one among them),
        // a `choice` at point `next` says which it took: a replay takes the same. Traces before
        // these choices lack the field and replay by the older rule.
        if scenario.hasVariation { extra["ties"] = "recorded" }
        return TraceHeader(scenario: scenario.name, clock: .virtual, definition: scenario.fingerprint, extra: extra)
    }

    /// Runs `scenario` within `bounds` (docs/contract.md §3.4): to quiescence, to `bounds.until`, or until
    /// a horizon or event bound stops it with a `runaway` event. `observer` receives every
    /// event; with `keepingEvents` false nothing is kept in memory (a streaming writer and a
    /// ``SimulationSummary/Counter`` see it all), so a run's memory does not grow with its trace.
    /// `debugLog` receives Boardy's debug log of the run (by default as Boardy prints it: in a
    /// DEBUG build whose environment has `BOARDY_LOG_ENABLED=YES`).
    ///
    /// `inspect` sees the built app when the run is over, before it is torn down (what a leak
    /// check holds weakly).
    public static func run(
        _ scenario: Scenario, bounds: RunBounds, observer: (any TraceObserver)? = nil, keepingEvents: Bool = true,
        debugLog: BoardyDebugLog? = .fromEnvironment, inspect: ((BuiltScenario) -> Void)? = nil
    ) -> SimulationResult {
        // Keeping the events, the summary is computed from them when asked; otherwise a counter
        // sees them as they go by.
        let recorder = keepingEvents ? TraceRecorder() : nil
        let counter = keepingEvents ? nil : SimulationSummary.Counter()
        let observers: [any TraceObserver] = [recorder, observer, counter].compactMap { $0 }
        let built = ScenarioBuilder.build(scenario, observer: observers.count == 1 ? observers[0] : TraceFanout(observers), debugLog: debugLog)
        schedule(scenario.script, on: built)
        let lastStimulus = scenario.lastStimulus
        let end = built.runtime.drive(built.scheduler, bounds: bounds, lastStimulus: lastStimulus)
        if end == .cut {
            built.runtime.reportOpenBarriers(extra: ["until": true])
            built.dispatch?.reportHeld(extra: ["until": true])
        }
        inspect?(built)
        built.runtime.tearDown()
        let events = recorder?.takeRecording() ?? RecordedEvents()
        return SimulationResult(
            header: header(of: scenario, bounds: bounds), events: events, endTime: built.scheduler.now,
            warnings: built.dispatch?.warnings ?? [], counted: counter?.summary(end: built.scheduler.now))
    }

    /// Schedules the script's stimuli on `built`'s clock (ranged ones as ranged actions).
    static func schedule(_ script: [ScriptStep], on built: BuiltScenario, footprint: (Int) -> Int = { _ in -1 }) {
        built.variation.schedule(script: script, footprint: footprint) { step in
            apply(step.action, to: step.mb.flatMap { built.roots[$0] } ?? built.mainboard, dispatch: built.dispatch)
        }
    }

    /// Applies one outside stimulus as the script does: records a `stimulus` event and performs
    /// it with that event as its cause. Board actions go to `mainboard` (the engine's
    /// `Stimulus`), dispatch actions to `dispatch` (BoardyDispatch's `DispatchStimulus`,
    /// recorded and without effect when there is none), as a replay applies recorded ones.
    public static func apply(_ action: ScriptStep.Action, to mainboard: Motherboard, dispatch: DispatchManager?) {
        switch action {
        case let .activate(id, input):
            mainboard.stimulate(.activate(id, input: input))
        case let .complete(id, with):
            mainboard.stimulate(.complete(id, isDone: with))
        case let .network(c):
            dispatchStimulus(.network(c))
        case let .track(event, dispatcher):
            dispatchStimulus(.track(event, dispatcher: dispatcher))
        case .flush:
            dispatchStimulus(.flush)
        case let .configure(settings):
            dispatchStimulus(.configure(settings))
        }
        func dispatchStimulus(_ s: DispatchStimulus) {
            guard let runtime = mainboard.runtime else { return }
            DispatchManager.stimulate(s, on: dispatch, runtime: runtime, mb: mainboard.path)
        }
    }
}
