import Account
import Boardy
import Tracking
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        window = UIWindow()
        PluginLauncher.with(options: .default)
            .install(plugin: TrackingModulePlugin(service: .default))
            .install(plugin: TrackingModulePlugin(service: .history))
            .install(plugin: AccountModulePlugin(service: .default))
            .initialize()
            .launch(in: window!) { mainboard in
                mainboard.ioTracking().activation.activate(with: nil)
            }
        return true
    }
}
