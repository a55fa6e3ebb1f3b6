import BoardyCore

/// Cycles of a directed graph in linear time: Tarjan's strongly connected components (iterative,
/// so a 100,000-node chain cannot overflow the stack), then one shortest cycle per component
/// through its first node in `nodes` order. Written by hand: the packages we may depend on have no
/// graph algorithms for our node type that run without recursion.
struct CycleFinder<Edge> {
    let nodes: [BoardID]
    /// The edges leaving each node, aligned with `nodes`.
    let edgesOf: [[Edge]]
    /// The node an edge leads to, as a position in `nodes` (nil: outside the graph).
    let targetIndex: (Edge) -> Int?
    let target: (Edge) -> BoardID

    /// A graph whose edges are given per node id (small graphs: the gates of a motherboard).
    init(nodes: [BoardID], edges: [BoardID: [Edge]], target: @escaping (Edge) -> BoardID) {
        var index: [BoardID: Int] = [:]
        index.reserveCapacity(nodes.count)
        for (i, n) in nodes.enumerated() where index[n] == nil { index[n] = i }
        self.init(nodes: nodes, edgesOf: nodes.map { edges[$0] ?? [] }, index: index, target: target)
    }

    /// A graph whose edges are given per node position, with the position of each id.
    init(nodes: [BoardID], edgesOf: [[Edge]], index: [BoardID: Int], target: @escaping (Edge) -> BoardID) {
        self.nodes = nodes
        self.edgesOf = edgesOf
        self.target = target
        targetIndex = { index[target($0)] }
    }

    /// One cycle per strongly connected component that has one (two or more nodes, or a node
    /// with an edge to itself), in the order of the components' first nodes in `nodes`, each as
    /// the edges taken from its first node around and back, with the node each edge leaves.
    /// Memory is a few integers per node: a frame is a node and how far through its edge list it
    /// is (a million-node chain is a million frames deep).
    func cycles(using usable: (Edge) -> Bool) -> [[(from: BoardID, edge: Edge)]] {
        let n = nodes.count
        var order = [Int32](repeating: -1, count: n)
        var low = [Int32](repeating: 0, count: n)
        var onStack = [Bool](repeating: false, count: n)
        var component = [Int32](repeating: -1, count: n)
        var stack: [Int32] = []
        var counter: Int32 = 0
        var components: Int32 = 0
        var frames: [(v: Int32, at: Int32)] = []
        for root in 0..<n where order[root] < 0 {
            frames.append((Int32(root), 0))
            order[root] = counter
            low[root] = counter
            counter += 1
            stack.append(Int32(root))
            onStack[root] = true
            while let top = frames.last {
                let v = Int(top.v)
                let list = edgesOf[v]
                var at = Int(top.at)
                var descended = false
                while at < list.count {
                    let e = list[at]
                    at += 1
                    guard usable(e), let w = targetIndex(e) else { continue }
                    if order[w] < 0 {
                        frames[frames.count - 1].at = Int32(at)
                        order[w] = counter
                        low[w] = counter
                        counter += 1
                        stack.append(Int32(w))
                        onStack[w] = true
                        frames.append((Int32(w), 0))
                        descended = true
                        break
                    } else if onStack[w] {
                        low[v] = min(low[v], order[w])
                    }
                }
                if descended { continue }
                frames.removeLast()
                if let parent = frames.last?.v { low[Int(parent)] = min(low[Int(parent)], low[v]) }
                if low[v] == order[v] {
                    while let w = stack.popLast() {
                        onStack[Int(w)] = false
                        component[Int(w)] = components
                        if Int(w) == v { break }
                    }
                    components += 1
                }
            }
        }
        // A component has a cycle when it has two or more nodes, or one with an edge to itself;
        // its first node in `nodes` order starts the cycle reported.
        var size = [Int32](repeating: 0, count: Int(components))
        var first = [Int32](repeating: -1, count: Int(components))
        for v in 0..<n {
            let c = Int(component[v])
            size[c] += 1
            if first[c] < 0 { first[c] = Int32(v) }
        }
        var found: [(first: Int, cycle: [(from: BoardID, edge: Edge)])] = []
        for c in 0..<Int(components) {
            let start = Int(first[c])
            guard start >= 0 else { continue }
            let selfLoop = edgesOf[start].contains { usable($0) && targetIndex($0) == start }
            guard size[c] > 1 || selfLoop else { continue }
            if let cycle = shortestCycle(from: start, within: component[start], component: component, usable: usable) {
                found.append((start, cycle))
            }
        }
        return found.sorted { $0.first < $1.first }.map(\.cycle)
    }

    /// A shortest way from `start` back to it inside its component (breadth first).
    private func shortestCycle(
        from start: Int, within c: Int32, component: [Int32], usable: (Edge) -> Bool
    ) -> [(from: BoardID, edge: Edge)]? {
        var previous: [Int: (Int, Edge)] = [:]
        var queue = [start]
        var head = 0
        while head < queue.count {
            let v = queue[head]
            head += 1
            for e in edgesOf[v] where usable(e) {
                guard let w = targetIndex(e), component[w] == c else { continue }
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
