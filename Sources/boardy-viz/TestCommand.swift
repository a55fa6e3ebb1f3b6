import ArgumentParser
import Boardy
import BoardyGraphviz
import BoardySimulation
import BoardyTrace
import BoardyViz
import BoardyVizCore
import BoardyVizSimulation
import Foundation

struct TestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Simulate scenarios and check their expect lists.",
        discussion: """
            Exits 1 when an expectation fails, printing what was expected and what the trace shows.

            Example:
              boardy-viz test samples/*.json
            """)

    @Argument(help: "Scenario files, or folders (their .json, .yaml and .yml files).") var scenarios: [String]
    @Option(help: "Report format.") var format: OutputFormat = .text

    func validate() throws {
        if scenarios.isEmpty { throw ValidationError("give at least one scenario") }
    }

    func run() throws {
        var allPassed = true
        var reports: [JSONValue] = []
        for path in Self.expand(scenarios) {
            let (s, results) = try guarded { () throws -> (Scenario, [ExpectationResult]) in
                let s = try ScenarioLoader.load(path: path)
                let r = Simulator.run(s)
                return (s, s.expectations.map { $0.check(r.trace.events) })
            }
            let failed = results.filter { !$0.passed }
            allPassed = allPassed && failed.isEmpty
            switch format {
            case .text:
                print("\(failed.isEmpty ? "PASS" : "FAIL") \(path) (\(s.name)): \(results.count - failed.count)/\(results.count) expectations hold")
                for f in failed { print("  ✗ \(f.expectation)\n    \(f.detail)") }
            case .json:
                reports.append([
                    "file": .string(path), "scenario": .string(s.name), "passed": .bool(failed.isEmpty),
                    "expectations": .array(results.map { ["expect": .string($0.expectation), "passed": .bool($0.passed), "detail": .string($0.detail)] }),
                ])
            }
        }
        if format == .json { print(JSONValue.array(reports).jsonText) }
        if !allPassed { throw Exit.failed }
    }

    /// Files as given; a folder stands for the scenario files directly in it, sorted.
    static func expand(_ paths: [String]) -> [String] {
        paths.flatMap { path -> [String] in
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue else { return [path] }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            return names.filter { n in [".json", ".yaml", ".yml"].contains { n.lowercased().hasSuffix($0) } }.sorted()
                .map { (path as NSString).appendingPathComponent($0) }
        }
    }
}
