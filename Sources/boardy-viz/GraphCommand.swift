import ArgumentParser
import BoardyFiles
import Boardy
import BoardyGraphviz
import BoardySimulation
import BoardyTrace
import BoardyViz
import BoardyVizCore
import BoardyVizSimulation
import Foundation

struct GraphCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph",
        abstract: "Draw the flow graph of a scenario (declared) or of a trace (observed, with counts).",
        discussion: """
            Boards are nodes (shape by kind), modules clusters, continuous boards nested clusters;
            flows are solid edges labelled with the output (labels tied to their edges); an
            activation barrier is dashed from its gate with a tee head; the gateway is drawn once:
            the gate ⊣ a gateway node, dotted lines to the boards it guards (blue border), exempt
            boards with a double border; barrier loops are dashed red; a scenario's dispatch
            pipeline (tracked outputs, dispatchers, dispatch barriers with scopes and
            configuration) is a cluster of its own. The legend lists only what the picture uses.
            A trace's graph shows what it observed, with counts (continuous boards, relays and
            dispatch included). Large graphs (over 400 boards) use a layered layout of our own
            pinned through Graphviz's nop2 engine; the SVG's title names the layout used.
            `--format dot` writes the graph before layout (no coordinates, no legend): the same
            text on every machine.

            Examples:
              boardy-viz graph samples/checkout.json -o checkout.svg
              boardy-viz graph out/checkout.jsonl --format dot
              boardy-viz graph MyApp/ -o myapp.svg
              boardy-viz graph MyApp/ --traces out/*.jsonl -o coverage.svg
            """)

    @Argument(help: "A scenario (.json, .yaml), a trace (.jsonl), an app's source folder, or - for standard input.") var input: String
    @OptionGroup var traceInput: TraceInputOptions
    @Option(parsing: .upToNextOption, help: "With a source folder: traces whose activations, flows and waits weight the edges (never exercised: dashed grey).")
    var traces: [String] = []
    @Option(name: .shortAndLong, help: "Write here instead of standard output (whole or not at all).") var output: String?
    @Option(help: "svg, dot or png (default: the output's extension, else svg).") var format: RenderFormat?

    func run() throws {
        try guarded {
            if isSourceFolder(input) {
                let out = try Output(output, inputs: [input] + traces)
                defer { out.discard() }
                let format = try pictureFormat(format, output: output)
                let app = try importSources([input])
                for w in app.warnings { warn(w.description) }
                var model = FlowModel(imported: app)
                if !traces.isEmpty {
                    for t in traces { try checkInput(t) }
                    model.weigh(by: try traces.map { try readTrace($0) })
                }
                try out.write(try FlowGraph.render(model, format: format))
                return
            }
            if !traces.isEmpty { throw UsageError(message: "--traces weights the graph of an app's source folder; \(input) is not one") }
            try checkInput(input)
            let out = try Output(output, inputs: [input])
            defer { out.discard() }
            let format = try pictureFormat(format, output: output)
            let model: FlowModel
            if input == "-" || !isRegularFile(input) {
                // Standard input, a pipe or a device (`<(…)`) is read once, whole, then told
                // apart by its first line: peeking would consume what the loader needs.
                let name = input == "-" ? "<stdin>" : input
                let bytes: [UInt8]
                switch InputFiles.readNamedInput(input, limit: ScenarioLoader.maximumSize, rejectingNUL: true) {
                case let .success(read): bytes = read
                case let .failure(error):
                    if case .notRegular = error.reason { throw NoInputError(message: "cannot read \(name): \(error.description)") }
                    if case let .nulByte(_, line, column) = error.reason {
                        throw InputError(message: "\(name):\(line):\(column): byte 0x0 is not text (is this a binary file?)")
                    }
                    throw InputError(message: "\(name): \(error.description)")
                }
                let head = String(decoding: bytes.prefix(200), as: UTF8.self)
                if head.contains("\"boardy-trace\"") {
                    var reader = try TraceReader(bytes: bytes, name: name, maximumLineLength: TraceInput.limit)
                    let trace = try reader.readAll()
                    for w in trace.warnings { warn(w.description) }
                    model = FlowModel(trace: trace)
                } else {
                    model = FlowModel(scenario: try ScenarioLoader.load(bytes: bytes, file: name))
                }
            } else {
                model = isTrace(input) ? FlowModel(trace: try readTrace(input)) : FlowModel(scenario: try loadScenario(input))
            }
            try out.write(try FlowGraph.render(model, format: format))
        }
    }
}
