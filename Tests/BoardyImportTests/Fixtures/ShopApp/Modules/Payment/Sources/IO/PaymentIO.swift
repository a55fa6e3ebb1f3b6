import Boardy
import Foundation

public extension BoardID {
    static let pubPayment: BoardID = "pub.mod.Payment.Payment"
    static let pubPaymentGate: BoardID = "pub.mod.Payment.PaymentGate"
    static let pubFraudCheck: BoardID = "pub.mod.Payment.FraudCheck"
    static let pubReceipt: BoardID = "pub.mod.Payment.Receipt"
    static let pubWallet: BoardID = "pub.mod.Payment.Wallet"
    static let pubCardEntry: BoardID = "pub.mod.Payment.CardEntry"
    static let pubRefund: BoardID = "pub.mod.Payment.Refund"
    static let pubHistory: BoardID = "pub.mod.Payment.History"
}

public typealias WalletInput = BarrierBoard<String>.Input

public extension MotherboardType where Self: FlowManageable {
    func ioPayment(_ identifier: BoardID = .pubPayment) -> MainboardGenericDestination<Void, String, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }

    func ioPaymentGate(_ identifier: BoardID = .pubPaymentGate) -> MainboardGenericDestination<Void, Bool, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }

    func ioFraudCheck(_ identifier: BoardID = .pubFraudCheck) -> MainboardGenericDestination<Void, Bool, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }

    /// The public receipt screen.
    func ioReceipt(_ identifier: BoardID = .pubReceipt) -> MainboardGenericDestination<String, Void, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }

    func ioWallet(_ identifier: BoardID = .pubWallet) -> MainboardGenericDestination<WalletInput, String, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }

    func ioHistory(_ identifier: BoardID = .pubHistory) -> MainboardGenericDestination<Void, Void, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }

    func ioRefund(_ identifier: BoardID = .pubRefund) -> MainboardGenericDestination<String, Void, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }
}
