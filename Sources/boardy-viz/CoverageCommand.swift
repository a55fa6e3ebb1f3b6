import ArgumentParser
import Boardy
import BoardyGraphviz
import BoardySimulation
import BoardyTrace
import BoardyViz
import BoardyVizCore
import BoardyVizSimulation
import Foundation

struct CoverageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coverage",
        abstract: "What traces exercised of a scenario or an app's sources: boards, flows, barriers, exemptions, dispatch barriers.",
        discussion: """
            Every item of the definition with how many traces exercised it and how often; what no
            trace exercised is listed first. Against a scenario, traces recorded from another
            definition (their fingerprint differs) are reported and left out, never mixed in;
            against an app's source folder, traces are matched by board ids, and ids the sources
            lack are listed. Traces may be files, folders (every .jsonl inside) or quoted glob
            patterns. Exit 1 when
            --fail-under is given and coverage is below it.

            Examples:
              boardy-viz coverage samples/checkout.json out/*.jsonl
              boardy-viz coverage MyApp/ traces/ --fail-under 80 -o coverage.svg
            """)

    @Argument(help: "A scenario (.json, .yaml) or an app's source folder.") var definition: String
    @OptionGroup var traceInput: TraceInputOptions
    @Argument(help: "Traces: files, folders of .jsonl files, or glob patterns.") var traces: [String]
    @Option(help: "Exit 1 when fewer than this percent of the items were exercised.") var failUnder: Double?
    @Option(help: "text or json.") var format: OutputFormat = .text
    @Option(name: .shortAndLong, help: "Draw the flow graph weighted by use (never exercised: dashed grey) here: .svg, .png or .dot.") var output: String?

    func validate() throws {
        if let failUnder, !(0...100).contains(failUnder) { throw ValidationError("--fail-under takes a percent from 0 to 100") }
        if traces.isEmpty { throw ValidationError("give at least one trace (a file or a folder)") }
        if output == "-" { throw ValidationError("the report goes to standard output; -o names the picture's file (.svg, .png or .dot)") }
    }

    func run() throws {
        try guarded {
            let files = try traceFiles(traces)
            var out: Output?
            var picture: RenderFormat?
            if let output {
                out = try Output(output, inputs: [definition] + files)
                picture = try pictureFormat(nil, output: output)
            }
            defer { out?.discard() }
            var model: FlowModel
            var fingerprint: String?
            if isSourceFolder(definition) {
                let app = try importSources([definition])
                for w in app.warnings { warn(w.description) }
                model = FlowModel(imported: app)
            } else {
                try checkInput(definition)
                let s = try loadScenario(definition)
                model = FlowModel(scenario: s)
                fingerprint = s.fingerprint
            }
            // Read as tables: coverage decodes only the lines that say more than their board.
            var read: [(name: String, table: TraceTable)] = []
            for f in files { read.append((f, try readTable(f))) }
            let coverage = try Coverage(model: model, fingerprint: fingerprint, tables: read)
            switch format {
            case .text: print(coverage.text)
            case .json: print(coverage.json.jsonText)
            }
            if let out, let picture {
                model.weigh(by: coverage.observed)
                try out.write(try FlowGraph.render(model, format: picture))
            }
            if let failUnder, coverage.percent < failUnder {
                throw Exit.failed
            }
        }
    }
}
