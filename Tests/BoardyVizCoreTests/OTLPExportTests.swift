import BoardyTestSupport
import BoardyTrace
import BoardyVizCore
import Foundation
import Testing

@Suite("OTLP export")
struct OTLPExportTests {
    static func spans(_ v: JSONValue) -> [JSONObject] {
        v.objectValue?["resourceSpans"]?.arrayValue?.first?.objectValue?["scopeSpans"]?.arrayValue?.first?.objectValue?["spans"]?.arrayValue?
            .compactMap(\.objectValue) ?? []
    }

    @Test("ids from the content: hex, unique, the same every export; times offset from the epoch; parents resolve", arguments: sampleNames)
    func shape(name: String) throws {
        let trace = try sampleTrace(name)
        let epoch: Int64 = 1_795_510_800 * 1_000_000_000
        let a = try OTLPExport.export(trace, epochNanos: epoch)
        #expect(try a.jsonText == OTLPExport.export(trace, epochNanos: epoch).jsonText)
        let spans = Self.spans(a)
        #expect(!spans.isEmpty)
        let ids = spans.compactMap { $0["spanId"]?.stringValue }
        #expect(Set(ids).count == spans.count)
        func isHex(_ s: String?, _ n: Int) -> Bool { s.map { $0.count == n && $0.allSatisfy { "0123456789abcdef".contains($0) } } ?? false }
        for s in spans {
            #expect(isHex(s["traceId"]?.stringValue, 32))
            #expect(isHex(s["spanId"]?.stringValue, 16))
            if let p = s["parentSpanId"]?.stringValue { #expect(ids.contains(p)) }
            let start = Int64(s["startTimeUnixNano"]?.stringValue ?? "") ?? 0
            let end = Int64(s["endTimeUnixNano"]?.stringValue ?? "") ?? 0
            #expect(start >= epoch && end >= start)
        }
        // Another epoch moves every time and nothing else.
        let b = Self.spans(try OTLPExport.export(trace, epochNanos: epoch + 1_000))
        #expect(b.compactMap { $0["spanId"]?.stringValue } == ids)
        #expect(b.compactMap { Int64($0["startTimeUnixNano"]?.stringValue ?? "") } == spans.compactMap { (Int64($0["startTimeUnixNano"]?.stringValue ?? "") ?? 0) + 1_000 })
    }
}
