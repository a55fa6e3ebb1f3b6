//
//  AuthenticationPlugins.swift
//  Authentication
//

import Boardy
import Foundation

public struct AuthenticationModulePlugin: ModuleBuilderPlugin {
    /// Each service is one entry point.
    public enum ServiceType: CaseIterable {
        case login
        case register

        var identifier: BoardID {
            return switch self {
            case .login: .pubLogin
            case .register: .pubRegister
            }
        }
    }

    public func build(with identifier: BoardID, sharedComponent: any SharedValueComponent, internalContinuousProducer: any ActivatableBoardProducer) -> any ActivatableBoard {
        switch service {
        case .login:
            LoginBoard(identifier: identifier, producer: internalContinuousProducer)
        case .register:
            RegisterBoard(identifier: identifier)
        }
    }

    public func internalContinuousRegistrations(sharedComponent: any SharedValueComponent, producer: any ActivatableBoardProducer) -> [BoardRegistration] {
        [
            BoardRegistration(.modOTP) { identifier in
                OTPBoard(identifier: identifier)
            },
            BoardRegistration(.modCaptcha) { identifier in
                CaptchaBoardFactory.make(identifier: identifier)
            },
            BoardRegistration(.modSession) { identifier in
                SessionBoardFactory.make(identifier: identifier)
            },
            BoardRegistration(.modTokenRefresh) { identifier in
                TokenRefreshBoardFactory.make(identifier: identifier)
            },
        ]
    }

    public let service: ServiceType

    public init(service: ServiceType) {
        self.service = service
    }

    public var identifier: BoardID {
        service.identifier
    }
}

/// A plugin whose id travels in its service case.
public struct AuthGatePlugin: ModulePlugin {
    public enum ServiceType {
        case `default`(BoardID)

        var identifier: BoardID {
            switch self {
            case .default(let identifier):
                return identifier
            }
        }
    }

    public let service: ServiceType

    public init(service: ServiceType) {
        self.service = service
    }

    public var identifier: BoardID { service.identifier }

    public func apply(for main: MainComponent) {
        main.producer.registerBoard(identifier) { identifier in
            AuthGateBoard(identifier: identifier)
        }
    }
}

public struct LogoutPlugin: ModulePlugin {
    public init() {}

    public var identifier: BoardID { .pubLogout }

    public func apply(for main: MainComponent) {
        main.producer.registerBoard(identifier) { identifier in
            LogoutBoard(identifier: identifier)
        }
    }
}

public struct AuthenticationLauncherPlugin: LauncherPlugin {
    public init() {}

    public func prepareForLaunching(withOptions options: MainOptions) -> ModuleComponent {
        ModuleComponent(modulePlugins: [])
    }
}
