import Boardy
import Kitchen
import UIKit

extension BoardID {
    static let pubKitchen: BoardID = "pub.mod.Kitchen"
    static let pubCheckout: BoardID = "pub.app.Checkout"
}

final class CheckoutBoard: Board, GuaranteedBoard {
    typealias InputType = Int

    func activate(withGuaranteedInput input: Int) {}
}

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        PluginLauncher.with(options: .default)
            .install(plugin: KitchenModulePlugin(identifier: .pubKitchen, identifierExtensions: KitchenIDExtensions(checkout: .pubCheckout)))
            .initialize()
            .launch(in: window!) { mainboard in
                mainboard.registerBoard(.pubCheckout) { identifier in CheckoutBoard(identifier: identifier) }
                mainboard.ioKitchen(.pubKitchen).activation.activate()
            }
        return true
    }
}
