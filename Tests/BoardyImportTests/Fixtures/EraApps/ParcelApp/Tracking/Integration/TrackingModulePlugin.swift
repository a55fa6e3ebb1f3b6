import Boardy
import Foundation

extension BoardID {
    static let modTrackParcel: BoardID = "mod.Tracking.TrackParcel"
    static let modRefreshStatus: BoardID = "mod.Tracking.RefreshStatus"
    static let modHistoryList: BoardID = "mod.Tracking.HistoryList"
    static let modTrackingDetail: BoardID = "mod.Tracking.Detail"
}

public struct TrackingModulePlugin: ModulePlugin {
    public enum ServiceType {
        case `default`
        case history

        var identifier: BoardID {
            switch self {
            case .default:
                return .pubTracking
            case .history:
                return .pubTrackingHistory
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
        let continuousProducer = BoardProducer(externalProducer: mainProducer) { producer in
            BoardRegistration(.modTrackParcel) { identifier in
                TrackParcelBoard(identifier: identifier)
            }
            BoardRegistration(.modTrackingDetail) { identifier in
                DetailBoard(identifier: identifier)
            }
            RefreshStatusBoard(identifier: .modRefreshStatus)
        }

        switch service {
        case .default:
            mainProducer.registerBoard(service.identifier) { identifier in
                RootBoardFactory.make(identifier: identifier, producer: continuousProducer)
            }
        case .history:
            mainProducer.registerBoard(self.service.identifier) { identifier in
                HistoryBoard(identifier: identifier, producer: BoardProducer(externalProducer: mainProducer) { inner in
                    BoardRegistration(.modHistoryList) { identifier in
                        HistoryListBoard(identifier: identifier)
                    }
                })
            }
        }
    }
}
