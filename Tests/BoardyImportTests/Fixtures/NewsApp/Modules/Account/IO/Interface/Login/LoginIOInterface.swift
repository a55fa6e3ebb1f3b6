//
//  LoginIOInterface.swift
//  AccountIO
//
//  Created by NewsApp on 2/8/24.
//
//

import Boardy
import Foundation

// MARK: - ID

extension BoardID {
    static let pubLogin: BoardID = "pub.mod.Account.Login"
}

// MARK: - Interface

public struct LoginDestination {
    public let activation: BoardActivation<LoginParameter>
    public let interaction: BoardInteraction<LoginCommand>

    public static let defaultIdentifier: BoardID = .pubLogin
}

extension ActivatableBoard {
    public func ioLogin(_ identifier: BoardID = LoginDestination.defaultIdentifier) -> LoginDestination {
        LoginDestination(
            activation: activation(identifier, with: LoginParameter.self),
            interaction: interaction(identifier, with: LoginCommand.self)
        )
    }
}

public struct LoginMainDestination {
    public let activation: MainboardActivation<LoginParameter>
    public let interaction: MainboardInteraction<LoginCommand>
    public let flow: FlowHandler<LoginOutput>

    public static let defaultIdentifier: BoardID = .pubLogin
}

extension MotherboardType where Self: FlowManageable {
    public func ioLogin(_ identifier: BoardID = LoginMainDestination.defaultIdentifier) -> LoginMainDestination {
        LoginMainDestination(
            activation: activation(identifier, with: LoginParameter.self),
            interaction: interaction(identifier, with: LoginCommand.self),
            flow: matchedFlow(identifier, with: LoginOutput.self)
        )
    }
}
