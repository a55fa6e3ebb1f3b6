import BoardyCore
import BoardySimulation
import BoardyTestSupport
import BoardyTrace
import Foundation
import FuzzTargets
import Testing

/// Issue 47: every trace replays. `ReplayCheck` (what `make fuzz-replay` runs by the million):
/// a scenario simulated within bounds (cut at `until`, stopped by a horizon or an event bound),
/// replayed, explored, and every failure found replayed, all the same. Here on each divergence
/// the fuzzer found on the way (`Fuzz/corpus/replay/divergences.jsonl`: the scenario, its
/// bounds, and what differed), and on generated cases.
@Suite("Replay: every trace, cut or bounded")
struct ReplayCheckTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var line: Int
        var found: String
        var bounds: RunBounds
        var scenario: String
        var testDescription: String { "line \(line): \(found)" }
    }

    static let cases: [Case] = {
        guard let text = try? String(contentsOf: repoRoot.appendingPathComponent("Fuzz/corpus/replay/divergences.jsonl"), encoding: .utf8)
        else { return [] }
        return text.split(separator: "\n").enumerated().compactMap { i, line in
            guard case let .object(o)? = try? JSONValue(parsing: String(line)), case let .object(b)? = o["bounds"], let scenario = o["scenario"]
            else { return nil }
            let bounds = RunBounds(
                until: b["until"]?.doubleValue.map { TraceTime.seconds($0) }, horizon: .seconds(b["horizon"]?.doubleValue ?? 120),
                maxEvents: Int(b["maxEvents"]?.doubleValue ?? 2_000))
            return Case(line: i + 1, found: o["found"]?.stringValue ?? "", bounds: bounds, scenario: scenario.jsonText)
        }
    }()

    @Test("the file of divergences found on the way holds them all")
    func fileReads() {
        // One of each kind the fuzzer found at seeds 101 (before the fixes) and after each fix.
        #expect(Self.cases.count == 28)
    }

    @Test("each divergence found replays the same now", arguments: cases)
    func divergence(_ c: Case) throws {
        let s = try ScenarioLoader.load(json: c.scenario, file: "divergences.jsonl:\(c.line)")
        let outcome = try ReplayCheck.check(s, bounds: c.bounds, text: c.scenario)
        #expect(outcome.events > 0)
    }

    @Test("400 generated cases, each within bounds of its own, replay the same; so does every failure explore finds")
    func generated() throws {
        var state: UInt64 = 47
        func random() -> UInt64 {
            // SplitMix64, as `boardy-fuzz-cli` draws its bounds.
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        var cut = 0, horizon = 0, maxEvents = 0, explored = 0
        for (bytes, _) in PipelineTests.inputs(400, seed: 47) {
            var g = ScenarioGenome(bytes)
            let text = g.scenarioJSON()
            let outcome = try ReplayCheck.check(try ScenarioLoader.load(json: text, file: "gen.json"), bounds: ReplayCheck.bounds(.init(), random), text: text)
            if outcome.cutByUntil { cut += 1 }
            if outcome.stoppedByHorizon { horizon += 1 }
            if outcome.stoppedByMaxEvents { maxEvents += 1 }
            explored += outcome.failuresReplayed
        }
        // The cases reach every way a run ends short.
        #expect(cut > 0 && horizon > 0 && maxEvents > 0 && explored > 0, "until \(cut), horizon \(horizon), max-events \(maxEvents), explored \(explored)")
    }
}
