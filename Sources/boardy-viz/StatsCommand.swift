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
        abstract: "Counts per kind, board and dispatcher, barrier wait times, loops and stuck.",
        discussion: "Streams the trace in bounded memory.\n\nExample:\n  boardy-viz stats out/checkout.jsonl --format json")

    @Argument(help: "The trace file, or - for standard input.") var trace: String
    @Option(help: "Report format.") var format: OutputFormat = .text

    func run() throws {
        let stats = try guarded { () throws -> TraceStats in
            var reader = try traceReader(trace)
            var stats = TraceStats()
            while let e = try reader.next() { stats.add(e) }
            for w in reader.warnings { warn(w.description) }
            return stats
        }
        print(format == .json ? stats.json.jsonText : stats.text)
    }
}
