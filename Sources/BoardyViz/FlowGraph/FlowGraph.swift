import Foundation
import BoardyGraphviz
import BoardyTrace
import BoardyVizCore

/// Draws a ``FlowModel`` as a Graphviz ``Graph``: boards as nodes (shape by kind), modules as
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

    /// The graph of `model`, and the engine to lay it out with.
    public static func graph(_ model: FlowModel, strategy forced: Strategy? = nil) -> (graph: Graph, engine: String) {
        let strategy = forced ?? strategy(for: model)
        var g = Graph(name: "flow")
        g.attributes = [
            "label": "\(model.title) · flow graph from the \(model.source) · layout: \(strategy.rawValue)",
            "labelloc": "t", "fontname": "Helvetica", "fontsize": "16",
            "comment": "boardy-viz flow graph; layout strategy: \(strategy.rawValue)",
        ]
        g.nodeDefaults = ["fontname": "Helvetica", "fontsize": "11", "style": "filled", "fillcolor": "#ffffff", "shape": "box"]
        g.edgeDefaults = ["fontname": "Helvetica", "fontsize": "9", "color": "#444444"]
        switch strategy {
        case .dot, .boundedDot:
            g.attributes["rankdir"] = "LR"
            if strategy == .boundedDot {
                g.attributes["nslimit"] = "2"
                g.attributes["mclimit"] = "0.3"
                g.attributes["splines"] = "line"
            }
            clusters(model, into: &g)
        case .layered:
            layered(model, into: &g)
        }
        edges(model, into: &g, labels: strategy != .layered)
        legend(into: &g, pinned: strategy == .layered)
        return (g, strategy.engine)
    }

    /// Renders `model` to `format` (`dot`: the graph before layout).
    public static func render(_ model: FlowModel, format: RenderFormat, strategy: Strategy? = nil) throws(GraphvizError) -> [UInt8] {
        let (g, engine) = graph(model, strategy: strategy)
        return try GraphvizRenderer.render(g, engine: engine, format: format)
    }

    // MARK: Nodes

    static func nodeName(_ b: FlowModel.Board) -> String { "b:" + b.key }

    static func node(_ b: FlowModel.Board) -> Node {
        var a: Attributes = ["id": b.elementID, "label": b.id]
        a["shape"] = shape(b.kind)
        a["fillcolor"] = fill(b.kind)
        var tip = "\(b.id) — \(b.kind)"
        if let m = b.module { tip += ", module \(m)" }
        if !MotherboardPath(b.mb).isRoot { tip += ", in \(b.mb)" }
        if b.exempt {
            a["peripheries"] = "2"
            tip += ", exempt from the gateway"
        } else if b.bypass {
            tip += ", bypasses the gateway"
        }
        if let src = b.source { tip += " — registered at \(src)" }
        a["tooltip"] = tip
        return Node(nodeName(b), attributes: a)
    }

    static func shape(_ kind: String) -> String {
        switch kind {
        case "task", "blockTask", "resultTask": return "cds"
        case "barrier": return "octagon"
        case "flow", "continuous": return "tab"
        case "produced": return "box"
        default: return "box"
        }
    }

    static func fill(_ kind: String) -> String {
        switch kind {
        case "task", "blockTask", "resultTask": return "#e8f1fb"
        case "barrier": return "#fdf0e0"
        case "flow", "continuous": return "#eef7ea"
        default: return "#ffffff"
        }
    }

    /// Modules as clusters; a continuous board and its inner boards as a cluster inside.
    static func clusters(_ model: FlowModel, into g: inout Graph) {
        var moduleOrder: [String] = []
        var byModule: [String: [FlowModel.Board]] = [:]
        var byMB: [String: [FlowModel.Board]] = [:]
        for b in model.boards {
            byMB[b.mb, default: []].append(b)
            guard MotherboardPath(b.mb).isRoot else { continue }
            let m = b.module ?? ""
            if byModule[m] == nil { moduleOrder.append(m) }
            byModule[m, default: []].append(b)
        }
        var clusterNumber = 0
        func place(_ b: FlowModel.Board) -> (node: Node?, sub: Subgraph?) {
            guard let inner = b.inner else { return (node(b), nil) }
            clusterNumber += 1
            var sub = Subgraph(
                name: "cluster_c\(clusterNumber)",
                attributes: ["label": "\(b.id) (\(b.kind))", "style": "rounded,dashed", "color": "#5a8f4e", "id": "cluster-" + b.key])
            sub.nodes.append(node(b))
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
            for b in byModule[m]! {
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

    static func edges(_ model: FlowModel, into g: inout Graph, labels: Bool) {
        let keys = Set(model.boards.map(\.key))
        for (i, l) in model.links.enumerated() where keys.contains(l.from) && keys.contains(l.to) {
            var a: Attributes = ["id": "link-\(i + 1)"]
            var label = l.label
            if let c = l.count { label += " ×\(c)" }
            switch l.kind {
            case .flow:
                a["tooltip"] = "flow: \(l.from) → \(l.to) on \(label)"
            case .barrier:
                a["style"] = "dashed"
                a["color"] = "#b06d00"
                a["arrowhead"] = "tee"
                a["tooltip"] = "activation barrier \(l.label): \(l.to) waits for \(l.from)"
            case .gateway:
                a["style"] = "dashed"
                a["color"] = "#2b6cb0"
                a["arrowhead"] = "tee"
                a["tooltip"] = "gateway: \(l.to) waits for \(l.from)"
            }
            if l.inLoop {
                a["color"] = "#d62728"
                a["fontcolor"] = "#d62728"
                a["penwidth"] = "2"
                a["tooltip"] = "barrier loop: " + (a["tooltip"] ?? "")
                label = "loop · " + label
            }
            if model.coverage, let c = l.count {
                if c == 0 {
                    a["style"] = "dashed"
                    a["color"] = "#a0a0a0"
                    a["fontcolor"] = "#808080"
                    a["tooltip"] = (a["tooltip"] ?? "") + " — never exercised by the traces"
                } else {
                    // Thicker with use: 1 for once, up to 6 (a log scale, so a hot edge does not
                    // drown the rest).
                    a["penwidth"] = String(min(6, 1 + Int(log2(Double(c)))))
                }
            }
            if let src = l.source { a["tooltip"] = (a["tooltip"] ?? "") + " — at \(src)" }
            if labels { a["label"] = label }
            g.edges.append(Edge(from: "b:" + l.from, to: "b:" + l.to, attributes: a))
        }
    }

    // MARK: Legend

    static func legend(into g: inout Graph, pinned: Bool) {
        let items: [(String, Attributes)] = [
            ("board", ["shape": "box"]),
            ("task kinds", ["shape": "cds", "fillcolor": "#e8f1fb"]),
            ("continuous / flow", ["shape": "tab", "fillcolor": "#eef7ea"]),
            ("barrier board", ["shape": "octagon", "fillcolor": "#fdf0e0"]),
            ("exempt from gateway", ["shape": "box", "peripheries": "2"]),
        ]
        var sub = Subgraph(name: "cluster_legend", attributes: ["label": "legend", "style": "rounded", "color": "#cccccc", "id": "legend"])
        let origin = (x: -260.0, y: 0.0)
        for (i, (text, attrs)) in items.enumerated() {
            var a = attrs
            a["label"] = text
            a["id"] = "legend-\(i + 1)"
            if pinned { a["pos"] = "\(origin.x),\(origin.y - Double(i) * 40)" }
            sub.nodes.append(Node("legend:\(i)", attributes: a))
        }
        let lines: [(String, Attributes)] = [
            ("flow (output)", [:]),
            ("activation barrier", ["style": "dashed", "color": "#b06d00", "arrowhead": "tee"]),
            ("gateway", ["style": "dashed", "color": "#2b6cb0", "arrowhead": "tee"]),
            ("barrier loop", ["color": "#d62728", "penwidth": "2"]),
        ]
        for (i, (text, attrs)) in lines.enumerated() {
            let y = origin.y - Double(items.count + i) * 40
            let from = "legend:l\(i)a"
            let to = "legend:l\(i)b"
            var start = Node(from, attributes: ["shape": "point", "width": "0.05", "label": ""])
            var end = Node(to, attributes: ["shape": "plaintext", "style": "", "label": text, "id": "legend-\(items.count + i + 1)"])
            if pinned {
                start.attributes["pos"] = "\(origin.x - 60),\(y)"
                end.attributes["pos"] = "\(origin.x + 40),\(y)"
            }
            sub.nodes += [start, end]
            var a = attrs
            a["id"] = "legend-edge-\(i + 1)"
            g.edges.append(Edge(from: from, to: to, attributes: a))
        }
        g.subgraphs.append(sub)
    }

    // MARK: Layered layout

    /// Longest-path layers (back edges ignored), modules as horizontal bands, nodes ordered in
    /// their band by the mean row of their predecessors; positions pinned for `nop2`.
    static func layered(_ model: FlowModel, into g: inout Graph) {
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
            moduleOf[i] = moduleIndex[m]!
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
        var box = [(minX: Double, minY: Double, maxX: Double, maxY: Double)](
            repeating: (.infinity, .infinity, -.infinity, -.infinity), count: modules.count)
        for (i, b) in model.boards.enumerated() {
            var node = node(b)
            if !MotherboardPath(b.mb).isRoot { node.attributes["label"] = b.key }
            let m = moduleOf[i]
            let px = Double(layer[i]) * colGap
            let py = bandTop[m] - row[i] * rowGap
            node.attributes["pos"] = "\(px),\(py)"
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
    }
}
