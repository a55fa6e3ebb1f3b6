//
//  PaywallIOInterface.swift
//  AccountIO
//
//  Created by NewsApp on 2/12/24.
//
//

import Boardy
import Foundation

// MARK: - ID

extension BoardID {
    static let pubPaywall: BoardID = "pub.mod.Account.Paywall"
}

// MARK: - Interface

public struct PaywallDestination {
    public let activation: BoardActivation<PaywallParameter>
    public let interaction: BoardInteraction<PaywallCommand>

    public static let defaultIdentifier: BoardID = .pubPaywall
}

extension ActivatableBoard {
    public func ioPaywall(_ identifier: BoardID = PaywallDestination.defaultIdentifier) -> PaywallDestination {
        PaywallDestination(
            activation: activation(identifier, with: PaywallParameter.self),
            interaction: interaction(identifier, with: PaywallCommand.self)
        )
    }
}

public struct PaywallMainDestination {
    public let activation: MainboardActivation<PaywallParameter>
    public let interaction: MainboardInteraction<PaywallCommand>
    public let flow: FlowHandler<PaywallOutput>

    public static let defaultIdentifier: BoardID = .pubPaywall
}

extension MotherboardType where Self: FlowManageable {
    public func ioPaywall(_ identifier: BoardID = PaywallMainDestination.defaultIdentifier) -> PaywallMainDestination {
        PaywallMainDestination(
            activation: activation(identifier, with: PaywallParameter.self),
            interaction: interaction(identifier, with: PaywallCommand.self),
            flow: matchedFlow(identifier, with: PaywallOutput.self)
        )
    }
}
