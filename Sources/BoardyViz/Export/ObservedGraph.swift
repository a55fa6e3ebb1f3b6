import BoardyGraphviz
import BoardyTrace

/// The flow graph a trace shows: the boards that appear, grouped by motherboard, and an edge per
/// observed routing (from → to, labelled with the action and how many times it happened).
public enum ObservedGraph {
    /// The graph of `trace`.
    public static func graph(_ trace: Trace) -> Graph {
        var boards: [String: [String]] = [:]  // mb → board ids in order of appearance
        var edges: [String: (from: String, to: String, label: String, count: Int)] = [:]
        var edgeOrder: [String] = []
        func node(_ mb: String, _ b: String) -> String {
            if !(boards[mb] ?? []).contains(b) { boards[mb, default: []].append(b) }
            return "\(mb)/\(b)"
        }
        for e in trace.events {
            if let b = e.body.board, e.kind != "stimulus" { _ = node(e.mb, b) }
            switch e.body {
            case let .flowRouted(from, _, to?, action):
                let key = "\(e.mb)|\(from)|\(to)|\(action)"
                if edges[key] == nil {
                    edgeOrder.append(key)
                    edges[key] = (node(e.mb, from), node(e.mb, to), action, 0)
                }
                edges[key]!.count += 1
            case let .barrierStarted(barrier, gate):
                let key = "\(e.mb)|barrier|\(barrier)"
                if edges[key] == nil {
                    edgeOrder.append(key)
                    edges[key] = (node(e.mb, gate), "", "gate of \(barrier)", 0)
                }
                edges[key]!.count += 1
            default: break
            }
        }
        var g = Graph(name: trace.header.scenario ?? "trace", attributes: ["rankdir": "LR", "label": "observed flows"])
        for mb in boards.keys.sorted() {
            let nodes = boards[mb]!.map { Node("\(mb)/\($0)", attributes: ["label": $0, "id": "board-\($0)"]) }
            g.subgraphs.append(Subgraph(name: "cluster_\(mb)", attributes: ["label": mb], nodes: nodes))
        }
        for key in edgeOrder {
            let e = edges[key]!
            guard !e.to.isEmpty else { continue }
            g.edges.append(Edge(from: e.from, to: e.to, attributes: ["label": "\(e.label) ×\(e.count)"]))
        }
        return g
    }
}
