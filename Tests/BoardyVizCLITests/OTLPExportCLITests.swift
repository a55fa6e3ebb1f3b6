import BoardyTestSupport
import Foundation
import Testing

/// The CLI side of the OTLP export tests (BoardyVizCoreTests, `OTLPExportTests`).
@Suite("OTLP export through the CLI")
struct OTLPExportCLITests {
    @Test("export --to otlp through the CLI: a fixed epoch gives the same bytes; a bad epoch is usage (64)")
    func command() throws {
        let a = try runCLI(["export", "samples/traces/checkout.jsonl", "--to", "otlp", "--epoch", "2026-11-24T09:00:00Z"])
        #expect(a.code == 0)
        #expect(try runCLI(["export", "samples/traces/checkout.jsonl", "--to", "otlp", "--epoch", "1795510800"]).out == a.out)
        #expect(try runCLI(["export", "samples/traces/checkout.jsonl", "--to", "otlp", "--epoch", "yesterday"]).code == 64)
        #expect(try runCLI(["export", "samples/traces/checkout.jsonl", "--to", "chrome", "--epoch", "1795510800"]).code == 64)
    }
}
