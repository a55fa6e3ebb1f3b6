import Boardy
import BoardyTestSupport
import Testing

/// Boardy's module template shapes: a ModuleBuilderPlugin building its module's FlowBoard from
/// inner registrations (falling back to the main producer), and broadcastAction.
@Suite("Boardy's module builder plugins and flow actions")
struct ModuleBuilderTests {
    enum CheckoutAction: BoardFlowAction, Equatable { case cancelled }

    final class ConfirmBoard: Board, GuaranteedBoard, GuaranteedActionSendingBoard {
        typealias InputType = String
        typealias FlowActionType = CheckoutAction
        func activate(withGuaranteedInput input: String) {
            if input == "cancel" { broadcastAction(.cancelled) } else { nextToBoard("pub.mod.Main.Receipt", with: input) }
        }
    }

    struct CheckoutPlugin: ModuleBuilderPlugin {
        let identifier: BoardID = "pub.mod.Checkout"
        func internalContinuousRegistrations(sharedComponent: any SharedValueComponent, producer: any ActivatableBoardProducer) -> [BoardRegistration] {
            BoardRegistration("mod.Checkout.Confirm") { ConfirmBoard(identifier: $0) }
        }
        func build(with identifier: BoardID, sharedComponent: any SharedValueComponent, internalContinuousProducer: any ActivatableBoardProducer)
            -> any ActivatableBoard
        {
            FlowBoard<String, Void, Void, CheckoutAction>(
                identifier: identifier, producer: internalContinuousProducer,
                flowRegistration: { _ in },
                flowActivation: { flow, input in flow.motherboard.activateBoard(identifier: "mod.Checkout.Confirm", withOption: input) })
        }
    }

    struct MainPlugin: ModulePlugin {
        let identifier: BoardID = "pub.mod.Main"
        let receipts: Log
        func apply(for main: any MainComponent) {
            main.producer.registerBoard("pub.mod.Main.Receipt") { [receipts] id in
                ClosureBoard<String>(identifier: id) { _, s in receipts.items.append(s) }
            }
        }
    }

    final class Log { var items: [String] = [] }

    @Test("the module's board is built from its inner registrations; an id they lack is produced by the main producer")
    func builderPlugin() {
        let receipts = Log()
        let launcher = PluginLauncher.with(options: .default)
            .install {
                CheckoutPlugin()
                MainPlugin(receipts: receipts)
            }
            .initialize()
        var actions: [CheckoutAction] = []
        launcher.mainboard.actionFlow("pub.mod.Checkout", with: CheckoutAction.self).handle { actions.append($0) }
        launcher.activateNow { mainboard in
            mainboard.activateBoard(identifier: "pub.mod.Checkout", withOption: "order-1")
            mainboard.activateBoard(identifier: "pub.mod.Checkout", withOption: "cancel")
        }
        // The receipt is produced inside the module's motherboard by the main producer's
        // registration (the fallback), and the broadcast action comes up as the module's own.
        #expect(receipts.items == ["order-1"])
        #expect(actions == [.cancelled])
    }

    @Test("typed launch options: MainOption values by their type")
    func mainOptions() {
        struct Environment: MainOption, Equatable {
            var name: String
            static var defaultValue: Environment { Environment(name: "production") }
        }
        #expect(MainOptions.default.value(Environment.self) == Environment(name: "production"))
        #expect(MainOptions.default.with(Environment(name: "staging")).value(Environment.self).name == "staging")
    }
}
