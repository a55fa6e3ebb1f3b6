import BoardyTestSupport
import Foundation
import Testing

/// The explore fixtures of BoardySimulationTests.
private let exploreFixtures = repoRoot.appendingPathComponent("Tests/BoardySimulationTests/Fixtures/explore")

/// The CLI side of the explore tests (BoardySimulationTests, `ExploreTests`).
@Suite("explore through the CLI")
struct ExploreCLITests {
    @Test("boardy-viz explore: exit 1 with replayable traces, 0 when clean, 3 at a bound, 73 for an --out that is a file")
    func cli() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("explore-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let bug = exploreFixtures.appendingPathComponent("flush-offline.json").path
        let r = try runCLI(["explore", bug, "--out", dir.path, "--format", "json"])
        #expect(r.code == 1, "\(r.err)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        let failures = try #require(report["failures"] as? [[String: Any]])
        #expect(failures.count == 1)
        let trace = try #require(failures.first?["trace"] as? String)
        #expect(FileManager.default.fileExists(atPath: trace))
        #expect(try runCLI(["replay", trace, "--scenario", bug]).code == 0)
        #expect(try runCLI(["timeline", trace, "-o", dir.appendingPathComponent("t.svg").path]).code == 0)

        let clean = try runCLI(["explore", exploreFixtures.appendingPathComponent("flush-offline-fixed.json").path, "--out", dir.path])
        #expect(clean.code == 0)
        #expect(clean.out.contains("OK: every schedule explored"))
        let bounded = try runCLI(["explore", exploreFixtures.appendingPathComponent("flush-offline-fixed.json").path, "--max-schedules", "1", "--jobs", "1"])
        #expect(bounded.code == 3)
        #expect(bounded.out.contains("INCOMPLETE"))
        let file = dir.appendingPathComponent("file")
        try "x".write(to: file, atomically: true, encoding: .utf8)
        #expect(try runCLI(["explore", bug, "--out", file.path]).code == 73)
        #expect(try runCLI(["explore", bug, "--max-schedules", "0"]).code == 64)
        #expect(try runCLI(["explore", "no-such.json"]).code == 66)
    }
}
