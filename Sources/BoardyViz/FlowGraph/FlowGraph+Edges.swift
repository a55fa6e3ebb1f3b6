// FlowGraph: the edges (flows, barriers, gateways, coverage weights) and the dispatch pipeline.

import BoardyGraphviz
import BoardyTrace
import BoardyVizCore
import Foundation

extension FlowGraph {
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
}
