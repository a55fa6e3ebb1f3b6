import BoardyIngest
import BoardyTestSupport
import BoardyTrace
import Foundation
import Testing

/// A log comes from a user's clipboard: anything may be in it. Ingest never fails on it, never
/// grows without bound, writes a valid trace, and names the lines it could not read.
@Suite("Ingest: hostile captures")
struct HostileLogTests {
    static func ingest(_ bytes: [UInt8], chunk: Int = 1 << 16, options: BoardyLogIngester.Options = .init()) throws -> (
        header: TraceHeader, events: [TraceEvent], summary: IngestSummary
    ) {
        let sink = BoardyLogIngester.CollectingSink()
        let ingester = BoardyLogIngester(options: options, sink: sink)
        try ingester.beginFile("hostile.log")
        var i = 0
        while i < bytes.count {
            let n = min(chunk, bytes.count - i)
            try bytes[i..<(i + n)].withUnsafeBytes { try ingester.read($0) }
            i += n
        }
        let summary = try ingester.finish()
        // What is written is a trace: it reads back strictly, the same.
        let trace = Trace(header: sink.header!, events: sink.events)
        let back = try Trace.read(text: trace.jsonl, name: "back.jsonl")
        #expect(back.events == sink.events)
        return (sink.header!, sink.events, summary)
    }

    static let sample: [UInt8] = Array(
        """
        🚀 [Activation] Boardy Log:
            🏝 [Motherboard] ➤ main
            🎯 [ActivatableBarrierBoard] ➤ pub.Gate.___PRIVATE_BARRIER___
            🌷 [String] ➤ first
        🍁 [Next To Board] Boardy Log:
            🏝 [ActivatableBarrierBoard] ➤ pub.Gate.___PRIVATE_BARRIER___
            🌏 [Motherboard] ➤ main
            🎯 [BoardID] ➤ pub.Gate
            💐 [Optional<Any>] ➤ Optional(())
        🚀 [Activation] Boardy Log:
            🏝 [Motherboard] ➤ main
            🎯 [Simple] ➤ pub.Gate

        """.utf8)

    @Test("nothing at all, and a file with no Boardy line: a header, no events")
    func empty() throws {
        #expect(try Self.ingest([]).events.isEmpty)
        let r = try Self.ingest(Array("hello\nworld\n".utf8))
        #expect(r.events.isEmpty)
        #expect(r.summary.foreignLines == 2)
        #expect(r.summary.records == 0)
    }

    @Test("random bytes (NUL, invalid UTF-8, lone surrogates' bytes) in any chunks")
    func garbage() throws {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            let bytes = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &rng) }
            for chunk in [1, 7, 4096] { _ = try Self.ingest(bytes, chunk: chunk) }
        }
    }

    @Test("a 4 MiB line without a line end is cut at the line cap, named by its line")
    func hugeLine() throws {
        let line = [UInt8](repeating: UInt8(ascii: "a"), count: 4 << 20)
        let r = try Self.ingest(Self.sample + line, options: .init(maximumLineLength: 1 << 20))
        #expect(r.summary.problems.contains { $0.line == 13 && $0.message.contains("longer than 1048576 bytes") })
        #expect(r.summary.unterminated)
    }

    @Test("a record's value of 3 MiB keeps its first MiB, and the record is read")
    func hugeValue() throws {
        let value = String(repeating: "x", count: 3 << 20)
        let text = "🍁 [Send Out] Boardy Log:\n    🏝 [Simple] ➤ pub.A\n    🌏 [Motherboard] ➤ main\n    💐 [String] ➤ \(value)\n"
        let r = try Self.ingest(Array(text.utf8), options: .init(maximumLineLength: 1 << 20))
        let output = try #require(r.events.first { $0.kind == "output.sent" })
        #expect((output.body.outputText?.count ?? 0) < (1 << 20))
        #expect(r.summary.problems.map(\.line) == [4])
    }

    @Test("headers with no fields, and fields with no header: each named as not read, nothing invented")
    func brokenRecords() throws {
        let headers = String(repeating: "🚀 [Activation] Boardy Log:\n", count: 500)
        var r = try Self.ingest(Array(headers.utf8))
        #expect(r.events.isEmpty)
        #expect(r.summary.problems.count == 500)
        let fields = String(repeating: "    🏝 [Motherboard] ➤ main\n    🎯 [X] ➤ y\n", count: 300)
        r = try Self.ingest(Array(fields.utf8))
        #expect(r.events.isEmpty)
        #expect(r.summary.problems.count == 600)
        #expect(r.summary.problems.first?.message.contains("outside any record") == true)
    }

    @Test("a value whose brackets never close stops taking lines after 1,000")
    func unclosedBrackets() throws {
        var text = "🍁 [Send Out] Boardy Log:\n    🏝 [Simple] ➤ pub.A\n    🌏 [Motherboard] ➤ main\n    💐 [Model] ➤ Model(items: [\n"
        for i in 0..<5000 { text += "  item \(i),\n" }
        let r = try Self.ingest(Array(text.utf8))
        #expect(r.summary.continuationLines == 1000)
        #expect(r.summary.foreignLines == 4000)
        #expect(r.events.filter { $0.kind == "output.sent" }.count == 1)
    }

    @Test("20,000 waits on a gate that never completes: each written, the run reported once")
    func manyWaits() throws {
        var text = ""
        for i in 0..<20_000 {
            text += "🚀 [Activation] Boardy Log:\n    🏝 [Motherboard] ➤ main\n    🎯 [ActivatableBarrierBoard] ➤ g.___PRIVATE_BARRIER___\n    🌷 [Int] ➤ \(i)\n"
            if i == 0 {
                text += "🍁 [Next To Board] Boardy Log:\n    🏝 [ActivatableBarrierBoard] ➤ g.___PRIVATE_BARRIER___\n    🌏 [Motherboard] ➤ main\n    🎯 [BoardID] ➤ g\n    💐 [Optional<Any>] ➤ Optional(())\n"
            }
        }
        let r = try Self.ingest(Array(text.utf8))
        #expect(r.summary.stuck.count == 1)
        #expect(r.summary.stuck[0].waiting.count == 20_000)
        #expect(r.events.filter { $0.kind == "barrier.checked" }.count == 20_000)
    }

    @Test("the same capture in chunks of 1, 2, 3 and 4,096 bytes (a CRLF or an emoji split between chunks) gives the same trace")
    func chunks() throws {
        let crlf = Array(String(decoding: Self.sample, as: UTF8.self).replacingOccurrences(of: "\n", with: "\r\n").utf8)
        let whole = try Self.ingest(crlf, chunk: crlf.count)
        for chunk in [1, 2, 3, 4096] {
            let r = try Self.ingest(crlf, chunk: chunk)
            #expect(r.events == whole.events, "chunks of \(chunk)")
        }
    }

    @Test("600 mutations of the real Boardy's logs (lines dropped, doubled, swapped, cut, spliced, bytes inserted): read, never a failure, always a valid trace")
    func mutations() throws {
        let logs = try RealBoardyLogTests.names.map { try Data(contentsOf: RealBoardyLogTests.folder.appendingPathComponent($0)) }.map { Array($0) }
        var rng = SplitMix(seed: 44)
        func pick(_ n: Int) -> Int { Int(rng.next() % UInt64(max(1, n))) }
        for _ in 0..<600 {
            var lines = logs[pick(logs.count)].split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
            switch pick(6) {
            case 0: if !lines.isEmpty { lines.remove(at: pick(lines.count)) }
            case 1: if !lines.isEmpty { let i = pick(lines.count); lines.insert(lines[i], at: i) }
            case 2: if lines.count > 1 { lines.swapAt(pick(lines.count), pick(lines.count)) }
            case 3: if !lines.isEmpty { let i = pick(lines.count); lines[i] = Array(lines[i].prefix(pick(lines[i].count + 1))) }
            case 4: lines += logs[pick(logs.count)].split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init).prefix(pick(40))
            default: if !lines.isEmpty { let i = pick(lines.count); lines[i].insert(contentsOf: (0..<pick(9)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }, at: pick(lines[i].count + 1)) }
            }
            let bytes = Array(lines.joined(separator: [0x0A]))
            _ = try Self.ingest(bytes, chunk: 1 + pick(300))
        }
    }

    @Test("invisible and odd characters in ids are kept as they are")
    func oddIDs() throws {
        let text = "🚀 [Activation] Boardy Log:\n    🏝 [Motherboard] ➤ ma/in\n    🎯 [Simple] ➤ pub\u{200B}A \"quoted\"\n"
        let r = try Self.ingest(Array(text.utf8))
        let performed = try #require(r.events.first { $0.kind == "activation.performed" })
        #expect(performed.body.board == "pub\u{200B}A \"quoted\"")
        #expect(performed.mb == "ma%2Fin", "a motherboard id with a slash is one path segment")
    }
}

extension TraceEvent.Body {
    fileprivate var outputText: String? {
        if case .outputSent(_, let o) = self { return o.stringValue }
        return nil
    }
}
