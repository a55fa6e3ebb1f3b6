import Boardy
import Foundation

extension MotherboardType where Self: FlowManageable {
    func ioProfile(_ identifier: BoardID = .modProfile) -> MainboardGenericDestination<Void, Void, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }

    func ioDetail(_ identifier: BoardID = .modAccountDetail) -> MainboardGenericDestination<Void, Void, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }

    func ioVerifyCode(_ identifier: BoardID = .modVerifyCode) -> MainboardGenericDestination<String, Bool, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }
}

enum RootBoardFactory {
    static func make(identifier: BoardID, producer: ActivatableBoardProducer) -> ActivatableBoard {
        AccountRootBoard(identifier: identifier, producer: producer)
    }
}

final class AccountRootBoard: ModernContinuableBoard, GuaranteedBoard {
    typealias InputType = Any?

    init(identifier: BoardID, producer: ActivatableBoardProducer) {
        super.init(identifier: identifier, boardProducer: producer)
    }

    func activate(withGuaranteedInput input: Any?) {
        motherboard.ioProfile().activation.activate()
    }
}

final class ProfileBoard: ModernContinuableBoard, GuaranteedBoard {
    typealias InputType = Void

    func activate(withGuaranteedInput input: Void) {
        motherboard.ioDetail().activation.activate()
        motherboard.serviceMap.tracking.history.activation.activate()
        motherboard.serviceMap.tracking.default.activation.activate(with: nil)
    }
}

/// Account's detail: asks for a code before it shows anything.
final class DetailBoard: ModernContinuableBoard, GuaranteedBoard {
    typealias InputType = Void

    func activate(withGuaranteedInput input: Void) {
        motherboard.ioVerifyCode().blockActivation.activate(with: BlockTaskParameter(input: "0000"))
    }
}
