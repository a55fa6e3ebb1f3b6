/// A module of an app (Authentication, Shopping, Payment...) that registers its boards and, once
/// the main motherboard exists, its flows.
public protocol LauncherPlugin {
    /// Registers the module's boards.
    func registerBoards(into producer: BoardProducer)
    /// Registers the module's flows on the main motherboard (after every plugin's boards).
    func registerFlows(on mainboard: Motherboard)
}

extension LauncherPlugin {
    /// Plugins without flows register none.
    public func registerFlows(on mainboard: Motherboard) {}
}

/// Options of a launch: the runtime the main motherboard runs on.
public struct LaunchOptions {
    /// The runtime (scheduler and observer) of the app.
    public var runtime: BoardyRuntime
    /// The main motherboard's id.
    public var identifier: BoardID

    /// Options with `runtime` (by default a fresh one on a virtual clock) and a main motherboard
    /// named `main`.
    public init(runtime: BoardyRuntime = BoardyRuntime(), identifier: BoardID = BoardID(MotherboardPath.main.rawValue)) {
        self.runtime = runtime
        self.identifier = identifier
    }

    /// A fresh virtual-clock runtime without an observer.
    public static var `default`: LaunchOptions { LaunchOptions() }
}

/// Installs plugins, builds the main motherboard once, and launches the app (Boardy's
/// `PluginLauncher`, Boardy rule 22).
///
/// ```swift
/// let launcher = PluginLauncher.with(options: .default)
///     .install(launcherPlugin: AuthenticationPlugin())
///     .install(launcherPlugin: ShoppingPlugin())
///     .initialize()
/// launcher.launch(in: window) { mainboard in
///     mainboard.activate(.pubWelcome)
/// }
/// ```
public final class PluginLauncher {
    /// The options given.
    public let options: LaunchOptions
    private var plugins: [any LauncherPlugin] = []
    private var gateways: [(GatewayBarrier, BoardID?)] = []
    private var built: Motherboard?

    init(options: LaunchOptions) { self.options = options }

    /// A launcher with `options`.
    public static func with(options: LaunchOptions = .default) -> PluginLauncher {
        PluginLauncher(options: options)
    }

    /// Adds a plugin; after ``initialize()`` its boards and flows go onto the main motherboard
    /// at once.
    @discardableResult
    public func install(launcherPlugin: any LauncherPlugin) -> PluginLauncher {
        plugins.append(launcherPlugin)
        if let built {
            if let producer = built.boardProducer { launcherPlugin.registerBoards(into: producer) }
            launcherPlugin.registerFlows(on: built)
        }
        return self
    }

    /// Installs a gateway barrier on the main motherboard, for every board (`id` nil) or for one
    /// board (Boardy's `install(gatewayBarrier:for:)`).
    @discardableResult
    public func install(gatewayBarrier: GatewayBarrier, for id: BoardID? = nil) -> PluginLauncher {
        gateways.append((gatewayBarrier, id))
        built?.install(gatewayBarrier: gatewayBarrier, for: id)
        return self
    }

    /// Builds the main motherboard from every plugin's registrations, once; later calls do
    /// nothing.
    @discardableResult
    public func initialize() -> PluginLauncher {
        guard built == nil else { return self }
        let producer = BoardProducer()
        for p in plugins { p.registerBoards(into: producer) }
        let mainboard = Motherboard(identifier: options.identifier, boardProducer: producer, runtime: options.runtime)
        for (gateway, id) in gateways { mainboard.install(gatewayBarrier: gateway, for: id) }
        for p in plugins { p.registerFlows(on: mainboard) }
        built = mainboard
        return self
    }

    /// The main motherboard (initializing if needed).
    public var mainboard: Motherboard {
        initialize()
        return built!
    }

    /// Installs the main motherboard into `context` and runs the first action.
    public func launch(in context: AnyObject, action: (Motherboard) -> Void) {
        let mb = mainboard
        mb.install(into: context)
        action(mb)
    }
}
