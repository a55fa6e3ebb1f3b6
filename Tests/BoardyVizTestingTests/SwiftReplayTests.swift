import Boardy
import BoardyTestSupport
import BoardyVizTesting
import Foundation
import Testing

@Suite("Replaying a trace against a motherboard assembled in Swift")
struct SwiftReplayTests {
    let checkoutTrace = repoRoot.appendingPathComponent("samples/traces/checkout.jsonl").path

    @Test("the checkout trace (recorded from the scenario) replays the same on the checkout flow built in Swift")
    func checkoutReplays() throws {
        let result = try expectReplay(of: checkoutTrace) { runtime in
            CheckoutInSwift.assemble(runtime: runtime)
        }
        #expect(result.isSame)
        #expect(result.stimuliFed == 5)
        #expect(result.replayedEvents == result.recordedEvents)
    }

    @Test("with one board's behaviour changed, the helper fails with the divergence report in its message")
    func changedBoardFails() throws {
        var recorded: ReplayResult?
        try withKnownIssue {
            recorded = try expectReplay(of: checkoutTrace) { runtime in
                CheckoutInSwift.assemble(runtime: runtime, variation: .init(orderingDelay: 2))
            }
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined(separator: "\n")
            return text.contains("DIVERGED at seq 36") && text.contains("- expected (trace):") && text.contains("fields that differ:")
                && text.contains("caused by (trace):")
        }
        let result = try #require(recorded)
        let d = try #require(result.divergence)
        // pubOrdering's output came one second late: at seq 36 the trace has it at t=7.
        #expect(d.expected?.kind == "output.sent")
        #expect(d.expected?.body.board == "pubOrdering")
        #expect(d.fields.map(\.name).contains("t"))
    }

    @Test("#expect on a result prints the whole report")
    func resultDescribesItself() throws {
        let trace = try Trace.read(path: checkoutTrace)
        let result = try Replayer.replay(trace, traceName: "checkout.jsonl") { runtime in
            CheckoutInSwift.assemble(runtime: runtime, variation: .init(orderingDelay: 3))
        }
        #expect(!result.isSame)
        #expect(result.testDescription == result.description)
        #expect(result.description.hasPrefix("replay of checkout.jsonl against a motherboard assembled in Swift: DIVERGED at seq 36"))
    }
}
