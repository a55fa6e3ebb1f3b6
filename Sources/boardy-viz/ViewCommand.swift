import ArgumentParser
import Boardy
import BoardyGraphviz
import BoardySimulation
import BoardyTrace
import BoardyViz
import BoardyVizCore
import BoardyVizSimulation
import Foundation

struct ViewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "view",
        abstract: "Write one self-contained HTML page to explore a trace: timeline, event table, cause chains, flow graph.",
        discussion: """
            The page has everything inline (its script and styles are ours) and loads nothing:
            open it from disk, mail it, attach it to a CI run. The timeline zooms (wheel) and
            pans (drag); the event table searches boards, kinds and fields, filters by board,
            kind and time, and scrolls a million events smoothly; clicking a mark or a row shows
            the event's JSON line and highlights its cause chain in both. The flow graph shows
            what the trace observed, with counts; with --scenario, the whole definition, with
            zero counts where nothing happened. The command opens nothing by itself.

            Examples:
              boardy-viz view out/checkout.jsonl -o checkout.html
              boardy-viz view run.jsonl --scenario checkout.json -o run.html
            """)

    @Argument(help: "The trace file, or - for standard input.") var trace: String
    @OptionGroup var traceInput: TraceInputOptions
    @Option(help: "The scenario the trace came from: the flow graph shows its whole definition.") var scenario: String?
    @Option(name: .shortAndLong, help: "Write here instead of standard output (whole or not at all).") var output: String?

    func run() throws {
        try guarded {
            try checkInput(trace)
            if let scenario { try checkInput(scenario) }
            try checkOneStandardInput([trace] + (scenario.map { [$0] } ?? []))
            if let output, output != "-" {
                let ext = fileExtension(output)
                if ["json", "jsonl", "yaml", "yml", "swift", "svg", "png", "dot", "gv"].contains(ext) {
                    throw UsageError(message: "\(output) names a .\(ext) file; view writes HTML: name it .html")
                }
            }
            let out = try Output(output, inputs: [trace] + (scenario.map { [$0] } ?? []))
            defer { out.discard() }
            // Read as a table: lines in the writer's form go into the page as they are; the
            // others are decoded once, while reading, and kept.
            let t = try readTable(trace, keepingDecodedEvents: true)
            try checkDoubleTimes(t, file: trace, for: "the viewer")
            var model: FlowModel
            if let scenario {
                let s = try loadScenario(scenario)
                if let d = t.header.definition, d != s.fingerprint {
                    warn("view: \(trace) was recorded from another definition than \(scenario) (\(d) vs \(s.fingerprint)); counts may not match")
                }
                model = FlowModel(scenario: s)
                try model.weigh(byTables: [t])
            } else {
                model = try FlowModel(table: t)
            }
            if t.count > 100_000 { warn("view: \(t.count) events; writing the page") }
            try out.write(try TraceView.html(table: t, model: model))
        }
    }
}
