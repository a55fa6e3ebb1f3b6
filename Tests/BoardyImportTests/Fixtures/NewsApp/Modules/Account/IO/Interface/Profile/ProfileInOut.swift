//
//  ProfileInOut.swift
//  AccountIO
//
//  Created by NewsApp on 2/9/24.
//
//

import Foundation

public typealias ProfileInput = Any?

public enum ProfileOutput {
    case signedOut
}

public enum ProfileCommand {
    case reload
}

public typealias ProfileParameter = ProfileInput
