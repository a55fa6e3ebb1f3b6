//
//  FetchArticleIOInterface.swift
//  Feed
//
//  Created by NewsApp on 2/6/24.
//
//

import Boardy
import Foundation

// MARK: - ID

extension BoardID {
    static let modFetchArticle: BoardID = "mod.Feed.FetchArticle"
}

// MARK: - In & Out

struct FetchArticleParameter {
    let articleID: String
}

struct ArticleContent {
    let articleID: String
    let html: String
    let commentCount: Int
}

typealias FetchArticleInput = FetchArticleParameter

typealias FetchArticleOutput = ArticleContent

// MARK: - Interface

struct FetchArticleMainDestination {
    let activation: MainboardActivation<FetchArticleParameter>
    let flow: FlowHandler<FetchArticleOutput>
}

extension MotherboardType where Self: FlowManageable {
    func ioFetchArticle(_ identifier: BoardID = .modFetchArticle) -> FetchArticleMainDestination {
        FetchArticleMainDestination(
            activation: activation(identifier, with: FetchArticleParameter.self),
            flow: matchedFlow(identifier, with: FetchArticleOutput.self)
        )
    }
}
