import Boardy
import BoardyIngest
import BoardySimulation
import BoardyTestSupport
import BoardyTrace
import Foundation
import FuzzTargets
import PropertyBased
import Testing

/// Boardy's debug log of a run, as our engine prints it, read back by `ingest`: the same
/// requests, activations, outputs, completions and commands as the run's recorded trace, with
/// the same motherboards, in the same order (`LogRoundTripCheck`). On every sample and on
/// generated scenarios; `make fuzz-log` runs 100,000 and more.
@Suite("Boardy's log round trip")
struct LogRoundTripTests {
    @Test("every sample", arguments: sampleNames + ["explore-login"])
    func samples(_ name: String) throws {
        let outcome = try LogRoundTripCheck.check(try sample(name), bounds: RunBounds())
        #expect(outcome.steps > 0)
        #expect(outcome.exact, "\(name): the log's steps agree only as a multiset")
    }

    @Test("300 generated scenarios (fixed seeds)")
    func generated() throws {
        var exact = 0
        for (bytes, _) in PipelineTests.inputs(300, seed: 44) {
            var g = ScenarioGenome(bytes)
            let text = g.scenarioJSON()
            let s = try ScenarioLoader.load(json: text, file: "gen.json")
            let outcome = try LogRoundTripCheck.check(s, text: text)
            if outcome.exact { exact += 1 }
        }
        // Runs where the log cannot tell two runs or two motherboards apart are held to the same
        // steps as a multiset; they are rare.
        #expect(exact >= 290, "\(exact) of 300 agree in order")
    }

    @Test("a wrong log is caught: a dropped record, or two swapped, differ from the recorded trace")
    func catchesDifferences() throws {
        let s = try sample("checkout")
        let outcome = try LogRoundTripCheck.check(s, bounds: RunBounds())
        let recorded = LogRoundTrip.steps(of: Simulator.run(s, bounds: RunBounds(), debugLog: nil).events)
        // Drop the first output record from the log.
        var lines = outcome.log.components(separatedBy: "\n")
        let i = try #require(lines.firstIndex(of: "🍁 [Send Out] Boardy Log:").map { _ in
            lines.indices.first { lines[$0] == "🍁 [Send Out] Boardy Log:" && lines[$0 + 3].contains("💐 [String]") && !lines[$0 + 3].contains("[Gateway]") }
        } ?? nil)
        lines.removeSubrange(i..<(i + 4))
        let broken = try BoardyLogIngester.trace(of: lines.joined(separator: "\n"), name: "broken.log")
        #expect(LogRoundTrip.firstDifference(recorded: recorded, ingested: LogRoundTrip.steps(of: broken.events)) != nil)
    }
}
