import Foundation
import Testing

@testable import BoardyGraphviz

#if canImport(FoundationXML)
    import FoundationXML
#endif

func parseSVG(_ bytes: [UInt8]) throws -> XMLDocument {
    try XMLDocument(data: Data(bytes), options: [])
}

func titles(_ doc: XMLDocument, class cls: String) throws -> [String] {
    try doc.nodes(forXPath: "//*[local-name()='g'][@class='\(cls)']/*[local-name()='title']").compactMap(\.stringValue)
}

@Suite("Graphviz renderer (in-process libgvc)")
struct GraphvizRendererTests {
    let twoNodes = Graph(
        name: "two", nodes: [Node("pubCart"), Node("pubOrdering")],
        edges: [Edge(from: "pubCart", to: "pubOrdering", attributes: ["label": "checkout"])])

    @Test("CGraphviz links and renders a two-node graph to SVG in memory")
    func twoNodeSVG() throws {
        let svg = try GraphvizRenderer.render(twoNodes, format: .svg)
        let doc = try parseSVG(svg)
        #expect(doc.rootElement()?.name == "svg")
        #expect(try titles(doc, class: "node") == ["pubCart", "pubOrdering"])
        #expect(try titles(doc, class: "edge") == ["pubCart->pubOrdering"])
        let labels = try doc.nodes(forXPath: "//*[local-name()='g'][@class='edge']/*[local-name()='text']").compactMap(\.stringValue)
        #expect(labels == ["checkout"])
    }

    @Test("parallel edges stay apart, each with its own attributes, in SVG and DOT")
    func parallelEdges() throws {
        let g = Graph(
            name: "parallel", nodes: [Node("a"), Node("b")],
            edges: [
                Edge(from: "a", to: "b", attributes: ["label": "one", "id": "first"]),
                Edge(from: "a", to: "b", attributes: ["label": "two", "id": "second"]),
                Edge(from: "b", to: "a", attributes: ["label": "back", "id": "third"]),
            ])
        let doc = try parseSVG(try GraphvizRenderer.render(g, format: .svg))
        let edges = try doc.nodes(forXPath: "//*[local-name()='g'][@class='edge']").compactMap { $0 as? XMLElement }
        #expect(edges.compactMap { $0.attributes?.first { $0.name == "id" }?.stringValue } == ["first", "second", "third"])
        let dot = String(decoding: try GraphvizRenderer.render(g, format: .dot), as: UTF8.self)
        #expect(dot.components(separatedBy: "a -> b").count - 1 == 2)
        #expect(dot.contains("label=two"))
    }

    @Test("a large pinned graph renders every node once and every edge, parallel ones included")
    func largePinned() throws {
        var g = Graph(name: "pinned")
        g.nodeDefaults = ["shape": "point", "label": ""]
        for i in 0..<3000 { g.nodes.append(Node("n\(i)", attributes: ["pos": "\(i * 10),\((i % 7) * 10)", "id": "n-\(i)"])) }
        var edgeIDs: [String] = []
        for i in 0..<3000 {
            // Several out- and in-edges per node, parallel ones included.
            for d in [1, 2, 2, 7] where i + d < 3000 {
                edgeIDs.append("e-\(edgeIDs.count)")
                g.edges.append(Edge(from: "n\(i)", to: "n\(i + d)", attributes: ["id": edgeIDs.last!]))
            }
        }
        let doc = try parseSVG(try GraphvizRenderer.render(g, engine: "nop2", format: .svg))
        let ids = try doc.nodes(forXPath: "//*[local-name()='g'][@class='node']").compactMap { ($0 as? XMLElement)?.attributes?.first { $0.name == "id" }?.stringValue }
        #expect(ids.count == 3000)
        #expect(ids.first { !$0.hasPrefix("n-") } == nil)
        #expect(Set(ids) == Set((0..<3000).map { "n-\($0)" }), "nodes lost or added")
        let drawn = try doc.nodes(forXPath: "//*[local-name()='g'][@class='edge']").compactMap { ($0 as? XMLElement)?.attributes?.first { $0.name == "id" }?.stringValue }
        #expect(drawn.count == edgeIDs.count)
        #expect(Set(drawn).symmetricDifference(edgeIDs).isEmpty, "edges lost or added")
    }

    @Test("two renders of the same graph give the same SVG bytes")
    func deterministic() throws {
        #expect(try GraphvizRenderer.render(twoNodes, format: .svg) == (try GraphvizRenderer.render(twoNodes, format: .svg)))
    }

    @Test("a node made by an edge's end is labelled with its id, as a declared node without a label")
    func edgeEnds() throws {
        let g = Graph(name: "ends", nodes: [Node("declared")], edges: [Edge(from: "declared", to: "only-an-end"), Edge(from: "other-end", to: "declared")])
        let doc = try parseSVG(try GraphvizRenderer.render(g, format: .svg))
        #expect(try titles(doc, class: "node").sorted() == ["declared", "only-an-end", "other-end"])
        let texts = try doc.nodes(forXPath: "//*[local-name()='g'][@class='node']/*[local-name()='text']").compactMap(\.stringValue)
        #expect(texts.sorted() == ["declared", "only-an-end", "other-end"])
        let edgesOnly = try parseSVG(try GraphvizRenderer.render(Graph(name: "edges", edges: [Edge(from: "x", to: "y")]), format: .svg))
        #expect(try edgesOnly.nodes(forXPath: "//*[local-name()='g'][@class='node']/*[local-name()='text']").compactMap(\.stringValue).sorted() == ["x", "y"])
    }

    @Test("output is the same whether it fits the first buffer, spills at any byte or all spills")
    func spill() throws {
        let g = Self.manyClusters
        let whole = try GraphvizRenderer.render(g, format: .svg, capacity: 1 << 22)
        #expect(whole.count > 1000)
        _ = try parseSVG(whole)
        for capacity in [0, 1, 4095, 4096, 4097, whole.count / 2, whole.count - 1, whole.count, whole.count + 1] {
            let bytes = try GraphvizRenderer.render(g, format: .svg, capacity: capacity)
            #expect(bytes == whole, "first buffer of \(capacity) bytes")
        }
        // The estimate from the last render: a render with much longer labels spills, the next fits.
        var long = g
        long.nodeDefaults["label"] = String(repeating: "x", count: 3000)
        let spilled = try GraphvizRenderer.render(long, format: .svg)
        #expect(try GraphvizRenderer.render(long, format: .svg) == spilled)
        #expect(try GraphvizRenderer.render(long, format: .dot) == (try GraphvizRenderer.render(long, format: .dot, capacity: 0)))
        #expect(try GraphvizRenderer.render(long, format: .png) == (try GraphvizRenderer.render(long, format: .png, capacity: 100)))
    }

    @Test("a layout or format the installed Graphviz lacks is named as a missing plugin")
    func missingPlugin() throws {
        #expect {
            try GraphvizRenderer.render(twoNodes, engine: "no-such-engine", format: .svg)
        } throws: { error in
            (error as? GraphvizError)?.missingPlugin == "layout no-such-engine"
        }
        // What a Graphviz without cairo says for PNG (2.42 to 14 word it the same way).
        let png = GraphvizError(stage: "rendering png", messages: [#"Error: Format: "png" not recognized. Use one of: dot svg"#])
        #expect(png.missingPlugin == "format png")
        #expect(GraphvizError(stage: "rendering png", messages: ["Error: renderer for png is unavailable"]).missingPlugin == "format png")
        #expect(png.description.contains("no plugin for format png"))
        #expect(GraphvizError(stage: "layout (dot)", messages: ["Error: syntax error"]).missingPlugin == nil)
    }

    @Test("the Graphviz running and the one built against are named")
    func versions() {
        #expect(GraphvizRenderer.version.split(separator: ".").count >= 2)
        #expect(GraphvizRenderer.compiledVersion.split(separator: ".").count >= 2)
    }

    /// Forty clusters, created in an order that is neither alphabetical nor the order of any
    /// name's address, each with two nodes and an edge into the next.
    static let manyClusters: Graph = {
        var g = Graph(name: "clusters")
        let order = (0..<40).map { ($0 * 17) % 40 }
        for i in order {
            g.subgraphs.append(Subgraph(name: "cluster_m\(i)", attributes: ["label": "m\(i)"], nodes: [Node("a\(i)"), Node("b\(i)")]))
        }
        for (i, j) in zip(order, order.dropFirst()) { g.edges.append(Edge(from: "b\(i)", to: "a\(j)")) }
        return g
    }()

    @Test("clusters keep their creation order (not their names' addresses): DOT lists them as created")
    func clusterCreationOrder() throws {
        let dot = String(decoding: try GraphvizRenderer.render(Self.manyClusters, format: .dot), as: UTF8.self)
        let listed = dot.split(separator: "\n").compactMap { line -> String? in
            let t = line.drop { $0 == " " || $0 == "\t" }
            guard t.hasPrefix("subgraph ") else { return nil }
            return String(t.dropFirst("subgraph ".count).prefix { $0 != " " })
        }
        #expect(listed == Self.manyClusters.subgraphs.map(\.name))
    }

    @Test("renders of one graph in one process give identical bytes, whatever was allocated in between")
    func deterministicInOneProcess() throws {
        let first = try GraphvizRenderer.render(Self.manyClusters, format: .svg)
        let firstDOT = try GraphvizRenderer.render(Self.manyClusters, format: .dot)
        var keep: [[UInt8]] = []
        for round in 0..<6 {
            // Other graphs (other names interned, other heap shapes) between the renders.
            var other = Graph(name: "other\(round)")
            for k in 0..<(round * 7 + 3) {
                other.subgraphs.append(Subgraph(name: "cluster_x\(round)_\(k)", nodes: [Node("n\(round)_\(k)")]))
            }
            keep.append(try GraphvizRenderer.render(other, format: .svg))
            keep.append(Array(repeating: UInt8(round), count: 1000 * round))
            #expect(try GraphvizRenderer.render(Self.manyClusters, format: .svg) == first, "SVG differs in round \(round)")
            #expect(try GraphvizRenderer.render(Self.manyClusters, format: .dot) == firstDOT, "DOT differs in round \(round)")
        }
        #expect(keep.count == 12)
    }

    @Test("DOT is the graph before layout: no coordinates, and the same text every time")
    func dotBeforeLayout() throws {
        let dot = String(decoding: try GraphvizRenderer.render(twoNodes, format: .dot), as: UTF8.self)
        #expect(dot.contains("pubCart -> pubOrdering"))
        #expect(!dot.contains("pos="))
        #expect(dot == String(decoding: try GraphvizRenderer.render(twoNodes, format: .dot), as: UTF8.self))
    }

    @Test("PNG output starts with the PNG signature")
    func png() throws {
        let png = try GraphvizRenderer.render(twoNodes, format: .png)
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    @Test("Graphviz's own errors surface as one Swift error, and later renders still work")
    func errorsCaptured() throws {
        #expect {
            try GraphvizRenderer.render(twoNodes, engine: "no-such-engine", format: .svg)
        } throws: { error in
            let e = error as? GraphvizError
            return e?.messages.contains { $0.contains("no-such-engine") } == true
        }
        #expect(try parseSVG(try GraphvizRenderer.render(twoNodes, format: .svg)).rootElement() != nil)
    }

    @Test("hostile ids stay intact: no DOT injection, backslashes kept, SVG well-formed")
    func hostileIDs() throws {
        let ids = [#"x" ]; injected [label="boom"#, #"C:\new\Thing"#, "<b>&amp;'\"", "node", "line\nbreak", "émoji 😀"]
        let g = Graph(name: "hostile", nodes: ids.map { Node($0) })
        let doc = try parseSVG(try GraphvizRenderer.render(g, format: .svg))
        let texts = try doc.nodes(forXPath: "//*[local-name()='g'][@class='node']/*[local-name()='text']").compactMap(\.stringValue)
        #expect(texts.contains(#"C:\new\Thing"#))
        #expect(texts.contains(#"x" ]; injected [label="boom"#))
        #expect(try titles(doc, class: "node").count == ids.count)
    }

    @Test("renders from several threads at once are serialized, not crashed")
    func concurrentRenders() async throws {
        let graph = twoNodes
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 { group.addTask { try GraphvizRenderer.render(graph, format: .svg).count } }
            for try await n in group { #expect(n > 0) }
        }
    }
}
