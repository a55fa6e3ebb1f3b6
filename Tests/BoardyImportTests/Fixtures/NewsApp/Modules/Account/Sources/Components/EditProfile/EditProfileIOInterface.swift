//
//  EditProfileIOInterface.swift
//  Account
//
//  Created by NewsApp on 2/9/24.
//
//

import AccountIO
import Boardy
import Foundation

// MARK: - ID

extension BoardID {
    static let modEditProfile: BoardID = "mod.Account.EditProfile"
}

// MARK: - In & Out

typealias EditProfileInput = AuthUser?

typealias EditProfileOutput = AuthUser

// MARK: - Interface

struct EditProfileMainDestination {
    let activation: MainboardActivation<EditProfileInput>
    let flow: FlowHandler<EditProfileOutput>
}

extension MotherboardType where Self: FlowManageable {
    func ioEditProfile(_ identifier: BoardID = .modEditProfile) -> EditProfileMainDestination {
        EditProfileMainDestination(
            activation: activation(identifier, with: EditProfileInput.self),
            flow: matchedFlow(identifier, with: EditProfileOutput.self)
        )
    }
}
