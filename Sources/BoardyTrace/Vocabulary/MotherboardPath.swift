/// Where a motherboard sits: its root's name (`main` by default; any name, and several roots
/// where a launcher makes them), then one component per continuous board it is inside
/// (`main/pubPayment`). Traces record it as the `mb` string.
public struct MotherboardPath: Sendable, Hashable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The path as recorded: components joined by `/`.
    public let rawValue: String

    /// The default root's path, `main` (the name `Motherboard` and `PluginLauncher` give a root
    /// unless told otherwise).
    public static let main = MotherboardPath(root: "main")

    /// The path recorded as `rawValue` (`main`, `app/pubPayment`).
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// A root's path.
    public init(root name: String) { rawValue = name }

    /// The path recorded as the literal (`"main/pubPayment"`).
    public init(stringLiteral value: String) { rawValue = value }

    /// Whether it names a root motherboard (no continuous board above it).
    public var isRoot: Bool { !rawValue.utf8.contains(0x2F) }  // "/"

    /// Its components: the root's name, then each continuous board's id.
    public var components: [String] { rawValue.split(separator: "/", omittingEmptySubsequences: false).map(String.init) }

    /// The root's name.
    public var root: String { components[0] }

    /// The motherboard that holds the continuous board owning this one; nil for a root.
    public var parent: MotherboardPath? {
        guard let slash = rawValue.lastIndex(of: "/") else { return nil }
        return MotherboardPath(String(rawValue[..<slash]))
    }

    /// The id of the continuous board owning this motherboard (decoded); nil for a root.
    public var owner: String? {
        guard let slash = rawValue.lastIndex(of: "/") else { return nil }
        return Self.decode(String(rawValue[rawValue.index(after: slash)...]))
    }

    /// The path below the root (`pubPayment` for `main/pubPayment`); empty for a root.
    public var belowRoot: String {
        guard let slash = rawValue.firstIndex(of: "/") else { return "" }
        return String(rawValue[rawValue.index(after: slash)...])
    }

    /// Whether this is the motherboard of one gateway run's own gate instance (Boardy's gateway
    /// proxy, `<parent>/<destination>.___GATEWAY___`).
    public var isGatewayProxy: Bool { !isRoot && rawValue.hasSuffix(BoardID.gatewaySuffix) }

    /// The motherboard whose gateway this proxy serves (itself when it is not one; proxies of
    /// proxies fold all the way): pictures draw a per-run gate instance as that gateway's gate.
    public var gatewayHost: MotherboardPath {
        var p = self
        while p.isGatewayProxy, let parent = p.parent { p = parent }
        return p
    }

    /// The inner motherboard of the continuous board `id` in this one: the id is a component,
    /// percent-encoded (``encode(_:)``), so that different ids never make the same path.
    public func appending(_ id: String) -> MotherboardPath { MotherboardPath(rawValue + "/" + Self.encode(id)) }

    /// `id` as part of a derived name (docs/contract.md §1.2): the characters derivations use
    /// (`%`, `/`, `#`, `:`) percent-encoded, everything else verbatim. Ids without them, which
    /// is nearly all, are unchanged.
    public static func encode(_ id: String) -> String {
        guard id.utf8.contains(where: { $0 == 0x25 || $0 == 0x2F || $0 == 0x23 || $0 == 0x3A }) else { return id }
        var out = ""
        for c in id.unicodeScalars {
            switch c {
            case "%": out += "%25"
            case "/": out += "%2F"
            case "#": out += "%23"
            case ":": out += "%3A"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// The id a component encoded by ``encode(_:)`` stands for.
    public static func decode(_ component: String) -> String {
        guard component.utf8.contains(0x25) else { return component }
        var out = ""
        var scalars = Array(component.unicodeScalars)[...]
        while let c = scalars.first {
            scalars = scalars.dropFirst()
            if c == "%", scalars.count >= 2 {
                let code = String(String.UnicodeScalarView(scalars.prefix(2)))
                let decoded: Character? = ["25": "%", "2F": "/", "23": "#", "3A": ":"][code.uppercased()]
                if let decoded {
                    out.append(decoded)
                    scalars = scalars.dropFirst(2)
                    continue
                }
            }
            out.unicodeScalars.append(c)
        }
        return out
    }

    /// The path as recorded.
    public var description: String { rawValue }

    /// Paths order by their recorded strings.
    public static func < (a: MotherboardPath, b: MotherboardPath) -> Bool { a.rawValue < b.rawValue }
}
