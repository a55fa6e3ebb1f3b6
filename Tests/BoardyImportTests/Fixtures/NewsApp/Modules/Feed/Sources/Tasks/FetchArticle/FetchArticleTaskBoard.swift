//
//  FetchArticleTaskBoard.swift
//  Feed
//
//  Created by NewsApp on 2/6/24.
//
//

import Boardy
import Foundation
import SiFUtilities

enum FetchArticleTaskBoardFactory {
    static func make(identifier: BoardID) -> ActivatableBoard {
        BlockTaskBoard<FetchArticleInput, FetchArticleOutput>(identifier: identifier, executingType: .latest) { _, input, completion in
            FeedAPI.shared.article(id: input.articleID) { result in
                completion(result)
            }
            return .none
        }
    }
}
