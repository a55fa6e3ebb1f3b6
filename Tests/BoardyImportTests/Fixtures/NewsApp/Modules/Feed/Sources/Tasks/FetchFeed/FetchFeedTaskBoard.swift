//
//  FetchFeedTaskBoard.swift
//  Feed
//
//  Created by NewsApp on 2/5/24.
//
//

import Boardy
import FeedIO
import Foundation
import SiFUtilities

enum FetchFeedTaskBoardFactory {
    static func make(identifier: BoardID) -> ActivatableBoard {
        TaskBoard<FetchFeedInput, FetchFeedOutput>(identifier: identifier) { _, input, completion in
            FeedAPI.shared.latest(page: input.page) { result in
                switch result {
                case let .success(articles):
                    completion(.success(articles))
                case let .failure(error):
                    completion(.failure(error))
                }
            }
        }
        processingHandler: { $0.showDefaultLoading($0.isProcessing) }
    }
}
