import ArgumentParser
import Boardy
import BoardyGraphviz
import BoardySimulation
import BoardyTrace
import BoardyViz
import BoardyVizCore
import BoardyVizSimulation
import Foundation

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Find barrier loops, gates that never complete and unreachable boards, without running.",
        discussion: """
            Errors (exit 3): barrier loops, gates that can never complete. Warnings (exit unchanged):
            boards never reached, dispatch barriers scoped to unknown dispatchers.

            Example:
              boardy-viz check samples/barrier-loop.json
            """)

    @Argument(help: "The scenario file, or - for standard input.") var scenario: String
    @Option(help: "Report format.") var format: OutputFormat = .text

    func run() throws {
        let findings = try guarded { StaticCheck.check(try loadScenario(scenario)) }
        switch format {
        case .text:
            if findings.isEmpty { print("\(scenario): no findings") }
            for f in findings { print("\(scenario): \(f.severity.rawValue): \(f.message)\n  fix: \(f.suggestion)") }
        case .json:
            print(JSONValue.array(findings.map {
                ["severity": .string($0.severity.rawValue), "code": .string($0.code), "message": .string($0.message),
                 "suggestion": .string($0.suggestion), "boards": .array($0.boards.map { .string($0.rawValue) })]
            }).jsonText)
        }
        if findings.contains(where: { $0.severity == .error }) { throw Exit.problems }
    }
}
