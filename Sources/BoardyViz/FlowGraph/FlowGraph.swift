import Foundation
import BoardyGraphviz
import BoardyTrace
import BoardyVizCore

/// Draws a `FlowModel` as a Graphviz `Graph`: boards as nodes (shape by kind), modules as
/// clusters, continuous boards as nested clusters, flows as solid edges labelled with the
/// output, activation-barrier and gateway edges dashed from the gate, exempt boards with a double
/// border, barrier loops in red, and a legend.
///
/// Layout strategy, by size (measured in BENCHMARKS.md, `boardy-bench render`):
/// - up to ``dotLimit`` boards, Graphviz's `dot` (bounded network simplex and mincross above
///   ``boundedDotFrom`` boards, straight edges);
/// - above, a layered layout of our own (longest-path layers, modules as bands, barycentric
///   order), pinned through Graphviz's `nop2` engine, which costs linear time where `dot` grows
///   like n^2.7.
/// The SVG's title line names the strategy used.
public enum FlowGraph {
    /// How a graph was laid out.
    public enum Strategy: String, Sendable {
        /// Graphviz's `dot` with its default attributes.
        case dot
        /// `dot` with bounded iterations (`nslimit`, `mclimit`) and straight edges.
        case boundedDot = "dot-bounded"
        /// Our own layered layout, pinned through `nop2`.
        case layered = "layered+nop2"

        /// The Graphviz engine that renders it.
        public var engine: String { self == .layered ? "nop2" : "dot" }
    }

    /// Above this many boards, the layered layout.
    public static let dotLimit = 400
    /// From this many boards, `dot` runs with bounded iterations.
    public static let boundedDotFrom = 150

    /// The strategy for `model` (or the one forced).
    public static func strategy(for model: FlowModel) -> Strategy {
        model.boards.count > dotLimit ? .layered : model.boards.count >= boundedDotFrom ? .boundedDot : .dot
    }

    /// The graph of `model`, and the engine to lay it out with (without its legend, which is
    /// placed once the layout's size is known: ``render(_:format:strategy:)``).
    public static func graph(_ model: FlowModel, strategy forced: Strategy? = nil) -> (graph: Graph, engine: String) {
        let d = drawing(model, strategy: forced)
        return (d.graph, d.engine)
    }

    /// The graph, its engine, and the encodings it uses (what its legend lists).
    static func drawing(_ model: FlowModel, strategy forced: Strategy? = nil) -> (graph: Graph, engine: String, marks: [Mark]) {
        let strategy = forced ?? strategy(for: model)
        var g = Graph(name: "flow")
        g.attributes = [
            "label": "\(model.title) · flow graph from the \(model.source) · layout: \(strategy.rawValue)",
            "labelloc": "t", "fontname": "Helvetica", "fontsize": "16",
            "comment": "boardy-viz flow graph; layout strategy: \(strategy.rawValue)",
        ]
        g.nodeDefaults = ["fontname": "Helvetica", "fontsize": "11", "style": "filled", "fillcolor": "#ffffff", "shape": "box"]
        g.edgeDefaults = ["fontname": "Helvetica", "fontsize": "9", "color": "#444444"]
        var used = Set<Mark>()
        let guarded = guardedBoards(model)
        var pinned: [String: (x: Double, y: Double)]?
        switch strategy {
        case .dot, .boundedDot:
            g.attributes["rankdir"] = "LR"
            if strategy == .boundedDot {
                g.attributes["nslimit"] = "2"
                g.attributes["mclimit"] = "0.3"
                g.attributes["splines"] = "line"
            }
            clusters(model, guarded: guarded, into: &g, used: &used)
        case .layered:
            pinned = layered(model, guarded: guarded, into: &g, used: &used)
        }
        edges(model, into: &g, labels: strategy != .layered, pinned: pinned, used: &used)
        if strategy != .layered { dispatchPipeline(model, into: &g, used: &used) }
        return (g, strategy.engine, Mark.allCases.filter(used.contains))
    }

    /// Renders `model` to `format` (`dot`: the graph before layout, without the legend).
    public static func render(_ model: FlowModel, format: RenderFormat, strategy: Strategy? = nil) throws(GraphvizError) -> [UInt8] {
        var (g, engine, marks) = drawing(model, strategy: strategy)
        if format == .dot { return try GraphvizRenderer.render(g, engine: engine, format: format) }
        if engine == "nop2", let box = pinnedBox(g) {
            // Our own layout: its box is known without laying it out twice.
            let extra = legend(marks, around: box)
            g.nodes += extra.nodes
            g.edges += extra.edges
            g.subgraphs += extra.subgraphs
            return try GraphvizRenderer.render(g, engine: engine, format: format)
        }
        return try GraphvizRenderer.render(g, engine: engine, format: format) { box in legend(marks, around: box) }
    }

    /// The box of a pinned graph: its nodes' positions (with room for a label) and its
    /// clusters' boxes.
    static func pinnedBox(_ g: Graph) -> LayoutBox? {
        var box = LayoutBox(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
        func add(_ x: Double, _ y: Double) {
            box.minX = min(box.minX, x)
            box.maxX = max(box.maxX, x)
            box.minY = min(box.minY, y)
            box.maxY = max(box.maxY, y)
        }
        func visit(_ nodes: [Node], _ subs: [Subgraph]) {
            for n in nodes {
                guard let pos = n.attributes["pos"] else { continue }
                let p = pos.split(separator: ",").compactMap { Double($0) }
                if p.count == 2 {
                    add(p[0] - 80, p[1] - 20)
                    add(p[0] + 80, p[1] + 20)
                }
            }
            for s in subs {
                if let bb = s.attributes["bb"].flatMap(LayoutBox.init) {
                    add(bb.minX, bb.minY)
                    add(bb.maxX, bb.maxY)
                }
                visit(s.nodes, s.subgraphs)
            }
        }
        visit(g.nodes, g.subgraphs)
        return box.minX <= box.maxX ? box : nil
    }

    /// Graphviz's JSON of the laid-out graph with its legend: every object's drawing operations
    /// (xdot), for the HTML viewer to draw.
    package static func xdotJSON(_ model: FlowModel) throws(GraphvizError) -> [UInt8] {
        let (g, engine, marks) = drawing(model)
        return try GraphvizRenderer.drawing(g, engine: engine) { box in legend(marks, around: box) }
    }

    // MARK: Encodings

    /// Every encoding a flow graph uses, defined once: the marks in the picture and the samples
    /// in its legend take their attributes from here, so they cannot disagree.
    enum Mark: Int, CaseIterable, Hashable {
        case board, task, continuous, barrierBoard, guarded, exempt, gateway, dispatcher, dispatchBarrier, trackHub
        case flow, relay, barrier, gatewayEdge, guardedBy, loop, unexercised, tracked, scope

        var isEdge: Bool { rawValue >= Mark.flow.rawValue }

        /// The mark's attributes (before its label, id and tooltip).
        var attributes: Attributes {
            switch self {
            case .board: return ["shape": "box"]
            case .task: return ["shape": "cds", "fillcolor": "#e8f1fb"]
            case .continuous: return ["shape": "tab", "fillcolor": "#eef7ea"]
            case .barrierBoard: return ["shape": "octagon", "fillcolor": "#fdf0e0"]
            case .guarded: return ["color": "#2b6cb0", "penwidth": "2"]
            case .exempt: return ["peripheries": "2"]
            case .gateway: return ["shape": "invhouse", "fillcolor": "#dbe7f5", "color": "#2b6cb0"]
            case .dispatcher: return ["shape": "cylinder", "fillcolor": "#f0ecf7", "color": "#6b4e9b"]
            case .dispatchBarrier: return ["shape": "hexagon", "fillcolor": "#fbe9e7", "color": "#a0522d", "fontsize": "9", "margin": "0.02"]
            case .trackHub: return ["shape": "invtrapezium", "fillcolor": "#f0ecf7", "color": "#6b4e9b"]
            case .flow: return [:]
            case .relay: return ["style": "bold", "color": "#5a8f4e", "arrowhead": "empty"]
            case .barrier: return ["style": "dashed", "color": "#b06d00", "arrowhead": "tee"]
            case .gatewayEdge: return ["style": "dashed", "color": "#2b6cb0", "arrowhead": "tee"]
            case .guardedBy: return ["style": "dotted", "color": "#2b6cb0", "arrowhead": "none"]
            case .loop: return ["style": "dashed", "color": "#d62728", "fontcolor": "#d62728", "arrowhead": "tee", "penwidth": "2"]
            case .unexercised: return ["style": "dashed", "color": "#a0a0a0", "fontcolor": "#808080"]
            case .tracked: return ["style": "dotted", "color": "#6b4e9b"]
            case .scope: return ["style": "dashed", "color": "#a0522d", "arrowhead": "tee"]
            }
        }

        /// What the legend says.
        var text: String {
            switch self {
            case .board: return "board"
            case .task: return "task board"
            case .continuous: return "continuous / flow board"
            case .barrierBoard: return "barrier board"
            case .guarded: return "guarded by the gateway"
            case .exempt: return "exempt from the gateway"
            case .gateway: return "gateway"
            case .dispatcher: return "dispatcher"
            case .dispatchBarrier: return "dispatch barrier"
            case .trackHub: return "tracked events"
            case .flow: return "flow (output)"
            case .relay: return "relay out"
            case .barrier: return "activation barrier (gate ⊣ board)"
            case .gatewayEdge: return "gate ⊣ gateway"
            case .guardedBy: return "gateway ⋯ guarded"
            case .loop: return "barrier loop"
            case .unexercised: return "never exercised"
            case .tracked: return "tracked output"
            case .scope: return "holds back (scope)"
            }
        }

        /// The node kind's mark.
        static func kind(_ kind: BoardKind?) -> Mark {
            switch kind {
            case .task, .blockTask, .resultTask: return .task
            case .barrier: return .barrierBoard
            case .flow, .continuous: return .continuous
            case .board, nil: return .board
            }
        }
    }

    /// `base` with `mark`'s attributes laid over it.
    static func apply(_ mark: Mark, to base: inout Attributes, used: inout Set<Mark>) {
        for (k, v) in mark.attributes { base[k] = v }
        used.insert(mark)
    }

    // MARK: Nodes

    static func nodeName(_ b: FlowModel.Board) -> String { "b:" + b.key }

    /// Boards the gateway guards: the targets of its (non-loop) links.
    static func guardedBoards(_ model: FlowModel) -> Set<String> {
        Set(model.links.filter { $0.kind == .gateway }.map(\.to))
    }

    static func node(_ b: FlowModel.Board, guarded: Bool, used: inout Set<Mark>) -> Node {
        var a: Attributes = ["id": b.elementID, "label": b.count.map { "\(b.id)\n×\($0)" } ?? b.id]
        apply(Mark.kind(b.kind), to: &a, used: &used)
        var tip = "\(b.id) — \(b.kindLabel)"
        if let m = b.module { tip += ", module \(m)" }
        if !b.mb.isRoot { tip += ", in \(b.mb)" }
        if let c = b.count { tip += ", performed ×\(c)" }
        if b.exempt {
            apply(.exempt, to: &a, used: &used)
            tip += ", exempt from the gateway"
        } else if b.bypass {
            tip += ", bypasses the gateway"
        }
        if guarded {
            apply(.guarded, to: &a, used: &used)
            tip += ", guarded by the gateway"
        }
        if let src = b.source { tip += " — registered at \(src)" }
        a["tooltip"] = tip
        return Node(nodeName(b), attributes: a)
    }

    /// Modules as clusters; a continuous board and its inner boards as a cluster inside.
    static func clusters(_ model: FlowModel, guarded: Set<String>, into g: inout Graph, used: inout Set<Mark>) {
        var moduleOrder: [String] = []
        var byModule: [String: [FlowModel.Board]] = [:]
        var byMB: [MotherboardPath: [FlowModel.Board]] = [:]
        for b in model.boards {
            byMB[b.mb, default: []].append(b)
            guard b.mb.isRoot else { continue }
            let m = b.module ?? ""
            if byModule[m] == nil { moduleOrder.append(m) }
            byModule[m, default: []].append(b)
        }
        var clusterNumber = 0
        func place(_ b: FlowModel.Board) -> (node: Node?, sub: Subgraph?) {
            guard let inner = b.inner else { return (node(b, guarded: guarded.contains(b.key), used: &used), nil) }
            clusterNumber += 1
            var sub = Subgraph(
                name: "cluster_c\(clusterNumber)",
                attributes: ["label": "\(b.id) (\(b.kindLabel))", "style": "rounded,dashed", "color": "#5a8f4e", "id": "cluster-" + b.key])
            sub.nodes.append(node(b, guarded: guarded.contains(b.key), used: &used))
            for child in byMB[inner] ?? [] {
                let (n, s) = place(child)
                if let n { sub.nodes.append(n) }
                if let s { sub.subgraphs.append(s) }
            }
            return (nil, sub)
        }
        for (i, m) in moduleOrder.enumerated() {
            var nodes: [Node] = []
            var subs: [Subgraph] = []
            for b in byModule[m] ?? [] {
                let (n, s) = place(b)
                if let n { nodes.append(n) }
                if let s { subs.append(s) }
            }
            if m.isEmpty {
                g.nodes += nodes
                g.subgraphs += subs
            } else {
                g.subgraphs.append(
                    Subgraph(
                        name: "cluster_m\(i)", attributes: ["label": m, "style": "rounded", "color": "#9aa5b1", "id": "module-" + m],
                        nodes: nodes, subgraphs: subs))
            }
        }
    }

    // MARK: Edges

    /// Flows and activation barriers, one edge each. The gateway is drawn once per gate: the gate
    /// ⊣ a gateway node, dotted lines from it to the boards it guards (which also carry a blue
    /// border); only gateway links in a loop are drawn one by one, in red.
    /// `pinned`: the boards' positions, when the layout is ours (the gateway node goes beside its gate).
    static func edges(_ model: FlowModel, into g: inout Graph, labels: Bool, pinned: [String: (x: Double, y: Double)]? = nil, used: inout Set<Mark>) {
        let keys = Set(model.boards.map(\.key))
        var gateways: [(gate: String, links: [Int])] = []
        for (i, l) in model.links.enumerated() where keys.contains(l.from) && keys.contains(l.to) {
            var a: Attributes = ["id": "link-\(i + 1)"]
            var label = l.label
            if let c = l.count { label += " ×\(c)" }
            switch l.kind {
            case .flow:
                if l.label.hasSuffix("→ relay") || l.label.contains("→ relay ") {
                    apply(.relay, to: &a, used: &used)
                    a["tooltip"] = "relay: \(l.from) sends out of \(l.to) on \(label)"
                } else {
                    apply(.flow, to: &a, used: &used)
                    a["tooltip"] = "flow: \(l.from) → \(l.to) on \(label)"
                }
            case .barrier:
                apply(.barrier, to: &a, used: &used)
                a["tooltip"] = "activation barrier \(l.label): \(l.to) waits for \(l.from)"
            case .gateway:
                guard !l.inLoop else {
                    apply(.gatewayEdge, to: &a, used: &used)
                    a["tooltip"] = "gateway: \(l.to) waits for \(l.from)"
                    break
                }
                if let k = gateways.firstIndex(where: { $0.gate == l.from }) { gateways[k].links.append(i) } else { gateways.append((l.from, [i])) }
                continue
            }
            if l.inLoop {
                apply(.loop, to: &a, used: &used)
                a["tooltip"] = "barrier loop: " + (a["tooltip"] ?? "")
                label = "loop · " + label
            }
            weigh(l, &a, used: &used)
            if let src = l.source { a["tooltip"] = (a["tooltip"] ?? "") + " — at \(src)" }
            if labels {
                a["label"] = label
                // dot may place a label away from a long edge's middle: a line ties it to it.
                a["decorate"] = "true"
            }
            g.edges.append(Edge(from: "b:" + l.from, to: "b:" + l.to, attributes: a))
        }
        for (n, gw) in gateways.enumerated() {
            let hub = "gateway:\(n + 1)"
            let guardedKeys = gw.links.map { model.links[$0].to }
            let total = gw.links.compactMap { model.links[$0].count }.reduce(0, +)
            let counted = gw.links.contains { model.links[$0].count != nil }
            var a: Attributes = [
                "id": "gateway-\(n + 1)", "label": "gateway\n\(guardedKeys.count) guarded",
                "tooltip": "the gateway: \(Self.list(guardedKeys)) wait for \(gw.gate)" + (counted ? " (×\(total) waits)" : ""),
            ]
            apply(.gateway, to: &a, used: &used)
            if let pinned {
                let p = pinned[gw.gate] ?? (0, 0)
                a["pos"] = "\(p.x + 90),\(p.y + 22)"
            }
            g.nodes.append(Node(hub, attributes: a))
            var e: Attributes = ["id": "gateway-\(n + 1)-gate", "tooltip": "gate of the gateway: \(gw.gate)"]
            apply(.gatewayEdge, to: &e, used: &used)
            if counted, labels { e["label"] = "×\(total)" }
            g.edges.append(Edge(from: "b:" + gw.gate, to: hub, attributes: e))
            // Past a dozen guarded boards the lines only hide the flows: the blue border says it.
            guard gw.links.count <= maxGuardLines else {
                a["label"] = "gateway\n\(guardedKeys.count) guarded\n(blue border)"
                g.nodes[g.nodes.count - 1].attributes["label"] = a["label"]
                continue
            }
            for i in gw.links {
                let l = model.links[i]
                var a: Attributes = ["id": "link-\(i + 1)", "tooltip": "gateway: \(l.to) waits for \(l.from)"]
                apply(.guardedBy, to: &a, used: &used)
                weigh(l, &a, used: &used)
                if let src = l.source { a["tooltip"] = (a["tooltip"] ?? "") + " — at \(src)" }
                g.edges.append(Edge(from: hub, to: "b:" + l.to, attributes: a))
            }
        }
    }

    /// The first 20 of `items`, then how many more.
    static func list(_ items: [String]) -> String {
        items.count <= 20 ? items.joined(separator: ", ") : items.prefix(20).joined(separator: ", ") + " and \(items.count - 20) more"
    }

    /// Up to this many guarded boards, dotted lines join the gateway node to each.
    static let maxGuardLines = 12

    /// Coverage: thicker with use, dashed grey when never exercised.
    static func weigh(_ l: FlowModel.Link, _ a: inout Attributes, used: inout Set<Mark>) {
        guard let c = l.count else { return }
        a["tooltip"] = (a["tooltip"] ?? "") + " ×\(c)"
        guard !l.inLoop else { return }
        if c == 0 {
            apply(.unexercised, to: &a, used: &used)
            a["tooltip"] = (a["tooltip"] ?? "") + " — never exercised"
        } else {
            // Thicker with use: 1 for once, up to 6 (a log scale, so a hot edge does not drown
            // the rest).
            a["penwidth"] = String(min(6, 1 + Int(log2(Double(c)))))
        }
    }

    /// Tracked outputs → the tracked-events hub → each dispatcher; each dispatch barrier ⊣ the
    /// dispatchers it scopes, with its configuration in its label.
    static func dispatchPipeline(_ model: FlowModel, into g: inout Graph, used: inout Set<Mark>) {
        guard let d = model.dispatch, !d.dispatchers.isEmpty || !d.barriers.isEmpty || !d.tracked.isEmpty else { return }
        var sub = Subgraph(name: "cluster_dispatch", attributes: ["label": "dispatch", "style": "rounded", "color": "#6b4e9b", "id": "dispatch"])
        var hub: Attributes = ["id": "dispatch-track", "label": "track"]
        var hubTip = "events tracked: outputs of \(d.tracked.map(\.board).joined(separator: ", "))"
        if let direct = d.directTracks { hubTip += ", and \(direct) tracked directly" }
        hub["tooltip"] = hubTip
        apply(.trackHub, to: &hub, used: &used)
        sub.nodes.append(Node("dispatch:track", attributes: hub))
        for (i, disp) in d.dispatchers.enumerated() {
            var a: Attributes = ["id": "dispatcher-\(i + 1)"]
            var label = disp.id
            if let detail = disp.detail { label += "\n" + detail }
            if let sent = disp.sent { label += "\nsent ×\(sent)" }
            a["label"] = label
            a["tooltip"] = "dispatcher \(disp.id)"
            apply(.dispatcher, to: &a, used: &used)
            sub.nodes.append(Node("dispatcher:" + disp.id, attributes: a))
            var e: Attributes = ["id": "dispatch-queue-\(i + 1)"]
            apply(.flow, to: &e, used: &used)
            g.edges.append(Edge(from: "dispatch:track", to: "dispatcher:" + disp.id, attributes: e))
        }
        for (i, b) in d.barriers.enumerated() {
            var a: Attributes = ["id": "dispatch-barrier-\(i + 1)"]
            a["label"] = ([b.id, "scopes: " + b.scopes.joined(separator: ", ")] + b.configuration).joined(separator: "\n")
            a["tooltip"] = "dispatch barrier \(b.id)"
            apply(.dispatchBarrier, to: &a, used: &used)
            sub.nodes.append(Node("dispatch-barrier:" + b.id, attributes: a))
            let scoped = b.scopes.contains("all") ? d.dispatchers.map(\.id) : b.scopes.filter { s in d.dispatchers.contains { $0.id == s } }
            for s in scoped {
                var e: Attributes = ["id": "dispatch-scope-\(i + 1)-\(s)"]
                apply(.scope, to: &e, used: &used)
                g.edges.append(Edge(from: "dispatch-barrier:" + b.id, to: "dispatcher:" + s, attributes: e))
            }
        }
        g.subgraphs.append(sub)
        let keys = Set(model.boards.map(\.key))
        for (i, t) in d.tracked.enumerated() where keys.contains(t.board) {
            var e: Attributes = ["id": "dispatch-tracked-\(i + 1)", "tooltip": "outputs of \(t.board) are tracked"]
            apply(.tracked, to: &e, used: &used)
            if let c = t.count { e["label"] = "×\(c)" }
            g.edges.append(Edge(from: "b:" + t.board, to: "dispatch:track", attributes: e))
        }
    }

    // MARK: Legend

    /// The legend of `marks`, placed beside `box` (the laid-out picture): a compact frame of
    /// samples drawn with the marks' own attributes, in rows below the picture or in a column
    /// to its right, whichever keeps the whole picture smaller.
    static func legend(_ marks: [Mark], around box: LayoutBox) -> Graph {
        var g = Graph(name: "legend")
        guard !marks.isEmpty else { return g }
        let sample = 28.0, gap = 5.0, pad = 7.0, rowHeight = 17.0, charWidth = 4.5
        // Helvetica at 8 pt averages about 4.2 pt a character: a generous estimate, so text
        // never runs into the next entry.
        func width(_ m: Mark) -> Double { sample + gap + Double(m.text.count) * charWidth + 12 }
        let widths = marks.map(width)
        // Below: rows no wider than the picture (at least one entry a row).
        func rows(limit: Double) -> [[Int]] {
            var out: [[Int]] = [[]]
            var x = 0.0
            for i in marks.indices {
                if x + widths[i] > limit, !(out.last ?? []).isEmpty {
                    out.append([])
                    x = 0
                }
                out[out.count - 1].append(i)
                x += widths[i]
            }
            return out
        }
        // Below: rows as wide as the picture, or wider when that takes a smaller share of it.
        var belowRows = rows(limit: max(box.width, 240))
        var belowWidth = 0.0
        var belowShare = Double.infinity
        for limit in [max(box.width, 240), box.width * 1.5, box.width * 2, widths.reduce(0, +)] {
            let r = rows(limit: limit)
            let w = r.map { $0.reduce(0.0) { $0 + widths[$1] } }.max() ?? 0
            let legendArea = (w + 2 * pad) * (Double(r.count) * rowHeight + 2 * pad)
            let share = legendArea / (max(box.width, w + 2 * pad) * (box.height + Double(r.count) * rowHeight + 2 * pad + 10))
            if share < belowShare {
                (belowRows, belowWidth, belowShare) = (r, w, share)
            }
        }
        // Right: one entry a row, in as many columns as the picture's height needs.
        // A layout's box comes from Graphviz: a size that is not finite (or absurd) gets one row.
        let rows = (box.height - 2 * pad) / rowHeight
        let perColumn = rows.isFinite ? max(1, Int(min(max(rows, 1), 1_000_000))) : 1
        let columns = stride(from: 0, to: marks.count, by: perColumn).map { Array($0..<min($0 + perColumn, marks.count)) }
        let columnWidths = columns.map { $0.map { widths[$0] }.max() ?? 0 }
        let rightWidth = columnWidths.reduce(0, +) + 2 * pad
        let rightHeight = Double(min(marks.count, perColumn)) * rowHeight + 2 * pad
        let rightShare = rightWidth * rightHeight / ((box.width + rightWidth + 10) * max(box.height, rightHeight))
        // Entry positions (x of the sample's left end, y of the row's middle).
        var at: [(x: Double, y: Double)] = Array(repeating: (0, 0), count: marks.count)
        let frame: LayoutBox
        // Whichever takes the smaller share of the whole picture.
        if belowShare <= rightShare {
            let top = box.minY - 10
            for (r, row) in belowRows.enumerated() {
                var x = box.minX + pad
                for i in row {
                    at[i] = (x, top - pad - rowHeight / 2 - Double(r) * rowHeight)
                    x += widths[i]
                }
            }
            frame = LayoutBox(minX: box.minX, minY: top - 2 * pad - Double(belowRows.count) * rowHeight, maxX: box.minX + belowWidth + 2 * pad, maxY: top)
        } else {
            let left = box.maxX + 10
            var x = left + pad
            for (c, column) in columns.enumerated() {
                for (r, i) in column.enumerated() { at[i] = (x, box.maxY - pad - rowHeight / 2 - Double(r) * rowHeight) }
                x += columnWidths[c]
            }
            frame = LayoutBox(minX: left, minY: box.maxY - 2 * pad - Double(min(marks.count, perColumn)) * rowHeight, maxX: left + rightWidth, maxY: box.maxY)
        }
        var sub = Subgraph(
            name: "cluster_legend",
            attributes: ["label": "", "style": "rounded", "color": "#cccccc", "id": "legend", "bb": "\(frame.minX),\(frame.minY),\(frame.maxX),\(frame.maxY)"])
        var unused = Set<Mark>()
        for (i, m) in marks.enumerated() {
            let (x, y) = at[i]
            if m.isEdge {
                var a: Attributes = ["id": "legend-\(i + 1)", "tooltip": m.text]
                apply(m, to: &a, used: &unused)
                let x1 = x, x2 = x + sample
                // An explicit spline (so nop2 routes nothing): 4 control points, the arrowhead's
                // tip given apart when there is one.
                let head = a["arrowhead"] == "none" ? 0.0 : 8.0
                let end = x2 - head
                var pos = "\(x1),\(y) \(x1 + (end - x1) / 3),\(y) \(x1 + 2 * (end - x1) / 3),\(y) \(end),\(y)"
                if head > 0 { pos = "e,\(x2),\(y) " + pos }
                a["pos"] = pos
                sub.nodes.append(Node("legend:a\(i)", attributes: ["shape": "point", "width": "0.01", "height": "0.01", "label": "", "style": "invis", "pos": "\(x1),\(y)"]))
                sub.nodes.append(Node("legend:b\(i)", attributes: ["shape": "point", "width": "0.01", "height": "0.01", "label": "", "style": "invis", "pos": "\(x2),\(y)"]))
                g.edges.append(Edge(from: "legend:a\(i)", to: "legend:b\(i)", attributes: a))
            } else {
                var a: Attributes = ["id": "legend-\(i + 1)", "label": "", "fixedsize": "true", "width": "0.36", "height": "0.19", "tooltip": m.text]
                apply(.board, to: &a, used: &unused)
                if m == .guarded || m == .exempt { a["fillcolor"] = "#ffffff" }
                apply(m, to: &a, used: &unused)
                a["pos"] = "\(x + sample / 2),\(y)"
                sub.nodes.append(Node("legend:n\(i)", attributes: a))
            }
            let textWidth = Double(m.text.count) * charWidth + 8
            sub.nodes.append(
                Node(
                    "legend:t\(i)",
                    attributes: [
                        "shape": "plaintext", "style": "", "label": m.text, "fontsize": "8", "margin": "0", "fixedsize": "true",
                        "id": "legend-text-\(i + 1)",
                        "width": String(textWidth / 72), "height": "0.2", "pos": "\(x + sample + gap + textWidth / 2),\(y)",
                    ]))
        }
        g.subgraphs.append(sub)
        return g
    }

    // MARK: Layered layout

    /// Longest-path layers (back edges ignored), modules as horizontal bands, nodes ordered in
    /// their band by the mean row of their predecessors; positions pinned for `nop2`.
    /// Returns each board's position.
    static func layered(_ model: FlowModel, guarded: Set<String>, into g: inout Graph, used: inout Set<Mark>) -> [String: (x: Double, y: Double)] {
        let n = model.boards.count
        var index: [String: Int] = [:]
        for (i, b) in model.boards.enumerated() { index[b.key] = i }
        var out = [[Int]](repeating: [], count: n)
        for l in model.links {
            guard let a = index[l.from], let b = index[l.to], a != b else { continue }
            out[a].append(b)
        }
        // Back edges: found by an iterative DFS in declaration order.
        var state = [UInt8](repeating: 0, count: n)  // 0 new, 1 on stack, 2 done
        var forward = [[Int]](repeating: [], count: n)
        for root in 0..<n where state[root] == 0 {
            var stack: [(Int, Int)] = [(root, 0)]
            state[root] = 1
            while let (v, i) = stack.last {
                if i < out[v].count {
                    stack[stack.count - 1].1 += 1
                    let w = out[v][i]
                    if state[w] == 1 { continue }  // back edge
                    forward[v].append(w)
                    if state[w] == 0 {
                        state[w] = 1
                        stack.append((w, 0))
                    }
                } else {
                    state[v] = 2
                    stack.removeLast()
                }
            }
        }
        // Longest path from the sources, in topological order (Kahn).
        var indegree = [Int](repeating: 0, count: n)
        for v in 0..<n { for w in forward[v] { indegree[w] += 1 } }
        var layer = [Int](repeating: 0, count: n)
        var queue = (0..<n).filter { indegree[$0] == 0 }
        var head = 0
        var preds = [[Int]](repeating: [], count: n)
        while head < queue.count {
            let v = queue[head]
            head += 1
            for w in forward[v] {
                layer[w] = max(layer[w], layer[v] + 1)
                preds[w].append(v)
                indegree[w] -= 1
                if indegree[w] == 0 { queue.append(w) }
            }
        }
        // Modules as bands, in order of first appearance.
        var moduleOf = [Int](repeating: 0, count: n)
        var modules: [String] = []
        var moduleIndex: [String: Int] = [:]
        for (i, b) in model.boards.enumerated() {
            let m = b.module ?? ""
            if moduleIndex[m] == nil {
                moduleIndex[m] = modules.count
                modules.append(m)
            }
            moduleOf[i] = moduleIndex[m] ?? 0
        }
        let layers = (layer.max() ?? 0) + 1
        // Order within (layer, module) by the mean row of the predecessors, layer by layer.
        var row = [Double](repeating: 0, count: n)
        var cells = [[Int]](repeating: [], count: layers * modules.count)
        for v in queue { cells[layer[v] * modules.count + moduleOf[v]].append(v) }
        var bandRows = [Int](repeating: 0, count: modules.count)
        for l in 0..<layers {
            for m in 0..<modules.count {
                var cell = cells[l * modules.count + m]
                if l > 0 {
                    let key = cell.map { v in preds[v].isEmpty ? Double(v) : preds[v].reduce(0) { $0 + row[$1] } / Double(preds[v].count) }
                    cell = zip(cell, key).sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }.map(\.0)
                    cells[l * modules.count + m] = cell
                }
                for (k, v) in cell.enumerated() { row[v] = Double(k) }
                bandRows[m] = max(bandRows[m], cell.count)
            }
        }
        let colGap = 180.0
        let rowGap = 44.0
        let bandGap = 30.0
        var bandTop = [Double](repeating: 0, count: modules.count)
        var y = 0.0
        for m in 0..<modules.count {
            bandTop[m] = y
            y -= Double(bandRows[m]) * rowGap + bandGap
        }
        var nodesByModule = [[Node]](repeating: [], count: modules.count)
        var positions: [String: (x: Double, y: Double)] = [:]
        var box = [(minX: Double, minY: Double, maxX: Double, maxY: Double)](
            repeating: (.infinity, .infinity, -.infinity, -.infinity), count: modules.count)
        for (i, b) in model.boards.enumerated() {
            var node = node(b, guarded: guarded.contains(b.key), used: &used)
            if !b.mb.isRoot { node.attributes["label"] = b.key }
            let m = moduleOf[i]
            let px = Double(layer[i]) * colGap
            let py = bandTop[m] - row[i] * rowGap
            node.attributes["pos"] = "\(px),\(py)"
            positions[b.key] = (px, py)
            nodesByModule[m].append(node)
            box[m] = (min(box[m].minX, px), min(box[m].minY, py), max(box[m].maxX, px), max(box[m].maxY, py))
        }
        for (m, name) in modules.enumerated() {
            if name.isEmpty {
                g.nodes += nodesByModule[m]
                continue
            }
            let b = box[m]
            let bb = "\(b.minX - 80),\(b.minY - 20),\(b.maxX + 80),\(b.maxY + 34)"
            g.subgraphs.append(
                Subgraph(
                    name: "cluster_m\(m)",
                    attributes: ["label": name, "style": "rounded", "color": "#9aa5b1", "bb": bb, "id": "module-" + name],
                    nodes: nodesByModule[m]))
        }
        return positions
    }
}
