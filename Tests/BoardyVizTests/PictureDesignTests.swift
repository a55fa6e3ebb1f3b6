import Boardy
import BoardyGraphviz
import BoardySimulation
import BoardyTestSupport
import BoardyTrace
import BoardyViz
import BoardyVizCore
import BoardyVizSimulation
import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Geometry read back from Graphviz's SVG (points; y grows downwards).
struct Box {
    var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
    var area: Double { maxX > minX && maxY > minY ? (maxX - minX) * (maxY - minY) : 0 }
    var midX: Double { (minX + maxX) / 2 }

    mutating func add(_ x: Double, _ y: Double) {
        minX = min(minX, x)
        maxX = max(maxX, x)
        minY = min(minY, y)
        maxY = max(maxY, y)
    }
}

extension SVG {
    /// The picture's size (the root's width and height, in points).
    func size() throws -> (w: Double, h: Double) {
        let root = try #require(doc.rootElement())
        func pt(_ s: String?) -> Double { Double((s ?? "0").replacingOccurrences(of: "pt", with: "")) ?? 0 }
        return (pt(root.attr("width")), pt(root.attr("height")))
    }

    /// The box of every shape drawn in `element` (polygon points, path data, ellipses).
    static func box(of element: XMLElement) throws -> Box {
        var b = Box()
        for n in try element.nodes(forXPath: ".//*[local-name()='polygon' or local-name()='path' or local-name()='polyline' or local-name()='ellipse']") {
            guard let e = n as? XMLElement else { continue }
            if e.localName == "ellipse" {
                let cx = Double(e.attr("cx") ?? "") ?? 0, cy = Double(e.attr("cy") ?? "") ?? 0
                let rx = Double(e.attr("rx") ?? "") ?? 0, ry = Double(e.attr("ry") ?? "") ?? 0
                b.add(cx - rx, cy - ry)
                b.add(cx + rx, cy + ry)
                continue
            }
            let text = e.attr("points") ?? e.attr("d") ?? ""
            let numbers = text.split { !"0123456789.-".contains($0) }.compactMap { Double($0) }
            for i in stride(from: 0, to: numbers.count - 1, by: 2) { b.add(numbers[i], numbers[i + 1]) }
        }
        return b
    }

    /// The fill colours of the shapes of a node group (the mark's colours).
    static func fills(_ g: XMLElement) throws -> [String] {
        try g.nodes(forXPath: ".//*[local-name()='polygon' or local-name()='ellipse' or local-name()='path']").compactMap {
            ($0 as? XMLElement)?.attr("fill")
        }.filter { $0 != "none" }
    }
}

/// The legend's share of the picture: its frame's area over the whole picture's.
func legendShare(_ svg: SVG) throws -> Double {
    let legend = try #require(try svg.group("legend"))
    let frame = try SVG.box(of: legend)
    let (w, h) = try svg.size()
    return frame.area / (w * h)
}

/// A scenario of five boards behind one gateway, each requested at 0, each with its own gate run
/// (Boardy's documented wiring), resolved one after another.
let fiveGatewayRuns = """
    {"scenario": "five-gateway-runs",
     "boards": [{"id": "login", "onActivate": [{"after": 2, "complete": true}]},
                {"id": "a"}, {"id": "b"}, {"id": "c"}, {"id": "d"}, {"id": "e"}],
     "gateway": {"barrier": "login", "exempt": ["login"]},
     "script": [{"at": 0, "activate": "a"}, {"at": 0, "activate": "b"}, {"at": 1, "activate": "c"},
                {"at": 1, "activate": "d"}, {"at": 2, "activate": "e"}]}
    """


@Suite("Pictures people read")
struct PictureDesignTests {
    // MARK: Flow graphs

    @Test("each sample's graph and timeline: the legend is at most a fifth of the picture", arguments: sampleNames)
    func compactLegends(name: String) throws {
        let graph = try legendShare(SVG(FlowGraph.render(FlowModel(scenario: try scenario(name)), format: .svg)))
        #expect(graph <= 0.2, "graph legend share \(graph)")
        let observed = try legendShare(SVG(FlowGraph.render(FlowModel(trace: try sampleTrace(name)), format: .svg)))
        #expect(observed <= 0.2, "observed graph legend share \(observed)")
        let timeline = try legendShare(SVG(Timeline.render(try sampleTrace(name), format: .svg)))
        #expect(timeline <= 0.2, "timeline legend share \(timeline)")
    }

    @Test("a graph's legend lists only what is drawn, with the marks' own attributes")
    func graphLegendExact() throws {
        let checkout = try SVG(FlowGraph.render(FlowModel(scenario: try scenario("checkout")), format: .svg))
        let texts = Set(try checkout.texts(in: "legend"))
        #expect(texts.isSuperset(of: ["board", "task board", "guarded by the gateway", "exempt from the gateway", "gateway", "flow (output)", "relay out"]))
        #expect(!texts.contains("barrier loop"))
        #expect(!texts.contains("never exercised"))
        let loop = try SVG(FlowGraph.render(FlowModel(scenario: try scenario("barrier-loop")), format: .svg))
        #expect(try loop.texts(in: "legend").contains("barrier loop"))
        // The loop's sample is drawn as the loop edges are: dashed, red, a tee head.
        let loopEdge = try #require(try loop.groups("edge").first { g in try (g.attr("id") ?? "").hasPrefix("link-") && SVG.fills(g).contains("#d62728") })
        let samples = try loop.groups("edge").filter { ($0.attr("id") ?? "").hasPrefix("legend-") }
        let sample = try #require(try samples.first { g in try SVG.fills(g).contains("#d62728") })
        func stroke(_ g: XMLElement) throws -> (String?, String?) {
            let path = try g.nodes(forXPath: ".//*[local-name()='path']").first as? XMLElement
            return (path?.attr("stroke"), path?.attr("stroke-dasharray"))
        }
        let (a, b) = (try stroke(loopEdge), try stroke(sample))
        #expect(a == b)
    }

    @Test("the gateway is drawn once: one gateway node from the gate, guarded boards marked, no labelled edge per board")
    func gatewayOnce() throws {
        let s = try ScenarioLoader.load(bytes: Array(fiveGatewayRuns.utf8), file: "five.json")
        let svg = try SVG(FlowGraph.render(FlowModel(scenario: s), format: .svg))
        let nodes = try svg.ids("node")
        #expect(nodes.contains("gateway-1"))
        #expect(!nodes.contains("gateway-2"))
        #expect(try svg.texts(in: "gateway-1").joined(separator: " ") == "gateway 5 guarded")
        let edges = try svg.groups("edge")
        // No edge carries a "gateway" label any more; the five guarded lines are unlabelled.
        for e in edges where !(e.attr("id") ?? "").hasPrefix("legend-") {
            let labels = try e.nodes(forXPath: ".//*[local-name()='text']").compactMap(\.stringValue)
            #expect(!labels.contains("gateway"))
        }
        #expect(edges.filter { $0.attr("id") == "gateway-1-gate" }.count == 1)
    }

    @Test("every edge label is tied to its edge")
    func labelsAttached() throws {
        let svg = try SVG(FlowGraph.render(FlowModel(scenario: try scenario("checkout")), format: .svg))
        var labelled = 0
        for e in try svg.groups("edge") where (e.attr("id") ?? "").hasPrefix("link-") {
            let texts = try e.nodes(forXPath: ".//*[local-name()='text']")
            guard !texts.isEmpty else { continue }
            labelled += 1
            // Graphviz's decorate: a line from the label to the edge's middle.
            let ties = try e.nodes(forXPath: ".//*[local-name()='polyline']")
            #expect(!ties.isEmpty, "label of \(e.attr("id") ?? "") not tied")
        }
        #expect(labelled >= 5)
    }

    @Test("a scenario's dispatch pipeline is drawn: tracked outputs, dispatchers, barriers with scopes and configuration")
    func dispatchPipeline() throws {
        let svg = try SVG(FlowGraph.render(FlowModel(scenario: try scenario("analytics-dispatch")), format: .svg))
        let nodes = try svg.ids("node")
        #expect(nodes.isSuperset(of: ["dispatch-track", "dispatcher-1", "dispatcher-2", "dispatch-barrier-1", "dispatch-barrier-2"]))
        #expect(try svg.ids("cluster").contains("dispatch"))
        let all = try svg.texts().joined(separator: "\n")
        #expect(all.contains("scopes: collect") && all.contains("batch_size: 3") && all.contains("wifi_only: true"))
        let edges = try svg.ids("edge")
        // ConnectivityBarrier (scope all) holds both dispatchers back; BatchingBarrier only collect.
        #expect(edges.filter { $0.hasPrefix("dispatch-scope-") }.count == 3)
        #expect(edges.contains("dispatch-tracked-1"))
        #expect(edges.contains("dispatch-queue-1") && edges.contains("dispatch-queue-2"))
    }

    @Test("an observed graph keeps continuous boards with their nesting, relays and the dispatch it used")
    func observedKinds() throws {
        let model = FlowModel(trace: try sampleTrace("checkout"))
        let payment = try #require(model.boards.first { $0.key == "pubPayment" })
        #expect(payment.kind?.rawValue == "continuous" && payment.inner == "main/pubPayment")
        #expect(model.links.contains { $0.from == "pubPayment/taskCharge" && $0.to == "pubPayment" && $0.label.hasSuffix("→ relay") })
        #expect(model.dispatch?.dispatchers.map(\.id) == ["collect"])
        let svg = try SVG(FlowGraph.render(model, format: .svg))
        #expect(try svg.ids("cluster").contains("cluster-pubPayment"))
        #expect(try svg.texts(in: "legend").contains("relay out"))
        #expect(try svg.ids("node").contains("dispatcher-1"))
    }

    @Test("with a trace, a declared graph counts what happened and shows zero where nothing did")
    func weighedDefinition() throws {
        var model = FlowModel(scenario: try scenario("checkout"))
        model.weigh(by: [try sampleTrace("checkout")])
        #expect(model.boards.first { $0.key == "pubWelcome" }?.count == 1)
        #expect(model.boards.allSatisfy { $0.count != nil })
        let d = try #require(model.dispatch)
        #expect(d.dispatchers.first?.sent ?? 0 > 0)
    }

    // MARK: Timelines

    /// Ticks by label value (seconds) and x, read from the SVG.
    static func ticks(_ svg: SVG) throws -> [(t: Double, x: Double)] {
        var out: [(Double, Double)] = []
        for g in try svg.groups("node") where (g.attr("id") ?? "").hasPrefix("tick-") {
            let text = try #require(g.elements(forName: "text").first)
            let label = try #require(text.stringValue)
            out.append((Double(label.dropLast()) ?? .nan, Double(text.attr("x") ?? "") ?? .nan))
        }
        return out.sorted { $0.0 < $1.0 }
    }

    @Test("the time axis is truthful: ticks evenly spaced on one scale, each event within a narrow band at its instant", arguments: sampleNames)
    func truthfulAxis(name: String) throws {
        let trace = try sampleTrace(name)
        let svg = try SVG(Timeline.render(trace, format: .svg))
        let ticks = try Self.ticks(svg)
        #expect(ticks.count >= 2)
        #expect(try svg.ids("node").filter { $0.hasPrefix("break-") }.isEmpty)  // no long idle stretch here
        let scale = (ticks[ticks.count - 1].x - ticks[0].x) / (ticks[ticks.count - 1].t - ticks[0].t)
        for (t, x) in ticks { #expect(abs(ticks[0].x + (t - ticks[0].t) * scale - x) < 0.6, "tick \(t)s at \(x)") }
        // Ticks evenly spaced: the same step between each (the first stretch's own start aside).
        let steps = zip(ticks.dropFirst(2), ticks.dropFirst()).map { $0.t - $1.t }
        #expect(Set(steps.map { ($0 * 1000).rounded() }).count <= 1)
        // Each mark sits at its own time, at most a band's width (36 pt) to the right.
        let marks = Dictionary(uniqueKeysWithValues: try svg.groups("node").compactMap { g in (g.attr("id")).map { ($0, g) } })
        for e in trace.events {
            let g = try #require(marks["event-\(e.seq)"])
            let x = try SVG.box(of: g).midX
            let expected = ticks[0].x + (Double(e.t.microseconds) / 1e6 - ticks[0].t) * scale
            #expect(x - expected > -1 && x - expected < 37, "event \(e.seq) at t=\(e.t) drawn at \(x), the instant is at \(expected)")
        }
    }

    @Test("a long idle stretch is drawn as an explicit break, and time goes on after it")
    func idleBreak() throws {
        let trace = try simulate("""
            {"scenario": "idle", "boards": [{"id": "a", "onActivate": [{"after": 1, "output": "x"}]}],
             "script": [{"at": 0, "activate": "a"}, {"at": 3600, "activate": "a"}]}
            """)
        let svg = try SVG(Timeline.render(trace, format: .svg))
        #expect(try svg.ids("node").contains("break-1"))
        #expect(try svg.texts(in: "break-1").first?.contains("+3599s") == true)
        let labels = try Self.ticks(svg).map(\.t)
        #expect(labels.contains(3600))
        #expect(try svg.texts(in: "legend").contains("idle stretch cut"))
        #expect(try svg.size().w < 2_000)
    }

    @Test("stimuli are labelled; flush sends are distinct; held dispatches are spans")
    func dispatchTimeline() throws {
        let trace = try sampleTrace("analytics-dispatch")
        let svg = try SVG(Timeline.render(trace, format: .svg))
        let texts = Set(try svg.texts())
        #expect(texts.isSuperset(of: ["network: cellular", "flush", "track: app-backgrounded", "network: wifi"]))
        let flushSends = trace.events.filter { if case .dispatchSent(_, _, true) = $0.body { return true } else { return false } }
        let plainSends = trace.events.filter { if case .dispatchSent(_, _, false) = $0.body { return true } else { return false } }
        #expect(!flushSends.isEmpty && !plainSends.isEmpty)
        let marks = Dictionary(uniqueKeysWithValues: try svg.groups("node").compactMap { g in (g.attr("id")).map { ($0, g) } })
        let flushMark = try #require(marks["event-\(flushSends[0].seq)"])
        let plainMark = try #require(marks["event-\(plainSends[0].seq)"])
        let (flushFills, plainFills) = (try SVG.fills(flushMark), try SVG.fills(plainMark))
        #expect(flushFills != plainFills)
        let borders = try flushMark.nodes(forXPath: ".//*[local-name()='polygon']").count
        #expect(borders == 2)  // a double border
        #expect(try svg.ids("node").contains { $0.hasPrefix("held-") })
        let legend = Set(try svg.texts(in: "legend"))
        #expect(legend.isSuperset(of: ["sent by a flush", "dispatch sent", "dispatcher holding", "dispatch blocked", "dispatch barrier closed"]))
    }

    @Test("running tasks and queued block tasks are spans")
    func runSpans() throws {
        let trace = try simulate("""
            {"scenario": "bt", "boards": [
              {"id": "upload", "kind": "blockTask", "executing": "queue", "onActivate": [{"after": 2, "output": "ok"}]},
              {"id": "t2", "kind": "task", "onActivate": [{"after": 1, "output": "x"}]}],
             "script": [{"at": 0, "activate": "upload", "input": 1}, {"at": 0, "activate": "upload", "input": 2}, {"at": 1, "activate": "t2"}]}
            """)
        let svg = try SVG(Timeline.render(trace, format: .svg))
        let ids = try svg.ids("node")
        #expect(ids.filter { $0.hasPrefix("run-") }.count == 3)
        #expect(ids.filter { $0.hasPrefix("queued-") }.count == 1)
        #expect(Set(try svg.texts(in: "legend")).isSuperset(of: ["running", "queued behind an earlier run"]))
    }

    @Test("no drawn mark is missing from the legend: every mark's colours and shape have a sample", arguments: sampleNames)
    func timelineLegendComplete(name: String) throws {
        let svg = try SVG(Timeline.render(try sampleTrace(name), format: .svg))
        func signature(_ g: XMLElement) throws -> String {
            let shapes = try g.nodes(forXPath: ".//*[local-name()='polygon' or local-name()='ellipse' or local-name()='path']").compactMap { $0 as? XMLElement }
            return shapes.map { "\($0.localName ?? "")\(shapes.count):\($0.attr("fill") ?? "")/\($0.attr("stroke-dasharray") ?? "")" }.joined(separator: ",")
        }
        let legend = try #require(try svg.group("legend"))
        _ = legend
        let samples = Set(try svg.groups("node").filter { ($0.attr("id") ?? "").hasPrefix("legend-") && !($0.attr("id") ?? "").hasPrefix("legend-text-") }.map(signature))
        for g in try svg.groups("node") {
            let id = g.attr("id") ?? ""
            guard ["event-", "wait-", "run-", "queued-", "held-"].contains(where: id.hasPrefix) else { continue }
            let sig = try signature(g)
            #expect(samples.contains(sig), "\(id) (\(sig)) has no legend sample")
        }
    }

    // MARK: Chrome export

    @Test("Chrome export: one async track per wait, named with its destination")
    func chromeWaits() throws {
        let trace = try simulate(fiveGatewayRuns)
        let json = ChromeTraceExport.export(trace)
        let events = json.objectValue?["traceEvents"]?.arrayValue ?? []
        let begins = events.compactMap(\.objectValue).filter { $0["ph"]?.stringValue == "b" }
        let ends = events.compactMap(\.objectValue).filter { $0["ph"]?.stringValue == "e" }
        #expect(begins.count == 5 && ends.count == 5)
        #expect(Set(begins.compactMap { $0["id"]?.stringValue }).count == 5)
        let names = Set(begins.compactMap { $0["name"]?.stringValue })
        #expect(names == Set(["a", "b", "c", "d", "e"].map { "\($0) waits for the gateway (login)" }))
        // Each ends when its own run resolves: a and b at 2 s, c and d at 3 s, e at 4 s.
        var endOf: [String: Int64] = [:]
        for e in ends { endOf[e["name"]?.stringValue ?? ""] = e["ts"]?.intValue }
        #expect(endOf["a waits for the gateway (login)"] == 2_000_000)
        #expect(endOf["c waits for the gateway (login)"] == 3_000_000)
        #expect(endOf["e waits for the gateway (login)"] == 4_000_000)
    }
}

@Suite("The viewer page")
struct ViewerPageTests {
    @Test("self-contained: nothing to fetch, one data element of JSON, the same bytes every time")
    func selfContained() throws {
        let trace = try sampleTrace("checkout")
        let page = try TraceView.html(trace, model: FlowModel(trace: trace))
        let html = String(decoding: page, as: UTF8.self)
        for external in ["http://", "https://", "src=", "href=", "@import", "url("] {
            // The only URL is SVG's namespace, a name and never fetched.
            let hits = html.components(separatedBy: external).count - 1
            let allowed = external == "http://" ? html.components(separatedBy: "http://www.w3.org/2000/svg").count - 1 : 0
            #expect(hits == allowed, "\(external) ×\(hits)")
        }
        #expect(html.contains("default-src 'none'"))
        let data = try JSONValue(parsing: try viewerData(page))
        #expect(data.objectValue?["n"]?.intValue == Int64(trace.events.count))
        #expect(try TraceView.html(trace, model: FlowModel(trace: trace)) == page)
    }

    @Test("read as a table, every sample gives the page its events give, byte for byte", arguments: sampleNames)
    func tablePageMatches(name: String) throws {
        let trace = try sampleTrace(name)
        let table = try TraceTable.read(bytes: Array(trace.jsonl.utf8), name: name)
        #expect(try TraceView.html(table: table, model: FlowModel(table: table)) == TraceView.html(trace, model: FlowModel(trace: trace)))
    }

    @Test("read as a table, every sample gives the timeline its events give: whole, in a window, for one board", arguments: sampleNames)
    func tableTimelineMatches(name: String) throws {
        let trace = try sampleTrace(name)
        let table = try TraceTable.read(bytes: Array(trace.jsonl.utf8), name: name)
        let times = trace.events.map(\.t.microseconds)
        let (first, last) = (times.min() ?? 0, times.max() ?? 0)
        var cases = [Timeline.Options(), Timeline.Options(causes: false)]
        // Windows that cut spans at either end, and one with no event in it.
        cases.append(Timeline.Options(from: TraceTime(microseconds: first + (last - first) / 3), to: TraceTime(microseconds: last - (last - first) / 3)))
        cases.append(Timeline.Options(from: TraceTime(microseconds: first + (last - first) / 2)))
        cases.append(Timeline.Options(to: TraceTime(microseconds: first + (last - first) / 2)))
        cases.append(Timeline.Options(from: TraceTime(microseconds: last + 1)))
        for board in Set(trace.events.compactMap(\.body.board)).sorted().prefix(3) { cases.append(Timeline.Options(boards: [board])) }
        for options in cases {
            let fromTable = try Timeline.graph(table: table, options: options)
            #expect(fromTable == Timeline.graph(trace, options: options), "\(name): \(options)")
            #expect(!fromTable.nodes.isEmpty)
        }
    }

    @Test("a table's lines the writer would write otherwise are decoded for the page; the rest are copied, and the page is the events' page")
    func tablePageFromUnusualLines() throws {
        // Each line is one the full reader accepts; some the fast pass reads but the writer would
        // write otherwise once decoded (a fraction, -0, 24 digits, t as 0.50), and nulls, which
        // it writes back as they are.
        // Numbered in order below (`seq` from 1).
        let bodies = [
            #""t":0,"kind":"stimulus","mb":"main","action":"activate","board":"a"}"#,
            #""t":0,"kind":"activation.requested","mb":"main","board":"a","input":1.50,"cause":1}"#,
            #""t":0,"kind":"activation.performed","mb":"main","board":"a","input":-0,"cause":2}"#,
            #""t":0,"kind":"output.sent","mb":"main","board":"a","output":[1,-0.0,null,{"k":-10}],"cause":3}"#,
            #""t":0.50,"kind":"output.sent","mb":"main","board":"a","output":"ok","cause":4}"#,
            #""t":0.5,"kind":"output.sent","mb":"main","board":"a","output":1234567890123456789,"cause":4}"#,
            #""t":0.5,"kind":"activation.requested","mb":"main","board":"b","source":"a","input":null,"cause":5}"#,
            #""t":0.5,"kind":"activation.performed","mb":"main","board":"b","input":"x/y<z>&\u0041","cause":6}"#,
            #""t":0.5,"kind":"activation.performed","mb":"main","board":"b","input":"é"}"#,
            #""t":0.5,"kind":"output.sent","mb":"main","board":"b","output":{"n":123456789012345678,"m":-5,"s":"n.0"},"cause":8}"#,
            #""t":0.5,"kind":"output.sent","mb":"main","board":"b","output":123456789012345678901234,"cause":9}"#,
            #""t":0.5,"kind":"output.sent","mb":"main","board":"b","output":"ok","cause":9,"extra":true}"#,
            #""t":0.5,"kind":"command.sent","mb":"main/b","board":"c","command":true,"cause":10}"#,
            #""t":1, "kind":"board.completed","mb":"main","board":"b","success":false,"cause":11}"#,
            #""t":1,"kind":"gateway.checked","mb":"main","board":"c","barrier":"g","result":"wait","cause":12}"#,
            #""t":1,"kind":"future.kind","mb":"main","board":"c","x":[1]}"#,
            #""t":1,"kind":"flow.routed","mb":"main","output":"o","from":"b","to":"c","action":"activate","cause":14}"#,
        ]
        let lines = bodies.enumerated().map { #"{"seq":"# + "\($0.offset + 1)," + $0.element }
        let text = #"{"format":"boardy-trace","version":1,"scenario":"unusual","clock":"virtual"}"# + "\n" + lines.joined(separator: "\n") + "\n"
        let trace = try Trace.read(text: text)
        let table = try TraceTable.read(bytes: Array(text.utf8), name: "unusual.jsonl")
        // The fast pass read some of these lines, so both ways of filling the rest column run.
        #expect(table.readInOnePass.contains(true) && table.readInOnePass.contains(false), "\(table.readInOnePass)")
        let fromEvents = try TraceView.html(trace, model: FlowModel(trace: trace))
        #expect(try TraceView.html(table: table, model: FlowModel(table: table)) == fromEvents)
        // Keeping the events the full parser read while reading changes nothing but the work.
        let keeping = try TraceTable.read(bytes: Array(text.utf8), name: "unusual.jsonl", keepingDecodedEvents: true)
        #expect(try (0..<table.count).map { i throws(TraceReadError) in try keeping.event(at: i) } == trace.events)
        #expect(try TraceView.html(table: keeping, model: FlowModel(table: keeping)) == fromEvents)
        // The same with a first line the fast pass reads, so the first event kept is not row 0.
        let first = #"{"seq":1,"t":0,"kind":"activation.requested","mb":"main","board":"a"}"#
        let text2 = text.replacingOccurrences(of: lines[0], with: first)
        let trace2 = try Trace.read(text: text2)
        let keeping2 = try TraceTable.read(bytes: Array(text2.utf8), name: "unusual.jsonl", keepingDecodedEvents: true)
        #expect(keeping2.readInOnePass[0])
        #expect(try (0..<keeping2.count).map { i throws(TraceReadError) in try keeping2.event(at: i) } == trace2.events)
        #expect(try TraceView.html(table: keeping2, model: FlowModel(table: keeping2)) == TraceView.html(trace2, model: FlowModel(trace: trace2)))
        // The timeline from these tables too, whole and in a window.
        for options in [Timeline.Options(), Timeline.Options(from: .seconds(0.5), to: .seconds(0.5))] {
            #expect(try Timeline.graph(table: table, options: options) == Timeline.graph(trace, options: options))
            #expect(try Timeline.graph(table: keeping2, options: options) == Timeline.graph(trace2, options: options))
        }
    }

    @Test("the timeline of a table with barriers, a gate started twice, holds and odd lines is its events' timeline")
    func tableTimelineFromBarrierLines() throws {
        let bodies = [
            #""t":0,"kind":"stimulus","mb":"main","action":"activate","board":"a"}"#,
            #""t":0,"kind":"activation.requested","mb":"main","board":"a","cause":1}"#,
            #""t":0,"kind":"barrier.checked","mb":"main","board":"a","barrier":"g","scope":"app","result":"wait","cause":2}"#,
            #""t":0,"kind":"barrier.started","mb":"main","barrier":"g","board":"gate1","cause":3}"#,
            #""t":0, "kind":"barrier.started","mb":"main","barrier":"g","board":"gate2","cause":3}"#,
            #""t":1,"kind":"barrier.resolved","mb":"main","barrier":"g","passed":false,"released":1,"cause":5}"#,
            #""t":1,"kind":"activation.cancelled","mb":"main","board":"a","reason":"barrier-failed","cause":6}"#,
            #""t":2,"kind":"dispatch.blocked","mb":"main","dispatcher":"d","barriers":["x"]}"#,
            #""t":3,"kind":"dispatch.sent","mb":"main","dispatcher":"d","events":2,"flush":true,"cause":8}"#,
            #""t":3,"kind":"zzz.custom","mb":"main/é","board":"é","note":"a\"b"}"#,
            #""t":4,"kind":"activation.requested","mb":"main","board":"b","source":"a","cause":10}"#,
            #""t":4,"kind":"barrier.checked","mb":"main","board":"b","barrier":"h","scope":"app","result":"wait","cause":11}"#,
        ]
        let lines = bodies.enumerated().map { #"{"seq":"# + "\($0.offset + 1)," + $0.element }
        let text = #"{"format":"boardy-trace","version":1,"scenario":"barriers","clock":"virtual"}"# + "\n" + lines.joined(separator: "\n") + "\n"
        let trace = try Trace.read(text: text)
        let table = try TraceTable.read(bytes: Array(text.utf8), name: "barriers.jsonl")
        #expect(table.readInOnePass.contains(true) && table.readInOnePass.contains(false))
        let cases = [
            Timeline.Options(), Timeline.Options(causes: false), Timeline.Options(from: .seconds(1), to: .seconds(3)),
            Timeline.Options(from: .seconds(4)), Timeline.Options(boards: ["a"]), Timeline.Options(boards: ["gate2"]),
        ]
        for options in cases {
            let fromTable = try Timeline.graph(table: table, options: options)
            #expect(fromTable == Timeline.graph(trace, options: options), "\(options)")
        }
        // The wait closed by the failed resolution and the one still open are both drawn.
        let ids = try Timeline.graph(table: table).nodes.compactMap { $0.attributes["id"] }
        #expect(ids.contains("wait-3") && ids.contains("wait-12"), "\(ids.filter { $0.hasPrefix("wait") })")
    }

    @Test("hostile text is escaped in the data: no '<', and it reads back exactly")
    func hostileData() throws {
        let ids = ["</script><script>alert(1)</script>", "<img src=x onerror=alert(1)>", "a&b>c", "\u{2028}x\u{2029}", "<!--"]
        var events: [TraceEvent] = []
        for (k, id) in ids.enumerated() {
            events.append(TraceEvent(seq: 2 * k + 1, t: TraceTime(microseconds: Int64(k) * 1_000_000), mb: "main", body: .activationPerformed(board: id, input: .string(id))))
            events.append(TraceEvent(seq: 2 * k + 2, t: TraceTime(microseconds: Int64(k) * 1_000_000), mb: id, cause: 2 * k + 1, body: .outputSent(board: id, output: .string(id))))
        }
        let trace = Trace(header: TraceHeader(scenario: ids[0]), events: events)
        let page = try TraceView.html(trace, model: FlowModel(trace: trace))
        let data = try viewerData(page)
        #expect(!data.contains("<") && !data.contains(">") && !data.contains("&"))
        #expect(!data.contains("\u{2028}"))
        let o = try #require(try JSONValue(parsing: data).objectValue)
        #expect(o["title"]?.stringValue == ids[0])
        let lanes = o["lanes"]?.arrayValue?.compactMap(\.stringValue) ?? []
        for id in ids { #expect(lanes.contains(id) || lanes.contains { $0.hasSuffix("/" + id) }) }
    }
}

