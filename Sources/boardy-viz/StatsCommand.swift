import ArgumentParser
import Boardy
import BoardyGraphviz
import BoardySimulation
import BoardyTrace
import BoardyViz
import BoardyVizCore
import BoardyVizSimulation
import Foundation

struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Counts and barrier wait times of a trace, or of many: percentiles, failure rates, the slowest traces.",
        discussion: """
            One trace: counts per kind, board and dispatcher, barrier wait times, loops and stuck,
            streamed in bounded memory. Several traces (files, folders of .jsonl files, or glob
            patterns): per barrier, waits with p50 / p90 / p99 / max and how they ended (failed,
            loop, stuck) and the slowest traces; per board, how often it was requested,
            performed and cancelled and how long it waited. Read on every core, a trace at a
            time per core; a file that is not a trace is reported (file:line) and skipped, and
            the exit code is then 65.

            Examples:
              boardy-viz stats out/checkout.jsonl --format json
              boardy-viz stats traces/ 'ci/**/run-*.jsonl'
            """)

    @Argument(help: "A trace file (or - for standard input); or several files, folders and glob patterns.") var traces: [String]
    @OptionGroup var traceInput: TraceInputOptions
    @Option(help: "Report format.") var format: OutputFormat = .text

    func validate() throws {
        if traces.isEmpty { throw ValidationError("give a trace, or several (files, folders, glob patterns)") }
    }

    func run() throws {
        if traces.count == 1, traces[0] == "-" || isRegularFile(traces[0]) || !FileManager.default.fileExists(atPath: traces[0]) && !isGlobPattern(traces[0]) {
            let stats = try guarded { () throws -> TraceStats in
                var reader = try traceReader(traces[0])
                var stats = TraceStats()
                stats.clock = reader.header.clock
                while let e = try reader.next() { stats.add(e) }
                for w in reader.warnings { warn(w.description) }
                return stats
            }
            print(format == .json ? stats.json.jsonText : stats.text)
            return
        }
        let files = try guarded { () throws -> [String] in try traceFiles(traces) }
        let (stats, skipped, warnings) = FleetStats.read(files)
        for w in warnings { warn(w) }
        for s in skipped { warn("skipped \(s.error)") }
        if format == .json {
            var o = stats.json.objectValue ?? JSONObject()
            o["skipped"] = .array(skipped.map { ["path": .string($0.path), "error": .string($0.error)] })
            print(JSONValue.object(o).jsonText)
        } else {
            print(stats.text + (skipped.isEmpty ? "" : "\nskipped (not traces): \(skipped.count)"))
        }
        if !skipped.isEmpty { throw Exit.malformed }
    }
}
