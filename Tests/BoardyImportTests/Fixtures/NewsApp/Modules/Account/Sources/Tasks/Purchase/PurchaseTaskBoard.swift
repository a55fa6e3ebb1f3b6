//
//  PurchaseTaskBoard.swift
//  Account
//
//  Created by NewsApp on 2/12/24.
//
//

import Boardy
import Foundation
import SiFUtilities

enum PurchaseTaskBoardFactory {
    static func make(identifier: BoardID) -> ActivatableBoard {
        TaskBoard<PurchaseInput, PurchaseOutput>(identifier: identifier) { _, input, completion in
            switch input {
            case let .buy(productID):
                StoreClient.shared.purchase(productID: productID, completion: completion)
            case .restore:
                StoreClient.shared.restore(completion: completion)
            }
        }
        processingHandler: { $0.showDefaultLoading($0.isProcessing) }
    }
}
