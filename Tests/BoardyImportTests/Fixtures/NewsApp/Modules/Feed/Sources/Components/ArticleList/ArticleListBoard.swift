//
//  ArticleListBoard.swift
//  Feed
//
//  Created by NewsApp on 2/5/24.
//
//

import Boardy
import FeedIO
import Foundation
import UIKit

protocol ArticleListDelegate: AnyObject {
    func didSelect(article: ArticleInput)
    func didTapComments(of article: ArticleInput)
}

protocol ArticleListBuildable {
    func build(withDelegate delegate: ArticleListDelegate?) -> UIViewController
}

struct ArticleListBuilder: ArticleListBuildable {
    func build(withDelegate delegate: ArticleListDelegate?) -> UIViewController {
        let viewController = ArticleListViewController()
        viewController.delegate = delegate
        return viewController
    }
}

final class ArticleListBoard: Board, GuaranteedBoard, GuaranteedOutputSendingBoard {
    typealias InputType = ArticleListInput
    typealias OutputType = ArticleListOutput

    private let builder: ArticleListBuildable

    init(identifier: BoardID, builder: ArticleListBuildable) {
        self.builder = builder
        super.init(identifier: identifier)
    }

    func activate(withGuaranteedInput container: InputType) {
        let viewController = builder.build(withDelegate: self)
        rootViewController.addChild(viewController)
        container.addSubview(viewController.view)
        viewController.view.frame = container.bounds
        viewController.didMove(toParent: rootViewController)
    }
}

extension ArticleListBoard: ArticleListDelegate {
    func didSelect(article: ArticleInput) {
        sendOutput(article)
    }

    func didTapComments(of article: ArticleInput) {
        ioComments().activation.activate(with: article.articleID)
    }
}
