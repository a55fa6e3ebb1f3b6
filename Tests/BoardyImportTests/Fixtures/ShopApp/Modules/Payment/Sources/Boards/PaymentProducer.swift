import Boardy
import Foundation

extension BoardID {
    static let modThreeDS: BoardID = "mod.Payment.ThreeDS"
    static let modInvoice: BoardID = "mod.Payment.Invoice"
    static let modReceiptDetail: BoardID = "mod.Payment.ReceiptDetail"
}

extension MotherboardType where Self: FlowManageable {
    /// Inside Payment, the receipt is the detailed one: same name as the public helper, another
    /// default.
    func ioReceipt(_ identifier: BoardID = .modReceiptDetail) -> MainboardGenericDestination<String, Void, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }

    func ioThreeDS(_ identifier: BoardID = .modThreeDS) -> MainboardGenericDestination<Void, Bool, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }
}

/// An older app's producer: a switch over the ids.
final class PaymentBoardProducer: ActivatableBoardProducer {
    func produceBoard(identifier: BoardID) -> ActivatableBoard? {
        switch identifier {
        case .pubRefund:
            return RefundBoard(identifier: identifier)
        case .modInvoice:
            return InvoiceBoard(identifier: identifier)
        case .pubHistory:
            return HistoryBoard(identifier: identifier)
        default:
            return nil
        }
    }

    func matchBoard(withIdentifier identifier: BoardID, to anotherIdentifier: BoardID) -> ActivatableBoard? { nil }
}

public struct PaymentModulePlugin: ModulePlugin {
    public init() {}

    public var identifier: BoardID { .pubPayment }

    public func apply(for main: MainComponent) {
        let producer = main.producer
        producer.registerBoard(.pubPayment) { identifier in PaymentBoard(identifier: identifier) }
        producer.registerBoard(.pubPaymentGate) { identifier in PaymentGateBoard(identifier: identifier) }
        producer.registerBoard(.pubFraudCheck) { identifier in FraudCheckBoard(identifier: identifier) }
        producer.registerBoard(.pubReceipt) { identifier in ReceiptBoard(identifier: identifier) }
        producer.registerBoard(.modReceiptDetail) { identifier in ReceiptBoard(identifier: identifier) }
        producer.registerBoard(.pubWallet) { identifier in WalletBarrierBoard(identifier: identifier) }
        producer.registerBoard(.pubCardEntry) { identifier in
            // Lookups the inner producer does not know go to the older producer.
            CardEntryBoard(identifier: identifier, producer: BoardProducer(externalProducer: PaymentBoardProducer(), registrationsBuilder: { inner in
                [BoardRegistration(.modThreeDS) { identifier in ThreeDSBoard(identifier: identifier) }]
            }))
        }
    }
}
