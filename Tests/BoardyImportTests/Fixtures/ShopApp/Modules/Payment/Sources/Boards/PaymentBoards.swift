import Boardy
import Foundation

typealias WalletBarrierBoard = BarrierBoard<String>

final class PaymentBoard: Board, GuaranteedBoard, GuaranteedOutputSendingBoard {
    typealias InputType = Void
    typealias OutputType = String

    func activate(withGuaranteedInput input: Void) {
        motherboard.ioCardEntry().activation.activate()
        motherboard.ioCardEntry().flow.addTarget(self) { target, token in
            target.sendOutput(token)
            target.motherboard.ioReceipt().activation.activate(with: token)
        }
    }

    /// The payment waits for its gate.
    func activationBarrier(withGuaranteedInput input: Void) -> ActivationBarrier? {
        motherboard.ioPaymentGate().activation.barrier()
    }
}

/// The planted loop: the gate waits on the fraud check, whose own gate is this gate.
final class PaymentGateBoard: Board, GuaranteedBoard {
    typealias InputType = Void

    func activate(withGuaranteedInput input: Void) {
        complete(true)
    }

    func activationBarrier(withGuaranteedInput input: Void) -> ActivationBarrier? {
        motherboard.ioFraudCheck().activation.barrier(option: .void)
    }
}

final class FraudCheckBoard: Board, GuaranteedBoard {
    typealias InputType = Void

    func activate(withGuaranteedInput input: Void) {
        // Never completes: a gate with no reachable completion.
        motherboard.ioHistory().activation.activate()
    }

    func activationBarrier(withGuaranteedInput input: Void) -> ActivationBarrier? {
        ActivationBarrier(barrierIdentifier: .pubPaymentGate, scope: .mainboard)
    }
}

final class ReceiptBoard: Board, GuaranteedBoard {
    typealias InputType = String

    func activate(withGuaranteedInput input: String) {
        // Older style: a model naming its target.
        nextToBoard(model: BoardInput(target: .modInvoice, input: input))
    }

    func activationBarrier(withGuaranteedInput input: String) -> ActivationBarrier? { nil }
}

final class CardEntryBoard: ModernContinuableBoard, GuaranteedBoard, GuaranteedOutputSendingBoard {
    typealias InputType = Void
    typealias OutputType = String

    func activate(withGuaranteedInput input: Void) {
        motherboard.ioThreeDS().activation.activate()
        motherboard.ioThreeDS().flow.addTarget(self) { target, ok in
            if ok { target.sendOutput("tok") }
        }
    }
}

final class ThreeDSBoard: Board, GuaranteedBoard, GuaranteedOutputSendingBoard {
    typealias InputType = Void
    typealias OutputType = Bool
    func activate(withGuaranteedInput input: Void) { sendOutput(true) }
}

final class RefundBoard: Board, GuaranteedBoard {
    typealias InputType = String
    func activate(withGuaranteedInput input: String) {
        motherboard.ioReceipt(.pubReceipt).activation.activate(with: input)
    }
}

final class InvoiceBoard: Board, GuaranteedBoard {
    typealias InputType = String
    func activate(withGuaranteedInput input: String) {}
}

final class HistoryBoard: Board, GuaranteedBoard {
    typealias InputType = Void

    func activate(withGuaranteedInput input: Void) {}

    func didSelectRefund(_ id: String) {
        motherboard.ioRefund().activation.activate(with: id)
    }
}

extension MotherboardType where Self: FlowManageable {
    func ioCardEntry(_ identifier: BoardID = .pubCardEntry) -> MainboardGenericDestination<Void, String, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }
}
