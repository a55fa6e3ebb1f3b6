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
            Reports every scenario (PASS, FAIL or MALFORMED, with file:line; CANNOT OPEN for a
            path that cannot be opened), then a totals line. Exits 65 when a file was malformed,
            else 66 when a path could not be opened or no scenario was found, else 1 when an
            expectation failed, else 0; every other file is still tested.

            Example:
              boardy-viz test samples
            """)

    @Argument(help: "Scenario files, or folders (the .json, .yaml and .yml files directly in them).") var scenarios: [String]
    @Option(help: "Report format.") var format: OutputFormat = .text

    func validate() throws {
        if scenarios.isEmpty { throw ValidationError("give at least one scenario file or folder") }
    }

    enum Outcome { case passed, failed, malformed }

    func run() throws {
        var reports: [JSONValue] = []
        var counts: [Outcome: Int] = [:]
        // A path that cannot be opened is reported in its place; the others are still tested.
        var files: [String] = []
        var unopened: [(path: String, message: String)] = []
        for path in scenarios {
            do {
                files += try Self.expand([path])
            } catch let e as NoInputError {
                unopened.append((path, e.message))
            }
        }
        for u in unopened {
            switch format {
            case .text: print("CANNOT OPEN " + (u.message.hasPrefix("cannot open ") ? String(u.message.dropFirst(12)) : u.message))
            case .json: reports.append(["file": .string(u.path), "result": "cannot-open", "passed": false, "error": .string(u.message)])
            }
        }
        guard !files.isEmpty || !unopened.isEmpty else {
            warn("error: no scenario (.json, .yaml, .yml) found in \(scenarios.joined(separator: ", "))")
            throw Exit.noInput
        }
        for path in files {
            let outcome: Outcome
            do {
                let s = try loadScenario(path)
                // Only the events the expectations look at are kept: a runaway scenario is
                // checked in bounded memory.
                let kept = ExpectationRecorder(for: s.expectations)
                _ = Simulator.run(s, bounds: RunBounds(), observer: kept, keepingEvents: false)
                let results = kept.results()
                let failed = results.filter { !$0.passed }
                outcome = failed.isEmpty ? .passed : .failed
                switch format {
                case .text:
                    print("\(failed.isEmpty ? "PASS" : "FAIL") \(path) (\(s.name)): \(results.count - failed.count)/\(results.count) expectations hold")
                    for f in failed { print("  ✗ \(f.expectation)\n    \(f.detail)") }
                case .json:
                    reports.append([
                        "file": .string(path), "scenario": .string(s.name), "result": .string(failed.isEmpty ? "pass" : "fail"),
                        "passed": .bool(failed.isEmpty),
                        "expectations": .array(results.map { ["expect": .string($0.expectation), "passed": .bool($0.passed), "detail": .string($0.detail)] }),
                    ])
                }
            } catch {
                // A malformed file is reported at its place; the others are still tested.
                outcome = .malformed
                let message: String
                var line: Int?
                switch error {
                case let e as ScenarioError:
                    message = e.description
                    line = e.line
                case let e as NoInputError: message = e.message
                default: message = "\(path): \(error)"
                }
                switch format {
                case .text: print("MALFORMED \(message)")
                case .json:
                    var o: JSONObject = ["file": .string(path), "result": "malformed", "passed": false, "error": .string(message)]
                    if let line { o["line"] = .int(Int64(line)) }
                    reports.append(.object(o))
                }
            }
            counts[outcome, default: 0] += 1
        }
        let passed = counts[.passed] ?? 0, failed = counts[.failed] ?? 0, malformed = counts[.malformed] ?? 0
        switch format {
        case .text:
            print(
                "\(files.count) scenario\(files.count == 1 ? "" : "s"): \(passed) passed, \(failed) failed, \(malformed) malformed"
                    + (unopened.isEmpty ? "" : "; \(unopened.count) could not be opened"))
        case .json:
            print(
                JSONValue.object([
                    "scenarios": .array(reports),
                    "totals": [
                        "scenarios": .int(Int64(files.count)), "passed": .int(Int64(passed)), "failed": .int(Int64(failed)),
                        "malformed": .int(Int64(malformed)), "unopened": .int(Int64(unopened.count)),
                    ],
                ]).jsonText)
        }
        if malformed > 0 { throw Exit.malformed }
        if !unopened.isEmpty { throw Exit.noInput }
        if failed > 0 { throw Exit.failed }
    }

    /// Files as given (a missing one is exit 66); a folder stands for the scenario files directly
    /// in it, sorted, hidden ones left out.
    static func expand(_ paths: [String]) throws -> [String] {
        try paths.flatMap { path throws -> [String] in
            var isDir: ObjCBool = false
            guard path != "-" else { return [path] }
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
                throw NoInputError(message: "cannot open \(path): no such file or folder")
            }
            guard isDir.boolValue else { return [path] }
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else {
                throw NoInputError(message: "cannot open the folder \(path): check its permissions")
            }
            let found = names.filter { !$0.hasPrefix(".") && ["json", "yaml", "yml"].contains(fileExtension($0)) }
            return regularFiles(found.sorted().map { (path as NSString).appendingPathComponent($0) })
        }
    }
}
