//
//  AccountModulePlugin.swift
//  Account
//
//  Created by NewsApp on 2/8/24.
//
//

import AccountIO
import Boardy
import Foundation

public struct AccountModulePlugin: ModulePlugin {
    public let service: AccountModulePlugin.ServiceType

    public init(service: AccountModulePlugin.ServiceType) {
        self.service = service
    }

    public func apply(for main: MainComponent) {
        let mainProducer = main.producer

        switch service {
        case .login:
            mainProducer.registerBoard(identifier) { [unowned mainProducer] identifier in
                LoginBoard(identifier: identifier, builder: LoginBuilder(), producer: BoardProducer(externalProducer: mainProducer, registrationsBuilder: { producer in
                    BoardRegistration(.modRegister) { identifier in
                        RegisterBoard(identifier: identifier, builder: RegisterBuilder())
                    }

                    BoardRegistration(.modSignIn) { identifier in
                        SignInTaskBoardFactory.make(identifier: identifier)
                    }
                }))
            }
        case .profile:
            mainProducer.registerBoard(identifier) { [unowned mainProducer] identifier in
                ProfileBoard(identifier: identifier, builder: ProfileBuilder(), producer: BoardProducer(externalProducer: mainProducer, registrationsBuilder: { _ in
                    BoardRegistration(.modEditProfile) { identifier in
                        EditProfileBoard(identifier: identifier, builder: EditProfileBuilder())
                    }
                }))
            }
        case .paywall:
            mainProducer.registerBoard(identifier) { [unowned mainProducer] identifier in
                PaywallBoard(identifier: identifier, builder: PaywallBuilder(), producer: BoardProducer(externalProducer: mainProducer, registrationsBuilder: { _ in
                    BoardRegistration(.modPurchase) { identifier in
                        PurchaseTaskBoardFactory.make(identifier: identifier)
                    }
                }))
            }
        case .signOut:
            mainProducer.registerBoard(identifier) { identifier in
                SignOutTaskBoardFactory.make(identifier: identifier)
            }
        }
    }

    public var identifier: BoardID {
        switch service {
        case let .login(identifier):
            return identifier
        case .profile(let identifier):
            return identifier
        case let .paywall(identifier):
            return identifier
        case .signOut(let identifier):
            return identifier
        }
    }

    /// Each service is equivalent to one entry point
    public enum ServiceType {
        case login(BoardID)
        case profile(BoardID)
        case paywall(BoardID)
        case signOut(BoardID)
    }
}

extension AccountModulePlugin {
    public static var bundledPlugins: [ModulePlugin] {
        return [
            AccountModulePlugin(service: .login(AccountID.login)),
            AccountModulePlugin(service: .profile(AccountID.profile)),
            AccountModulePlugin(service: .paywall(AccountID.paywall)),
            AccountModulePlugin(service: .signOut(AccountID.signOut)),
        ]
    }
}
