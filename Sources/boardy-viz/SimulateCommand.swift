import ArgumentParser
import Boardy
import BoardyGraphviz
import BoardySimulation
import BoardyTrace
import BoardyViz
import BoardyVizCore
import BoardyVizSimulation
import Foundation

struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Run a scenario on the engine and write its trace.",
        discussion: """
            Runs to quiescence (or virtual time --until), writes the trace (standard output unless -o)
            and prints a summary. Exits 3 when a barrier loop, a stuck barrier, or a runaway flow
            cycle (boards emitting to each other synchronously, forever) was found.

            Examples:
              boardy-viz simulate samples/checkout.json -o out/checkout.jsonl
              boardy-viz simulate samples/stuck-gate.json --until 30 --format json
            """)

    @Argument(help: "The scenario file (.json, .yaml, .yml).") var scenario: String
    @Option(name: .shortAndLong, help: "Write the trace here (whole or not at all).") var output: String?
    @Option(help: "Stop at this virtual time (seconds); open waits are recorded with \"until\": true.") var until: Double?
    @Option(help: "Summary format.") var format: OutputFormat = .text

    func validate() throws {
        if let until, until < 0 || !until.isFinite { throw ValidationError("--until takes a non-negative number of seconds") }
    }

    func run() throws {
        let result = try guarded { () throws -> SimulationResult in
            let s = try ScenarioLoader.load(path: scenario)
            let r = Simulator.run(s, until: until.map(TraceTime.seconds))
            try emit(r.jsonl, to: output)
            return r
        }
        for w in result.warnings { warn("warning: \(w)") }
        let summary = result.summary
        let text: String
        switch format {
        case .json:
            var o: JSONObject = [
                "scenario": .string(result.header.scenario ?? ""), "events": .int(Int64(summary.events)),
                "boardsActivated": .int(Int64(summary.boardsActivated)), "barriersResolved": .int(Int64(summary.barriersResolved)),
                "loops": .int(Int64(summary.loops)), "stuck": .int(Int64(summary.stuckBarriers)),
                "heldDispatchers": .int(Int64(summary.heldDispatchers)), "runaways": .int(Int64(summary.runaways)),
                "endTime": summary.endTime.jsonValue,
            ]
            if let output { o["trace"] = .string(output) }
            text = JSONValue.object(o).jsonText
        case .text:
            text = """
                \(result.header.scenario ?? "scenario"): \(summary.events) events, \(summary.boardsActivated) boards activated, \
                \(summary.barriersResolved) barriers resolved, \(summary.loops) loops, \(summary.stuckBarriers) stuck, \
                \(summary.heldDispatchers) dispatchers holding events\(summary.runaways > 0 ? ", \(summary.runaways) runaway flow cycles stopped" : ""); ended at t=\(summary.endTime)\(output.map { "\ntrace: \($0)" } ?? "")
                """
        }
        // With the trace on standard output, the summary goes to standard error.
        if output == nil { warn(text) } else { print(text) }
        if summary.foundProblems { throw Exit.problems }
    }
}
