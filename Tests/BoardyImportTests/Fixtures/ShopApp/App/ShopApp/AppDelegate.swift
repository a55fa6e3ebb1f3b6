//
//  AppDelegate.swift
//  ShopApp
//

import Authentication
import Boardy
import Payment
import Shopping
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        let window = UIWindow(frame: UIScreen.main.bounds)
        self.window = window

        PluginLauncher.with(options: .default)
            .install(launcherPlugin: AuthenticationLauncherPlugin())
            .install(launcherPlugin: ShopAppLauncherPlugin())
            .install(plugins: PluginLauncher.bundledPlugins)
            .install(gatewayBarrier: .registerWithActivation { barrier, option in
                barrier.motherboard.ioAuthGate().activation.activate(with: option)
            }.withFlowRegistration { barrier in
                barrier.motherboard.ioAuthGate().flow.addTarget(barrier) { target, output in
                    target.sendOutput(output)
                }
            })
            .install(gatewayBarrier: .exempt, for: .pubAuthGate)
            .install(gatewayBarrier: .exempt, for: .pubOnboarding)
            .install(gatewayBarrier: .exempt, for: .pubLogin)
            .initialize()
            .launch(in: window) { mainboard in
                // The app starts here: an entry point, not an edge.
                mainboard.ioRoot().activation.activate()
            }
        return true
    }

    func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
        PluginLauncher.shared.open(url: url)
        return true
    }
}
