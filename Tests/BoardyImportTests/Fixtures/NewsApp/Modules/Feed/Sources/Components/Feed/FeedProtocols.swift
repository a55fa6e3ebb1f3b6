//
//  FeedProtocols.swift
//  Feed
//
//  Created by NewsApp on 2/5/24.
//
//

import FeedIO
import UIKit

protocol FeedDelegate: AnyObject {
    func didBecomeActive()
    func didPullToRefresh()
    func didTapProfile()
    func didTapBookmarks()
}

protocol FeedControllable: AnyObject {
    var listContainer: UIView { get }

    func show(articles: [ArticleSummary])
    func reloadFeed()
}

protocol FeedBuildable {
    func build(withDelegate delegate: FeedDelegate?) -> FeedComponent
}

protocol FeedUserInterface: UIViewController {}

struct FeedComponent {
    let userInterface: FeedUserInterface
    let controller: FeedControllable
}
