import Boardy
import Foundation

extension BoardID {
    static let modProfile: BoardID = "mod.Account.Profile"
    static let modAccountDetail: BoardID = "mod.Account.Detail"
    static let modVerifyCode: BoardID = "mod.Account.VerifyCode"
}

public struct AccountModulePlugin: ModulePlugin {
    public enum ServiceType {
        case `default`

        var identifier: BoardID {
            switch self {
            case .default:
                return .pubAccount
            }
        }
    }

    let service: ServiceType

    public init(service: ServiceType) {
        self.service = service
    }

    public var identifier: BoardID { service.identifier }

    public func apply(for main: MainComponent) {
        let mainProducer = main.producer
        switch service {
        case .default:
            mainProducer.registerBoard(service.identifier) { identifier in
                RootBoardFactory.make(identifier: identifier, producer: BoardProducer(externalProducer: mainProducer) { producer in
                    BoardRegistration(.modProfile) { identifier in
                        ProfileBoard(identifier: identifier)
                    }
                    BoardRegistration(.modAccountDetail) { identifier in
                        DetailBoard(identifier: identifier)
                    }
                    BoardRegistration(.modVerifyCode) { identifier in
                        BlockTaskBoard<String, Bool>(identifier: identifier) { _, input, completion in
                            completion(.success(!input.isEmpty))
                        }
                    }
                })
            }
        }
    }
}
