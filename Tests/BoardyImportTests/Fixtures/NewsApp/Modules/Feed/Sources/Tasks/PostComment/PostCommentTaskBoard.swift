//
//  PostCommentTaskBoard.swift
//  Feed
//
//  Created by NewsApp on 2/6/24.
//
//

import Boardy
import Foundation
import SiFUtilities

enum PostCommentTaskBoardFactory {
    static func make(identifier: BoardID) -> ActivatableBoard {
        TaskBoard<PostCommentInput, PostCommentOutput>(identifier: identifier) { _, input, completion in
            guard !input.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                completion(.failure(NSError.general(message: "A comment can't be empty")))
                return
            }
            FeedAPI.shared.postComment(input.text, by: input.author, on: input.articleID) { result in
                completion(result)
            }
        }
        processingHandler: { $0.showDefaultLoading($0.isProcessing) }
    }
}
