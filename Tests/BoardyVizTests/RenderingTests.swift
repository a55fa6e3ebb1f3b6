import Boardy
import BoardyGraphviz
import BoardySimulation
import BoardyTestSupport
import BoardyViz
import BoardyVizCore
import BoardyVizSimulation
import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif


/// Board keys of a scenario, nested ones as `parent/id`.
func boardKeys(_ specs: [BoardSpec], prefix: String = "") -> [String] {
    specs.flatMap { b in [prefix + b.id.rawValue] + boardKeys(b.boards, prefix: prefix + b.id.rawValue + "/") }
}

@Suite("Flow graphs")
struct FlowGraphTests {
    @Test("each sample's scenario graph has every board, its modules as clusters, its links and a legend", arguments: sampleNames)
    func scenarioGraph(name: String) throws {
        let s = try scenario(name)
        let model = FlowModel(scenario: s)
        let svg = try SVG(FlowGraph.render(model, format: .svg))
        let nodeIDs = try svg.ids("node")
        for key in boardKeys(s.boards) { #expect(nodeIDs.contains("board-\(key)"), "board-\(key) missing") }
        let clusters = try svg.ids("cluster")
        for m in Set(s.boards.compactMap(\.module)) { #expect(clusters.contains("module-\(m)")) }
        #expect(clusters.contains("legend"))
        let edges = try svg.ids("edge")
        #expect(edges.filter { $0.hasPrefix("link-") }.count == model.links.count)
        #expect(svg.comment.contains("layout strategy: dot"))
        #expect(try svg.texts().contains { $0.contains("layout: dot") })
    }

    @Test("checkout: flows are labelled with outputs; the gateway and the activation barrier are dashed from the gate; exemptions have two borders")
    func checkoutDetails() throws {
        let model = FlowModel(scenario: try scenario("checkout"))
        #expect(model.links.contains { $0.kind == .flow && $0.from == "pubWelcome" && $0.to == "pubShoppingCart" && $0.label == "start" })
        #expect(model.links.contains { $0.kind == .barrier && $0.from == "pubOtp" && $0.to == "pubPayment" })
        #expect(model.links.contains { $0.kind == .gateway && $0.from == "pubAuth" && $0.to == "pubShoppingCart" })
        #expect(!model.links.contains { $0.kind == .gateway && $0.to == "pubWelcome" }, "exempt boards are not gated")
        #expect(model.links.contains { $0.from == "pubPayment/taskCharge" && $0.to == "pubPayment" && $0.label.contains("relay") })
        let svg = try SVG(FlowGraph.render(model, format: .svg))
        let welcome = try svg.groups("node").first { $0.attr("id") == "board-pubWelcome" }
        #expect((try welcome?.nodes(forXPath: ".//*[local-name()='polygon']").count ?? 0) == 2, "double border")
        let dashed = try svg.groups("edge").filter { e in
            (try e.nodes(forXPath: ".//*[local-name()='path']")).contains { ($0 as? XMLElement)?.attr("stroke-dasharray") != nil }
        }
        #expect(dashed.count >= model.links.filter { $0.kind != .flow }.count)
        #expect(try svg.ids("cluster").contains("cluster-pubPayment"), "the continuous board is a nested cluster")
    }

    @Test("barrier-loop: the loop found by check is drawn in red")
    func loopInRed() throws {
        let model = FlowModel(scenario: try scenario("barrier-loop"))
        let loopLinks = model.links.enumerated().filter { $0.element.inLoop }
        #expect(!loopLinks.isEmpty)
        let svg = try SVG(FlowGraph.render(model, format: .svg))
        for (i, _) in loopLinks {
            let edge = try svg.groups("edge").first { $0.attr("id") == "link-\(i + 1)" }
            let stroke = try edge?.nodes(forXPath: ".//*[local-name()='path']").first.flatMap { ($0 as? XMLElement)?.attr("stroke") }
            #expect(stroke == "#d62728")
        }
        // The trace's recorded loop marks the same link.
        #expect(FlowModel(trace: try sampleTrace("barrier-loop")).links.contains { $0.inLoop })
    }

    @Test("a trace's graph has the observed routings with counts")
    func observedGraph() throws {
        let model = FlowModel(trace: try sampleTrace("checkout"))
        #expect(model.source == "trace")
        let start = model.links.first { $0.from == "pubWelcome" && $0.to == "pubShoppingCart" }
        #expect(start?.count == 1 && start?.label == "start")
        #expect(model.links.contains { $0.kind == .gateway && $0.from == "pubAuth" && $0.to == "pubShoppingCart" })
        let svg = try SVG(FlowGraph.render(model, format: .svg))
        #expect(try svg.texts().contains("start ×1"))
        #expect(try svg.ids("node").contains("board-pubPayment/taskCharge"))
    }

    @Test("a motherboard assembled in Swift draws its registrations and flows")
    func liveMotherboard() throws {
        let runtime = BoardyRuntime()
        let mb = Motherboard(
            boards: [
                ClosureBoard<Any?>(identifier: "cart") { _, _ in }, ClosureBoard<Any?>(identifier: "order") { _, _ in },
                ClosureBoard<Any?>(identifier: "pay") { _, _ in },
            ], runtime: runtime)
        mb.registerFlowSteps("cart" ->> "order" ->> "pay")
        let model = FlowModel(definition: mb.definition, path: mb.path, title: "swift")
        #expect(model.boards.map(\.id) == ["cart", "order", "pay"])
        #expect(model.links.map { "\($0.from)>\($0.to)" } == ["cart>order", "order>pay"])
        let svg = try SVG(FlowGraph.render(model, format: .svg))
        #expect(try svg.ids("node").isSuperset(of: ["board-cart", "board-order", "board-pay"]))
    }

    @Test("over 400 boards the layered layout is used, pinned through nop2, and the SVG says so")
    func largeGraphStrategy() throws {
        var model = FlowModel(title: "big", source: "scenario")
        for i in 0..<450 { model.boards.append(.init(id: "b\(i)", module: "M\(i / 45)")) }
        for i in 0..<449 { model.links.append(.init(from: "b\(i)", to: "b\(i + 1)", kind: .flow, label: "next")) }
        model.links.append(.init(from: "b300", to: "b2", kind: .flow, label: "back"))
        #expect(FlowGraph.strategy(for: model) == .layered)
        let svg = try SVG(FlowGraph.render(model, format: .svg))
        #expect(try svg.ids("node").filter { $0.hasPrefix("board-") }.count == 450)
        #expect(try svg.ids("cluster").contains("module-M3"))
        #expect(try svg.texts().contains { $0.contains("layout: layered+nop2") })
        #expect(FlowGraph.strategy(for: FlowModel(title: "s", source: "scenario", boards: [.init(id: "a")])) == .dot)
    }
}

@Suite("Timelines")
struct TimelineTests {
    @Test("each sample trace's timeline has a mark per event, a lane per board and dispatcher, an axis and a legend", arguments: sampleNames)
    func sampleTimeline(name: String) throws {
        let trace = try sampleTrace(name)
        let svg = try SVG(Timeline.render(trace, format: .svg))
        let ids = try svg.ids("node")
        for e in trace.events { #expect(ids.contains("event-\(e.seq)"), "event-\(e.seq) missing") }
        for e in trace.events {
            if let b = e.body.board, e.kind != "stimulus", e.kind != "flow.routed" {
                let key = e.mb == "main" ? b : String(e.mb.dropFirst(5)) + "/" + b
                #expect(ids.contains("board-\(key)"), "lane board-\(key) missing")
            }
            if case .dispatchSent(let d, _, _) = e.body { #expect(ids.contains("dispatcher-\(d)")) }
        }
        #expect(try svg.ids("cluster").contains("legend"))
        #expect(try svg.ids("edge").contains("axis"))
        // Every edge of the model is drawn: lane guides, waits, the axis and each causal arrow.
        let model = Timeline.graph(trace)
        let drawn = try svg.groups("edge")
        #expect(drawn.count == model.edges.count)
        let modelIDs = Set(model.edges.compactMap { $0.attributes["id"] })
        #expect(Set(drawn.compactMap { $0.attr("id") }).isSuperset(of: modelIDs))
        // Each mark's title (the tooltip viewers show) is the event's summary, every field in it.
        let titles = try svg.titles("node")
        for e in trace.events { #expect(titles["event-\(e.seq)"] == e.summary, "title of event-\(e.seq)") }
        #expect(titles["event-1"]?.hasPrefix("#1 ") == true)
        if let b = trace.events.lazy.compactMap({ $0.mb == "main" ? $0.body.board : nil }).first {
            #expect(titles["board-\(b)"] == "lane: \(b) (main)")
        }
    }

    @Test("checkout: each gateway wait is a span from the check to the resolution; causes cross lanes")
    func waitsAndCauses() throws {
        let trace = try sampleTrace("checkout")
        let svg = try SVG(Timeline.render(trace, format: .svg))
        let edges = try svg.ids("edge")
        let waits = trace.events.filter { e in
            switch e.body {
            case .gatewayChecked(_, _, let r): return r == .wait
            case .barrierChecked(_, _, _, let r): return r == .wait
            default: return false
            }
        }
        #expect(!waits.isEmpty)
        let nodes = try svg.ids("node")
        for w in waits { #expect(nodes.contains("wait-\(w.seq)")) }
        #expect(edges.contains { $0.hasPrefix("cause-") })
    }

    @Test("stuck-gate: the open wait runs to the end, dashed; barrier-loop: the loop and its cancellations are red")
    func stuckAndLoop() throws {
        let stuck = try SVG(Timeline.render(try sampleTrace("stuck-gate"), format: .svg))
        let dashedWaits = try stuck.groups("node").filter { e in
            let shapes = try e.nodes(forXPath: ".//*[local-name()='polygon']")
            return (e.attr("id") ?? "").hasPrefix("wait-")
                && shapes.contains { ($0 as? XMLElement)?.attr("stroke-dasharray") != nil }
        }
        #expect(!dashedWaits.isEmpty)
        let loopTrace = try sampleTrace("barrier-loop")
        let loop = try SVG(Timeline.render(loopTrace, format: .svg))
        let loopSeq = loopTrace.events.first { $0.kind == "barrier.loop" }!.seq
        let mark = try loop.groups("node").first { $0.attr("id") == "event-\(loopSeq)" }
        let fill = try mark?.nodes(forXPath: ".//*[local-name()='polygon']").first.flatMap { ($0 as? XMLElement)?.attr("fill") }
        #expect(fill == "#d55e00")
    }

    @Test("time windows and board filters keep only what they name")
    func filters() throws {
        let trace = try sampleTrace("checkout")
        let window = try SVG(Timeline.render(trace, format: .svg, options: .init(from: .seconds(4), to: .seconds(6))))
        let ids = try window.ids("node").filter { $0.hasPrefix("event-") }
        let expected = trace.events.filter { $0.t >= .seconds(4) && $0.t <= .seconds(6) }.map { "event-\($0.seq)" }
        #expect(ids == Set(expected))
        let one = try SVG(Timeline.render(trace, format: .svg, options: .init(boards: ["pubAuth"])))
        let lanes = try one.ids("node").filter { $0.hasPrefix("board-") }
        #expect(lanes == ["board-pubAuth"])
    }

    @Test("lanes whose label and group coincide (a dispatcher and a motherboard named alike) stay apart")
    func laneNameClash() throws {
        let events = [
            // The dispatcher lane "collect" (group "dispatch") and the board lane of "collect" in a
            // root motherboard named "dispatch" (key "collect", group "dispatch").
            TraceEvent(seq: 1, t: .zero, mb: "main", body: .dispatchQueued(dispatcher: "collect", event: .string("e"))),
            TraceEvent(seq: 2, t: .zero, mb: "dispatch", body: .activationPerformed(board: "collect", input: nil)),
        ]
        let svg = try SVG(Timeline.render(Trace(header: TraceHeader(scenario: "clash"), events: events), format: .svg))
        let titles = try svg.titles("node")
        #expect(titles["dispatcher-collect"] == "lane: collect (dispatch)")
        #expect(titles["board-collect"] == "lane: collect (dispatch) #2")
    }
}

@Suite("Hostile ids in pictures")
struct HostileRenderingTests {
    static let ids = [
        "a<b>&c", "quote\"d", "apo's", #"back\slash\n"#, "line\nbreak", "uni·ç😀", "\u{202E}rtl", "node", "edge", "subgraph",
        "strict", "x\" ]; injected [label=\"y", String(repeating: "L", count: 2000),
    ]

    @Test("a scenario of hostile ids renders to well-formed SVG with every id intact")
    func hostileScenario() throws {
        var boards: [JSONValue] = []
        for (i, id) in Self.ids.enumerated() {
            boards.append(["id": .string(id), "module": .string(i % 2 == 0 ? "m<&>\"" : "edge")])
        }
        let flows: [JSONValue] = zip(Self.ids, Self.ids.dropFirst()).map { ["from": .string($0), "activate": .string($1), "on": .string("out\\put<&>")] }
        // A gateway and a dispatch pipeline of hostile names too (drawn as nodes of their own).
        let dispatch: JSONValue = [
            "dispatchers": .array(Self.ids.prefix(4).map { ["id": .string($0)] }),
            "barriers": .object(JSONObject(Self.ids.prefix(3).map { JSONMember(key: $0, value: ["barrier_id": .string($0), "scopes": [.string(Self.ids[1])], "configuration": .object(JSONObject([JSONMember(key: $0, value: .string($0))]))]) })),
            "trackOutputs": .array(Self.ids.prefix(2).map { .string($0) }),
        ]
        let gateway: JSONValue = ["barrier": .string(Self.ids[0]), "exempt": [.string(Self.ids[0])]]
        let text = JSONValue.object(["scenario": "hostile", "boards": .array(boards), "flows": .array(flows), "gateway": gateway, "dispatch": dispatch]).jsonText
        let s = try ScenarioLoader.load(json: text, file: "hostile.json")
        let model = FlowModel(scenario: s)
        let svg = try SVG(FlowGraph.render(model, format: .svg))
        let tips = try svg.tooltips()
        let nodeIDs = try svg.ids("node")
        for id in Self.ids {
            // Written as entities, so even a newline reads back exactly (not normalized to a space).
            #expect(nodeIDs.contains("board-\(id)"), "id of \(id.debugDescription)")
            // Graphviz writes a newline in a tooltip as &#10;, so tooltips keep the text exactly.
            #expect(tips.contains { $0.hasPrefix(id + " — ") }, "tooltip of \(id.debugDescription)")
        }
        // Labels without line breaks render as one text, exactly.
        let texts = try svg.texts()
        for id in Self.ids where !id.contains("\n") && id.count < 100 { #expect(texts.contains(id), "label \(id.debugDescription)") }
        #expect(texts.contains { $0.contains("out\\put<&>") })
        #expect(texts.contains { $0.contains("scopes: quote\"d") })
        #expect(try svg.ids("node").contains("gateway-1"))
        // And the timeline, the observed graph and the viewer of its run; twice, the same bytes.
        let run = Simulator.run(s)
        let timeline = try Timeline.render(run.trace, format: .svg)
        _ = try SVG(timeline)
        #expect(try Timeline.render(run.trace, format: .svg) == timeline)
        let observed = try FlowGraph.render(FlowModel(trace: run.trace), format: .svg)
        _ = try SVG(observed)
        #expect(try FlowGraph.render(FlowModel(trace: run.trace), format: .svg) == observed)
        #expect(try FlowGraph.render(model, format: .svg) == FlowGraph.render(model, format: .svg))
    }

    @Test("a hostile trace (ids and payloads) renders to a well-formed timeline with the marks' titles intact")
    func hostileTrace() throws {
        var events: [TraceEvent] = []
        for (i, id) in Self.ids.enumerated() {
            events.append(TraceEvent(seq: 2 * i + 1, t: .seconds(Double(i)), mb: "main", body: .activationPerformed(board: id, input: .string(id))))
            events.append(
                TraceEvent(seq: 2 * i + 2, t: .seconds(Double(i)), mb: "main", cause: 2 * i + 1, body: .outputSent(board: id, output: .string("\u{0}nul"))))
        }
        let trace = Trace(header: TraceHeader(scenario: "hostile <&>"), events: events)
        let svg = try SVG(Timeline.render(trace, format: .svg))
        let titles = try svg.titles("node")
        let nodeIDs = try svg.ids("node")
        for id in Self.ids { #expect(nodeIDs.contains("board-\(id)"), "\(id.debugDescription)") }
        #expect(titles.values.contains { $0.contains("\nboard: a<b>&c\n") })
        for e in events where !e.summary.utf8.contains(where: { $0 < 0x20 && $0 != 0x0A && $0 != 0x09 && $0 != 0x0D }) {
            #expect(titles["event-\(e.seq)"] == e.summary, "title of event-\(e.seq)")
        }
    }
}
