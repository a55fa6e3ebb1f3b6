//
//  RegisterIOInterface.swift
//  Account
//
//  Created by NewsApp on 2/8/24.
//
//

import AccountIO
import Boardy
import Foundation

// MARK: - ID

extension BoardID {
    static let modRegister: BoardID = "mod.Account.Register"
}

// MARK: - In & Out

typealias RegisterInput = Any?

typealias RegisterOutput = AuthUser

// MARK: - Interface

struct RegisterMainDestination {
    let activation: MainboardActivation<RegisterInput>
    let flow: FlowHandler<RegisterOutput>
}

extension MotherboardType where Self: FlowManageable {
    func ioRegister(_ identifier: BoardID = .modRegister) -> RegisterMainDestination {
        RegisterMainDestination(
            activation: activation(identifier, with: RegisterInput.self),
            flow: matchedFlow(identifier, with: RegisterOutput.self)
        )
    }
}
