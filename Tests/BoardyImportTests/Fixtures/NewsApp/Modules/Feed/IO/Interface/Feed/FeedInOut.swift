//
//  FeedInOut.swift
//  FeedIO
//
//  Created by NewsApp on 2/5/24.
//
//

import Foundation

public typealias FeedInput = Any?

public typealias FeedOutput = Void

public enum FeedCommand {
    case scrollToTop
    case refresh
}

public typealias FeedParameter = FeedInput
