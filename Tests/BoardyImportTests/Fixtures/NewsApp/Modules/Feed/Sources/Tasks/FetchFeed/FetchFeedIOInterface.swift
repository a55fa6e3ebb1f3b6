//
//  FetchFeedIOInterface.swift
//  Feed
//
//  Created by NewsApp on 2/5/24.
//
//

import Boardy
import FeedIO
import Foundation

// MARK: - ID

extension BoardID {
    static let modFetchFeed: BoardID = "mod.Feed.FetchFeed"
}

// MARK: - In & Out

struct FetchFeedParameter {
    let page: Int
}

typealias FetchFeedInput = FetchFeedParameter

typealias FetchFeedOutput = [ArticleSummary]

// MARK: - Interface

struct FetchFeedMainDestination {
    let activation: MainboardActivation<FetchFeedParameter>
    let flow: FlowHandler<FetchFeedOutput>
}

extension MotherboardType where Self: FlowManageable {
    func ioFetchFeed(_ identifier: BoardID = .modFetchFeed) -> FetchFeedMainDestination {
        FetchFeedMainDestination(
            activation: activation(identifier, with: FetchFeedParameter.self),
            flow: matchedFlow(identifier, with: FetchFeedOutput.self)
        )
    }
}
