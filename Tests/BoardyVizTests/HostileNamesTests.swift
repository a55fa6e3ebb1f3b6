import Boardy
import BoardyGraphviz
import BoardyTestSupport
import BoardyViz
import BoardyVizCore
import BoardyVizSimulation
import Foundation
import Testing

/// Ids and payloads no one should use, and someone will: markup, quotes, backslashes, line breaks,
/// NUL and other control characters, right-to-left marks, emoji, 10,000-character names, DOT
/// keywords. Through the engine, the trace file, the flow graph and timeline (SVG and DOT) and the
/// Chrome export: every output stays well-formed and keeps the text.
@Suite("Hostile names through every output")
struct HostileNamesTests {
    static let ids: [String] = [
        "<b>&amp;\"'", #"C:\new\Thing"#, "two\nlines", "nul\u{0}inside", "bell\u{7}and\u{1B}esc", "\u{202E}rtl\u{200F}", "emoji 🧪👩‍👩‍👧",
        String(repeating: "L", count: 10_000), "node", "edge", "subgraph", "graph", "strict", "x\" ]; injected [label=\"y",
    ]

    /// A chain through every hostile board, each sending a hostile payload on.
    static func record() -> Trace {
        let recorder = TraceRecorder()
        let scheduler = VirtualScheduler()
        let runtime = BoardyRuntime(scheduler: scheduler, observer: recorder)
        let boards: [any ActivatableBoard] = ids.map { id in
            ClosureBoard<Any?>(identifier: BoardID(id)) { board, _ in
                board.schedule(after: .seconds(1)) { board.sendOutput(JSONValue.string("out:" + id)) }
            }
        }
        let mainboard = Motherboard(boards: boards, runtime: runtime)
        for (a, b) in zip(ids, ids.dropFirst()) { mainboard.registerFlowSteps(BoardID(a) ->> BoardID(b)) }
        mainboard.stimulate(.activate(BoardID(ids[0]), input: "in\u{0}put <&>"))
        scheduler.run()
        return Trace(header: mainboard.traceHeader(scenario: "hostile \u{0}<&>"), events: recorder.events)
    }

    @Test("the trace file keeps every id and payload exactly")
    func traceRoundTrip() throws {
        let trace = Self.record()
        #expect(trace.events.count >= 4 * Self.ids.count)
        let reread = try Trace.read(text: trace.jsonl)
        #expect(reread.events == trace.events)
        #expect(reread.header == trace.header)
        let performed = reread.events.compactMap { e -> String? in
            if case let .activationPerformed(b, _) = e.body { return b }
            return nil
        }
        #expect(performed == Self.ids)
    }

    @Test("flow graph and timeline SVG are well-formed XML with every id, control characters shown as pictures")
    func svg() throws {
        let trace = Self.record()
        let shown = Self.ids.map { $0.replacingOccurrences(of: "\u{0}", with: "␀").replacingOccurrences(of: "\u{7}", with: "␇").replacingOccurrences(of: "\u{1B}", with: "␛") }
        let graph = try SVG(FlowGraph.render(FlowModel(trace: trace), format: .svg))
        let graphIDs = try graph.ids("node")
        for id in shown { #expect(graphIDs.contains("board-\(id)"), "graph id \(id.prefix(40).debugDescription)") }
        let timeline = try SVG(Timeline.render(trace, format: .svg))
        let laneIDs = try timeline.ids("node")
        for id in shown { #expect(laneIDs.contains("board-\(id)"), "lane id \(id.prefix(40).debugDescription)") }
        // The marks' titles hold each event's fields, control characters as pictures.
        let titles = try timeline.titles("node")
        #expect(titles.values.contains { $0.contains("board: nul␀inside") })
        #expect(titles.values.contains { $0.contains("board: " + String(repeating: "L", count: 10_000)) })
    }

    @Test("DOT keeps every id as one node; NUL no longer merges two ids")
    func dot() throws {
        let trace = Self.record()
        let dot = String(decoding: try FlowGraph.render(FlowModel(trace: trace), format: .dot), as: UTF8.self)
        #expect(dot.contains("nul␀inside"))
        #expect(dot.contains("bell␇and␛esc"))
        #expect(dot.contains("\u{202E}rtl\u{200F}"))
        #expect(dot.contains(String(repeating: "L", count: 10_000)))
        // Different ids stay different nodes, even ones differing only after a NUL.
        let g = Graph(name: "nul", nodes: [Node("a\u{0}1"), Node("a\u{0}2"), Node("a")])
        let svg = try SVG(GraphvizRenderer.render(g, format: .svg))
        #expect(try svg.groups("node").count == 3)
    }

    @Test("the Chrome export is valid JSON with every id exactly")
    func chrome() throws {
        let trace = Self.record()
        let text = ChromeTraceExport.export(trace).jsonText
        let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8))
        let all = "\(parsed)"
        #expect(!all.isEmpty)
        let reparsed = try JSONValue(parsing: text)
        #expect(reparsed.jsonText == text)
        for id in Self.ids where id.count < 100 { #expect(text.contains(JSONValue.string(id).jsonText.dropFirst().dropLast()), "\(id.debugDescription)") }
    }
}
