import BoardyTestSupport
import BoardyTrace
import BoardyVizCore
import Foundation
import Testing

@Suite("Stats over many traces")
struct FleetStatsTests {
    @Test("percentiles, outcomes and the slowest traces over the samples; the same whatever the threads")
    func samples() throws {
        let paths = sampleNames.map { repoRoot.appendingPathComponent("samples/traces/\($0).jsonl").path }
        let (stats, skipped, _) = FleetStats.read(paths)
        #expect(skipped.isEmpty)
        #expect(stats.traces == 5)
        #expect(stats.events == (try sampleNames.map { try sampleTrace($0).events.count }.reduce(0, +)))
        #expect(stats.tracesWithLoops == 1)
        let gateway = try #require(stats.barriers["gateway (pubAuth)"])
        #expect(gateway.waits == 6 && gateway.passed == 4 && gateway.loops == 2)  // checkout's 4; barrier-loop's board and its gate run
        #expect(gateway.slowest.first?.trace.hasSuffix("checkout.jsonl") == true)
        #expect(gateway.durations.maxRecorded == 2_000_000)
        let otp = try #require(stats.barriers["pubOtp"])
        #expect(otp.stuck == 2 && otp.passed == 1)
        // Read one by one in a single thread, merged in another order: the same report.
        var single = FleetStats()
        for p in paths.reversed() { single.add(try Trace.read(path: p).events, name: p) }
        #expect(single.text == stats.text)
        #expect(single.json.jsonText == stats.json.jsonText)
        let cart = try #require(stats.boards["main/pubShoppingCart"])
        #expect(cart.requested == 1 && cart.waits.totalCount == 1)
    }

    @Test("the slowest list keeps each trace's longest wait once, longest first, ties by name")
    func slowest() {
        var list: [(micros: Int64, trace: String)] = []
        for (m, t) in [(5, "a"), (9, "b"), (7, "a"), (9, "c"), (1, "d"), (2, "e")] { FleetStats.keepSlowest(&list, (Int64(m), t)) }
        #expect(list.map(\.trace) == ["b", "c", "a"])
        #expect(list.map(\.micros) == [9, 9, 7])
    }

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
