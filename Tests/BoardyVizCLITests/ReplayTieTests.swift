import BoardyTestSupport
import Foundation
import Testing

/// The divergences the whole-pipeline fuzzer found (seed 4711) where a replay broke a tie at one
/// instant differently from the recorded run: a task's output beside a batching barrier's timer,
/// an explored runaway, two dispatch timers beside ranged steps. Traces now record their
/// tie-breaks (issue 47): each replays exactly.
@Suite("Replay: recorded tie-breaks")
struct ReplayTieTests {
    @Test("each scenario the fuzzer found diverging replays the same", arguments: [1, 2, 3])
    func replaysTheSame(_ n: Int) throws {
        let scenario = repoRoot.appendingPathComponent("Tests/BoardyVizCLITests/Fixtures/replay-ties/seed4711-\(n).json").path
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ties-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let trace = dir.appendingPathComponent("t.jsonl").path
        // Bounded: each diverged within its first 200 events.
        let sim = try runCLI(["simulate", scenario, "-o", trace, "--max-events", "3000"])
        #expect(sim.code == 0 || sim.code == 3, "\(sim.err)")
        let header = try String(contentsOfFile: trace, encoding: .utf8).prefix { $0 != "\n" }
        #expect(header.contains(#""ties":"recorded""#))
        let replay = try runCLI(["replay", trace, "--scenario", scenario])
        #expect(replay.code == 0 && replay.out.contains("same"), "\(replay.out.prefix(400))")
    }
}
