import BoardyTestSupport
import BoardyTrace
import BoardyVizCore
import Foundation
import Testing

@Suite("Spans a trace implies")
struct TraceSpansTests {
    @Test("waits end at their own resolution, in a loop's cancellation, or never; runs last in time; holds end at a send")
    func samples() throws {
        let checkout = try sampleTrace("checkout")
        let spans = TraceSpans(checkout.events)
        #expect(spans.waits.count == 5)
        for w in spans.waits {
            #expect(w.outcome == .passed)
            let end = try #require(w.end)
            guard case .barrierResolved(let barrier, true, _) = checkout.events[end].body else {
                Issue.record("wait \(w) ends at \(checkout.events[end].kind)")
                continue
            }
            // A gateway wait ends at its gate's resolution (the barrier id is the gate's).
            #expect(barrier == w.barrier)
            #expect(checkout.events[end].t > checkout.events[w.start].t)
        }
        #expect(spans.runs.allSatisfy { checkout.events[$0.end].t > checkout.events[$0.start].t })
        #expect(!spans.holds.isEmpty)
        let stuck = TraceSpans(try sampleTrace("stuck-gate").events)
        #expect(stuck.waits.contains { $0.end == nil && $0.outcome == .stuck })
        let loop = TraceSpans(try sampleTrace("barrier-loop").events)
        #expect(loop.waits.contains { $0.outcome == .loop })
    }

    @Test("activation-barrier waits sharing a run end together; a later request opens a new wait")
    func sharedRun() throws {
        let trace = try simulate("""
            {"scenario": "shared", "boards": [{"id": "gate", "onActivate": [{"after": 2, "complete": true}]},
              {"id": "a", "activationBarrier": {"board": "gate"}}, {"id": "b", "activationBarrier": {"board": "gate"}}],
             "script": [{"at": 0, "activate": "a"}, {"at": 1, "activate": "b"}, {"at": 5, "activate": "a"}]}
            """)
        let spans = TraceSpans(trace.events)
        let first = spans.waits.filter { trace.events[$0.start].t < .seconds(5) }
        #expect(first.count == 2)
        #expect(Set(first.compactMap(\.end)).count == 1)
        #expect(first.allSatisfy { $0.outcome == .passed })
    }
}
