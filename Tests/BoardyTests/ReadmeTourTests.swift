import Boardy
import BoardyTestSupport
import Testing

// The README's tour, compiled and run: the boards and calls as the README shows them.

extension BoardID {
    static let tourCart: BoardID = "pub.mod.Shopping.Cart"
    static let tourOrdering: BoardID = "pub.mod.Shopping.Ordering"
    static let tourAuth: BoardID = "pub.mod.Authentication.Auth"
}

private final class TourCartBoard: Board, GuaranteedBoard, GuaranteedOutputSendingBoard {
    typealias InputType = String
    typealias OutputType = String

    func activate(withGuaranteedInput cartID: String) {
        schedule(after: .seconds(1)) { self.sendOutput("order:\(cartID)") }
    }
}

private final class TourOrderingBoard: Board, GuaranteedBoard {
    typealias InputType = String

    func activationBarrier(withGuaranteedInput input: String) -> ActivationBarrier? {
        activation(.tourAuth, with: Void.self).barrier()
    }

    func activate(withGuaranteedInput order: String) { complete() }
}

private final class TourAuthBoard: Board, GuaranteedBoard {
    typealias InputType = Void
    func activate(withGuaranteedInput input: Void) { schedule(after: .seconds(2)) { self.complete(true) } }
    func shouldBypassGatewayBarrier() -> Bool { true }
}

@Suite("The README's tour")
struct ReadmeTourTests {
    @Test("boards in Boardy's style, a producer, flows and handlers, recorded on a virtual clock")
    func firstFlow() {
        let recorder = TraceRecorder()
        let clock = VirtualScheduler()
        let mainboard = Motherboard(
            boardProducer: BoardProducer(registrationsBuilder: { _ in
                BoardRegistration(.tourCart) { TourCartBoard(identifier: $0) }
                BoardRegistration(.tourOrdering) { TourOrderingBoard(identifier: $0) }
                BoardRegistration(.tourAuth) { TourAuthBoard(identifier: $0) }
            }),
            runtime: BoardyRuntime(scheduler: clock, observer: recorder))
        mainboard.registerFlowSteps(.tourCart ->> .tourOrdering)
        var done: [Bool] = []
        mainboard.completionFlow(.tourOrdering).handle { isDone in done.append(isDone) }
        mainboard.activateBoard(identifier: .tourCart, withOption: "cart-1")
        clock.run()
        #expect(done == [true])
        let jsonl = recorder.jsonl(header: mainboard.traceHeader(scenario: "first"))
        #expect(jsonl.contains(#""kind":"output.sent","mb":"main","board":"pub.mod.Shopping.Cart","output":"order:cart-1""#))
        #expect(jsonl.contains(#""kind":"barrier.resolved","mb":"main","barrier":"pub.mod.Authentication.Auth","passed":true"#))
    }

    @Test("the launcher with a module plugin and Boardy's gateway wiring")
    func launcher() {
        struct ShoppingPlugin: ModulePlugin {
            let identifier: BoardID = "mod.Shopping"
            func apply(for main: any MainComponent) {
                main.producer.registerBoard(.tourCart) { TourCartBoard(identifier: $0) }
                main.producer.registerBoard(.tourOrdering) { TourOrderingBoard(identifier: $0) }
            }
        }
        struct AuthenticationPlugin: ModulePlugin {
            let identifier: BoardID = "mod.Authentication"
            func apply(for main: any MainComponent) {
                main.producer.registerBoard(.tourAuth) { TourAuthBoard(identifier: $0) }
            }
        }
        final class Window {}
        let window = Window()
        let recorder = TraceRecorder()
        let clock = VirtualScheduler()
        var launched: Motherboard?
        PluginLauncher.with(options: MainOptions(runtime: BoardyRuntime(scheduler: clock, observer: recorder)))
            .install(plugin: ShoppingPlugin())
            .install(plugin: AuthenticationPlugin())
            .install(gatewayBarrier: .registerWithActivation { barrier, _ in
                barrier.motherboard.activateBoard(identifier: .tourAuth, withOption: nil)
            }.withFlowRegistration { barrier in
                barrier.motherboard.completionFlow(.tourAuth).handle { isDone in barrier.complete(isDone) }
            })
            .install(gatewayBarrier: .exempt, for: .tourAuth)
            .initialize()
            .launch(in: window) { mainboard in
                launched = mainboard as? Motherboard
                mainboard.activateBoard(identifier: .tourCart, withOption: "cart-1")
            }
        clock.run()
        let performed = recorder.events.compactMap { e -> String? in
            if case let .activationPerformed(b, _) = e.body { return "\(e.t.microseconds / 1_000_000) \(e.mb) \(b)" }
            return nil
        }
        // The cart waits for the gateway's proxy (its gate runs in the proxy's motherboard).
        #expect(performed.contains("0 main/pub.mod.Shopping.Cart.___GATEWAY___ pub.mod.Authentication.Auth"))
        #expect(performed.contains("2 main pub.mod.Shopping.Cart"))
        #expect(launched?.boards.map(\.identifier).contains("pub.mod.Shopping.Cart.___GATEWAY___") == false)
    }
}
