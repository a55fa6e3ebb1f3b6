import Boardy
import BoardyReplay
import BoardySimulation
import BoardyTrace
import BoardyVizSimulation

/// Issue 47's check, alone and fast enough for a million cases: a generated scenario simulated
/// within bounds the case chooses (cut by `until`, stopped by a `horizon` or `maxEvents`, or run
/// to its end), its trace written and read back as text, and replayed: the same. Then `explore`
/// on it, small, and every failure it finds replayed: the same. Used by `make fuzz-replay`.
public enum ReplayCheck {
    /// What one case covered.
    public struct Outcome: Sendable {
        /// The run was cut at `until`.
        public var cutByUntil = false
        /// A `runaway` event names the horizon.
        public var stoppedByHorizon = false
        /// A `runaway` event names the event bound.
        public var stoppedByMaxEvents = false
        /// The scenario varies (its trace records its ties).
        public var varies = false
        /// Schedules explore ran, and failure traces it found (each replayed).
        public var schedules = 0
        public var failuresReplayed = 0
        /// Events in the simulated trace.
        public var events = 0
    }

    /// The bounds a case may draw: `until` in `untilOneIn` cases (0: never), at a whole
    /// millisecond below `untilBelow` seconds (the generated scripts send within 0-12 s); one of
    /// `horizons` (seconds) and one of `maxEvents`.
    public struct Choices: Sendable {
        public var untilOneIn = 3
        public var untilBelow = 12.0
        public var horizons: [Double] = [1, 5, 30, 120]
        public var maxEvents: [Int] = [20, 100, 500, 2_000]
        public init() {}
    }

    /// Bounds drawn from `random` (three draws, or two with `until` off).
    public static func bounds(_ choices: Choices = Choices(), _ random: () -> UInt64) -> RunBounds {
        let millis = UInt64(max(1, choices.untilBelow * 1_000))
        let until = choices.untilOneIn > 0 && random() % UInt64(choices.untilOneIn) == 0 ? TraceTime(microseconds: Int64(random() % millis) * 1_000) : nil
        let horizon = choices.horizons.isEmpty ? 120 : choices.horizons[Int(random() % UInt64(choices.horizons.count))]
        let maxEvents = choices.maxEvents.isEmpty ? 2_000 : choices.maxEvents[Int(random() % UInt64(choices.maxEvents.count))]
        return RunBounds(until: until, horizon: .seconds(horizon), maxEvents: maxEvents)
    }

    /// Simulates, replays, explores and replays every failure; throws a ``Pipeline/Failure``
    /// naming the first divergence.
    public static func check(_ s: Scenario, bounds: RunBounds, explore: Bool = true, text: String = "") throws -> Outcome {
        var outcome = Outcome()
        outcome.varies = s.hasVariation
        let result = Simulator.run(s, bounds: bounds)
        let jsonl = result.jsonl
        outcome.events = result.events.count
        let trace: Trace
        do {
            trace = try Trace.read(text: jsonl, name: "gen.jsonl")
        } catch {
            throw Pipeline.Failure(description: "a trace we wrote does not read back: \(error)\n\(text)")
        }
        outcome.cutByUntil = trace.header.extra["until"] != nil
        for e in trace.events {
            guard case let .runaway(fields) = e.body else { continue }
            switch fields["bound"]?.stringValue {
            case "horizon": outcome.stoppedByHorizon = true
            case "max-events": outcome.stoppedByMaxEvents = true
            default: break
            }
        }
        let replay = try Replayer.replay(trace, scenario: s, traceName: "gen.jsonl", options: .init())
        guard replay.isSame else { throw Pipeline.Failure(description: "the replay diverged (\(bounds)): \(replay)\n\(text)") }
        guard explore else { return outcome }
        var o = Explorer.Options()
        o.maxSchedules = 60
        o.timeBudget = 5
        o.workers = 1
        o.bounds = bounds
        let r = Explorer.explore(s, options: o)
        outcome.schedules = r.schedules
        for f in r.failures {
            // Through text, as `explore -o` writes a failure and `replay` reads it.
            let back = try Trace.read(text: f.trace.jsonl, name: "failure.jsonl")
            let replay = try Replayer.replay(back, scenario: s, traceName: "failure.jsonl", options: .init())
            guard replay.isSame else { throw Pipeline.Failure(description: "explore's \(f.key) trace does not replay (\(bounds)): \(replay)\n\(text)") }
            outcome.failuresReplayed += 1
        }
        return outcome
    }
}
