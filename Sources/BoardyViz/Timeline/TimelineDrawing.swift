import BoardyGraphviz
import BoardyTrace
import BoardyVizCore

/// One timeline being drawn (``Timeline/graph(_:options:)``), phase by phase: the events kept
/// and their lanes and x, then the graph's lanes, axis, spans, events and legend, in that order
/// (later phases draw on top, and the order of the DOT follows it).
struct TimelineDrawing<S: Timeline.Source> {
    typealias Lane = Timeline.Lane
    typealias Mark = Timeline.Mark

    let all: S
    let options: Timeline.Options
    /// Every event in the window, by trace index.
    private var kept: [Int] = []
    /// Each event's lane key, by trace index ("" for an event outside the window).
    private var laneOf: [String]
    /// The lanes drawn, by key, their rows, and their keys in drawing order.
    private var lanes: [String: Lane] = [:]
    private var rowOf: [String: Int] = [:]
    private var laneOrder: [String] = []
    /// The events drawn (in the window, on a lane drawn), by trace index, in order.
    private var visible: [Int] = []
    /// Each event's x, by trace index (NaN: not drawn).
    private var x: [Double]
    private var axis = Timeline.Axis([])
    /// The encodings drawn, for the legend.
    private var used = Timeline.Marks()
    private var g = Graph(name: "timeline")
    /// Where the axis runs, above the first lane.
    private var axisY: Double { Timeline.rowGap * 1.2 + 12 }  // room for three levels of stimulus labels on the first lane

    init(_ all: S, options: Timeline.Options) {
        self.all = all
        self.options = options
        laneOf = [String](repeating: "", count: all.count)
        x = [Double](repeating: .nan, count: all.count)
    }

    /// The whole graph.
    consuming func draw() throws(S.Failure) -> Graph {
        try layOut()
        start()
        drawLanes()
        drawAxis()
        drawSpans()
        try drawEvents()
        Timeline.legend(
            Mark.allCases.filter { used.contains($0) }, into: &g, at: (Timeline.laneLabelX - 100, axisY + 22),
            width: max(axis.endX - Timeline.laneLabelX + 100, 420))
        return g
    }

    private func y(_ lane: String) -> Double { -Double(rowOf[lane] ?? 0) * Timeline.rowGap }

    // MARK: Layout

    /// The events in the window, their lanes (as the viewer lays them out, then filtered to the
    /// boards asked for), the axis, and each event's x: its instant's, then along its band in
    /// the lane's own order.
    private mutating func layOut() throws(S.Failure) {
        for i in 0..<all.count where (options.from.map { all.t(i) >= $0 } ?? true) && (options.to.map { all.t(i) <= $0 } ?? true) {
            kept.append(i)
        }
        let layout = try all.layout(including: kept)
        for i in kept { laneOf[i] = layout.lanes[Int(layout.laneOf[i])].key }
        var subset = Array(layout.lanes.indices)
        if !options.boards.isEmpty {
            subset = subset.filter { l in
                let lane = layout.lanes[l]
                guard let board = LaneKey.boardKey(of: lane.key) else { return false }
                return options.boards.contains(board) || options.boards.contains(lane.label)
            }
        }
        for (r, l) in layout.ordered(subset).enumerated() {
            let lane = layout.lanes[l]
            lanes[lane.key] = lane
            rowOf[lane.key] = r
            laneOrder.append(lane.key)
        }
        let shown = Set(laneOrder)
        visible = kept.filter { shown.contains(laneOf[$0]) }
        axis = Timeline.Axis(visible.map { all.t($0).microseconds })
        placeInBands()
    }

    /// Each event's rank in its (lane, instant) group and the group's size, in one pass over the
    /// events in order (arrays, not dictionaries keyed by text: 100k events); then its x.
    private mutating func placeInBands() {
        var laneNumber: [String: Int] = [:]
        for (n, key) in laneOrder.enumerated() { laneNumber[key] = n }
        var lastT = [Int64](repeating: -1, count: laneOrder.count)
        var current = [Int](repeating: -1, count: laneOrder.count)  // the lane's open group
        var groupOf = [Int](repeating: 0, count: visible.count)
        var rankOf = [Int](repeating: 0, count: visible.count)
        var sizes: [Int] = []
        for (v, i) in visible.enumerated() {
            let l = laneNumber[laneOf[i]] ?? 0
            let t = all.t(i).microseconds
            if current[l] < 0 || lastT[l] != t {
                current[l] = sizes.count
                sizes.append(0)
                lastT[l] = t
            }
            groupOf[v] = current[l]
            rankOf[v] = sizes[current[l]]
            sizes[current[l]] += 1
        }
        for (v, i) in visible.enumerated() {
            let k = axis.index(all.t(i).microseconds)
            let base = axis.xs.isEmpty ? 0 : axis.xs[k]
            let n = sizes[groupOf[v]]
            let each = n > 1 ? min(Timeline.step, axis.bands[k] / Double(n - 1)) : 0
            // Hundredths of a point: short `pos` strings (a long float in each of 100k marks
            // cost Graphviz a measurable share of the render).
            x[i] = ((base + Double(rankOf[v]) * each) * 2).rounded() / 2
        }
    }

    // MARK: Phases

    /// The graph's title and defaults.
    private mutating func start() {
        g.attributes = [
            "label": "\(all.scenario ?? "trace") · timeline · \(visible.count) events\(all.clock == .order ? " · in the order of the log (no times)" : "")", "labelloc": "t",
            "fontname": "Helvetica", "fontsize": "16", "comment": "boardy-viz timeline; layout: pinned (nop2)",
        ]
        g.nodeDefaults = [
            "shape": "circle", "width": "0.16", "height": "0.16", "label": "", "style": "filled",
            "fillcolor": "#ffffff", "fontname": "Helvetica", "fontsize": "10",
        ]
        g.edgeDefaults = ["arrowsize": "0.4", "color": "#999999", "penwidth": "0.6"]
    }

    /// Lanes: a label, a guide line; nested motherboards grouped in a cluster.
    private mutating func drawLanes() {
        let endX = axis.endX
        var groupNodes: [LaneGroup: [Node]] = [:]
        var laneNames: Set<String> = []
        for key in laneOrder {
            guard let lane = lanes[key] else { continue }
            let ly = y(key)
            // Named for its <title> (shown on hover). "lane: " cannot start an event's name ("#")
            // or a point's ("ls:", "le:", ...); a hostile trace can give two lanes the same label
            // and group (a motherboard named "dispatch"), and then the later one is numbered.
            var name = "lane: \(lane.label) (\(lane.group.name))"
            if laneNames.contains(name) {
                var n = 2
                while laneNames.contains(name + " #\(n)") { n += 1 }
                name += " #\(n)"
            }
            laneNames.insert(name)
            let end = Timeline.point("le:\(key)", endX, ly)
            let start = Timeline.point("ls:\(key)", Timeline.laneLabelX + 16, ly)
            groupNodes[lane.group, default: []] += [Timeline.laneLabel(name, lane, y: ly), start, end]
            g.edges.append(Edge(from: "ls:\(key)", to: "le:\(key)", attributes: ["arrowhead": "none", "color": "#e3e3e3", "penwidth": "1"]))
        }
        let groups = Set(laneOrder.compactMap { lanes[$0]?.group }).union([.stimuli, .dispatch]).sorted()
        for group in groups {
            guard let nodes = groupNodes[group] else { continue }
            if !MotherboardPath(group.name).isRoot {  // an inner motherboard, below a root
                let rows = laneOrder.filter { lanes[$0]?.group == group }.compactMap { rowOf[$0] }
                let top = -Double(rows.min() ?? 0) * Timeline.rowGap + Timeline.rowGap / 2
                let bottom = -Double(rows.max() ?? 0) * Timeline.rowGap - Timeline.rowGap / 2
                // Wide enough for its widest lane label.
                let widest = laneOrder.filter { lanes[$0]?.group == group }.compactMap { lanes[$0].map { Timeline.labelWidth($0) } }.max() ?? 0
                let left = min(Timeline.laneLabelX - 120, Timeline.labelRight - widest - 4)
                g.subgraphs.append(
                    Subgraph(
                        name: "cluster_\(group.name)",
                        attributes: [
                            "label": group.name, "bb": "\(left),\(bottom),\(endX + 10),\(top)", "style": "dashed",
                            "color": "#5a8f4e", "labeljust": "r", "fontsize": "9", "fontcolor": "#5a8f4e",
                        ],
                        nodes: nodes))
            } else {
                g.nodes += nodes
            }
        }
    }

    /// The axis: a line, evenly spaced ticks, breaks, and a bracket under each instant whose
    /// events stack in a band.
    private mutating func drawAxis() {
        let endX = axis.endX
        let bottomY = laneOrder.isEmpty ? 0 : y(laneOrder[laneOrder.count - 1]) - Timeline.rowGap / 2
        for (k, tick) in axis.ticks.enumerated() {
            g.nodes.append(
                Node(
                    "t:\(k)",
                    attributes: [
                        "shape": "plaintext", "style": "", "label": Timeline.timeLabel(TraceTime(microseconds: tick.t), all.clock), "id": "tick-\(k)",
                        "pos": "\(tick.x),\(axisY + 8)", "fontsize": "9",
                    ]))
            g.nodes.append(Timeline.point("tk:\(k)a", tick.x, axisY - 4))
            g.nodes.append(Timeline.point("tk:\(k)b", tick.x, bottomY))
            g.edges.append(Edge(from: "tk:\(k)a", to: "tk:\(k)b", attributes: ["arrowhead": "none", "color": "#f0f0f0", "penwidth": "0.8"]))
        }
        var axisStart = 0.0
        for (n, b) in axis.breaks.enumerated() {
            g.nodes.append(Timeline.point("ax:\(n)a", axisStart, axisY - 10))
            g.nodes.append(Timeline.point("ax:\(n)b", b.from, axisY - 10))
            g.edges.append(Edge(from: "ax:\(n)a", to: "ax:\(n)b", attributes: ["color": "#555555", "arrowhead": "none", "id": n == 0 ? "axis" : "axis-\(n + 1)"]))
            let idle = Timeline.spanLabel(TraceTime(microseconds: b.idle), all.clock)
            var a: Attributes = ["id": "break-\(n + 1)", "label": "≈ +" + idle, "pos": "\((b.from + b.to) / 2),\(axisY - 10)"]
            Timeline.apply(.axisBreak, to: &a, used: &used)
            g.nodes.append(Node("break \(n + 1): nothing happens for \(idle), the axis is cut here", attributes: a))
            axisStart = b.to
        }
        g.nodes.append(Timeline.point("ax:enda", axisStart, axisY - 10))
        g.nodes.append(Timeline.point("ax:endb", endX, axisY - 10))
        g.edges.append(Edge(from: "ax:enda", to: "ax:endb", attributes: ["color": "#555555", "id": axis.breaks.isEmpty ? "axis" : "axis-end"]))
        var counts: [Int64: Int] = [:]
        var spread: [Int64: Double] = [:]
        for i in visible {
            let t = all.t(i).microseconds
            counts[t, default: 0] += 1
            spread[t] = max(spread[t] ?? 0, x[i] - axis.x(t))
        }
        for (k, t) in axis.instants.enumerated() where (spread[t] ?? 0) > 0 {
            let w = spread[t] ?? 0
            var a: Attributes = ["id": "instant-\(k + 1)", "pos": "\(axis.xs[k] + w / 2),\(axisY - 16)", "width": String((w + 6) / 72)]
            Timeline.apply(.instantBand, to: &a, used: &used)
            g.nodes.append(Node("instant \(k + 1): \(counts[t] ?? 0) events at t=\(TraceTime(microseconds: t))s, in order left to right", attributes: a))
        }
    }

    /// Spans, drawn before the marks so marks sit on top: barrier waits, runs (queued behind an
    /// earlier run where they overlap), dispatchers holding events.
    private mutating func drawSpans() {
        let spans = all.spans()
        let visibleSet = Set(visible)
        for w in spans.waits where visibleSet.contains(w.start) || (w.end.map(visibleSet.contains) ?? false) {
            let mark: Mark = switch w.outcome {
            case .passed: .waitPassed
            case .failed: .waitFailed
            case .loop: .waitLoop
            case .stuck: .waitStuck
            }
            let on = w.gateway ? "the gateway (\(w.barrier))" : w.barrier
            let until = w.end.map { "to t=\(all.t($0))s: \(w.outcome.rawValue)" } ?? "until the end: stuck"
            span(
                lane: LaneKey.board(mb: w.mb, id: w.board), from: xAt(w.start), to: xAt(w.end), dy: 0, mark, id: "wait-\(all.seq(w.start))",
                tip: "\(w.board) waits on \(on) from t=\(all.t(w.start))s \(until)")
        }
        for r in spans.runs where visibleSet.contains(r.start) || visibleSet.contains(r.end) {
            let lane = LaneKey.board(mb: r.mb, id: r.board)
            let from = xAt(r.start), to = xAt(r.end)
            if let until = r.overlapsUntil {
                let mid = min(to, xAt(until))
                span(
                    lane: lane, from: from, to: mid, dy: -9, .queuedRun, id: "queued-\(all.seq(r.start))",
                    tip: "\(r.board) (activation #\(all.seq(r.start))) while an earlier run was still going (queued, or running beside it) until t=\(all.t(until))s")
                span(lane: lane, from: mid, to: to, dy: -9, .running, id: "run-\(all.seq(r.start))", tip: "\(r.board) running to t=\(all.t(r.end))s")
            } else {
                span(
                    lane: lane, from: from, to: to, dy: -9, .running, id: "run-\(all.seq(r.start))",
                    tip: "\(r.board) running from t=\(all.t(r.start))s to t=\(all.t(r.end))s")
            }
        }
        for h in spans.holds where visibleSet.contains(h.start) || (h.end.map(visibleSet.contains) ?? false) {
            let until = h.end.map { "to t=\(all.t($0))s" + (h.flushed ? " (flushed)" : "") } ?? "until the end"
            span(
                lane: LaneKey.dispatcher(h.dispatcher), from: xAt(h.start), to: xAt(h.end), dy: 0, h.end == nil ? .heldToEnd : .held,
                id: "held-\(all.seq(h.start))", tip: "\(h.dispatcher) holds its events from t=\(all.t(h.start))s \(until)")
        }
    }

    /// Where a span's end is drawn: its event's x, or the end of the plot (still open), or the
    /// instant's x for an event outside the window.
    private func xAt(_ i: Int?) -> Double {
        let endX = axis.endX
        guard let i else { return endX - 12 }
        if !x[i].isNaN { return x[i] }
        let lastT = visible.last.map { all.t($0).microseconds } ?? 0
        return all.t(i).microseconds > lastT ? endX - 12 : axis.x(all.t(i).microseconds)
    }

    /// One span: a pinned box node (one object; two points and an edge cost three). Empty-label
    /// boxes take their width and height exactly. The name is the <title> viewers show on hover
    /// (a tooltip attribute would be declared for every node).
    private var spanNumber = 0
    private mutating func span(lane: String, from: Double, to: Double, dy: Double, _ mark: Mark, id: String, tip: String) {
        guard lanes[lane] != nil, to > from else { return }
        spanNumber += 1
        var a: Attributes = ["id": id, "label": "", "pos": "\((from + to) / 2),\(y(lane) + dy)", "width": String((to - from) / 72)]
        Timeline.apply(mark, to: &a, used: &used)
        g.nodes.append(Node("\(tip) (span \(spanNumber))", attributes: a))
    }

    /// Events: a mark each, labelled stimuli and choices, causal arrows between lanes.
    private mutating func drawEvents() throws(S.Failure) {
        var labelEnds: [String: Double] = [:]  // lane|level → where its last stimulus label ends
        var nameBySeq: [Int: (lane: String, name: String)] = [:]
        nameBySeq.reserveCapacity(visible.count)
        for i in visible {
            let e = try all.event(i)
            let lane = laneOf[i]
            let ex = x[i]
            let ly = y(lane)
            // A mark's name is the event's summary (`#seq kind ...`, then its fields): Graphviz
            // writes the name as the mark's <title>, which viewers show on hover. A tooltip
            // attribute instead wraps every mark in an anchor, which made a 100k-event render
            // about half as slow again.
            let name = e.summary
            nameBySeq[e.seq] = (lane, name)
            let m = Timeline.mark(e)
            var a = m.attributes
            used.insert(m)
            a["id"] = "event-\(e.seq)"
            a["pos"] = "\(ex),\(ly)"
            g.nodes.append(Node(name, attributes: a))
            var labelText: String?
            if case .stimulus(let action, let fields) = e.body { labelText = Timeline.stimulusLabel(action, fields) }
            if case .choice(let fields) = e.body { labelText = Timeline.choiceLabel(fields) }
            if let text = labelText {
                // Labels of close stimuli on one lane step up, three levels, so they never overlap.
                let half = Double(text.count) * 2.3 + 4
                var level = 0
                while level < 2, (labelEnds[lane + "|\(level)"] ?? -.infinity) > ex - half { level += 1 }
                labelEnds[lane + "|\(level)"] = ex + half
                g.nodes.append(
                    Node(
                        "sl:\(e.seq)",
                        attributes: [
                            "shape": "plaintext", "style": "", "label": text, "fontsize": "8",
                            "pos": "\(ex),\(ly + 13 + Double(level) * 9)", "id": "stimulus-label-\(e.seq)",
                        ]))
            }
            if options.causes, let c = e.cause, let from = nameBySeq[c], from.lane != lane {
                var a: Attributes = ["id": "cause-\(e.seq)"]
                Timeline.apply(Timeline.isFailure(e) ? .failureCause : .cause, to: &a, used: &used)
                g.edges.append(Edge(from: from.name, to: name, attributes: a))
            }
        }
    }
}

extension Timeline {
    /// A lane's label, right-aligned to end before its guide line starts, so that a long label
    /// (`pubAuth · gate run for pubShoppingCart`) grows to the left, never into the plot. Its
    /// width is estimated generously before layout (the renderer doubles backslashes in labels,
    /// so Graphviz's `\r` justification is not available to user text): 6 pt a character at
    /// 10 pt Helvetica (about 5.6 on average), 10 for characters outside ASCII.
    static func laneLabel(_ name: String, _ lane: Lane, y: Double) -> Node {
        Node(
            name,
            attributes: [
                "shape": "plaintext", "style": "", "label": lane.label, "id": lane.elementID, "pos": "\(labelRight - labelWidth(lane) / 2),\(y)",
            ])
    }

    /// Where lane labels end: 8 pt before their guide lines start.
    static var labelRight: Double { Timeline.laneLabelX + 8 }

    /// A lane label's estimated width, in points.
    static func labelWidth(_ lane: Lane) -> Double {
        lane.label.unicodeScalars.reduce(0.0) { $0 + ($1.isASCII ? 6 : 10) }
    }
}
