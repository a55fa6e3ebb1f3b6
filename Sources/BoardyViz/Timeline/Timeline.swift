import BoardyGraphviz
import BoardyTrace
import BoardyVizCore

/// A trace drawn on its time axis: a lane per board (grouped by motherboard) and per dispatcher,
/// events as marks, barrier waits as spans from the wait check to the resolution (stuck waits run
/// to the end), causal arrows between lanes, cancellations and loops in red.
///
/// The layout is ours and pinned (every node has a `pos`; Graphviz's `nop2` engine only draws
/// it), so the cost grows linearly with the events. The time axis is piecewise: each distinct
/// time is a column as wide as the events at that time (in `seq` order, so causes read left to
/// right), and the gap between two times grows with the time between them, within bounds. Ticks
/// name the times.
public struct Timeline {
    /// What to draw.
    public struct Options: Sendable {
        /// Only events at or after this time.
        public var from: TraceTime?
        /// Only events at or before this time.
        public var to: TraceTime?
        /// Only these boards' lanes (ids, or `path/id` inside continuous boards); empty: all.
        public var boards: Set<String>
        /// Draw causal arrows between lanes.
        public var causes: Bool

        /// Everything.
        public init(from: TraceTime? = nil, to: TraceTime? = nil, boards: Set<String> = [], causes: Bool = true) {
            self.from = from
            self.to = to
            self.boards = boards
            self.causes = causes
        }
    }

    /// One lane.
    struct Lane {
        let key: String
        let label: String
        let elementID: String
        let group: String
        var row = 0
    }

    static let step = 14.0
    static let rowGap = 36.0
    static let minGap = 24.0
    static let maxGap = 160.0
    static let pointsPerSecond = 60.0
    static let laneLabelX = -24.0

    /// An invisible point at (x, y): the end of a line.
    static func point(_ name: String, _ x: Double, _ y: Double) -> Node {
        Node(name, attributes: ["label": "", "shape": "point", "width": "0.01", "height": "0.01", "pos": "\(x),\(y)"])
    }

    /// The timeline of `trace` as a graph to render with the `nop2` engine.
    public static func graph(_ trace: Trace, options: Options = Options()) -> Graph {
        let events = trace.events.filter { e in
            (options.from.map { e.t >= $0 } ?? true) && (options.to.map { e.t <= $0 } ?? true)
        }
        // Lanes, in order of first appearance within their motherboard group.
        var gateOf: [String: String] = [:]
        for e in trace.events { if case .barrierStarted(let barrier, let gate) = e.body { gateOf["\(e.mb)|\(barrier)"] = gate } }
        var lanes: [String: Lane] = [:]
        var laneOrder: [String] = []
        var laneOf = [String](repeating: "", count: events.count)
        for (i, e) in events.enumerated() {
            let lane = Self.lane(of: e, gateOf: gateOf)
            laneOf[i] = lane.key
            if lanes[lane.key] == nil {
                lanes[lane.key] = lane
                laneOrder.append(lane.key)
            }
        }
        if !options.boards.isEmpty {
            laneOrder = laneOrder.filter { key in
                guard key.hasPrefix("b|") else { return false }
                let keyPath = String(key.dropFirst(2))
                return options.boards.contains(keyPath) || options.boards.contains(lanes[key]!.label)
            }
        }
        let groups = ["stimuli"] + Array(Set(laneOrder.map { lanes[$0]!.group }).subtracting(["stimuli", "dispatch"])).sorted() + ["dispatch"]
        let groupRank = Dictionary(uniqueKeysWithValues: groups.enumerated().map { ($1, $0) })
        laneOrder = laneOrder.enumerated().sorted { a, b in
            let ga = groupRank[lanes[a.element]!.group]!, gb = groupRank[lanes[b.element]!.group]!
            return ga != gb ? ga < gb : a.offset < b.offset
        }.map(\.element)
        for (r, key) in laneOrder.enumerated() { lanes[key]!.row = r }
        let shown = Set(laneOrder)
        // Per event: whether its lane is drawn, and the lane's y (looked up once, not per use).
        var isShown = [Bool](repeating: false, count: events.count)
        var laneY = [Double](repeating: 0, count: events.count)
        for i in events.indices where shown.contains(laneOf[i]) {
            isShown[i] = true
            laneY[i] = -Double(lanes[laneOf[i]]!.row) * rowGap
        }

        // x per event: columns per distinct time.
        var x = [Double](repeating: 0, count: events.count)
        var ticks: [(t: TraceTime, x: Double)] = []
        var cursor = 0.0
        var previous: TraceTime?
        for (i, e) in events.enumerated() where isShown[i] {
            if e.t != previous {
                if let p = previous {
                    let seconds = Double(e.t.microseconds - p.microseconds) / 1_000_000
                    cursor += min(max(seconds * pointsPerSecond, minGap), maxGap)
                }
                ticks.append((e.t, cursor))
                previous = e.t
            } else {
                cursor += step
            }
            x[i] = cursor
        }
        let endX = cursor + maxGap / 2
        func y(_ lane: String) -> Double { -Double(lanes[lane]!.row) * rowGap }

        var g = Graph(name: "timeline")
        g.attributes = [
            "label": "\(trace.header.scenario ?? "trace") · timeline · \(events.count) events", "labelloc": "t",
            "fontname": "Helvetica", "fontsize": "16", "comment": "boardy-viz timeline; layout: pinned (nop2)",
        ]
        g.nodeDefaults = [
            "shape": "circle", "width": "0.16", "height": "0.16", "label": "", "style": "filled",
            "fillcolor": "#ffffff", "fontname": "Helvetica", "fontsize": "10",
        ]
        g.edgeDefaults = ["arrowsize": "0.4", "color": "#999999", "penwidth": "0.6"]

        // Lanes: a label, a guide line; nested motherboards grouped in a cluster.
        var groupNodes: [String: [Node]] = [:]
        var laneNames: Set<String> = []
        for key in laneOrder {
            let lane = lanes[key]!
            let ly = y(key)
            // Named for its <title> (shown on hover). "lane: " cannot start an event's name ("#")
            // or a point's ("ls:", "le:", ...); a hostile trace can give two lanes the same label
            // and group (a motherboard named "dispatch"), and then the later one is numbered.
            var name = "lane: \(lane.label) (\(lane.group))"
            if laneNames.contains(name) {
                var n = 2
                while laneNames.contains(name + " #\(n)") { n += 1 }
                name += " #\(n)"
            }
            laneNames.insert(name)
            let label = Node(
                name,
                attributes: [
                    "shape": "plaintext", "style": "", "label": lane.label, "id": lane.elementID,
                    "pos": "\(laneLabelX - 40),\(ly)",
                ])
            let end = point("le:\(key)", endX, ly)
            let start = point("ls:\(key)", laneLabelX + 16, ly)
            groupNodes[lane.group, default: []] += [label, start, end]
            g.edges.append(Edge(from: "ls:\(key)", to: "le:\(key)", attributes: ["arrowhead": "none", "color": "#e3e3e3", "penwidth": "1"]))
        }
        for group in groups {
            guard let nodes = groupNodes[group] else { continue }
            if !MotherboardPath(group).isRoot {  // an inner motherboard, below a root
                let rows = laneOrder.filter { lanes[$0]!.group == group }.map { lanes[$0]!.row }
                let top = -Double(rows.min()!) * rowGap + rowGap / 2
                let bottom = -Double(rows.max()!) * rowGap - rowGap / 2
                g.subgraphs.append(
                    Subgraph(
                        name: "cluster_\(group)",
                        attributes: ["label": group, "bb": "\(laneLabelX - 120),\(bottom),\(endX + 10),\(top)", "style": "dashed", "color": "#5a8f4e"],
                        nodes: nodes))
            } else {
                g.nodes += nodes
            }
        }

        // The axis and its ticks, above the lanes.
        let axisY = rowGap * 1.2
        let tickEvery = max(1, ticks.count / 400)
        for (k, tick) in ticks.enumerated() where k % tickEvery == 0 || k == ticks.count - 1 {
            g.nodes.append(
                Node(
                    "t:\(k)",
                    attributes: [
                        "shape": "plaintext", "style": "", "label": "\(tick.t)s", "id": "tick-\(k)",
                        "pos": "\(tick.x),\(axisY)", "fontsize": "9",
                    ]))
        }
        g.nodes.append(Node("axis:a", attributes: ["label": "", "shape": "point", "width": "0.01", "height": "0.01", "pos": "0,\(axisY - 10)"]))
        g.nodes.append(point("axis:b", endX, axisY - 10))
        g.edges.append(Edge(from: "axis:a", to: "axis:b", attributes: ["label": "", "color": "#555555", "id": "axis"]))

        // Events.
        var xBySeq: [Int: (x: Double, lane: String, name: String)] = [:]
        xBySeq.reserveCapacity(events.count)
        var openWaits: [String: [(lane: String, x: Double, seq: Int, barrier: String, t: TraceTime)]] = [:]
        var spanNumber = 0
        func span(_ w: (lane: String, x: Double, seq: Int, barrier: String, t: TraceTime), to endX: Double, until: String, color: String, dashed: Bool = false) {
            spanNumber += 1
            let ly = y(w.lane)
            g.nodes.append(point("ws:\(spanNumber)", w.x, ly))
            g.nodes.append(point("we:\(spanNumber)", endX, ly))
            var a: Attributes = [
                "arrowhead": "none", "penwidth": "6", "color": color, "id": "wait-\(w.seq)",
                "tooltip": "\(lanes[w.lane]!.label) waits on \(w.barrier) from t=\(w.t)s \(until)",
            ]
            if dashed { a["style"] = "dashed" }
            g.edges.append(Edge(from: "ws:\(spanNumber)", to: "we:\(spanNumber)", attributes: a))
        }
        for (i, e) in events.enumerated() where isShown[i] {
            let lane = laneOf[i]
            let ex = x[i]
            // A mark's name is the event's summary (`#seq kind ...`, then its fields): Graphviz
            // writes the name as the mark's <title>, which viewers show on hover. A tooltip
            // attribute instead wraps every mark in an anchor, which made a 100k-event render
            // about half as slow again.
            let name = e.summary
            xBySeq[e.seq] = (ex, lane, name)
            var a = Self.mark(e)
            a["id"] = "event-\(e.seq)"
            a["pos"] = "\(ex),\(laneY[i])"
            g.nodes.append(Node(name, attributes: a))
            switch e.body {
            case .gatewayChecked(_, let barrier, let result) where result == .wait:
                openWaits["\(e.mb)|\(barrier)", default: []].append((lane, ex, e.seq, barrier, e.t))
            case .barrierChecked(_, let barrier, _, let result) where result == .wait:
                openWaits["\(e.mb)|\(barrier)", default: []].append((lane, ex, e.seq, barrier, e.t))
            case .barrierResolved(let barrier, let passed, _):
                for w in openWaits.removeValue(forKey: "\(e.mb)|\(barrier)") ?? [] {
                    span(w, to: ex, until: "to t=\(e.t)s: \(passed ? "passed" : "failed")", color: passed ? "#2ca02c66" : "#d6272866")
                }
            case .activationCancelled(let board, let reason) where reason == .loop:
                let laneKey = "b|" + FlowModel.Board.key(mb: e.mb, id: board)
                for k in openWaits.keys.sorted() {  // sorted: the spans' order is in the output
                    let ws = openWaits[k]!
                    let mine = ws.filter { $0.lane == laneKey }
                    guard !mine.isEmpty else { continue }
                    for w in mine { span(w, to: ex, until: "to t=\(e.t)s: cancelled, barrier loop", color: "#d62728aa") }
                    openWaits[k] = ws.filter { $0.lane != laneKey }
                }
            default: break
            }
            if options.causes, let c = e.cause, let from = xBySeq[c], from.lane != lane {
                var a: Attributes = ["id": "cause-\(e.seq)"]
                if Self.isFailure(e) { a["color"] = "#d62728" }
                g.edges.append(Edge(from: from.name, to: name, attributes: a))
            }
        }
        for key in openWaits.keys.sorted() {
            for w in openWaits[key]! { span(w, to: endX, until: "until the end: stuck", color: "#d62728aa", dashed: true) }
        }
        legend(into: &g, at: (laneLabelX - 60, axisY + rowGap * 1.4))
        return g
    }

    /// Renders the timeline of `trace` (`dot`: the graph before layout, with pinned positions).
    public static func render(_ trace: Trace, format: RenderFormat, options: Options = Options()) throws(GraphvizError) -> [UInt8] {
        try GraphvizRenderer.render(graph(trace, options: options), engine: "nop2", format: format)
    }

    // MARK: Lanes and marks

    static func lane(of e: TraceEvent, gateOf: [String: String]) -> Lane {
        func board(_ b: String) -> Lane {
            let k = FlowModel.Board.key(mb: e.mb, id: b)
            return Lane(key: "b|" + k, label: k, elementID: "board-" + k, group: e.mb)
        }
        func dispatcher(_ d: String?) -> Lane {
            guard let d else { return Lane(key: "d|", label: "dispatch", elementID: "dispatch", group: "dispatch") }
            return Lane(key: "d|" + d, label: d, elementID: "dispatcher-" + d, group: "dispatch")
        }
        switch e.body {
        case .stimulus(_, let fields):
            if let b = fields["board"]?.stringValue { return board(b) }
            return Lane(key: "s|", label: "outside", elementID: "stimuli", group: "stimuli")
        case .barrierResolved(let barrier, _, _):
            return board(gateOf["\(e.mb)|\(barrier)"] ?? barrier)
        case .stuckBarrier(_, let gate, _): return board(gate)
        case .stuckDispatcher(let d, _): return dispatcher(d)
        case .dispatchQueued(let d, _), .dispatchBlocked(let d, _), .dispatchSent(let d, _, _): return dispatcher(d)
        case .dispatchBarrier(_, let d, _, _): return dispatcher(d)
        case .dispatchDropped(let fields):
            return dispatcher(fields["dispatcher"]?.stringValue)
        case .unknown(let kind, let fields) where kind.hasPrefix("dispatch."):
            return dispatcher(fields["dispatcher"]?.stringValue)
        default:
            if let b = e.body.board { return board(b) }
            return Lane(key: "o|", label: "other", elementID: "other", group: "stimuli")
        }
    }

    static func isFailure(_ e: TraceEvent) -> Bool {
        switch e.body {
        case .activationCancelled, .barrierLoop, .stuckBarrier: return true
        case .barrierResolved(_, let passed, _): return !passed
        default: return false
        }
    }

    /// Shape and colour per kind (the legend lists them).
    static func mark(_ e: TraceEvent) -> Attributes {
        switch e.body {
        case .stimulus: return ["shape": "star", "fillcolor": "#9467bd", "width": "0.22", "height": "0.22"]
        case .activationRequested: return ["fillcolor": "#ffffff"]
        case .activationPerformed: return ["fillcolor": "#2ca02c"]
        case .activationCancelled: return ["shape": "Msquare", "fillcolor": "#d62728", "color": "#d62728"]
        case .gatewayChecked(_, _, let r): return ["shape": "square", "fillcolor": r == .wait ? "#2b6cb0" : "#c6d8ee"]
        case .barrierChecked(_, _, _, let r): return ["shape": "square", "fillcolor": r == .wait ? "#b06d00" : "#f3dfc1"]
        case .barrierStarted: return ["shape": "invtriangle", "fillcolor": "#ff7f0e"]
        case .barrierResolved(_, let passed, _): return ["shape": "triangle", "fillcolor": passed ? "#2ca02c" : "#d62728"]
        case .barrierLoop: return ["shape": "doubleoctagon", "fillcolor": "#d62728", "width": "0.24", "height": "0.24"]
        case .outputSent: return ["shape": "diamond", "fillcolor": "#333333"]
        case .flowRouted: return ["shape": "triangle", "orientation": "-90", "fillcolor": "#bbbbbb"]  // pointing right; rarrow costs a corner pass per mark
        case .commandSent: return ["shape": "house", "fillcolor": "#17becf"]
        case .boardCompleted(_, let ok): return ["shape": "doublecircle", "fillcolor": ok == false ? "#d62728" : "#7f7f7f"]
        case .dispatchQueued: return ["shape": "box", "fillcolor": "#cccccc"]
        case .dispatchBlocked: return ["shape": "box", "fillcolor": "#ff7f0e"]
        case .dispatchSent: return ["shape": "box", "fillcolor": "#2ca02c"]
        case .dispatchBarrier(_, _, let state, _): return ["shape": "box", "fillcolor": state == "open" ? "#c7e9c0" : "#fcbba1"]
        case .stuckBarrier, .stuckDispatcher: return ["shape": "octagon", "fillcolor": "#d62728", "width": "0.22", "height": "0.22"]
        case .unknown, .dispatchDropped, .runaway: return ["fillcolor": "#eeeeee", "style": "filled,dashed"]
        }
    }

    static func legend(into g: inout Graph, at origin: (x: Double, y: Double)) {
        let items: [(String, TraceEvent.Body)] = [
            ("stimulus", .stimulus(action: "activate", fields: [:])),
            ("requested", .activationRequested(board: "", source: nil, input: nil)),
            ("performed", .activationPerformed(board: "", input: nil)),
            ("cancelled", .activationCancelled(board: "", reason: .loop)),
            ("gateway wait", .gatewayChecked(board: "", barrier: "", result: .wait)),
            ("barrier wait", .barrierChecked(board: "", barrier: "", scope: "", result: .wait)),
            ("gate started", .barrierStarted(barrier: "", board: "")),
            ("resolved", .barrierResolved(barrier: "", passed: true, released: 0)),
            ("loop", .barrierLoop(board: "", cycle: [])),
            ("output", .outputSent(board: "", output: .null)),
            ("routed", .flowRouted(from: "", output: .null, to: nil, action: "")),
            ("completed", .boardCompleted(board: "", success: true)),
            ("dispatch sent", .dispatchSent(dispatcher: "", events: 1, flush: false)),
            ("stuck", .stuckBarrier(barrier: "", gate: "", waiting: [])),
        ]
        var sub = Subgraph(name: "cluster_legend", attributes: ["label": "legend", "style": "rounded", "color": "#cccccc", "id": "legend"])
        for (i, (text, body)) in items.enumerated() {
            let px = origin.x + Double(i % 7) * 110
            let py = origin.y + Double(1 - i / 7) * 26
            var a = mark(TraceEvent(seq: 0, t: .zero, mb: MotherboardPath.main.rawValue, body: body))
            a["id"] = "legend-\(i + 1)"
            a["label"] = ""
            a["pos"] = "\(px),\(py)"
            sub.nodes.append(Node("lg:\(i)", attributes: a))
            sub.nodes.append(
                Node("lgt:\(i)", attributes: ["shape": "plaintext", "style": "", "label": text, "pos": "\(px + 48),\(py)", "fontsize": "9"]))
        }
        sub.attributes["bb"] = "\(origin.x - 20),\(origin.y - 20),\(origin.x + 7 * 110 + 20),\(origin.y + 60)"
        g.subgraphs.append(sub)
    }
}
