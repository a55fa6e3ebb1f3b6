//
//  ReaderProtocols.swift
//  Feed
//
//  Created by NewsApp on 2/6/24.
//
//

import FeedIO
import UIKit

protocol ReaderDelegate: AnyObject {
    func didTapBookmark(article: ArticleInput)
    func readerDidClose()
}

protocol ReaderControllable: AnyObject {
    func render(_ content: ArticleContent)
    func setTextSize(_ size: Int)
}

protocol ReaderBuildable {
    func build(withDelegate delegate: ReaderDelegate?, article: ArticleInput) -> ReaderComponent
}

struct ReaderComponent {
    let userInterface: UIViewController
    let controller: ReaderControllable
}

struct ReaderBuilder: ReaderBuildable {
    func build(withDelegate delegate: ReaderDelegate?, article: ArticleInput) -> ReaderComponent {
        let viewController = ReaderViewController(article: article)
        viewController.delegate = delegate
        return ReaderComponent(userInterface: viewController, controller: viewController)
    }
}
