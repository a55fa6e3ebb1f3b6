//
//  AuthUser.swift
//  AccountIO
//
//  Created by NewsApp on 2/8/24.
//
//

import Foundation

public struct AuthUser: Codable, Equatable {
    public let userID: String
    public let displayName: String
    public let isSubscriber: Bool

    public init(userID: String, displayName: String, isSubscriber: Bool) {
        self.userID = userID
        self.displayName = displayName
        self.isSubscriber = isSubscriber
    }
}

/// Who is signed in, for any module that needs to know.
public final class AccountSession {
    public static let shared = AccountSession()

    public private(set) var currentUser: AuthUser?

    public var isLoggedIn: Bool { currentUser != nil }

    public func update(_ user: AuthUser?) {
        currentUser = user
    }
}
