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
            and prints a summary. Exits 3 when a barrier loop or a stuck barrier was found, or when
            the run was stopped as a runaway: a synchronous flow cycle, work scheduled more than
            --horizon seconds after the last stimulus, or more than --max-events events.

            Examples:
              boardy-viz simulate samples/checkout.json -o out/checkout.jsonl
              boardy-viz simulate samples/stuck-gate.json --until 30 --format json
            """)

    @Argument(help: "The scenario file (.json, .yaml, .yml), or - for standard input.") var scenario: String
    @Option(name: .shortAndLong, help: "Write the trace here (.jsonl; whole or not at all).") var output: String?
    @Option(help: "Stop at this virtual time (seconds); open waits are recorded with \"until\": true.") var until: Double?
    @Option(help: "Stop as a runaway when work is scheduled this many virtual seconds after the last stimulus.")
    var horizon: Double = RunBounds.defaultHorizon.seconds
    @Option(help: "Stop as a runaway after this many events.") var maxEvents: Int = RunBounds.defaultMaxEvents
    @Option(help: "Summary format.") var format: OutputFormat = .text

    func validate() throws {
        if let until { _ = try secondsFlag("--until", until) }
        _ = try secondsFlag("--horizon", horizon, positive: true)
        if maxEvents < 1 { throw ValidationError("--max-events takes a whole number of events, 1 or more") }
    }

    func run() throws {
        let result = try guarded { () throws -> SimulationResult in
            try checkInput(scenario)
            let out = try Output(output, inputs: [scenario])
            defer { out.discard() }
            try checkTraceOutput(output)
            let s = try loadScenario(scenario)
            let bounds = RunBounds(
                until: try until.map { try secondsFlag("--until", $0) }, horizon: try secondsFlag("--horizon", horizon, positive: true),
                maxEvents: maxEvents)
            // The trace streams to its output as it is recorded (a temporary file until the run
            // ends), so memory does not grow with the trace.
            let (fd, owned) = try out.openStream()
            defer { if owned { close(fd) } }
            let writer = try TraceWriter(
                fileDescriptor: fd, path: output ?? "standard output", header: Simulator.header(of: s, bounds: bounds), closesDescriptor: false)
            // Boardy's debug log (a DEBUG build with BOARDY_LOG_ENABLED=YES) never mixes into a
            // trace written to standard output: it goes to standard error then.
            let log = BoardyDebugLog.fromEnvironment.map { log in
                output == nil ? BoardyDebugLog { FileHandle.standardError.write(Data(($0 + "\n").utf8)) } : log
            }
            let r = Simulator.run(s, bounds: bounds, observer: writer, keepingEvents: false, debugLog: log)
            try writer.close()
            try out.commit()
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
                \(summary.heldDispatchers) dispatchers holding events\(summary.runaways > 0 ? ", \(summary.runaways) stopped at a bound (runaway)" : ""); ended at t=\(summary.endTime)\(output.map { "\ntrace: \($0)" } ?? "")
                """
        }
        // With the trace on standard output, the summary goes to standard error.
        if output == nil { warn(text) } else { print(text) }
        if summary.foundProblems { throw Exit.problems }
    }
}
