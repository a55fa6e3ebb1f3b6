//
//  ReaderInOut.swift
//  FeedIO
//
//  Created by NewsApp on 2/5/24.
//
//

import Foundation

public typealias ReaderInput = ArticleInput

public enum ReaderOutput {
    case bookmarked(ArticleInput)
    case closed
}

public enum ReaderCommand {
    case setTextSize(Int)
}

public typealias ReaderParameter = ReaderInput
