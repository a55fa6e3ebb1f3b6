//
//  SignOutInOut.swift
//  AccountIO
//
//  Created by NewsApp on 2/9/24.
//
//

import Foundation

public typealias SignOutInput = Void

/// Whether the session was cleared.
public typealias SignOutOutput = Bool

public typealias SignOutParameter = SignOutInput
