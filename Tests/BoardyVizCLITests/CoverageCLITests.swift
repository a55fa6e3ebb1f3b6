import BoardyTestSupport
import BoardyTrace
import Foundation
import Testing

/// The CLI side of the coverage tests (BoardyVizSimulationTests, `CoverageTests`).
@Suite("Coverage through the CLI")
struct CoverageCLITests {
    static let planted = plantedCoverageScenario

    @Test("coverage through the CLI: the report, json, --fail-under, the weighted graph, bad input")
    func command() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("coverage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenarioPath = dir.appendingPathComponent("planted.json").path
        try Data(Self.planted.utf8).write(to: URL(fileURLWithPath: scenarioPath))
        let tracePath = dir.appendingPathComponent("traces/t.jsonl").path
        try FileManager.default.createDirectory(atPath: dir.appendingPathComponent("traces").path, withIntermediateDirectories: true)
        #expect(try runCLI(["simulate", scenarioPath, "-o", tracePath]).code == 0)
        let r = try runCLI(["coverage", scenarioPath, dir.appendingPathComponent("traces").path, "-o", dir.appendingPathComponent("c.svg").path])
        #expect(r.code == 0)
        #expect(r.out.hasPrefix("coverage of planted: 3 of 8 items (37.5%) exercised by 1 trace\nnever exercised:"))
        let svg = try SVG(Array(try Data(contentsOf: dir.appendingPathComponent("c.svg"))))
        #expect(try svg.texts(in: "legend").contains("never exercised"))
        #expect(try runCLI(["coverage", scenarioPath, tracePath, "--fail-under", "50"]).code == 1)
        #expect(try runCLI(["coverage", scenarioPath, tracePath, "--fail-under", "30"]).code == 0)
        let json = try JSONValue(parsing: try runCLI(["coverage", scenarioPath, tracePath, "--format", "json"]).out)
        #expect(json.objectValue?["percent"]?.doubleValue == 37.5)
        #expect(try runCLI(["coverage", scenarioPath, dir.appendingPathComponent("missing.jsonl").path]).code == 66)
        #expect(try runCLI(["coverage", scenarioPath, dir.path]).code == 66)  // no .jsonl directly inside
    }
}
