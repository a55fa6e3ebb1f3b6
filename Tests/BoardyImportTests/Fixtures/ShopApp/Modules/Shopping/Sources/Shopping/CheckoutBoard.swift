import Boardy
import Foundation
import Payment
import ShoppingIO

enum CheckoutBoardFactory {
    static func make(identifier: BoardID, producer: ActivatableBoardProducer) -> ActivatableBoard {
        FlowBoard<Void, Bool, Void, Void>(identifier: identifier, producer: producer) { it in
            it.motherboard.ioPayment().flow.addTarget(it) { target, receipt in
                target.sendOutput(true)
                target.motherboard.ioReceipt().activation.activate(with: receipt)
            }
        } flowActivation: { it, _ in
            it.motherboard.ioPayment().activation.activate()
        }
    }
}
