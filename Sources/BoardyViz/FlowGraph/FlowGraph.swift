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

    /// Up to this many guarded boards, dotted lines join the gateway node to each.
    static let maxGuardLines = 12

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
}
