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
}
