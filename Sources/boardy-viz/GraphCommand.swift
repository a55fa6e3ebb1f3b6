import ArgumentParser
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
            flows are solid edges labelled with the output; activation-barrier and gateway edges
            are dashed from the gate; exempt boards have a double border; barrier loops are red.
            Large graphs (over 400 boards) use a layered layout of our own pinned through
            Graphviz's nop2 engine; the SVG's title names the layout used. `--format dot` writes
            the graph before layout (no coordinates): the same text on every machine.

            Examples:
              boardy-viz graph samples/checkout.json -o checkout.graph.svg
              boardy-viz graph out/checkout.jsonl --format dot
            """)

    @Argument(help: "A scenario (.json, .yaml) or a trace (.jsonl).") var input: String
    @Option(name: .shortAndLong, help: "Write here instead of standard output.") var output: String?
    @Option(help: "svg, dot or png.") var format: RenderFormat = .svg

    func run() throws {
        try guarded {
            let model = isTrace(input) ? FlowModel(trace: try readTrace(input)) : FlowModel(scenario: try ScenarioLoader.load(path: input))
            try emitBytes(try FlowGraph.render(model, format: format), to: output)
        }
    }
}
