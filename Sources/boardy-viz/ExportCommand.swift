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
        discussion: """
            Without --to, the output's extension picks: .json is Chrome trace JSON, .dot the
            observed graph; otherwise Chrome trace JSON.

            Examples:
              boardy-viz export out/checkout.jsonl -o checkout.chrome.json
              boardy-viz export out/checkout.jsonl --to dot
            """)

    @Argument(help: "The trace file, or - for standard input.") var trace: String
    @Option(help: "chrome or dot (default: the output's extension, else chrome).") var to: Target?
    @Option(name: .shortAndLong, help: "Write here instead of standard output (whole or not at all).") var output: String?

    /// The target: `--to`, else the output's extension; a contradiction is bad usage.
    func target() throws -> Target {
        let ext = output.map(fileExtension) ?? ""
        let byExtension: Target? = ["json": .chrome, "dot": .dot, "gv": .dot][ext]
        if let output, byExtension == nil, knownExtensions.contains(ext) {
            throw UsageError(message: "\(output) names a .\(ext) file, but export writes Chrome trace JSON (.json) or DOT (.dot)")
        }
        if let to, let byExtension, to != byExtension, let output {
            throw UsageError(message: "--to \(to.rawValue) contradicts \(output) (.\(ext)); drop --to or change the extension")
        }
        return to ?? byExtension ?? .chrome
    }

    func run() throws {
        try guarded {
            try checkInput(trace)
            let out = try Output(output, inputs: [trace])
            defer { out.discard() }
            let target = try target()
            let t = try readTrace(trace)
            switch target {
            case .chrome:
                try emit(ChromeTraceExport.export(t).jsonText, to: out)
            case .dot:
                try out.write(try FlowGraph.render(FlowModel(trace: t), format: .dot))
            }
        }
    }
}
