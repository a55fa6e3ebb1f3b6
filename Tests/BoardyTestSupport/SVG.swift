import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

extension XMLElement {
    /// The attribute `name`. (FoundationXML's `attribute(forName:)` misses attributes of
    /// elements in a default namespace here; the attribute list has them.)
    public func attr(_ name: String) -> String? { attributes?.first { $0.name == name }?.stringValue }
}

/// A rendered SVG, parsed as XML.
public struct SVG {
    /// The parsed document.
    public let doc: XMLDocument

    /// Parses `bytes` (an SVG document).
    public init(_ bytes: [UInt8]) throws { doc = try XMLDocument(data: Data(bytes), options: []) }

    /// Elements of the given Graphviz class (`node`, `edge`, `cluster`).
    public func groups(_ cls: String) throws -> [XMLElement] {
        try doc.nodes(forXPath: "//*[local-name()='g'][@class='\(cls)']").compactMap { $0 as? XMLElement }
    }

    /// The `id`s of those groups.
    public func ids(_ cls: String) throws -> Set<String> { Set(try groups(cls).compactMap { $0.attr("id") }) }

    /// Every tooltip (`xlink:title`) in the document.
    public func tooltips() throws -> [String] {
        try doc.nodes(forXPath: "//*[local-name()='a']").compactMap { ($0 as? XMLElement)?.attr("xlink:title") }
    }

    /// The `<title>` of each group of the given class, by the group's `id`.
    public func titles(_ cls: String) throws -> [String: String] {
        var out: [String: String] = [:]
        for g in try groups(cls) {
            guard let id = g.attr("id"), let title = g.elements(forName: "title").first?.stringValue else { continue }
            out[id] = title
        }
        return out
    }

    /// The text of every `<text>` element.
    public func texts() throws -> [String] { try doc.nodes(forXPath: "//*[local-name()='text']").compactMap(\.stringValue) }

    /// The whole document as text (to find comments in it).
    public var comment: String { String(decoding: doc.xmlData, as: UTF8.self) }
}

extension SVG {
    /// The group (any class) with this id.
    public func group(_ id: String) throws -> XMLElement? {
        try doc.nodes(forXPath: "//*[local-name()='g'][@id='\(id)']").first as? XMLElement
    }

    /// The texts inside the group with this id; for `legend`, the texts of its entries.
    public func texts(in id: String) throws -> [String] {
        if id == "legend" {
            return try groups("node").filter { ($0.attr("id") ?? "").hasPrefix("legend-text-") }.flatMap {
                try $0.nodes(forXPath: ".//*[local-name()='text']").compactMap(\.stringValue)
            }
        }
        guard let g = try group(id) else { return [] }
        return try g.nodes(forXPath: ".//*[local-name()='text']").compactMap(\.stringValue)
    }
}
