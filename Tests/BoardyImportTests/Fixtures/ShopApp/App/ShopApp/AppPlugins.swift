//
//  AppPlugins.swift
//  ShopApp
//

import Authentication
import Boardy
import Payment
import Shopping

extension PluginLauncher {
    static let bundledPlugins: [ModulePlugin] = [
        AuthenticationModulePlugin(service: .login),
        AuthenticationModulePlugin(service: .register),
        AuthGatePlugin(service: .default(.pubAuthGate)),
        LogoutPlugin(),
        ShoppingModulePlugin(),
        PaymentModulePlugin(),
    ]
}

struct ShopAppLauncherPlugin: LauncherPlugin {
    func prepareForLaunching(withOptions options: MainOptions) -> ModuleComponent {
        ModuleComponent(modulePlugins: [AppModulePlugin()])
    }
}

struct AppModulePlugin: ModulePlugin {
    let identifier: BoardID = .pubRoot

    func apply(for main: MainComponent) {
        let producer = main.producer
        producer.registerBoard(.pubRoot) { identifier in
            RootBoard(identifier: identifier, producer: BoardProducer(externalProducer: producer, registrationsBuilder: { _ in [] }))
        }
        producer.registerBoard(.pubHome) { identifier in
            HomeBoard(identifier: identifier)
        }
        producer.registerBoard(.pubSettings) { identifier in
            SettingsBoard(identifier: identifier)
        }
        producer.registerBoard(.pubProfile) { identifier in
            ProfileBoard(identifier: identifier)
        }
        producer.registerBoard(.pubOnboarding) { identifier in
            OnboardingBoard(identifier: identifier)
        }
    }
}
