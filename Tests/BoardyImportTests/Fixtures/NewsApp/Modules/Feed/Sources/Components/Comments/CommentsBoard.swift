//
//  CommentsBoard.swift
//  Feed
//
//  Created by NewsApp on 2/6/24.
//
//

import AccountIO
import Boardy
import FeedIO
import Foundation
import UIKit

protocol CommentsDelegate: AnyObject {
    func didSubmit(comment text: String)
    func commentsDidClose()
}

protocol CommentsBuildable {
    func build(withDelegate delegate: CommentsDelegate?, articleID: String) -> UIViewController
}

struct CommentsBuilder: CommentsBuildable {
    func build(withDelegate delegate: CommentsDelegate?, articleID: String) -> UIViewController {
        let viewController = CommentsViewController(articleID: articleID)
        viewController.delegate = delegate
        return viewController
    }
}

final class CommentsBoard: ModernContinuableBoard, GuaranteedBoard, GuaranteedOutputSendingBoard {
    typealias InputType = CommentsInput
    typealias OutputType = CommentsOutput

    private let builder: CommentsBuildable
    private var articleID = ""

    init(identifier: BoardID, builder: CommentsBuildable, producer: ActivatableBoardProducer) {
        self.builder = builder
        super.init(identifier: identifier, boardProducer: producer)
        registerFlows()
    }

    func activate(withGuaranteedInput input: InputType) {
        articleID = input
        let viewController = builder.build(withDelegate: self, articleID: input)
        motherboard.putIntoContext(viewController)
        rootViewController.show(viewController) {
            $0.style = .defaultPresent
        }
    }
}

extension CommentsBoard: CommentsDelegate {
    func didSubmit(comment text: String) {
        guard let author = AccountSession.shared.currentUser else {
            /// Only signed-in readers comment
            motherboard.ioLogin().activation.activate()
            return
        }
        motherboard.ioPostComment().activation.activate(with: PostCommentParameter(articleID: articleID, author: author.displayName, text: text))
    }

    func commentsDidClose() {
        complete()
    }
}

private extension CommentsBoard {
    func registerFlows() {
        motherboard.ioPostComment().flow.addTarget(self) { target, count in
            target.sendOutput(count)
        }
    }
}
