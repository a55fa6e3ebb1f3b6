//
//  SignOutIOInterface.swift
//  AccountIO
//
//  Created by NewsApp on 2/9/24.
//
//

import Boardy
import Foundation

// MARK: - ID

extension BoardID {
    static let pubSignOut: BoardID = "pub.mod.Account.SignOut"
}

// MARK: - Interface

public struct SignOutMainDestination {
    public let activation: MainboardActivation<SignOutParameter>
    public let flow: FlowHandler<SignOutOutput>

    public static let defaultIdentifier: BoardID = .pubSignOut
}

extension MotherboardType where Self: FlowManageable {
    public func ioSignOut(_ identifier: BoardID = SignOutMainDestination.defaultIdentifier) -> SignOutMainDestination {
        SignOutMainDestination(
            activation: activation(identifier, with: SignOutParameter.self),
            flow: matchedFlow(identifier, with: SignOutOutput.self)
        )
    }
}
