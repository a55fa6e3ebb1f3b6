import Boardy
import BoardyTestSupport
import Testing

@testable import boardy_demo

@Suite("Golden traces")
struct GoldenTraceTests {
    @Test("the checkout flow (cart → ordering → continuous payment with a relay → receipt) records the golden trace byte for byte")
    func checkoutGolden() throws {
        let first = CheckoutSample.record()
        #expect(first == CheckoutSample.record(), "recording twice gives identical bytes")
        try expectGolden(first, "checkout-swift.jsonl")
        let trace = try Trace.read(text: first)
        #expect(trace.events.contains { $0.mb == "main/pubPayment" })
        #expect(trace.events.last?.kind == "board.completed")
    }
}
