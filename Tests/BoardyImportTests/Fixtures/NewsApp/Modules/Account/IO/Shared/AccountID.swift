//
//  AccountID.swift
//  AccountIO
//
//  Created by NewsApp on 2/8/24.
//
//

import Boardy

public enum AccountID {
    /// Sign in or sign up
    public static let login: BoardID = .pubLogin

    /// The reader's profile
    public static let profile: BoardID = .pubProfile

    /// Subscribe; also the barrier in front of premium stories
    public static let paywall: BoardID = .pubPaywall

    /// Sign out
    public static let signOut: BoardID = .pubSignOut
}
