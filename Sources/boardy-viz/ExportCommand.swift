import ArgumentParser
import Boardy
import BoardyGraphviz
import BoardySimulation
import BoardyTrace
import BoardyViz
import BoardyVizCore
import BoardyVizSimulation
import Foundation

struct ExportCommand: ParsableCommand {
    enum Target: String, ExpressibleByArgument, CaseIterable { case chrome, dot }

    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a trace as Chrome trace JSON (opens in Perfetto) or its observed flow graph as DOT.",
        discussion: "Examples:\n  boardy-viz export out/checkout.jsonl --to chrome -o checkout.chrome.json\n  boardy-viz export out/checkout.jsonl --to dot")

    @Argument(help: "The trace file.") var trace: String
    @Option(help: "chrome or dot.") var to: Target
    @Option(name: .shortAndLong, help: "Write here instead of standard output.") var output: String?

    func run() throws {
        try guarded {
            let t = try readTrace(trace)
            switch to {
            case .chrome:
                try emit(ChromeTraceExport.export(t).jsonText + "\n", to: output)
            case .dot:
                let dot = try FlowGraph.render(FlowModel(trace: t), format: .dot)
                try emit(String(decoding: dot, as: UTF8.self), to: output)
            }
        }
    }
}
