//
//  ReaderBoard.swift
//  Feed
//
//  Created by NewsApp on 2/6/24.
//
//

import AccountIO
import Boardy
import FeedIO
import Foundation
import LibraryIO
import UIKit

final class ReaderBoard: ModernContinuableBoard, GuaranteedBoard, GuaranteedOutputSendingBoard, GuaranteedCommandBoard {
    typealias InputType = ReaderInput
    typealias OutputType = ReaderOutput
    typealias CommandType = ReaderCommand

    private let builder: ReaderBuildable

    init(identifier: BoardID, builder: ReaderBuildable, producer: ActivatableBoardProducer) {
        self.builder = builder
        super.init(identifier: identifier, boardProducer: producer)
        registerFlows()
    }

    /// Premium stories wait behind the paywall: the reader opens once the paywall completes(true).
    func activationBarrier(withGuaranteedInput input: InputType) -> ActivationBarrier? {
        guard input.isPremium else { return nil }
        return ioPaywall().activation.barrier(scope: .mainboard)
    }

    func activate(withGuaranteedInput input: InputType) {
        let component = builder.build(withDelegate: self, article: input)
        let viewController = component.userInterface
        motherboard.putIntoContext(viewController)
        rootViewController.show(viewController)

        contentBus.connect(target: component.controller) { controller, content in
            controller.render(content)
        }

        textSizeBus.connect(target: component.controller) { controller, size in
            controller.setTextSize(size)
        }

        loadArticle(input.articleID)
    }

    func interact(guaranteedCommand command: CommandType) {
        switch command {
        case let .setTextSize(size):
            textSizeBus.transport(input: size)
        }
    }

    private lazy var contentBus = Bus<ArticleContent>()
    private lazy var textSizeBus = Bus<Int>()
}

extension ReaderBoard: ReaderDelegate {
    func didTapBookmark(article: ArticleInput) {
        sendOutput(.bookmarked(article))
    }

    func readerDidClose() {
        sendOutput(.closed)
        complete()
    }
}

private extension ReaderBoard {
    func loadArticle(_ articleID: String) {
        motherboard.ioFetchArticle().activation.activate(with: FetchArticleParameter(articleID: articleID))
    }

    func registerFlows() {
        motherboard.ioFetchArticle().flow.addTarget(self) { target, content in
            target.contentBus.transport(input: content)
        }
    }

    /// From before the Library module: the reader opened the bookmarks itself. Nobody calls it.
    func showBookmarksLegacy() {
        motherboard.ioBookmarks().activation.activate()
    }
}
