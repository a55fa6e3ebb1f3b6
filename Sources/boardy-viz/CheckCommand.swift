import ArgumentParser
import Boardy
import BoardyGraphviz
import BoardyImport
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

            Given an app's source folder, reads its code (as `import` does) and reports barrier
            loops and self-gated boards (errors), and gates whose code has no reachable
            completion (warnings), each with the file and line of the code that makes it.

            Examples:
              boardy-viz check samples/barrier-loop.json
              boardy-viz check MyApp/
            """)

    @Argument(help: "The scenario file, an app's source folder, or - for standard input.") var scenario: String
    @Option(help: "Report format.") var format: OutputFormat = .text

    func run() throws {
        if isSourceFolder(scenario) { return try checkSources() }
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

    /// `check DIR`: the code's loops, self-gated boards and silent gates.
    func checkSources() throws {
        let app = try guarded { try importSources([scenario]) }
        for w in app.warnings { warn(w.description) }
        let findings = ImportCheck.check(app)
        switch format {
        case .text:
            if findings.isEmpty { print("\(scenario): no findings (\(app.boards.count) boards, \(app.edges.count) edges)") }
            for f in findings { print("\(f.sources.first.map(\.description) ?? scenario): \(f.severity.rawValue): \(f.message)\n  fix: \(f.suggestion)") }
        case .json:
            print(JSONValue.array(findings.map {
                ["severity": .string($0.severity.rawValue), "code": .string($0.code), "message": .string($0.message),
                 "suggestion": .string($0.suggestion), "sources": .array($0.sources.map { .string($0.description) })]
            }).jsonText)
        }
        if findings.contains(where: { $0.severity == .error }) { throw Exit.problems }
    }
}
