//
//  PostCommentIOInterface.swift
//  Feed
//
//  Created by NewsApp on 2/6/24.
//
//

import Boardy
import Foundation

// MARK: - ID

extension BoardID {
    static let modPostComment: BoardID = "mod.Feed.PostComment"
}

// MARK: - In & Out

struct PostCommentParameter {
    let articleID: String
    let author: String
    let text: String
}

typealias PostCommentInput = PostCommentParameter

/// The article's comment count after posting.
typealias PostCommentOutput = Int

// MARK: - Interface

struct PostCommentMainDestination {
    let activation: MainboardActivation<PostCommentParameter>
    let flow: FlowHandler<PostCommentOutput>
}

extension MotherboardType where Self: FlowManageable {
    func ioPostComment(_ identifier: BoardID = .modPostComment) -> PostCommentMainDestination {
        PostCommentMainDestination(
            activation: activation(identifier, with: PostCommentParameter.self),
            flow: matchedFlow(identifier, with: PostCommentOutput.self)
        )
    }
}
