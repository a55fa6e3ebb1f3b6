import Boardy
import BoardyDispatch

/// What a run of a scenario produced.
public struct SimulationResult: Sendable {
    /// Line 1 of the trace.
    public var header: TraceHeader
    /// The events, as the recorder kept them (not copied into one array).
    public var events: RecordedEvents
    /// The trace (header and events in one array; built when asked).
    public var trace: Trace { Trace(header: header, events: events.array()) }
    /// The trace as JSON Lines, byte for byte what a ``TraceWriter`` writes.
    public var jsonl: String { events.jsonl(header: header) }
    /// The virtual time the run ended at.
    public var endTime: TraceTime
    /// Counts for the summary, computed from the events when asked.
    public var summary: SimulationSummary { SimulationSummary(events, end: endTime) }
    /// Settings warnings (Tealium is lenient: invalid barrier entries are ignored).
    public var warnings: [String]
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
    /// `runaway` events: synchronous flow cycles stopped at the engine's bound.
    public var runaways: Int
    /// The virtual time the run ended at.
    public var endTime: TraceTime

    /// Whether the run found a barrier loop or a stuck barrier (`simulate` exits 3).
    public var foundProblems: Bool { loops > 0 || stuckBarriers > 0 || runaways > 0 }

    init(_ events: RecordedEvents, end: TraceTime) {
        self.events = events.count
        struct Performed: Hashable { let mb: String, board: String }
        var performed = Set<Performed>()
        var resolved = 0
        var loops = 0
        var stuck = 0
        var held = 0
        var runaways = 0
        events.forEachEvent { e in
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
        boardsActivated = performed.count
        barriersResolved = resolved
        self.loops = loops
        stuckBarriers = stuck
        heldDispatchers = held
        self.runaways = runaways
        endTime = end
    }
}

/// Runs scenarios on the real engine, on a virtual clock: the same scenario gives the same trace,
/// byte for byte, on every run and machine.
public enum Simulator {
    /// Runs `scenario` to quiescence, or until virtual time `until` (open waits are then recorded
    /// as `stuck` with `"until": true`). `observer` also receives every event (a file writer).
    public static func run(_ scenario: Scenario, until: TraceTime? = nil, observer: (any TraceObserver)? = nil) -> SimulationResult {
        let recorder = TraceRecorder()
        let built = ScenarioBuilder.build(scenario, observer: observer.map { TraceFanout([recorder, $0]) } ?? recorder)
        var warnings: [String] = built.dispatch?.warnings ?? []
        for step in scenario.script {
            built.scheduler.schedule(after: step.at) { apply(step.action, to: built.mainboard, dispatch: built.dispatch) }
        }
        if let until {
            built.scheduler.run(until: until)
            if built.scheduler.pendingCount > 0 {
                built.runtime.reportOpenBarriers(extra: ["until": true])
                built.dispatch?.reportHeld(extra: ["until": true])
            }
        } else {
            built.scheduler.run()
        }
        if let d = built.dispatch { warnings = d.warnings }
        // A cut run says where it was cut, so a replay stops at the same time.
        let header = TraceHeader(
            scenario: scenario.name, clock: .virtual, definition: scenario.fingerprint, extra: until.map { ["until": $0.jsonValue] } ?? [:])
        let events = recorder.takeRecording()
        return SimulationResult(
            header: header, events: events, endTime: built.scheduler.now, warnings: warnings)
    }

    /// Applies one outside stimulus as the script does: records a `stimulus` event and performs
    /// it with that event as its cause. Board actions go to `mainboard` (the engine's
    /// ``Stimulus``), dispatch actions to `dispatch` (BoardyDispatch's ``DispatchStimulus``,
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
