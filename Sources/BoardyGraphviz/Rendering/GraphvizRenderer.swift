import BoardyLock
import CBoardyGraphviz

/// An output format of ``GraphvizRenderer``.
public enum RenderFormat: String, Sendable, CaseIterable {
    /// Scalable vector graphics.
    case svg
    /// A PNG image.
    case png
    /// DOT text of the graph before layout (no coordinates): deterministic across machines.
    case dot
}

/// Graphviz refused a graph: its own messages, collected instead of printed.
public struct GraphvizError: Error, Sendable, CustomStringConvertible {
    /// What was being done.
    public var stage: String
    /// Graphviz's messages (errors and warnings), in order.
    public var messages: [String]
    /// The plugin the installed Graphviz lacks, when that is why it failed: `format png` (no
    /// renderer for PNG, as in a Graphviz built without cairo) or `layout dot`.
    public var missingPlugin: String?

    /// An error at `stage` with Graphviz's `messages`; a missing plugin is recognized from them.
    public init(stage: String, messages: [String]) {
        self.stage = stage
        self.messages = messages
        missingPlugin = Self.missingPlugin(in: messages)
    }

    public var description: String {
        let detail = messages.isEmpty ? "no message from Graphviz" : messages.joined(separator: "; ")
        if let missingPlugin {
            return "the Graphviz installed has no plugin for \(missingPlugin) (\(detail)); install one that has it"
        }
        return "Graphviz \(stage) failed: \(detail)"
    }

    /// Graphviz says `Format: "png" not recognized. Use one of: ...`, `renderer for png is
    /// unavailable` (a format its configuration lists without a plugin to draw it) or `Layout
    /// type: "dot" not recognized. ...` (the same words from 2.42 to 14).
    static func missingPlugin(in messages: [String]) -> String? {
        // Plain scalar search: String.firstRange(of:) needs macOS 13 / iOS 16.
        func find(_ needle: String, in hay: [Character], from: Int) -> Int? {
            let n = Array(needle)
            guard hay.count >= n.count, from <= hay.count - n.count else { return nil }
            return (from...(hay.count - n.count)).first { hay[$0..<($0 + n.count)].elementsEqual(n) }
        }
        for m in messages {
            let chars = Array(m)
            let patterns = [
                (#"Format: ""#, #"" not recognized"#, "format"), ("renderer for ", " is unavailable", "format"),
                (#"Layout type: ""#, #"" not recognized"#, "layout"),
            ]
            for (prefix, suffix, kind) in patterns {
                guard let p = find(prefix, in: chars, from: 0) else { continue }
                let start = p + prefix.count
                guard let end = find(suffix, in: chars, from: start), end > start else { continue }
                return "\(kind) \(String(chars[start..<end]))"
            }
        }
        return nil
    }
}

/// Lays out and renders graphs in-process through Graphviz's C library (libgvc, 2.42 to 14).
///
/// libgvc is not thread-safe, not even with one context per thread, so every call into it, from
/// building to freeing, runs behind one process-wide lock; one context serves the process.
/// Graphviz's error and warning messages are captured, never printed.
public enum GraphvizRenderer {
    /// Lays out `graph` with `engine` (`dot`, `neato`, `nop2`, ...) and renders it as `format`.
    /// ``RenderFormat/dot`` skips the layout.
    public static func render(_ graph: Graph, engine: String = "dot", format: RenderFormat) throws(GraphvizError) -> [UInt8] {
        try shared.withLockedValue { (process: inout ProcessState) throws(GraphvizError) in
            try renderLocked(graph, engine: engine, format: format, capacity: nil, overlay: nil, process: &process)
        }
    }

    /// Lays out `graph` with `engine`, then adds what `overlay` returns for the laid-out graph's
    /// bounding box (nodes with pinned `pos`, edges between them, clusters with `bb`) and renders
    /// the whole, the first layout kept as it was (through `nop2`). A legend placed beside a
    /// picture whose size only the layout knows. ``RenderFormat/dot`` (before layout) has no
    /// overlay.
    public static func render(
        _ graph: Graph, engine: String = "dot", format: RenderFormat, overlay: (LayoutBox) -> Graph
    ) throws(GraphvizError) -> [UInt8] {
        // Optional closures escape by type; this one is only called within the render.
        try withoutActuallyEscaping(overlay) { (overlay) throws(GraphvizError) in
            try shared.withLockedValue { (process: inout ProcessState) throws(GraphvizError) in
                try renderLocked(graph, engine: engine, format: format, capacity: nil, overlay: overlay, process: &process)
            }
        }
    }

    /// ``render(_:engine:format:)`` with the output array's first capacity given instead of
    /// estimated (tests: output that fits, spills at any byte, or all spills).
    static func render(_ graph: Graph, engine: String = "dot", format: RenderFormat, capacity: Int) throws(GraphvizError) -> [UInt8] {
        try shared.withLockedValue { (process: inout ProcessState) throws(GraphvizError) in
            try renderLocked(graph, engine: engine, format: format, capacity: capacity, overlay: nil, process: &process)
        }
    }

    /// Lays out `graph` (with `overlay`, as ``render(_:engine:format:overlay:)``) and returns
    /// Graphviz's JSON output (`-Tjson`): every object with its drawing operations (xdot), which
    /// the HTML viewer draws itself. The estimate of the output's size is SVG's.
    package static func drawing(_ graph: Graph, engine: String, overlay: (LayoutBox) -> Graph) throws(GraphvizError) -> [UInt8] {
        try withoutActuallyEscaping(overlay) { (overlay) throws(GraphvizError) in
            try shared.withLockedValue { (process: inout ProcessState) throws(GraphvizError) in
                try renderLocked(graph, engine: engine, format: .svg, capacity: nil, overlay: overlay, formatName: "json", process: &process)
            }
        }
    }

    /// The version of the Graphviz library that is running (`14.1.3`, `2.43.0`).
    public static var version: String {
        shared.withLockedValue { _ in
            guard bvz_begin() == 0, let v = bvz_graphviz_version() else { return "unknown" }
            return String(cString: v)
        }
    }

    /// The version of Graphviz's headers the package was built against.
    public static var compiledVersion: String { String(cString: bvz_graphviz_compiled_version()) }

    // MARK: Behind the lock

    /// What outlives one render, guarded by the renderer's lock (the C layer's context and
    /// message buffer are only touched under it too).
    struct ProcessState {
        /// Output bytes per node and edge of the last render in each format: the next render's
        /// estimate (PNG sizes do not follow the graph's size, so PNG is never estimated).
        var outputBytesPerObject: [RenderFormat: Double] = [.svg: 400]
    }
    private static let shared = LockedValue(ProcessState())

    private static func renderLocked(
        _ graph: Graph, engine: String, format: RenderFormat, capacity: Int?, overlay: ((LayoutBox) -> Graph)?,
        formatName: String? = nil, process: inout ProcessState
    ) throws(GraphvizError) -> [UInt8] {
        guard bvz_begin() == 0 else { throw GraphvizError(stage: "initialisation", messages: ["gvContext() returned NULL"]) }
        guard let g = bvz_graph_open(graph.name.controlPictures()) else {
            throw GraphvizError(stage: "building the graph", messages: currentMessages())
        }
        defer { _ = bvz_graph_close(g) }
        var builder = Builder(graph: g, escapeIDs: format != .dot)
        builder.build(graph)
        if bvz_errors() != 0 { throw GraphvizError(stage: "building the graph", messages: currentMessages()) }

        if format == .dot {
            var buf: UnsafeMutablePointer<CChar>?
            var len = 0
            let rc = bvz_write_dot(g, &buf, &len)
            defer { bvz_free(buf) }
            guard rc == 0, let buf else { throw GraphvizError(stage: "writing DOT", messages: currentMessages()) }
            return Array(UnsafeRawBufferPointer(start: buf, count: len))
        }

        if bvz_layout(g, engine) != 0 || bvz_errors() != 0 {
            // dot's spline router can fail on some graphs with clusters ("Pshortestpath failed",
            // then "lost <tail> <head> edge", the edge dropped): lay out again with straight
            // edges, which route without it, rather than fail or lose an edge.
            guard engine == "dot", bvz_begin() == 0 else { throw GraphvizError(stage: "layout (\(engine))", messages: currentMessages()) }
            _ = bvz_set_graph(builder.root, "splines", "line")
            guard bvz_layout(g, engine) == 0, bvz_errors() == 0 else {
                throw GraphvizError(stage: "layout (\(engine))", messages: currentMessages())
            }
        }
        var objects = graph.objectCount
        if let overlay {
            guard bvz_pin_layout(g) == 0 else { throw GraphvizError(stage: "pinning the layout", messages: currentMessages()) }
            let box = LayoutBox(Self.graphAttribute(builder.root, "bb")) ?? LayoutBox(minX: 0, minY: 0, maxX: 0, maxY: 0)
            let extra = overlay(box)
            builder.add(extra)
            objects += extra.objectCount
            // The root's box and title place are the first layout's: nop2 computes them anew
            // around what was added.
            _ = bvz_set_graph(builder.root, "bb", "")
            _ = bvz_set_graph(builder.root, "lp", "")
            guard bvz_layout(g, "nop2") == 0, bvz_errors() == 0 else {
                throw GraphvizError(stage: "layout of the overlay (nop2)", messages: currentMessages())
            }
        }
        // Graphviz writes straight into the returned array's storage, sized from the bytes per
        // object of the last output in this format (with a quarter to spare); what does not fit
        // spills into a buffer that is appended after. Copying a whole large SVG into the array
        // cost a second write of every byte and a second set of fresh pages.
        let estimate =
            capacity
            ?? Int(min(Double(objects) * (process.outputBytesPerObject[format] ?? 0) * 1.25, Double(Int32.max)))
            + (format == .png ? 0 : 16 << 10)
        var spill: UnsafeMutablePointer<CChar>?
        var spillLength = 0
        var rc: Int32 = 0
        var bytes = [UInt8](unsafeUninitializedCapacity: estimate) { buffer, count in
            var written = 0
            rc = buffer.withMemoryRebound(to: CChar.self) { chars in
                bvz_render(g, formatName ?? format.rawValue, chars.baseAddress, chars.count, &written, &spill, &spillLength)
            }
            count = rc == 0 ? written : 0
        }
        defer { bvz_free(spill) }
        guard rc == 0 else {
            throw GraphvizError(stage: "rendering \(format.rawValue)", messages: currentMessages())
        }
        if let spill, spillLength > 0 {
            bytes.append(contentsOf: UnsafeRawBufferPointer(start: spill, count: spillLength))
        }
        if bytes.isEmpty, format == .png {  // never an empty picture
            throw GraphvizError(stage: "rendering png", messages: currentMessages() + ["the PNG renderer wrote nothing"])
        }
        if format != .png, formatName == nil { process.outputBytesPerObject[format] = Double(bytes.count) / Double(max(objects, 1)) }
        return bytes
    }

    /// The state of one graph being built: created behind the lock, for one render.
    struct Builder {
        let g: OpaquePointer
        let root: UnsafeMutableRawPointer
        /// Whether `id` attributes are XML-escaped by us (SVG output): see ``GraphvizRenderer/escape(_:_:escapingIDs:)``.
        let escapeIDs: Bool
        /// Attribute symbols per name: looked up once instead of by name for every node and edge.
        var nodeSymbols: [String: UnsafeMutableRawPointer] = [:]
        var edgeSymbols: [String: UnsafeMutableRawPointer] = [:]
        /// Whether the graph declares a default node label (else a node without a label gets its
        /// id as label: Graphviz's own default, `\N`, would expand escapes in the name).
        var labelDefault = false

        init(graph: OpaquePointer, escapeIDs: Bool) {
            g = graph
            root = bvz_graph_root(graph)
            self.escapeIDs = escapeIDs
        }

        func escape(_ name: String, _ value: String) -> String { GraphvizRenderer.escape(name, value, escapingIDs: escapeIDs) }

        mutating func symbol(_ kind: bvz_kind, _ name: String) -> UnsafeMutableRawPointer? {
            let isNode = kind == BVZ_KIND_NODE
            if let s = isNode ? nodeSymbols[name] : edgeSymbols[name] { return s }
            guard let s = bvz_declare(g, kind, name, "") else { return nil }
            if isNode { nodeSymbols[name] = s } else { edgeSymbols[name] = s }
            return s
        }

        mutating func build(_ graph: Graph) {
            for (k, v) in graph.attributes { _ = bvz_set_graph(root, k, escape(k, v)) }
            for (k, v) in graph.nodeDefaults { _ = bvz_declare_default(g, BVZ_KIND_NODE, k, escape(k, v)) }
            for (k, v) in graph.edgeDefaults { _ = bvz_declare_default(g, BVZ_KIND_EDGE, k, escape(k, v)) }
            labelDefault = graph.nodeDefaults["label"] != nil
            declareAttributes(of: graph)
            for n in graph.nodes { addNode(n, to: root) }
            for s in graph.subgraphs { addSubgraph(s, to: root) }
            for e in graph.edges {
                guard let t = end(e.from), let h = end(e.to) else { continue }
                // Anonymous: in a non-strict graph each call makes a new edge, so parallel edges
                // stay apart without a key to intern.
                guard let edge = bvz_edge(g, t, h) else { continue }
                for (k, v) in e.attributes {
                    if let sym = symbol(BVZ_KIND_EDGE, k) { _ = bvz_set(edge, sym, escape(k, v)) }
                }
            }
        }

        /// Adds `extra`'s nodes, clusters and edges (not its graph attributes or defaults).
        mutating func add(_ extra: Graph) {
            declareAttributes(of: extra)
            for n in extra.nodes { addNode(n, to: root) }
            for s in extra.subgraphs { addSubgraph(s, to: root) }
            for e in extra.edges {
                guard let t = end(e.from), let h = end(e.to), let edge = bvz_edge(g, t, h) else { continue }
                for (k, v) in e.attributes {
                    if let sym = symbol(BVZ_KIND_EDGE, k) { _ = bvz_set(edge, sym, escape(k, v)) }
                }
            }
        }

        /// An edge's end that is not one of the graph's nodes is made as a node without
        /// attributes would be (its id as label).
        mutating func end(_ id: String) -> UnsafeMutableRawPointer? {
            let name = id.controlPictures()
            if let n = bvz_node_named(g, name) { return n }
            guard let n = bvz_node(g, root, name) else { return nil }
            if !labelDefault, let sym = symbol(BVZ_KIND_NODE, "label") { _ = bvz_set(n, sym, escape("label", id)) }
            return n
        }

        /// Declares every attribute name the graph's nodes and edges use before any of them is
        /// created: cgraph grows the attribute array of every existing object when a new name is
        /// declared, so names first met late in a large graph cost a pass over it each.
        mutating func declareAttributes(of graph: Graph) {
            if !labelDefault, !graph.nodes.isEmpty || !graph.subgraphs.isEmpty || !graph.edges.isEmpty {
                _ = symbol(BVZ_KIND_NODE, "label")  // every node gets one (addNode)
            }
            // Consecutive objects mostly use the same names in the same order: compare with the
            // previous object's names before looking any up.
            var previous: [(String, String)] = []
            func declare(_ kind: bvz_kind, _ a: Attributes) {
                let pairs = a.pairs
                if pairs.count == previous.count, zip(pairs, previous).allSatisfy({ $0.0 == $1.0 }) { return }
                for (k, _) in pairs { _ = symbol(kind, k) }
                previous = pairs
            }
            func nodes(of s: Subgraph) {
                for n in s.nodes { declare(BVZ_KIND_NODE, n.attributes) }
                for child in s.subgraphs { nodes(of: child) }
            }
            for n in graph.nodes { declare(BVZ_KIND_NODE, n.attributes) }
            for s in graph.subgraphs { nodes(of: s) }
            previous = []
            for e in graph.edges { declare(BVZ_KIND_EDGE, e.attributes) }
        }

        mutating func addNode(_ n: Node, to owner: UnsafeMutableRawPointer) {
            guard let node = bvz_node(g, owner, n.id.controlPictures()) else { return }
            if !labelDefault, n.attributes["label"] == nil, let sym = symbol(BVZ_KIND_NODE, "label") {
                _ = bvz_set(node, sym, escape("label", n.id))
            }
            for (k, v) in n.attributes {
                if let sym = symbol(BVZ_KIND_NODE, k) { _ = bvz_set(node, sym, escape(k, v)) }
            }
        }

        mutating func addSubgraph(_ s: Subgraph, to parent: UnsafeMutableRawPointer) {
            guard let sub = bvz_subgraph(parent, s.name.controlPictures()) else { return }
            for (k, v) in s.attributes { _ = bvz_set_graph(sub, k, escape(k, v)) }
            for n in s.nodes { addNode(n, to: sub) }
            for child in s.subgraphs { addSubgraph(child, to: sub) }
        }
    }

    /// Graphviz expands `\N`, `\n`, `\l`... in label-like attributes even through the API: double
    /// every backslash of user text there so it renders as written.
    ///
    /// SVG `id` attributes: Graphviz escapes `<>&"'` but writes a newline as is, which an XML
    /// reader normalizes to a space. We write the whole value as XML ourselves (`&amp;`, `&#10;`,
    /// ...); Graphviz passes entities through unchanged, so the id reads back exactly. DOT output
    /// keeps the raw text.
    ///
    /// Control characters: Graphviz's strings end at NUL and XML 1.0 forbids the other C0
    /// controls, so every name and value shows them as their Unicode control pictures (␀, ␁,
    /// ...); tab, newline and carriage return stay.
    static func escape(_ name: String, _ value: String, escapingIDs: Bool) -> String {
        let value = value.controlPictures()
        if name == "id" {
            return escapingIDs ? value.xmlAttributeEscaped() : value
        }
        guard labelLike.contains(name), value.utf8.contains(92) else { return value }  // 92: a backslash
        return value.replacingBackslashes()
    }

    static let labelLike: Set<String> = [
        "label", "xlabel", "headlabel", "taillabel", "tooltip", "edgetooltip", "labeltooltip", "headtooltip", "tailtooltip",
    ]
}

extension String {
    /// C0 control characters other than tab, newline and carriage return as their Unicode
    /// control pictures (U+2400 + code): NUL ends a C string, and XML 1.0 forbids the rest.
    func controlPictures() -> String {
        // Checked on every name and value of every object: over the contiguous bytes when the
        // string has them (native strings do), which is several times faster than the view.
        @inline(__always) func isControl(_ b: UInt8) -> Bool { b < 0x20 && b != 0x09 && b != 0x0A && b != 0x0D }
        let fast = utf8.withContiguousStorageIfAvailable { bytes in
            var i = 0
            while i < bytes.count {
                if bytes[i] < 0x20, isControl(bytes[i]) { return true }
                i += 1
            }
            return false
        }
        guard fast ?? utf8.contains(where: isControl) else { return self }
        var out = String.UnicodeScalarView()
        for u in unicodeScalars {
            if u.value < 0x20, u != "\t", u != "\n", u != "\r" {
                out.append(Unicode.Scalar(0x2400 + u.value)!)
            } else {
                out.append(u)
            }
        }
        return String(out)
    }

    /// The text as an XML attribute value: markup characters and line breaks as entities.
    fileprivate func xmlAttributeEscaped() -> String {
        guard utf8.contains(where: { $0 == 38 || $0 == 60 || $0 == 62 || $0 == 34 || $0 == 39 || $0 < 32 }) else { return self }
        var out = ""
        out.reserveCapacity(utf8.count + 16)
        for u in unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            case "\t": out += "&#9;"
            default: out.unicodeScalars.append(u)
            }
        }
        return out
    }

    fileprivate func replacingBackslashes() -> String {
        var out = ""
        out.reserveCapacity(utf8.count + 8)
        for c in self {
            if c == "\\" { out.append("\\\\") } else { out.append(c) }
        }
        return out
    }
}

extension GraphvizRenderer {
    static func graphAttribute(_ graph: UnsafeMutableRawPointer, _ name: String) -> String {
        String(cString: bvz_graph_get(graph, name))
    }
}

/// A laid-out graph's bounding box, in points (Graphviz's `bb`: y grows upwards).
public struct LayoutBox: Sendable, Hashable {
    /// Left.
    public var minX: Double
    /// Bottom.
    public var minY: Double
    /// Right.
    public var maxX: Double
    /// Top.
    public var maxY: Double
    /// Width.
    public var width: Double { maxX - minX }
    /// Height.
    public var height: Double { maxY - minY }

    /// A box.
    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    /// Reads Graphviz's `"llx,lly,urx,ury"`; nil when it is not four numbers.
    public init?(_ bb: String) {
        let parts = bb.split(separator: ",").compactMap { Double($0) }
        guard parts.count == 4 else { return nil }
        self.init(minX: parts[0], minY: parts[1], maxX: parts[2], maxY: parts[3])
    }
}

/// The messages Graphviz reported since the job began (the C layer collects them), one per line.
private func currentMessages() -> [String] {
    String(cString: bvz_messages()).split(separator: "\n").map { String($0).trimmingSpaces() }.filter { !$0.isEmpty }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        var s = Substring(self)
        while s.first?.isWhitespace == true { s = s.dropFirst() }
        while s.last?.isWhitespace == true { s = s.dropLast() }
        return String(s)
    }
}

extension Graph {
    /// Nodes (in subgraphs too) and edges: what output sizes are estimated by.
    var objectCount: Int {
        func count(_ s: Subgraph) -> Int { s.nodes.count + s.subgraphs.reduce(0) { $0 + count($1) } }
        return nodes.count + edges.count + subgraphs.reduce(0) { $0 + count($1) }
    }
}
