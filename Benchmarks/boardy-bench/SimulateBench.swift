import ArgumentParser
import Boardy
import BoardySimulation
import Foundation

/// A generated scenario run by the simulator, with the in-memory recorder.
struct SimulateBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Runs a generated 1,000-board scenario (a chain, re-started by the script) and reports activations per second.",
        discussion: "Timed: Simulator.run (build, run to quiescence with the in-memory recorder, take the events). The summary simulate prints is computed from the events afterwards and reported apart as summary_ms.")

    @Option(help: "Boards in the chain.") var boards = 1000
    @Option(help: "Times the script activates the head of the chain.") var starts = 200
    @Option(help: "Runs; the median is reported.") var runs = 5

    /// b0 ->> b1 ->> …; each board sends one output; the script activates b0 `starts` times.
    static func scenario(boards: Int, starts: Int) throws -> Scenario {
        var o = JSONObject()
        o["scenario"] = "bench-chain"
        o["boards"] = .array((0..<boards).map { ["id": .string("b\($0)"), "onActivate": [["output": "next"]]] })
        o["flows"] = .array([.string((0..<boards).map { "b\($0)" }.joined(separator: " ->> "))])
        o["script"] = .array((0..<starts).map { ["at": .int(Int64($0)), "activate": "b0"] })
        return try ScenarioLoader.load(json: JSONValue.object(o).jsonText, file: "generated")
    }

    func run() throws {
        let s = try Self.scenario(boards: boards, starts: starts)
        var rates: [Double] = []
        var summaryMS: [Double] = []
        var events = 0
        for _ in 0..<runs {
            let t0 = now()
            let r = Simulator.run(s)
            let seconds = now() - t0
            let t1 = now()
            events = r.summary.events
            summaryMS.append((now() - t1) * 1000)
            let activations = r.events.reduce(0) { $0 + ($1.kind == "activation.performed" ? 1 : 0) }
            rates.append(Double(activations) / seconds)
        }
        report([
            ("boards", "\(boards)"), ("activations_per_run", "\(boards * starts)"), ("events_per_run", "\(events)"),
            ("summary_ms", String(format: "%.1f", median(summaryMS))),
        ] + traceSize(Simulator.run(s).jsonl) + [("activations_per_s", "\(Int(median(rates)))")])
    }
}
