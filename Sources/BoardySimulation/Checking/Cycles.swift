import Boardy

/// Cycles of a directed graph in linear time: Tarjan's strongly connected components (iterative,
/// so a 100,000-node chain cannot overflow the stack), then one shortest cycle per component
/// through its first node in `nodes` order. Written by hand: the packages we may depend on have no
/// graph algorithms for our node type that run without recursion.
struct CycleFinder<Edge> {
    let nodes: [BoardID]
    let edges: [BoardID: [Edge]]
    let target: (Edge) -> BoardID

    /// One cycle per strongly connected component that has one (two or more nodes, or a node
    /// with an edge to itself), in the order of the components' first nodes in `nodes`, each as
    /// the edges taken from its first node around and back, with the node each edge leaves.
    func cycles(using usable: (Edge) -> Bool) -> [[(from: BoardID, edge: Edge)]] {
        let index = Dictionary(nodes.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        let n = nodes.count
        var order = Array(repeating: -1, count: n)
        var low = Array(repeating: 0, count: n)
        var onStack = Array(repeating: false, count: n)
        var component = Array(repeating: -1, count: n)
        var stack: [Int] = []
        var counter = 0
        var components = 0
        func successors(_ v: Int) -> [Int] {
            (edges[nodes[v]] ?? []).filter(usable).compactMap { index[target($0)] }
        }
        for root in 0..<n where order[root] < 0 {
            // Each frame: a node and how far through its successors it is.
            var frames: [(v: Int, next: [Int], at: Int)] = [(root, successors(root), 0)]
            order[root] = counter
            low[root] = counter
            counter += 1
            stack.append(root)
            onStack[root] = true
            while !frames.isEmpty {
                let top = frames.count - 1
                let v = frames[top].v
                if frames[top].at < frames[top].next.count {
                    let w = frames[top].next[frames[top].at]
                    frames[top].at += 1
                    if order[w] < 0 {
                        order[w] = counter
                        low[w] = counter
                        counter += 1
                        stack.append(w)
                        onStack[w] = true
                        frames.append((w, successors(w), 0))
                    } else if onStack[w] {
                        low[v] = min(low[v], order[w])
                    }
                    continue
                }
                frames.removeLast()
                if let parent = frames.last?.v { low[parent] = min(low[parent], low[v]) }
                if low[v] == order[v] {
                    while let w = stack.popLast() {
                        onStack[w] = false
                        component[w] = components
                        if w == v { break }
                    }
                    components += 1
                }
            }
        }
        // Members per component, in `nodes` order.
        var members: [[Int]] = Array(repeating: [], count: components)
        for v in 0..<n { members[component[v]].append(v) }
        var found: [(first: Int, cycle: [(from: BoardID, edge: Edge)])] = []
        for group in members {
            guard let start = group.first else { continue }
            let c = component[start]
            let selfLoop = (edges[nodes[start]] ?? []).contains { usable($0) && target($0) == nodes[start] }
            guard group.count > 1 || selfLoop else { continue }
            if let cycle = shortestCycle(from: start, within: c, component: component, index: index, usable: usable) {
                found.append((start, cycle))
            }
        }
        return found.sorted { $0.first < $1.first }.map(\.cycle)
    }

    /// A shortest way from `start` back to it inside its component (breadth first).
    private func shortestCycle(
        from start: Int, within c: Int, component: [Int], index: [BoardID: Int], usable: (Edge) -> Bool
    ) -> [(from: BoardID, edge: Edge)]? {
        var previous: [Int: (Int, Edge)] = [:]
        var queue = [start]
        var head = 0
        while head < queue.count {
            let v = queue[head]
            head += 1
            for e in edges[nodes[v]] ?? [] where usable(e) {
                guard let w = index[target(e)], component[w] == c else { continue }
                if w == start {
                    var path: [(from: BoardID, edge: Edge)] = [(nodes[v], e)]
                    var at = v
                    while at != start, let (p, pe) = previous[at] {
                        path.append((nodes[p], pe))
                        at = p
                    }
                    return path.reversed()
                }
                if previous[w] == nil, w != start {
                    previous[w] = (v, e)
                    queue.append(w)
                }
            }
        }
        return nil
    }
}
