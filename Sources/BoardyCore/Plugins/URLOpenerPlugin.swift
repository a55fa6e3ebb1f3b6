import Foundation

/// A plugin that opens some URLs (deep links, universal links) on the main motherboard
/// (Boardy's `URLOpenerPlugin`).
public protocol URLOpenerPlugin: URLOpenerPluginConvertible {
    /// Its name (reported by ``PluginLauncher/open(url:)``).
    var name: String { get }
    /// Whether it opens `url`.
    func canOpenURL(_ url: URL) -> Bool
    /// Opens `url` on `mainboard`.
    func mainboard(_ mainboard: any FlowMotherboard, open url: URL)
}

extension URLOpenerPlugin {
    /// The plugin's description.
    public var name: String { String(describing: self) }
    /// Itself.
    public var urlOpenerPlugins: [any URLOpenerPlugin] { [self] }
}

/// Something that stands for URL opener plugins (Boardy's `URLOpenerPluginConvertible`).
public protocol URLOpenerPluginConvertible {
    /// The plugins.
    var urlOpenerPlugins: [any URLOpenerPlugin] { get }
}

extension Array: URLOpenerPluginConvertible where Element == any URLOpenerPlugin {
    /// The plugins.
    public var urlOpenerPlugins: [any URLOpenerPlugin] { self }
}

/// Builds a list of URL opener plugins (Boardy's `URLOpenerPluginBuilder`).
@resultBuilder
public enum URLOpenerPluginBuilder {
    /// The plugins of every component, in order.
    public static func buildBlock(_ components: any URLOpenerPluginConvertible...) -> [any URLOpenerPlugin] { components.flatMap(\.urlOpenerPlugins) }
    /// The plugins of a `for` loop's components.
    public static func buildArray(_ components: [any URLOpenerPluginConvertible]) -> [any URLOpenerPlugin] { components.flatMap(\.urlOpenerPlugins) }
    /// An `if` branch's plugins.
    public static func buildEither(first component: any URLOpenerPluginConvertible) -> any URLOpenerPluginConvertible { component.urlOpenerPlugins }
    /// An `else` branch's plugins.
    public static func buildEither(second component: any URLOpenerPluginConvertible) -> any URLOpenerPluginConvertible { component.urlOpenerPlugins }
    /// An `if` without `else`: its plugins, or none.
    public static func buildOptional(_ component: (any URLOpenerPluginConvertible)?) -> any URLOpenerPluginConvertible { component?.urlOpenerPlugins ?? [] }
    /// One expression's plugins (none for nil).
    public static func buildExpression(_ expression: (any URLOpenerPluginConvertible)?) -> any URLOpenerPluginConvertible { expression?.urlOpenerPlugins ?? [] }
}

/// A plugin that opens URLs whose path matches a pattern such as `/article/{id}`: the `{…}`
/// parts and the query items become its parameters (Boardy's `URLOpenerPathMatchingPlugin`).
public protocol URLOpenerPathMatchingPlugin: URLOpenerPlugin {
    /// The pattern (`/article/{id}`).
    var matchingPath: String { get }
    /// Opens with the URL's parameters.
    func mainboard(_ mainboard: any FlowMotherboard, openURLWithParameters parameters: [String: String])
}

extension URLOpenerPathMatchingPlugin {
    /// Whether `url`'s path matches the pattern.
    public func canOpenURL(_ url: URL) -> Bool { parameters(of: url) != nil }

    /// Opens `url` with its parameters when its path matches.
    public func mainboard(_ mainboard: any FlowMotherboard, open url: URL) {
        if let p = parameters(of: url) { self.mainboard(mainboard, openURLWithParameters: p) }
    }

    /// The query items and the pattern's `{name}` parts, or nil when the path does not match.
    func parameters(of url: URL) -> [String: String]? {
        let pattern = matchingPath.split(separator: "/").map(String.init)
        let path = url.pathComponents.filter { $0 != "/" }
        guard pattern.count == path.count else { return nil }
        var found: [String: String] = [:]
        for (p, v) in zip(pattern, path) {
            if p.hasPrefix("{"), p.hasSuffix("}"), p.count >= 2 { found[String(p.dropFirst().dropLast())] = v } else if p != v { return nil }
        }
        var query: [String: String] = [:]
        for item in URLComponents(url: url, resolvingAgainstBaseURL: true)?.queryItems ?? [] {
            query[item.name] = item.value?.removingPercentEncoding
        }
        return query.merging(found) { $1 }
    }
}

/// A path-matching plugin made of a closure.
public struct BlockURLOpenerPathMatchingPlugin: URLOpenerPathMatchingPlugin {
    /// The pattern.
    public let matchingPath: String
    private let customName: String?
    private let handler: (any FlowMotherboard, [String: String]) -> Void

    /// A plugin for `matchingPath`, running `handler`.
    public init(name: String? = nil, matchingPath: String, handler: @escaping (any FlowMotherboard, [String: String]) -> Void) {
        self.matchingPath = matchingPath
        customName = name
        self.handler = handler
    }

    /// Its name, else its description.
    public var name: String { customName ?? String(describing: self) }

    /// Runs the handler.
    public func mainboard(_ mainboard: any FlowMotherboard, openURLWithParameters parameters: [String: String]) { handler(mainboard, parameters) }
}

/// Whether a ``GuaranteedURLOpenerPlugin`` opens a URL, with what.
public enum URLOpeningOption<Parameter> {
    /// It opens it with this parameter.
    case yes(Parameter)
    /// It does not.
    case no
}

/// A plugin that decides from a URL whether to open it and with what (Boardy's
/// `GuaranteedURLOpenerPlugin`).
public protocol GuaranteedURLOpenerPlugin: URLOpenerPlugin {
    /// What it opens a URL with.
    associatedtype Parameter
    /// Whether it opens `url`, and with what.
    func willOpen(url: URL) -> URLOpeningOption<Parameter>
    /// Opens with `parameter`.
    func mainboard(_ mainboard: any FlowMotherboard, openWith parameter: Parameter)
}

extension GuaranteedURLOpenerPlugin {
    /// Whether ``willOpen(url:)`` says yes.
    public func canOpenURL(_ url: URL) -> Bool {
        if case .yes = willOpen(url: url) { return true }
        return false
    }

    /// Opens with the parameter ``willOpen(url:)`` gives.
    public func mainboard(_ mainboard: any FlowMotherboard, open url: URL) {
        if case let .yes(parameter) = willOpen(url: url) { self.mainboard(mainboard, openWith: parameter) }
    }
}

/// A guaranteed plugin made of closures.
public struct BlockURLOpenerPlugin<Parameter>: GuaranteedURLOpenerPlugin {
    private let condition: (URL) -> URLOpeningOption<Parameter>
    private let handler: (any FlowMotherboard, Parameter) -> Void
    private let customName: String?

    /// A plugin deciding with `condition` and opening with `handler`.
    public init(name: String? = nil, condition: @escaping (URL) -> URLOpeningOption<Parameter>, handler: @escaping (any FlowMotherboard, Parameter) -> Void) {
        customName = name
        self.condition = condition
        self.handler = handler
    }

    /// Its name, else its description.
    public var name: String { customName ?? String(describing: self) }
    /// What `condition` says.
    public func willOpen(url: URL) -> URLOpeningOption<Parameter> { condition(url) }
    /// Runs the handler.
    public func mainboard(_ mainboard: any FlowMotherboard, openWith parameter: Parameter) { handler(mainboard, parameter) }
}

/// What a launcher's validator says of a URL before any plugin sees it.
public enum URLOpeningValidationStatus: Hashable {
    /// Plugins may open it.
    case accepted
    /// Nothing opens it (the denied handler runs).
    case denied
}

extension PluginLauncher {
    /// Chooses among several plugins that can open one URL: calls back with those to run.
    public typealias URLOpenerSelectionHandler = (
        _ mainboard: any FlowMotherboard, _ url: URL, _ candidatePlugins: [any URLOpenerPlugin], (_ selectedPlugins: [any URLOpenerPlugin]) -> Void
    ) -> Void
    /// Runs when no plugin opens a URL.
    public typealias URLNotFoundHandler = (_ mainboard: any FlowMotherboard, _ url: URL) -> Void
    /// Accepts or denies a URL before any plugin sees it.
    public typealias URLOpeningValidator = (_ url: URL) -> URLOpeningValidationStatus
    /// Runs when the validator denies a URL.
    public typealias URLDeniedHandler = (_ mainboard: any FlowMotherboard, _ url: URL) -> Void

    /// Adds a URL opener plugin.
    @discardableResult
    public func install(urlOpenerPlugin: any URLOpenerPlugin) -> Self { install(urlOpenerPlugins: [urlOpenerPlugin]) }

    /// Adds URL opener plugins (tried in the order installed).
    @discardableResult
    public func install(urlOpenerPlugins: [any URLOpenerPlugin]) -> Self {
        urls.plugins += urlOpenerPlugins
        return self
    }

    /// Adds the URL opener plugins `builder` lists.
    @discardableResult
    public func install(@URLOpenerPluginBuilder urlOpenerPluginsBuilder: () -> [any URLOpenerPlugin]) -> Self {
        install(urlOpenerPlugins: urlOpenerPluginsBuilder())
    }

    /// Adds a plugin deciding with `condition` and opening with `handler`.
    @discardableResult
    public func installURLOpenerPlugin<Parameter>(
        name: String? = nil, condition: @escaping (URL) -> URLOpeningOption<Parameter>, handler: @escaping (any FlowMotherboard, Parameter) -> Void
    ) -> Self {
        install(urlOpenerPlugin: BlockURLOpenerPlugin(name: name, condition: condition, handler: handler))
    }

    /// Adds a plugin opening the URLs `condition` accepts.
    @discardableResult
    public func installURLOpenerPlugin(name: String? = nil, condition: @escaping (URL) -> Bool, handler: @escaping (any FlowMotherboard) -> Void) -> Self {
        install(urlOpenerPlugin: BlockURLOpenerPlugin<Void>(name: name, condition: { condition($0) ? .yes(()) : .no }) { mainboard, _ in handler(mainboard) })
    }

    /// Adds a plugin opening the URLs whose path matches `matchingPath`.
    @discardableResult
    public func installURLOpenerPlugin(
        name: String? = nil, matchingPath: String, handler: @escaping (_ mainboard: any FlowMotherboard, _ parameters: [String: String]) -> Void
    ) -> Self {
        install(urlOpenerPlugin: BlockURLOpenerPathMatchingPlugin(name: name, matchingPath: matchingPath, handler: handler))
    }

    /// Sets what runs when no plugin opens a URL (and, unless set apart, when one is denied).
    @discardableResult
    public func setURLNotFoundHandler(_ handler: URLNotFoundHandler?) -> Self {
        urls.notFound = handler
        return self
    }

    /// Sets how one URL several plugins can open is opened (by default: by all of them).
    @discardableResult
    public func setURLOpenerSelectionHandler(_ handler: @escaping URLOpenerSelectionHandler) -> Self {
        urls.selection = handler
        return self
    }

    /// Sets the validator every URL passes first.
    @discardableResult
    public func setURLOpeningValidator(_ validator: @escaping URLOpeningValidator) -> Self {
        urls.validator = validator
        return self
    }

    /// Sets what runs when the validator denies a URL.
    @discardableResult
    public func setURLDeniedHandler(_ handler: @escaping URLDeniedHandler) -> Self {
        urls.denied = handler
        return self
    }

    /// Opens `url`: once validated, the one plugin that can open it does; several are chosen
    /// among by the selection handler; none runs the not-found handler. Returns the names of the
    /// plugins that could open it (before any selection).
    @discardableResult
    public func open(url: URL) -> [String] {
        guard urls.validator(url) == .accepted else {
            (urls.denied ?? urls.notFound)?(mainboard, url)
            return []
        }
        let candidates = urls.plugins.filter { $0.canOpenURL(url) }
        switch candidates.count {
        case 0: urls.notFound?(mainboard, url)
        case 1: candidates[0].mainboard(mainboard, open: url)
        default:
            urls.selection(mainboard, url, candidates) { [mainboard] selected in
                for plugin in selected { plugin.mainboard(mainboard, open: url) }
            }
        }
        return candidates.map(\.name)
    }

    /// Opens the URL `link` spells (see ``open(url:)``); a link that is not a URL opens nothing.
    @discardableResult
    public func open(link: String) -> [String] {
        guard let url = URL(string: link) else { return [] }
        return open(url: url)
    }
}

/// A launcher's URL openers and their handlers.
final class URLOpeners {
    var plugins: [any URLOpenerPlugin] = []
    var selection: PluginLauncher.URLOpenerSelectionHandler = { $3($2) }
    var notFound: PluginLauncher.URLNotFoundHandler?
    var validator: PluginLauncher.URLOpeningValidator = { _ in .accepted }
    var denied: PluginLauncher.URLDeniedHandler?
}
