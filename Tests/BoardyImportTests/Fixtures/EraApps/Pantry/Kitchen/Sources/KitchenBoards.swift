import Boardy
import Foundation

extension MotherboardType where Self: FlowManageable {
    func ioShelf(_ identifier: BoardID) -> MainboardGenericDestination<Void, Void, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }

    func ioRestock(_ identifier: BoardID) -> MainboardActivation<Int> {
        activation(identifier, with: Int.self)
    }

    func ioRestockFlow(_ identifier: BoardID) -> FlowHandler<Int> {
        matchedFlow(identifier, with: Int.self)
    }
}

final class KitchenRootBoard: ContinuousBoard, GuaranteedBoard {
    typealias InputType = Void

    func activate(withGuaranteedInput input: Void) {
        motherboard.ioShelf(.modShelf).activation.activate()
    }
}

final class ShelfBoard: ContinuousBoard, GuaranteedBoard {
    typealias InputType = Void

    private let checkoutID: BoardID

    init(identifier: BoardID, continuousBoard: FlowMotherboard, checkoutID: BoardID) {
        self.checkoutID = checkoutID
        super.init(identifier: identifier, motherboard: continuousBoard)
        motherboard.ioRestockFlow(.modRestock).addTarget(self) { target, count in
            target.checkOut(count)
        }
    }

    func activate(withGuaranteedInput input: Void) {
        motherboard.ioRestock(.modRestock).activate(with: 3)
    }

    func checkOut(_ count: Int) {
        nextToBoard(BoardInput<Int>(target: checkoutID, input: count))
    }
}
