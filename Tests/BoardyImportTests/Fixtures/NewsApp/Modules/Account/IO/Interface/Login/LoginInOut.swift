//
//  LoginInOut.swift
//  AccountIO
//
//  Created by NewsApp on 2/8/24.
//
//

import Foundation

public typealias LoginInput = Any?

public enum LoginOutput {
    case loggedIn(AuthUser)
    case cancelled

    public var user: AuthUser? {
        if case let .loggedIn(user) = self {
            return user
        }
        return nil
    }
}

public enum LoginCommand {}

public typealias LoginParameter = LoginInput
