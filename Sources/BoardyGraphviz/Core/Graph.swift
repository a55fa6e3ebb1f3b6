/// A graph to lay out and render: nodes, edges, nested clusters and Graphviz attributes.
///
/// The model knows nothing of boards; mappings from boards and traces build it. Ids and
/// attribute values are handed to Graphviz through its C API, never pasted into DOT text, so no
/// id can inject DOT.
public struct Graph: Sendable, Hashable {
    /// The graph's name.
    public var name: String
    /// Graph attributes (`rankdir`, `label`, ...), in order.
    public var attributes: Attributes
    /// Defaults for every node.
    public var nodeDefaults: Attributes
    /// Defaults for every edge.
    public var edgeDefaults: Attributes
    /// Nodes at the top level, in order.
    public var nodes: [Node]
    /// Edges, in order.
    public var edges: [Edge]
    /// Clusters and other subgraphs, in order.
    public var subgraphs: [Subgraph]

    /// An empty directed graph named `name`.
    public init(name: String = "G", attributes: Attributes = [:], nodes: [Node] = [], edges: [Edge] = [], subgraphs: [Subgraph] = []) {
        self.name = name
        self.attributes = attributes
        self.nodeDefaults = [:]
        self.edgeDefaults = [:]
        self.nodes = nodes
        self.edges = edges
        self.subgraphs = subgraphs
    }
}

/// A node: its id (unique in the graph) and attributes.
public struct Node: Sendable, Hashable {
    /// The node's id.
    public var id: String
    /// Its attributes (`label`, `shape`, `tooltip`, `id`, ...).
    public var attributes: Attributes
    /// A node `id`.
    public init(_ id: String, attributes: Attributes = [:]) {
        self.id = id
        self.attributes = attributes
    }
}

/// An edge between two node ids.
public struct Edge: Sendable, Hashable {
    /// The tail's id.
    public var from: String
    /// The head's id.
    public var to: String
    /// Its attributes (`label`, `style`, `color`, ...).
    public var attributes: Attributes
    /// An edge `from` → `to`.
    public init(from: String, to: String, attributes: Attributes = [:]) {
        self.from = from
        self.to = to
        self.attributes = attributes
    }
}

/// A subgraph; its name starting with `cluster` draws it as a box.
public struct Subgraph: Sendable, Hashable {
    /// The subgraph's name (`cluster_...` for a cluster).
    public var name: String
    /// Its attributes (`label`, `style`, ...).
    public var attributes: Attributes
    /// Ids of the nodes that belong to it (declared here if not declared elsewhere).
    public var nodes: [Node]
    /// Nested subgraphs.
    public var subgraphs: [Subgraph]
    /// A subgraph `name`.
    public init(name: String, attributes: Attributes = [:], nodes: [Node] = [], subgraphs: [Subgraph] = []) {
        self.name = name
        self.attributes = attributes
        self.nodes = nodes
        self.subgraphs = subgraphs
    }
}

/// Graphviz attributes in a fixed order (the order they are set, so DOT output is deterministic).
public struct Attributes: Sendable, Hashable, ExpressibleByDictionaryLiteral, Sequence {
    /// The (name, value) pairs in order.
    public private(set) var pairs: [(String, String)]

    /// Attributes from literal pairs, in order.
    public init(dictionaryLiteral elements: (String, String)...) { pairs = elements }

    /// The value of `name`; setting replaces it in place or appends it.
    public subscript(name: String) -> String? {
        get { pairs.first(where: { $0.0 == name })?.1 }
        set {
            if let i = pairs.firstIndex(where: { $0.0 == name }) {
                if let newValue { pairs[i].1 = newValue } else { pairs.remove(at: i) }
            } else if let newValue {
                pairs.append((name, newValue))
            }
        }
    }

    /// Iterates the pairs in order.
    public func makeIterator() -> IndexingIterator<[(String, String)]> { pairs.makeIterator() }

    /// Attributes are equal when they hold the same pairs in the same order.
    public static func == (a: Attributes, b: Attributes) -> Bool {
        a.pairs.count == b.pairs.count && zip(a.pairs, b.pairs).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    }

    /// Hashes the pairs in order, as `==` compares.
    public func hash(into hasher: inout Hasher) {
        for (k, v) in pairs {
            hasher.combine(k)
            hasher.combine(v)
        }
    }
}
