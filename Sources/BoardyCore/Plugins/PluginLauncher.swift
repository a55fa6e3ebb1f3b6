import BoardyLock
import Foundation

/// Options of a launch (Boardy's `MainOptions`): values by key, and here the runtime the main
/// motherboard runs on.
public struct MainOptions {
    /// A key of an option.
    public struct Key: RawRepresentable, Hashable, Sendable {
        /// The key's name.
        public let rawValue: String
        /// The raw value's type.
        public typealias RawValue = String
        /// A key named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The app's environment (Boardy's key; what it holds is the app's).
        public static let environment = Key(rawValue: "environment")
        /// The runtime the launcher's motherboards run on (a ``BoardyRuntime``).
        public static let runtime = Key(rawValue: "boardy-viz.runtime")
        /// The main motherboard's id (a `BoardID`; `main` when absent).
        public static let mainboardIdentifier = Key(rawValue: "boardy-viz.mainboard")
    }

    private var values: [Key: Any]

    /// Options with `values`.
    public init(_ values: [Key: Any] = [:]) { self.values = values }

    /// No options: a fresh runtime on a virtual clock, without an observer, and a main
    /// motherboard named `main`. (Computed, so no shared value of `Any`s needs to be Sendable.)
    public static var `default`: MainOptions { MainOptions() }

    /// Options whose motherboards run on `runtime` (what boardy-viz adds to Boardy's options).
    public init(runtime: BoardyRuntime) { self.init([.runtime: runtime]) }

    /// The value for `key`, as a `Value`.
    public subscript<Value>(key: Key) -> Value? { values[key] as? Value }

    /// The value for `key`.
    public subscript(key: Key) -> Any? {
        get { values[key] }
        set { values[key] = newValue }
    }

    /// These options with `value` set for `key`.
    public func set(_ value: Any?, forKey key: Key) -> MainOptions {
        var copy = self
        copy[key] = value
        return copy
    }
}


/// What plugins share (Boardy's `SharedValueComponent`): the launch's options.
public protocol SharedValueComponent {
    /// The launch's options.
    var options: MainOptions { get }
}

/// What a module plugin is applied to (Boardy's `MainComponent`): the main producer.
public protocol MainComponent: SharedValueComponent {
    /// The producer the plugins register their boards into.
    var producer: any BoardDynamicProducer { get }
}

/// A typed launch option (Boardy's `MainOption`), stored under its type's key.
public protocol MainOption {
    /// The value when the options hold none.
    static var defaultValue: Self { get }
    /// The key it is stored under (the type's name by default).
    static var key: MainOptions.Key { get }
}

extension MainOption {
    /// The type's name.
    public static var key: MainOptions.Key { MainOptions.Key(rawValue: String(reflecting: Self.self)) }
}

extension MainOptions {
    /// These options with `value` set under its type's key.
    public func with<Value: MainOption>(_ value: Value) -> MainOptions { set(value, forKey: Value.key) }

    /// The value of a typed option, or its default.
    public func value<Value: MainOption>(_: Value.Type = Value.self) -> Value { self[Value.key] ?? Value.defaultValue }

    /// The value of a typed option, or its default (Boardy's spelling).
    public func value<Value: MainOption>(of type: Value.Type = Value.self) -> Value { self[type.key] ?? Value.defaultValue }
}

/// A module plugin that builds its module's main board from its own inner registrations
/// (Boardy's `ModuleBuilderPlugin`).
public protocol ModuleBuilderPlugin: ModulePlugin {
    /// The registrations of the module's inner boards.
    @BoardRegistrationBuilder
    func internalContinuousRegistrations(sharedComponent: any SharedValueComponent, producer: any ActivatableBoardProducer)
        -> [BoardRegistration]
    /// Builds the module's board for `identifier`, with the producer of its inner boards.
    func build(with identifier: BoardID, sharedComponent: any SharedValueComponent, internalContinuousProducer: any ActivatableBoardProducer)
        -> any ActivatableBoard
    /// Runs once the plugin is applied.
    func pluginDidLoad(with sharedComponent: any SharedValueComponent)
}

extension ModuleBuilderPlugin {
    /// Registers the module's board: an inner producer of its registrations, falling back to the
    /// main producer, hands it to ``build(with:sharedComponent:internalContinuousProducer:)``.
    public func apply(for main: any MainComponent) {
        let outer = main.producer
        main.producer.registerBoard(identifier) { [self] id in
            let inner = BoardProducer(externalProducer: outer) { producer in
                internalContinuousRegistrations(sharedComponent: main, producer: producer)
            }
            return build(with: id, sharedComponent: main, internalContinuousProducer: inner)
        }
        pluginDidLoad(with: main)
    }

    /// Nothing to do once applied, unless the plugin says so.
    public func pluginDidLoad(with _: any SharedValueComponent) {}
}

extension Array: ModulePluginConvertible where Element == any ModulePlugin {
    /// Itself.
    public var modulePlugins: [any ModulePlugin] { self }
}

/// Builds a list of plugins (Boardy's `ModulePluginBuilder`).
@resultBuilder
public enum ModulePluginBuilder {
    /// The components' plugins, in order.
    public static func buildBlock(_ components: any ModulePluginConvertible...) -> [any ModulePlugin] { components.flatMap(\.modulePlugins) }
    /// A `for` loop: each pass's plugins, in order.
    public static func buildArray(_ components: [any ModulePluginConvertible]) -> [any ModulePlugin] { components.flatMap(\.modulePlugins) }
    /// The `if` branch of an `if`/`else` or a `switch` case.
    public static func buildEither(first component: any ModulePluginConvertible) -> any ModulePluginConvertible { component.modulePlugins }
    /// The `else` branch of an `if`/`else` or a `switch` case.
    public static func buildEither(second component: any ModulePluginConvertible) -> any ModulePluginConvertible { component.modulePlugins }
    /// An `if` without `else`: no plugins when it is false.
    public static func buildOptional(_ component: (any ModulePluginConvertible)?) -> any ModulePluginConvertible { component?.modulePlugins ?? [] }
    /// A plugin or a list of them; nil adds none.
    public static func buildExpression(_ expression: (any ModulePluginConvertible)?) -> any ModulePluginConvertible { expression?.modulePlugins ?? [] }
}

/// A module of an app (Authentication, Shopping, Payment...) that registers its boards (Boardy's
/// `ModulePlugin`).
public protocol ModulePlugin: ModulePluginConvertible {
    /// The plugin's id.
    var identifier: BoardID { get }
    /// Registers the module's boards into `main`'s producer.
    func apply(for main: any MainComponent)
}

/// What a plugin builder accepts (Boardy's `ModulePluginConvertible`).
public protocol ModulePluginConvertible {
    /// The plugins it stands for.
    var modulePlugins: [any ModulePlugin] { get }
}

extension ModulePlugin {
    /// Itself.
    public var modulePlugins: [any ModulePlugin] { [self] }
}

/// A plugin that prepares several module plugins for a launch (Boardy's `LauncherPlugin`).
public protocol LauncherPlugin {
    /// The module plugins (and launch settings) for a launch with `options`.
    func prepareForLaunching(withOptions options: MainOptions) -> ModuleComponent
}

/// Module plugins and launch settings from a ``LauncherPlugin`` (Boardy's `ModuleComponent`).
public struct ModuleComponent {
    /// The module plugins.
    public let modulePlugins: [any ModulePlugin]
    /// The URL opener plugins.
    public let urlOpenerPlugins: [any URLOpenerPlugin]
    /// Runs on the main motherboard once it is built.
    public let launchSettings: (_ mainboard: any FlowMotherboard) -> Void

    /// A component of `modulePlugins`, `urlOpenerPlugins` and `launchSettings`.
    public init(
        modulePlugins: [any ModulePlugin], urlOpenerPlugins: [any URLOpenerPlugin] = [],
        launchSettings: @escaping (_ mainboard: any FlowMotherboard) -> Void = { _ in }
    ) {
        self.modulePlugins = modulePlugins
        self.urlOpenerPlugins = urlOpenerPlugins
        self.launchSettings = launchSettings
    }
}

/// Collects plugins and gateways before the main motherboard is built (Boardy's
/// `LauncherComponent`, from ``PluginLauncher/with(options:)``).
public final class LauncherComponent {
    /// The launch's options.
    public let options: MainOptions
    /// A value shared with every plugin, JSON-encoded (``share(value:)``).
    public var sharedEncodedData: Data?
    private var plugins: [any ModulePlugin] = []
    private var gateways: [(GatewayBarrierRegistration, BoardID?)] = []
    private var settings: [(any FlowMotherboard) -> Void] = []
    private var urlOpenerPlugins: [any URLOpenerPlugin] = []

    init(options: MainOptions) { self.options = options }

    /// Shares `value` with the plugins, JSON-encoded (nil when it cannot be encoded).
    public func share(value: some Encodable) -> Self {
        sharedEncodedData = try? JSONEncoder().encode(value)
        return self
    }

    /// Adds module plugins.
    @discardableResult
    public func install(plugins: [any ModulePlugin]) -> Self {
        self.plugins += plugins
        return self
    }

    /// Adds a module plugin.
    @discardableResult
    public func install(plugin: any ModulePlugin) -> Self { install(plugins: [plugin]) }

    /// Adds the plugins `pluginsBuilder` lists.
    @discardableResult
    public func install(@ModulePluginBuilder pluginsBuilder: () -> [any ModulePlugin]) -> Self { install(plugins: pluginsBuilder()) }

    /// Adds the plugins a launcher plugin prepares, and its launch settings.
    @discardableResult
    public func install(launcherPlugin: any LauncherPlugin) -> Self {
        let component = launcherPlugin.prepareForLaunching(withOptions: options)
        settings.append(component.launchSettings)
        urlOpenerPlugins += component.urlOpenerPlugins
        return install(plugins: component.modulePlugins)
    }

    /// Installs a gateway barrier for every board without one of its own.
    @discardableResult
    public func install(gatewayBarrier registration: GatewayBarrierRegistration) -> Self {
        gateways.append((registration, nil))
        return self
    }

    /// Installs a gateway barrier for one board (`.exempt` keeps it reachable without the gate).
    @discardableResult
    public func install(gatewayBarrier registration: GatewayBarrierRegistration, for destinationID: BoardID) -> Self {
        gateways.append((registration, destinationID))
        return self
    }

    /// Adds URL opener plugins to the launcher it builds.
    @discardableResult
    public func install(urlOpenerPlugins: [any URLOpenerPlugin]) -> Self {
        self.urlOpenerPlugins += urlOpenerPlugins
        return self
    }

    /// Adds the URL opener plugins `builder` lists.
    @discardableResult
    public func install(@URLOpenerPluginBuilder urlOpenerPluginsBuilder: () -> [any URLOpenerPlugin]) -> Self {
        install(urlOpenerPlugins: urlOpenerPluginsBuilder())
    }

    /// Adds launch settings, run on the main motherboard once it is built.
    @discardableResult
    public func install(launchSettings: @escaping (any FlowMotherboard) -> Void) -> Self {
        settings.append(launchSettings)
        return self
    }

    /// Builds the main motherboard: applies every plugin to its producer, installs the gateways,
    /// runs the launch settings and `launchSettings`.
    public func instantiate(_ launchSettings: (_ mainboard: any FlowMotherboard) -> Void = { _ in }) -> PluginLauncher {
        let producer = BoardProducer()
        let main = Main(producer: producer, options: options)
        for p in plugins { p.apply(for: main) }
        let runtime: BoardyRuntime = options[.runtime] ?? BoardyRuntime(processing: .immediate)
        let identifier: BoardID = options[.mainboardIdentifier] ?? BoardID(MotherboardPath.main.rawValue)
        let mainboard = Motherboard(identifier: identifier, boardProducer: producer, runtime: runtime)
        for (gateway, id) in gateways { mainboard.install(gatewayBarrier: gateway, for: id) }
        for s in settings { s(mainboard) }
        launchSettings(mainboard)
        return PluginLauncher(mainboard: mainboard, options: options).install(urlOpenerPlugins: urlOpenerPlugins)
    }

    /// Builds the launcher as ``instantiate(_:)`` does and makes it ``PluginLauncher/shared``
    /// (held for the life of the process, as in Boardy). Boardy traps on a second `initialize`;
    /// here the newer launcher replaces the shared one.
    @discardableResult
    public func initialize(_ launchSettings: (_ mainboard: any FlowMotherboard) -> Void = { _ in }) -> PluginLauncher {
        let launcher = instantiate(launchSettings)
        PluginLauncher.sharedInstance.withLockedValue { $0 = launcher }
        return launcher
    }

    private struct Main: MainComponent {
        let producer: any BoardDynamicProducer
        let options: MainOptions
    }
}

/// The launched app: its main motherboard (Boardy's `PluginLauncher`, Boardy rule 22).
///
/// ```swift
/// let launcher = PluginLauncher.with(options: .default)
///     .install(plugin: AuthenticationPlugin())
///     .install(plugin: ShoppingPlugin())
///     .install(gatewayBarrier: .registerWithActivation { barrier, option in
///         barrier.motherboard.activateBoard(identifier: .pubAuth, withOption: option)
///     }.withFlowRegistration { barrier in
///         barrier.motherboard.completionFlow(.pubAuth).handle { barrier.complete($0) }
///     })
///     .install(gatewayBarrier: .exempt, for: .pubAuth)
///     .initialize()
/// launcher.launch(in: window) { mainboard in
///     mainboard.activateBoard(identifier: .pubWelcome, withOption: nil)
/// }
/// ```
public final class PluginLauncher {
    /// The launch's options.
    public let options: MainOptions
    /// The main motherboard.
    public let mainboard: Motherboard
    /// The URL opener plugins and their handlers.
    let urls = URLOpeners()

    init(mainboard: Motherboard, options: MainOptions) {
        self.mainboard = mainboard
        self.options = options
    }

    /// Starts a launch with `options`.
    public static func with(options: MainOptions) -> LauncherComponent { LauncherComponent(options: options) }

    /// The launcher last initialized (Boardy's `shared`): a programming error before any is, in
    /// release builds too (Boardy's `preconditionFailure`).
    public static var shared: PluginLauncher {
        guard let launcher = sharedInstance.withLockedValue({ $0 }) else {
            preconditionFailure("🆘 [Boardy] PluginLauncher.shared must be initialized before use ‼️")
        }
        return launcher
    }

    /// The launcher ``shared`` returns, set by ``LauncherComponent/initialize(_:)``.
    static let sharedInstance = LockedValue<PluginLauncher?>(nil)

    /// Launches in `context` and activates `input` on the main motherboard (Boardy's older
    /// spelling of `launch(in:action:)`).
    @available(*, deprecated, message: "Use launch(in: action:) instead of")
    public func launch(in context: AnyObject, with input: BoardInput<some Any>) {
        launch(in: context) { mainboard in mainboard.activateBoard(model: input) }
    }

    /// Installs the main motherboard into `context` and runs the first action. The context keeps
    /// the launcher (and so the main motherboard) alive, as Boardy's shared launcher lives for the
    /// app: a flow left waiting on a gate is not kept alive by the wait itself.
    public func launch(in context: AnyObject, action: (_ mainboard: any FlowMotherboard) -> Void = { _ in }) {
        mainboard.install(into: context)
        AttachmentStorage.attach(self, to: context)
        action(mainboard)
    }

    /// Launches in `context` and attaches the launcher to it (Boardy's `attachLaunch`).
    public func attachLaunch(in context: any AttachableObject, action: (_ mainboard: any FlowMotherboard) -> Void = { _ in }) {
        launch(in: context, action: action)
    }

    /// Runs `action` on the main motherboard now.
    public func activateNow(_ action: (_ mainboard: any FlowMotherboard) -> Void) {
        action(mainboard)
    }
}
