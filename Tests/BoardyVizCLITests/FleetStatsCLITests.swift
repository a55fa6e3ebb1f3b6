import BoardyTestSupport
import BoardyTrace
import Foundation
import Testing

/// The CLI side of the fleet statistics tests (BoardyVizCoreTests, `FleetStatsTests`).
@Suite("Stats over many traces through the CLI")
struct FleetStatsCLITests {
    @Test("stats over folders and patterns through the CLI; a file that is not a trace is named and skipped, exit 65")
    func command() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for n in sampleNames {
            try FileManager.default.copyItem(
                at: repoRoot.appendingPathComponent("samples/traces/\(n).jsonl"), to: dir.appendingPathComponent("\(n).jsonl"))
        }
        let folder = try runCLI(["stats", dir.path])
        #expect(folder.code == 0)
        #expect(folder.out.hasPrefix("traces: 5, events: "))
        let pattern = try runCLI(["stats", dir.appendingPathComponent("*-*.jsonl").path, "--format", "json"])
        #expect(pattern.code == 0)
        #expect(try JSONValue(parsing: pattern.out).objectValue?["traces"]?.intValue == 4)  // add-to-cart, barrier-loop, stuck-gate, analytics-dispatch
        try Data("{\"format\":\"boardy-trace\",\"version\":1}\n{\"seq\":1}\n".utf8).write(to: dir.appendingPathComponent("zz-bad.jsonl"))
        let bad = try runCLI(["stats", dir.path])
        #expect(bad.code == 65)
        #expect(bad.err.contains("zz-bad.jsonl:2"))
        #expect(bad.out.contains("traces: 5"))
        #expect(try runCLI(["stats", dir.appendingPathComponent("none-*.jsonl").path]).code == 66)
        // One trace: the single-trace report, as before.
        #expect(try runCLI(["stats", "samples/traces/checkout.jsonl"]).out.hasPrefix("events: "))
    }
}
