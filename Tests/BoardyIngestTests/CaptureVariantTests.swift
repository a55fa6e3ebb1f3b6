import BoardyIngest
import BoardyTrace
import Foundation
import Testing

/// The same real Boardy logs as a console holds them: CRLF line ends, ANSI colours, a time and
/// process on every line, the app's and a test runner's own lines between records, bytes that
/// are not UTF-8, a cut-off last record. Each reads as the clean log does.
@Suite("Ingest: captures as consoles hold them")
struct CaptureVariantTests {
    static let names = RealBoardyLogTests.names

    static func clean(_ name: String) throws -> String {
        try String(contentsOf: RealBoardyLogTests.folder.appendingPathComponent(name), encoding: .utf8)
    }

    static func lines(_ text: String) -> [String] {
        var l = text.components(separatedBy: "\n")
        if l.last == "" { l.removeLast() }
        return l
    }

    /// An event without what a capture changes: its time, and its place in the capture.
    static func bare(_ e: TraceEvent) -> TraceEvent {
        var x = e
        x.t = .zero
        for key in ["line", "gateLine", "interactionLine", "file"] { x.extra[key] = nil }
        x.extra["waitLines"] = nil
        if var inner = x.extra["innerGates"]?.arrayValue {
            inner = inner.map { g in var o = g.objectValue ?? [:]; o["line"] = nil; return .object(o) }
            x.extra["innerGates"] = .array(inner)
        }
        return x
    }

    static func ingest(_ text: String, _ name: String) throws -> (header: TraceHeader, events: [TraceEvent], summary: IngestSummary) {
        try BoardyLogIngester.trace(of: text, name: name)
    }

    static func expectSame(_ variant: String, as clean: String, _ name: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let a = try ingest(clean, name), b = try ingest(variant, name)
        #expect(b.summary.problems.isEmpty, "\(what): \(b.summary.problems)", sourceLocation: sourceLocation)
        #expect(b.events.count == a.events.count, "\(what): \(b.events.count) events, clean \(a.events.count)", sourceLocation: sourceLocation)
        for (x, y) in zip(a.events, b.events) where bare(x) != bare(y) {
            Issue.record("\(what): event \(x.seq) differs:\n- \(bare(x).jsonLine)\n+ \(bare(y).jsonLine)", sourceLocation: sourceLocation)
            break
        }
        #expect(b.summary.stuck.map(\.barrier) == a.summary.stuck.map(\.barrier), sourceLocation: sourceLocation)
    }

    @Test("CRLF line ends (and a lone CR)", arguments: names)
    func crlf(_ name: String) throws {
        let text = try Self.clean(name)
        try Self.expectSame(text.replacingOccurrences(of: "\n", with: "\r\n"), as: text, name, "CRLF")
        try Self.expectSame(text.replacingOccurrences(of: "\n", with: "\r"), as: text, name, "CR")
    }

    @Test("ANSI colour codes around lines and inside them", arguments: names)
    func ansi(_ name: String) throws {
        let text = try Self.clean(name)
        let coloured = Self.lines(text).enumerated().map { i, l in
            i % 3 == 0 ? "\u{1B}[32m" + l + "\u{1B}[0m" : i % 3 == 1 ? l.replacingOccurrences(of: "➤", with: "\u{1B}[1m➤\u{1B}[22m") : l
        }.joined(separator: "\n") + "\n"
        try Self.expectSame(coloured, as: text, name, "ANSI")
    }

    @Test("a time and process on every line: a live clock, the same events", arguments: names)
    func prefixed(_ name: String) throws {
        let text = try Self.clean(name)
        var micros = 0
        let prefixed = Self.lines(text).map { l -> String in
            micros += 1_250
            let s = 32 + micros / 1_000_000, us = micros % 1_000_000
            return String(format: "2026-11-27 10:15:%02d.%06d+0100 ShopApp[4242:1a2b3] ", s, us) + l
        }.joined(separator: "\n") + "\n"
        try Self.expectSame(prefixed, as: text, name, "prefixed")
        let r = try Self.ingest(prefixed, name)
        #expect(r.header.clock == .live)
        #expect(r.events.allSatisfy { $0.t <= .seconds(30) })
        #expect(zip(r.events, r.events.dropFirst()).allSatisfy { $0.t <= $1.t })
    }

    @Test("syslog-style and bracketed times, with a thread per line")
    func otherPrefixes() throws {
        let text = try Self.clean("barrier-release.log")
        let syslog = Self.lines(text).enumerated().map { i, l in "Nov 27 10:15:\(String(format: "%02d", i % 60)) iPhone ShopApp(Boardy)[4242] <Notice>: " + l }
            .joined(separator: "\n") + "\n"
        try Self.expectSame(syslog, as: text, "barrier-release.log", "syslog")
        let bracketed = Self.lines(text).enumerated().map { i, l in "[\(i).25] " + l }.joined(separator: "\n") + "\n"
        try Self.expectSame(bracketed, as: text, "barrier-release.log", "bracketed")
    }

    @Test("the app's own prints, a test runner's lines and bytes that are not UTF-8 between records", arguments: names)
    func noise(_ name: String) throws {
        let text = try Self.clean(name)
        var out = ""
        for l in Self.lines(text) {
            if l.hasSuffix("Boardy Log:") || l.hasPrefix("⚠️") {
                out += "app: loaded 3 items\nTest Case '-[ShopTests.CheckoutTests testPay]' started.\n[Network] GET /api/cart 200 (12 ms)\n"
            }
            out += l + "\n"
        }
        var bytes = Array(out.utf8)
        // Bytes that are not UTF-8, on a line of their own.
        bytes.insert(contentsOf: [0xFF, 0xFE, 0x80, 0x0A], at: bytes.startIndex)
        let variant = String(decoding: bytes, as: UTF8.self)
        try Self.expectSame(variant, as: text, name, "noise")
        let r = try BoardyLogIngester.trace(of: variant, name: name)
        #expect(r.summary.foreignLines >= 3)
    }

    @Test("a last record cut off: what comes before reads the same", arguments: names)
    func cut(_ name: String) throws {
        let text = try Self.clean(name)
        var lines = Self.lines(text)
        guard let lastHeader = lines.lastIndex(where: { $0.hasSuffix("Boardy Log:") }), lines.count > lastHeader + 1 else { return }
        // Cut the record's second line in the middle, with no line end after it.
        lines = Array(lines[...(lastHeader + 1)])
        let l = lines[lastHeader + 1]
        lines[lastHeader + 1] = String(l.prefix(l.count / 2))
        let variant = lines.joined(separator: "\n")
        let a = try Self.ingest(text, name), b = try Self.ingest(variant, name)
        #expect(b.summary.unterminated)
        let before = { (e: TraceEvent) in (e.extra["line"]?.intValue).map { $0 < Int64(lastHeader + 1) } ?? false }
        let x = a.events.filter { before($0) && $0.kind != "stuck" }.map(Self.bare), y = b.events.filter { before($0) && $0.kind != "stuck" }.map(Self.bare)
        // A cut can only change the decisions that waited on the record it cut.
        #expect(x.dropLast(2) == y.prefix(max(0, x.count - 2)), "\(name)")
    }

    @Test("a capture that ends inside a record's last line: that record is not read, a problem names it; with its line end, it is")
    func cutInsideLastLine() throws {
        let complete = """
            🚀 [Activation] Boardy Log:
                🏝 [Motherboard] ➤ main
                🎯 [Simple] ➤ pub.Home
            🍁 [Send Out] Boardy Log:
                🏝 [Simple] ➤ pub.Home
                🌏 [Motherboard] ➤ main
                💐 [CompleteAction] ➤ CompleteAction(identifier: pub.Home, isDone: true)
            """
        // With its line end: a completion.
        let whole = try Self.ingest(complete + "\n", "whole.log")
        #expect(whole.events.map(\.kind) == ["activation.requested", "activation.performed", "board.completed"])
        #expect(whole.summary.problems.isEmpty)
        // Cut inside the data line (it would read as an output of a cut value) and inside the
        // motherboard line (a motherboard id cut short): not read, named by the record's line.
        for cut in [complete.count - 20, complete.count - 90] {
            let r = try Self.ingest(String(complete.prefix(cut)), "cut.log")
            #expect(r.summary.unterminated)
            #expect(r.events.map(\.kind) == ["activation.requested", "activation.performed"], "\(cut)")
            // (A line cut before its `] ➤ ` is also named, as a field line not well formed.)
            let ends = r.summary.problems.filter { $0.message.contains("ends inside this record") }
            #expect(ends.map(\.line) == [4], "\(r.summary.problems)")
        }
        // Cut after the app's own line: every record is read.
        let r = try Self.ingest(complete + "\n[App] done", "app.log")
        #expect(r.events.map(\.kind) == whole.events.map(\.kind))
        #expect(r.summary.problems.isEmpty)
    }

    @Test("records two threads printed into each other go out in the order they ended (the message is sent when its record is printed)")
    func interleavedEndOrder() throws {
        // A worker thread's Send Out begins, the main thread's Interaction is printed whole
        // inside it, then the Send Out's data line comes.
        let log = """
            🚀 [Activation] Boardy Log:
                🏝 [Motherboard] ➤ main
                🎯 [Screen] ➤ pub.Filters
            🚀 [Activation] Boardy Log:
                🏝 [Motherboard] ➤ main
                🎯 [Search] ➤ pub.Search
            🍁 [Send Out] Boardy Log:
                🏝 [Search] ➤ pub.Search
                🌏 [Motherboard] ➤ main
            🚚 [Interaction] Boardy Log:
                🏝 [Motherboard] ➤ main
                🎯 [Screen] ➤ pub.Filters
                🌷 [FilterCommand] ➤ toggle(nonstop: true)
                💐 [Progress] ➤ progress(0.35)
            [App] progress bar at 35%

            """
        let r = try Self.ingest(log, "interleaved.log")
        #expect(r.summary.problems.isEmpty, "\(r.summary.problems)")
        let steps = r.events.filter { ["output.sent", "command.sent"].contains($0.kind) }.map { "\($0.kind) \($0.body.board ?? "")" }
        #expect(steps == ["command.sent pub.Filters", "output.sent pub.Search"])
        // Each keeps the line its record began on.
        #expect(r.events.first { $0.kind == "output.sent" }?.extra["line"] == 7)
    }
}
