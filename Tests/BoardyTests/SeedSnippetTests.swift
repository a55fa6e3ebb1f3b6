import Boardy
import BoardyTestSupport
import Testing

// The snippets of Boardy's own documents (../shared/reference: the activation and gateway
// barrier pages, ComponentKit), written as an app writes them, against `import Boardy`: the
// generated IO helpers and service map an app declares, then the documented calls.

extension BoardID {
    static let pubAuth: BoardID = "pub.mod.Authentication.Auth"
    static let pubWelcome: BoardID = "pub.mod.Dashboard.Welcome"
    static let pubSome: BoardID = "pub.mod.Some.Some"
    static let pubProducts: BoardID = "pub.mod.Shopping.LocalProducts"
}

/// An app's generated IO helper on a board (Boardy's module template).
extension ActivatableBoard {
    func ioAuthenticaion(_ identifier: BoardID = .pubAuth) -> BoardGenericDestination<Void, Void> {
        BoardGenericDestination(destinationID: identifier, source: self)
    }
}

/// An app's service map: one property per module, one IO helper per board.
final class AuthenticationServiceMap: ServiceMap {
    var ioAuth: MainboardGenericDestination<Void, Bool, Void, BoardFlowNoneAction> {
        MainboardGenericDestination(destinationID: .pubAuth, mainboard: mainboard)
    }
}

final class DashboardServiceMap: ServiceMap {
    var ioWelcome: MainboardGenericDestination<Void, Void, Void, BoardFlowNoneAction> {
        MainboardGenericDestination(destinationID: .pubWelcome, mainboard: mainboard)
    }
}

extension ServiceMap {
    var modAuthentication: AuthenticationServiceMap { link() }
    var modDashboard: DashboardServiceMap { link() }
}

/// The activation barrier page's `SomeBoard`.
final class SomeBoard: Board, GuaranteedBoard {
    typealias InputType = String
    var ran: [String] = []

    func activationBarrier(withGuaranteedInput input: String) -> ActivationBarrier? {
        ioAuthenticaion().activation.barrier()
    }

    func activate(withGuaranteedInput input: String) {
        ran.append(input)
    }
}

/// A gate that records its activations and completes when told.
final class AuthBoard: Board, GuaranteedBoard, GuaranteedOutputSendingBoard {
    typealias InputType = Void
    typealias OutputType = Bool
    var activations = 0
    func activate(withGuaranteedInput input: Void) { activations += 1 }
    func shouldBypassGatewayBarrier() -> Bool { true }
}

final class WelcomeBoard: Board, ActivatableBoard {
    var activations = 0
    func activate(withOption option: Any?) { activations += 1 }
}

final class Window {}

@Suite("The seeds' snippets, as apps write them")
struct SeedSnippetTests {
    @Test("an activation barrier returned as ioX().activation.barrier(): the gate runs, complete(true) lets the board through")
    func activationBarrierFromIOHelper() {
        let some = SomeBoard(identifier: .pubSome)
        let auth = AuthBoard(identifier: .pubAuth)
        let mainboard = Motherboard(boards: [some, auth])
        mainboard.activateBoard(identifier: .pubSome, withOption: "order-1")
        #expect(auth.activations == 1 && some.ran.isEmpty)
        auth.complete(true)
        #expect(some.ran == ["order-1"])
    }

    @Test("the gateway page's launcher: registerWithActivation/withFlowRegistration through the service map, .exempt for the gate")
    func gatewayThroughServiceMap() {
        struct AppPlugin: ModulePlugin {
            let identifier: BoardID = "mod.App"
            let auth: AuthBoard
            let welcome: WelcomeBoard
            func apply(for main: any MainComponent) {
                main.producer.registerBoard(.pubAuth) { [auth] _ in auth }
                main.producer.registerBoard(.pubWelcome) { [welcome] _ in welcome }
            }
        }
        let auth = AuthBoard(identifier: .pubAuth)
        let welcome = WelcomeBoard(identifier: .pubWelcome)
        let window: Window? = Window()
        PluginLauncher.with(options: .default)
            .install(plugin: AppPlugin(auth: auth, welcome: welcome))
            .install(gatewayBarrier: .registerWithActivation { barrier, _ in
                barrier.motherboard.serviceMap.modAuthentication.ioAuth.activation.activate()
            }.withFlowRegistration { barrier in
                barrier.motherboard.serviceMap.modAuthentication.ioAuth.flow.addTarget(barrier) { target, isAuthenticated in
                    target.complete(isAuthenticated)
                }
            })
            .install(gatewayBarrier: .exempt, for: .pubAuth)
            .initialize()
            .launch(in: window!) { mainboard in
                mainboard.serviceMap
                    .modDashboard.ioWelcome
                    .activation.activate()
            }
        // The gate runs in the proxy's own motherboard; Welcome waits for it.
        #expect(auth.activations == 1)
        #expect(welcome.activations == 0)
        auth.sendOutput(true)
        #expect(welcome.activations == 1)
    }

    @Test("ComponentKit's initializers as documented: TaskBoard, BlockTaskBoard with a parameter's target handler, BarrierBoard wait/overcome/cancel")
    func componentKitAsDocumented() {
        enum LatestProductsFetchTaskBoardFactory {
            static func get(identifier: BoardID) -> ActivatableBoard {
                TaskBoard<Int, [String]>(identifier: identifier) { _, input, completion in
                    completion(.success((0..<input).map { "p\($0)" }))
                }
            }
        }
        enum GetLocalProductBlockTaskBoardFactory {
            static func get(identifier: BoardID) -> ActivatableBoard {
                BlockTaskBoard<String, [String]>(identifier: identifier) { board, input, completion in
                    completion(.success(["\(input)-1", "\(input)-2"]))
                }
            }
        }
        final class Screen {
            var shown: [[String]] = []
            func handle(_ result: [String]) { shown.append(result) }
        }
        let screen = Screen()
        let mainboard = Motherboard(boards: [
            LatestProductsFetchTaskBoardFactory.get(identifier: "taskLatest"),
            GetLocalProductBlockTaskBoardFactory.get(identifier: .pubProducts),
            BarrierBoard<String>(identifier: "authUser"),
        ])
        var latest: [String] = []
        mainboard.matchedFlow("taskLatest", with: [String].self).handle { latest = $0 }
        mainboard.activation("taskLatest", with: Int.self).activate(with: 2)
        #expect(latest == ["p0", "p1"])

        let parameter = BlockTaskParameter<String, [String]>(input: "shoes")
            .onSuccess(target: screen) { target, result in target.handle(result) }
        mainboard.activation(.pubProducts, with: BlockTaskParameter<String, [String]>.self).activate(with: parameter)
        #expect(screen.shown == [["shoes-1", "shoes-2"]])

        var performed: [String] = []
        mainboard.activation("authUser", with: BarrierBoard<String>.Action.self).activate(with: .wait { user in performed.append(user) })
        mainboard.activation("authUser", with: BarrierBoard<String>.Action.self).activate(with: .overcome("ann"))
        #expect(performed == ["ann"])
    }
}
