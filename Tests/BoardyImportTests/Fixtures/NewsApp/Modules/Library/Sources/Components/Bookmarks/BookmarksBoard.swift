//
//  BookmarksBoard.swift
//  Library
//
//  Created by NewsApp on 2/14/24.
//
//

import Boardy
import FeedIO
import Foundation
import LibraryIO
import UIKit

protocol BookmarksDelegate: AnyObject {
    func didBecomeActive()
    func didSelect(_ bookmark: Bookmark)
    func didSwipeToDelete(_ bookmark: Bookmark)
}

protocol BookmarksControllable: AnyObject {
    func show(bookmarks: [Bookmark])
}

protocol BookmarksBuildable {
    func build(withDelegate delegate: BookmarksDelegate?) -> (UIViewController, BookmarksControllable)
}

struct BookmarksBuilder: BookmarksBuildable {
    func build(withDelegate delegate: BookmarksDelegate?) -> (UIViewController, BookmarksControllable) {
        let viewController = BookmarksViewController()
        viewController.delegate = delegate
        return (viewController, viewController)
    }
}

final class BookmarksBoard: ModernContinuableBoard, GuaranteedBoard, GuaranteedOutputSendingBoard, GuaranteedCommandBoard {
    typealias InputType = BookmarksInput
    typealias OutputType = BookmarksOutput
    typealias CommandType = BookmarksCommand

    private let builder: BookmarksBuildable

    init(identifier: BoardID, builder: BookmarksBuildable, producer: ActivatableBoardProducer) {
        self.builder = builder
        super.init(identifier: identifier, boardProducer: producer)
        registerFlows()
    }

    func activate(withGuaranteedInput _: InputType) {
        let (viewController, controller) = builder.build(withDelegate: self)
        motherboard.putIntoContext(viewController)
        rootViewController.show(viewController)

        bookmarksBus.connect(target: controller) { controller, bookmarks in
            controller.show(bookmarks: bookmarks)
        }
    }

    func interact(guaranteedCommand command: CommandType) {
        switch command {
        case .reload:
            reloadBookmarks()
        }
    }

    private lazy var bookmarksBus = Bus<[Bookmark]>()
}

extension BookmarksBoard: BookmarksDelegate {
    func didBecomeActive() {
        reloadBookmarks()
    }

    func didSelect(_ bookmark: Bookmark) {
        motherboard.ioReader().activation.activate(with: bookmark.article)
    }

    func didSwipeToDelete(_ bookmark: Bookmark) {
        motherboard.ioRemoveBookmark().activation.activate(with: bookmark.article.articleID)
    }
}

private extension BookmarksBoard {
    func reloadBookmarks() {
        motherboard.ioLoadBookmarks().activation.activate()
    }

    func registerFlows() {
        motherboard.ioLoadBookmarks().flow.bind(to: bookmarksBus)

        /// Removed: list again
        motherboard.ioRemoveBookmark().flow.addTarget(self) { target, _ in
            target.reloadBookmarks()
        }
    }
}
