import ArgumentParser
import Boardy
import BoardyGraphviz
import BoardySimulation
import BoardyTrace
import BoardyViz
import BoardyVizCore
import BoardyVizSimulation
import Foundation

struct TimelineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timeline",
        abstract: "Draw a trace on its time axis: lanes per board and dispatcher, barrier waits as spans.",
        discussion: """
            x is time: one scale, evenly spaced ticks, a long idle stretch cut as a labelled
            break; events at one instant stack in a narrow band in seq order. Events are marks
            (shape and colour by kind; the legend lists exactly what is drawn); barrier waits
            are spans from the check to what ended them (dashed to the end when stuck), runs
            from performed to their last output or completion, dispatchers holding events from
            the first block to the send; stimuli are labelled; arrows follow `cause` between
            lanes; failures are vermillion. The layout is pinned (linear in the events);
            Graphviz's nop2 engine draws it. Hovering a mark shows its title: the event's
            fields, one per line. Element ids: board-<id>, dispatcher-<id>, event-<seq>,
            wait-<seq>, run-<seq>, held-<seq>, cause-<seq>. To explore a large trace, see
            `boardy-viz view`.

            Examples:
              boardy-viz timeline out/checkout.jsonl -o timeline.svg
              boardy-viz timeline big.jsonl --from 10 --to 20 -o window.svg
            """)

    @Argument(help: "The trace file, or - for standard input.") var trace: String
    @OptionGroup var traceInput: TraceInputOptions
    @Option(name: .shortAndLong, help: "Write here instead of standard output (whole or not at all).") var output: String?
    @Option(help: "svg, dot or png (default: the output's extension, else svg).") var format: RenderFormat?
    @Option(help: "Only events at or after this virtual time (seconds).") var from: Double?
    @Option(help: "Only events at or before this virtual time (seconds).") var to: Double?
    @Option(help: "Only this board's lane (repeatable; `path/id` inside continuous boards).") var board: [String] = []
    @Flag(help: "Leave out the causal arrows between lanes.") var noCauses = false

    func validate() throws {
        if let from { _ = try secondsFlag("--from", from) }
        if let to { _ = try secondsFlag("--to", to) }
        if let from, let to, from > to { throw ValidationError("--from must not be after --to") }
    }

    func run() throws {
        try guarded {
            try checkInput(trace)
            let out = try Output(output, inputs: [trace])
            defer { out.discard() }
            let format = try pictureFormat(format, output: output)
            // Read as a table: outside a --from/--to window, few lines are decoded (a window of a
            // large trace costs little more than reading it).
            let t = try readTable(trace)
            let big = t.count > 10_000
            if big { warn("timeline: \(t.count) events read; laying out") }
            let options = Timeline.Options(
                from: try from.map { try secondsFlag("--from", $0) }, to: try to.map { try secondsFlag("--to", $0) }, boards: Set(board),
                causes: !noCauses)
            let graph = try Timeline.graph(table: t, options: options)
            if big { warn("timeline: \(graph.nodes.count) marks; rendering \(format.rawValue) with Graphviz") }
            let bytes = try GraphvizRenderer.render(graph, engine: "nop2", format: format)
            if big { warn("timeline: \(bytes.count) bytes") }
            try out.write(bytes)
        }
    }
}
