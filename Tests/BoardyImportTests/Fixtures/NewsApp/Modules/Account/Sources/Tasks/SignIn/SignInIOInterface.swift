//
//  SignInIOInterface.swift
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
    static let modSignIn: BoardID = "mod.Account.SignIn"
}

// MARK: - In & Out

struct SignInParameter {
    let email: String
    let password: String
}

typealias SignInInput = SignInParameter

typealias SignInOutput = AuthUser

// MARK: - Interface

struct SignInMainDestination {
    let activation: MainboardActivation<SignInParameter>
    let flow: FlowHandler<SignInOutput>
}

extension MotherboardType where Self: FlowManageable {
    func ioSignIn(_ identifier: BoardID = .modSignIn) -> SignInMainDestination {
        SignInMainDestination(
            activation: activation(identifier, with: SignInParameter.self),
            flow: matchedFlow(identifier, with: SignInOutput.self)
        )
    }
}
