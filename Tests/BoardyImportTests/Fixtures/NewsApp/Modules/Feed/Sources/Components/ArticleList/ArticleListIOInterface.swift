//
//  ArticleListIOInterface.swift
//  Feed
//
//  Created by NewsApp on 2/5/24.
//
//

import Boardy
import FeedIO
import Foundation
import UIKit

// MARK: - ID

extension BoardID {
    static let modArticleList: BoardID = "mod.Feed.ArticleList"
}

// MARK: - In & Out

/// The view the list is embedded in.
typealias ArticleListInput = UIView

/// The story picked.
typealias ArticleListOutput = ArticleInput

typealias ArticleListCommand = Any?

typealias ArticleListParameter = ArticleListInput

// MARK: - Interface

struct ArticleListMainDestination {
    let activation: MainboardActivation<ArticleListParameter>
    let interaction: MainboardInteraction<ArticleListCommand>
    let flow: FlowHandler<ArticleListOutput>
}

extension MotherboardType where Self: FlowManageable {
    func ioArticleList(_ identifier: BoardID = .modArticleList) -> ArticleListMainDestination {
        ArticleListMainDestination(
            activation: activation(identifier, with: ArticleListParameter.self),
            interaction: interaction(identifier, with: ArticleListCommand.self),
            flow: matchedFlow(identifier, with: ArticleListOutput.self)
        )
    }
}
