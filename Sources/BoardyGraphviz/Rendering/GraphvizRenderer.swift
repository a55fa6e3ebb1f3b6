import CGraphviz
import NIOConcurrencyHelpers

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
    public var description: String {
        let detail = messages.isEmpty ? "no message from Graphviz" : messages.joined(separator: "; ")
        return "Graphviz \(stage) failed: \(detail)"
    }
}

/// Lays out and renders graphs in-process through Graphviz's C library (libgvc).
///
/// libgvc is not thread-safe, not even with one context per thread, so every call into it, from
/// building to freeing, runs behind one process-wide lock; one context serves the process.
/// Graphviz's error and warning messages are captured, never printed.
public enum GraphvizRenderer {
    /// Lays out `graph` with `engine` (`dot`, `neato`, `nop2`, ...) and renders it as `format`.
    /// ``RenderFormat/dot`` skips the layout.
    public static func render(_ graph: Graph, engine: String = "dot", format: RenderFormat) throws(GraphvizError) -> [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        return try renderLocked(graph, engine: engine, format: format, capacity: nil)
    }

    /// ``render(_:engine:format:)`` with the output array's first capacity given instead of
    /// estimated (tests: output that fits, spills at any byte, or all spills).
    static func render(_ graph: Graph, engine: String = "dot", format: RenderFormat, capacity: Int) throws(GraphvizError) -> [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        return try renderLocked(graph, engine: engine, format: format, capacity: capacity)
    }

    /// Graphviz's version string.
    public static var version: String {
        lock.withLock {
            guard let v = gvcVersion(context) else { return "unknown" }
            return String(cString: v)
        }
    }

    // MARK: Behind the lock

    // A pthread mutex (NIOLock), which ThreadSanitizer understands (Synchronization.Mutex locks
    // through atomics it cannot see, and `make tsan` reported the state it guards as racing).
    private static let lock = NIOLock()
    // Created once, used only behind `lock`.
    private nonisolated(unsafe) static let context: OpaquePointer? = {
        _ = agseterrf(captureGraphvizMessage)
        return gvContext()
    }()

    private static func renderLocked(_ graph: Graph, engine: String, format: RenderFormat, capacity: Int?) throws(GraphvizError) -> [UInt8] {
        guard let gvc = context else { throw GraphvizError(stage: "initialisation", messages: ["gvContext() returned NULL"]) }
        capturedMessages = []
        partialMessage = ""
        agreseterrors()
        // An arena for graphs no layout restructures (see bvz_agopen).
        let arena: Int32 = format == .dot || pinnedEngines.contains(engine) ? 1 : 0
        guard let g = bvz_agopen(graph.name.controlPictures(), bvz_directed(), arena) else {
            throw GraphvizError(stage: "building the graph", messages: currentMessages())
        }
        defer { _ = bvz_agclose(g) }
        let objects = graph.objectCount
        bvz_reserve_strings(g, objects * 2)  // a name and a value or two of its own per object
        build(graph, into: g, escapingIDs: format != .dot)
        if agerrors() != 0 { throw GraphvizError(stage: "building the graph", messages: currentMessages()) }

        if format == .dot {
            var buf: UnsafeMutablePointer<CChar>?
            var len = 0
            let rc = bvz_write_dot(g, &buf, &len)
            defer { bvz_free(buf) }
            guard rc == 0, let buf else { throw GraphvizError(stage: "writing DOT", messages: currentMessages()) }
            return Array(UnsafeRawBufferPointer(start: buf, count: len))
        }

        guard gvLayout(gvc, g, engine) == 0 else {
            throw GraphvizError(stage: "layout (\(engine))", messages: currentMessages())
        }
        defer { gvFreeLayout(gvc, g) }
        if agerrors() != 0 { throw GraphvizError(stage: "layout (\(engine))", messages: currentMessages()) }
        // Graphviz writes straight into the returned array's storage, sized from the bytes per
        // object of the last output in this format (with a quarter to spare); what does not fit
        // spills into a buffer that is appended after. Copying a whole large SVG into the array
        // cost a second write of every byte and a second set of fresh pages.
        let estimate =
            capacity ?? Int(min(Double(objects) * (outputBytesPerObject[format] ?? 0) * 1.25, Double(Int32.max))) + (format == .png ? 0 : 16 << 10)
        var spill: UnsafeMutablePointer<CChar>?
        var spillLength = 0
        var rc: Int32 = 0
        var bytes = [UInt8](unsafeUninitializedCapacity: estimate) { buffer, count in
            var written = 0
            rc = buffer.withMemoryRebound(to: CChar.self) { chars in
                bvz_render_memstream(gvc, g, format.rawValue, chars.baseAddress, chars.count, &written, &spill, &spillLength)
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
        if format != .png { outputBytesPerObject[format] = Double(bytes.count) / Double(max(objects, 1)) }
        return bytes
    }

    /// Output bytes per node and edge of the last render in each format: the next render's
    /// estimate (PNG sizes do not follow the graph's size, so PNG is never estimated).
    private nonisolated(unsafe) static var outputBytesPerObject: [RenderFormat: Double] = [.svg: 400]

    /// Engines that only read positions (`pos`) and draw, without changing the graph.
    static let pinnedEngines: Set<String> = ["nop", "nop1", "nop2"]

    /// Attribute symbols of the graph being built, per name: looked up once instead of by name
    /// for every node and edge. Only used behind the lock.
    private nonisolated(unsafe) static var nodeSymbols: [String: UnsafeMutablePointer<Agsym_t>] = [:]
    private nonisolated(unsafe) static var edgeSymbols: [String: UnsafeMutablePointer<Agsym_t>] = [:]

    private static func symbol(_ root: UnsafeMutablePointer<Agraph_t>, kind: Int32, _ name: String) -> UnsafeMutablePointer<Agsym_t>? {
        if let s = kind == Int32(AGNODE) ? nodeSymbols[name] : edgeSymbols[name] { return s }
        guard let s = bvz_symbol(root, kind, name) else { return nil }
        if kind == Int32(AGNODE) { nodeSymbols[name] = s } else { edgeSymbols[name] = s }
        return s
    }

    /// Whether the graph declares a default node label (else a node without a label gets its id
    /// as label: Graphviz's own default, `\N`, would expand escapes in the name).
    private nonisolated(unsafe) static var labelDefault = false

    /// Whether `id` attributes are XML-escaped by us (SVG output): see ``escape(_:_:)``.
    private nonisolated(unsafe) static var escapeIDs = false

    private static func build(_ graph: Graph, into g: UnsafeMutablePointer<Agraph_t>, escapingIDs: Bool) {
        escapeIDs = escapingIDs
        nodeSymbols = [:]
        edgeSymbols = [:]
        defer {
            nodeSymbols = [:]
            edgeSymbols = [:]
        }
        for (k, v) in graph.attributes { setAttribute(g, root: g, k, v) }
        for (k, v) in graph.nodeDefaults { _ = bvz_agattr(g, Int32(AGNODE), k, escape(k, v)) }
        for (k, v) in graph.edgeDefaults { _ = bvz_agattr(g, Int32(AGEDGE), k, escape(k, v)) }
        labelDefault = graph.nodeDefaults["label"] != nil
        declareAttributes(of: graph, root: g)
        for n in graph.nodes { addNode(n, to: g, root: g) }
        for s in graph.subgraphs { addSubgraph(s, to: g, root: g) }
        // An edge's end that is not one of the graph's nodes is made as a node without attributes
        // would be (its id as label).
        func end(_ id: String) -> UnsafeMutablePointer<Agnode_t>? {
            let name = id.controlPictures()
            if let n = bvz_node_named(g, name) { return n }
            guard let n = bvz_agnode(g, name) else { return nil }
            if !labelDefault, let sym = symbol(g, kind: Int32(AGNODE), "label") { _ = bvz_agxset(n, sym, escape("label", id)) }
            return n
        }
        for e in graph.edges {
            guard let t = end(e.from), let h = end(e.to) else { continue }
            // Anonymous: in a non-strict graph each call makes a new edge, so parallel edges stay
            // apart without a key to intern.
            guard let edge = bvz_agedge(g, t, h, nil) else { continue }
            for (k, v) in e.attributes {
                if let sym = symbol(g, kind: Int32(AGEDGE), k) { _ = bvz_agxset(edge, sym, escape(k, v)) }
            }
        }
    }

    /// Declares every attribute name the graph's nodes and edges use before any of them is
    /// created: cgraph grows the attribute array of every existing object when a new name is
    /// declared, so names first met late in a large graph cost a pass over it each.
    private static func declareAttributes(of graph: Graph, root: UnsafeMutablePointer<Agraph_t>) {
        if !labelDefault, !graph.nodes.isEmpty || !graph.subgraphs.isEmpty || !graph.edges.isEmpty {
            _ = symbol(root, kind: Int32(AGNODE), "label")  // every node gets one (addNode)
        }
        // Consecutive objects mostly use the same names in the same order: compare with the
        // previous object's names before looking any up.
        func declarer(_ kind: Int32) -> (Attributes) -> Void {
            var previous: [(String, String)] = []
            return { a in
                let pairs = a.pairs
                if pairs.count == previous.count, zip(pairs, previous).allSatisfy({ $0.0 == $1.0 }) { return }
                for (k, _) in pairs { _ = symbol(root, kind: kind, k) }
                previous = pairs
            }
        }
        let node = declarer(Int32(AGNODE))
        func nodes(of s: Subgraph) {
            for n in s.nodes { node(n.attributes) }
            for child in s.subgraphs { nodes(of: child) }
        }
        for n in graph.nodes { node(n.attributes) }
        for s in graph.subgraphs { nodes(of: s) }
        let edge = declarer(Int32(AGEDGE))
        for e in graph.edges { edge(e.attributes) }
    }

    private static func addNode(_ n: Node, to g: UnsafeMutablePointer<Agraph_t>, root: UnsafeMutablePointer<Agraph_t>) {
        guard let node = bvz_agnode(g, n.id.controlPictures()) else { return }
        if !labelDefault, n.attributes["label"] == nil, let sym = symbol(root, kind: Int32(AGNODE), "label") { _ = bvz_agxset(node, sym, escape("label", n.id)) }
        for (k, v) in n.attributes {
            if let sym = symbol(root, kind: Int32(AGNODE), k) { _ = bvz_agxset(node, sym, escape(k, v)) }
        }
    }

    private static func addSubgraph(_ s: Subgraph, to g: UnsafeMutablePointer<Agraph_t>, root: UnsafeMutablePointer<Agraph_t>) {
        guard let sub = bvz_agsubg(g, s.name.controlPictures()) else { return }
        for (k, v) in s.attributes { setAttribute(sub, root: root, k, v) }
        for n in s.nodes { addNode(n, to: sub, root: root) }
        for child in s.subgraphs { addSubgraph(child, to: sub, root: root) }
    }

    private static func setAttribute(_ obj: UnsafeMutableRawPointer, root: UnsafeMutablePointer<Agraph_t>, _ name: String, _ value: String)
    {
        _ = bvz_agsafeset(obj, name, escape(name, value), "")
    }

    private static func setAttribute<T>(
        _ obj: UnsafeMutablePointer<T>, root: UnsafeMutablePointer<Agraph_t>, _ name: String, _ value: String
    ) {
        setAttribute(UnsafeMutableRawPointer(obj), root: root, name, value)
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
    static func escape(_ name: String, _ value: String) -> String {
        let value = value.controlPictures()
        if name == "id" {
            return escapeIDs ? value.xmlAttributeEscaped() : value
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
        guard utf8.contains(where: { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) else { return self }
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

// Graphviz calls this with pieces of each message ("Error", ": ", text); they are joined per line.
// Only touched behind GraphvizRenderer's lock.
private nonisolated(unsafe) var capturedMessages: [String] = []
private nonisolated(unsafe) var partialMessage = ""

/// The messages captured so far, with an unterminated last one.
private func currentMessages() -> [String] {
    let rest = partialMessage.trimmingSpaces()
    return rest.isEmpty ? capturedMessages : capturedMessages + [rest]
}

private func captureGraphvizMessage(_ text: UnsafeMutablePointer<CChar>?) -> Int32 {
    guard let text else { return 0 }
    partialMessage += String(cString: text)
    while let nl = partialMessage.firstIndex(of: "\n") {
        let line = String(partialMessage[..<nl]).trimmingSpaces()
        if !line.isEmpty { capturedMessages.append(line) }
        partialMessage = String(partialMessage[partialMessage.index(after: nl)...])
    }
    return 0
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
