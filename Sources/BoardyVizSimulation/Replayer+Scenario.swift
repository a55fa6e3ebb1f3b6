import BoardyCore
import BoardyReplay
import BoardySimulation
import BoardyTrace

extension Replayer {
    /// Replays `trace` against `scenario` (built as the simulator builds it). Throws only
    /// `ReplayError` (an invalid flip).
    public static func replay(
        _ trace: Trace, scenario: Scenario, traceName: String = "<trace>", options: Options = Options()
    ) throws -> ReplayResult {
        try replay(trace, traceName: traceName, targetName: scenario.file, options: options, build: scenarioBuilder(scenario))
    }

    /// Replays the trace file at `path` against `scenario`, reading the file on another thread
    /// while the engine re-runs it. Throws `TraceReadError` for a malformed file, `ReplayError`
    /// for an invalid flip.
    public static func replay(tracePath path: String, scenario: Scenario, options: Options = Options()) throws -> ReplayResult {
        try replay(tracePath: path, targetName: scenario.file, options: options, build: scenarioBuilder(scenario))
    }

    static func scenarioBuilder(_ scenario: Scenario) -> (any TraceObserver) -> ReplayTarget {
        { observer in
            let built = ScenarioBuilder.build(scenario, observer: observer)
            var target = ReplayTarget(mainboard: built.mainboard, dispatch: built.dispatch, definition: scenario.fingerprint, scenarioName: scenario.name)
            target.otherRoots = scenario.roots.compactMap { built.roots[$0.name] }
            target.lastStimulus = scenario.lastStimulus
            return target
        }
    }
}
