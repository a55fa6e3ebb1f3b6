//
//  PurchaseIOInterface.swift
//  Account
//
//  Created by NewsApp on 2/12/24.
//
//

import Boardy
import Foundation

// MARK: - ID

extension BoardID {
    static let modPurchase: BoardID = "mod.Account.Purchase"
}

// MARK: - In & Out

enum PurchaseParameter {
    case buy(String)
    case restore
}

typealias PurchaseInput = PurchaseParameter

/// Whether the reader is subscribed afterwards.
typealias PurchaseOutput = Bool

// MARK: - Interface

struct PurchaseMainDestination {
    let activation: MainboardActivation<PurchaseParameter>
    let flow: FlowHandler<PurchaseOutput>
}

extension MotherboardType where Self: FlowManageable {
    func ioPurchase(_ identifier: BoardID = .modPurchase) -> PurchaseMainDestination {
        PurchaseMainDestination(
            activation: activation(identifier, with: PurchaseParameter.self),
            flow: matchedFlow(identifier, with: PurchaseOutput.self)
        )
    }
}
