import Boardy
import Foundation
import ShoppingIO

extension BoardID {
    static let modCartItems: BoardID = "mod.Shopping.CartItems"
    static let modCoupon: BoardID = "mod.Shopping.Coupon"
    static let modCartSync: BoardID = "mod.Shopping.CartSync"
}

extension MotherboardType where Self: FlowManageable {
    func ioCartItems(_ identifier: BoardID = .modCartItems) -> MainboardGenericDestination<Void, Void, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }

    func ioCoupon(_ identifier: BoardID = .modCoupon) -> MainboardGenericDestination<Void, String, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }

    func ioCartSync(_ identifier: BoardID = .modCartSync) -> MainboardGenericDestination<Void, Void, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }
}

/// A continuous board with an inner producer; lookups it does not know fall back to the outer one.
final class CartBoard: ContinuousBoard, GuaranteedBoard {
    typealias InputType = Void

    init(identifier: BoardID, producer: ActivatableBoardProducer) {
        let inner = BoardProducer(externalProducer: producer, registrationsBuilder: { producer in
            [
                BoardRegistration(.modCartItems) { identifier in CartItemsBoard(identifier: identifier) },
                BoardRegistration(.modCoupon) { identifier in CouponBoard(identifier: identifier) },
                BoardRegistration(.modCartSync) { identifier in
                    TaskBoard<Void, Void>(identifier: identifier) { _, _, completion in completion(.success(())) }
                },
                BoardRegistration(.modFilters) { identifier in FiltersBoard(identifier: identifier) },
            ]
        })
        super.init(identifier: identifier, boardProducer: inner)
        registerFlows()
    }

    func activate(withGuaranteedInput input: Void) {
        motherboard.ioCartItems().activation.activate()
        motherboard.ioCartSync().activation.activate()
    }

    private func registerFlows() {
        motherboard.registerGuaranteedFlow(matchedIdentifiers: .modCoupon, target: self, uniqueOutputType: String.self) { target, code in
            target.motherboard.ioCheckout().activation.activate()
        }
        motherboard.ioCheckout().flow.addTarget(self) { target, paid in
            target.complete(paid)
        }
    }
}

final class CartItemsBoard: Board, GuaranteedBoard {
    typealias InputType = Void
    func activate(withGuaranteedInput input: Void) {
        motherboard.ioCoupon().activation.activate()
    }
}

final class CouponBoard: Board, GuaranteedBoard, GuaranteedOutputSendingBoard {
    typealias InputType = Void
    typealias OutputType = String
    func activate(withGuaranteedInput input: Void) {
        sendOutput("SAVE10")
    }
}
