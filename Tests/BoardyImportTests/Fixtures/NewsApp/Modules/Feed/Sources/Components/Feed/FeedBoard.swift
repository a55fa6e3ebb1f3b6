//
//  FeedBoard.swift
//  Feed
//
//  Created by NewsApp on 2/5/24.
//
//

import AccountIO
import Boardy
import FeedIO
import Foundation
import LibraryIO
import UIKit

final class FeedBoard: ModernContinuableBoard, GuaranteedBoard, GuaranteedOutputSendingBoard {
    typealias InputType = FeedInput
    typealias OutputType = FeedOutput

    private let builder: FeedBuildable

    init(identifier: BoardID, builder: FeedBuildable, producer: ActivatableBoardProducer) {
        self.builder = builder
        super.init(identifier: identifier, boardProducer: producer)
        registerFlows()
    }

    func activate(withGuaranteedInput _: InputType) {
        let component = builder.build(withDelegate: self)
        let viewController = component.userInterface
        motherboard.putIntoContext(viewController)

        let nav = UINavigationController(rootViewController: viewController)
        window.setRootViewController(nav)

        /// Bind the latest stories to UI
        articlesBus.connect(target: component.controller) { controller, articles in
            controller.show(articles: articles)
        }

        /// Reload when a story was saved or the reader closed
        reloadBus.connect(target: component.controller) { controller in
            controller.reloadFeed()
        }

        embedArticleList(in: component.controller)
    }

    private lazy var articlesBus = Bus<[ArticleSummary]>()
    private lazy var reloadBus = Bus<Void>()
}

extension FeedBoard: FeedDelegate {
    func didBecomeActive() {
        motherboard.ioFetchFeed().activation.activate(with: FetchFeedParameter(page: 0))
    }

    func didPullToRefresh() {
        motherboard.ioFetchFeed().activation.activate(with: FetchFeedParameter(page: 0))
    }

    func didTapProfile() {
        motherboard.ioProfile().activation.activate()
    }

    func didTapBookmarks() {
        motherboard.ioBookmarks().activation.activate()
    }
}

private extension FeedBoard {
    func embedArticleList(in controller: FeedControllable) {
        motherboard.ioArticleList().activation.activate(with: controller.listContainer)
    }

    func registerFlows() {
        /// The fetched page goes straight to UI
        motherboard.ioFetchFeed().flow.bind(to: articlesBus)

        /// A story was picked in the list
        motherboard.ioArticleList().flow.addTarget(self) { target, article in
            target.motherboard.ioReader().activation.activate(with: article)
        }

        motherboard.ioReader().flow.addTarget(self) { target, output in
            switch output {
            case let .bookmarked(article):
                target.motherboard.ioSaveBookmark().activation.activate(with: article)
            case .closed:
                target.reloadBus.transport()
            }
        }
    }
}
