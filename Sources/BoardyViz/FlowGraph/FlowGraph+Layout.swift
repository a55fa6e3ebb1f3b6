// FlowGraph: the legend placed beside a laid-out picture, and the layered layout for large models.

import BoardyGraphviz
import BoardyTrace
import BoardyVizCore
import Foundation

extension FlowGraph {
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
