import Boardy
import Foundation

extension MotherboardType where Self: FlowManageable {
    func ioTrackParcel(_ identifier: BoardID = .modTrackParcel) -> MainboardGenericDestination<String?, String, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }

    func ioRefreshStatus(_ identifier: BoardID = .modRefreshStatus) -> MainboardGenericDestination<String, Bool, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }

    func ioDetail(_ identifier: BoardID = .modTrackingDetail) -> MainboardGenericDestination<String, Void, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }

    func ioHistoryList(_ identifier: BoardID = .modHistoryList) -> MainboardGenericDestination<Void, Void, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }
}

enum RootBoardFactory {
    static func make(identifier: BoardID, producer: ActivatableBoardProducer) -> ActivatableBoard {
        FlowBoard<String?, TrackingOutput, Void, Void>(identifier: identifier, producer: producer) { it in
            it.motherboard.ioTrackParcel().flow.addTarget(it) { it, parcel in
                it.sendOutput(.delivered(parcel))
            }
        } flowActivation: { it, input in
            it.motherboard.ioTrackParcel().activation.activate(with: input)
        }
    }
}

final class TrackParcelBoard: ModernContinuableBoard, GuaranteedBoard, GuaranteedOutputSendingBoard {
    typealias InputType = String?
    typealias OutputType = String

    func activate(withGuaranteedInput input: String?) {
        motherboard.ioRefreshStatus().blockActivation.activate(with: BlockTaskParameter(input: input ?? "").onSuccess(target: self) { target, _ in
            target.motherboard.ioDetail().activation.activate(with: input ?? "")
        })
    }
}

final class RefreshStatusBoard: ModernContinuableBoard, GuaranteedBoard {
    typealias InputType = String

    func activate(withGuaranteedInput input: String) {}
}

/// Tracking's detail: the Account module has a `DetailBoard` of its own.
final class DetailBoard: ModernContinuableBoard, GuaranteedBoard {
    typealias InputType = String

    func activate(withGuaranteedInput input: String) {
        motherboard.serviceMap.account.default.activation.activate(with: nil)
    }
}

final class HistoryBoard: ModernContinuableBoard, GuaranteedBoard {
    typealias InputType = Void

    func activate(withGuaranteedInput input: Void) {
        motherboard.ioHistoryList().activation.activate()
    }
}

final class HistoryListBoard: ModernContinuableBoard, GuaranteedBoard {
    typealias InputType = Void

    func activate(withGuaranteedInput input: Void) {}
}
