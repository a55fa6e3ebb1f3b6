//
//  PaywallInOut.swift
//  AccountIO
//
//  Created by NewsApp on 2/12/24.
//
//

import Foundation

/// Where the paywall was opened from, for analytics.
public typealias PaywallInput = Any?

/// Whether the reader is subscribed now.
public typealias PaywallOutput = Bool

public enum PaywallCommand {}

public typealias PaywallParameter = PaywallInput
