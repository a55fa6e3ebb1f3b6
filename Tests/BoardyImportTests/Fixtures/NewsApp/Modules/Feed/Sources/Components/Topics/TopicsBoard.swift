//
//  TopicsBoard.swift
//  Feed
//
//  Created by NewsApp on 3/11/24.
//
//

import Boardy
import FeedIO
import Foundation
import UIKit

protocol TopicsBuildable {
    func build(onSelect: @escaping (String) -> Void) -> UIViewController
}

struct TopicsBuilder: TopicsBuildable {
    func build(onSelect: @escaping (String) -> Void) -> UIViewController {
        TopicsViewController(onSelect: onSelect)
    }
}

/// The 2.0 topic browser. Its service is not in the bundled plugins yet.
final class TopicsBoard: Board, GuaranteedBoard, GuaranteedOutputSendingBoard {
    typealias InputType = TopicsInput
    typealias OutputType = TopicsOutput

    private let builder: TopicsBuildable

    init(identifier: BoardID, builder: TopicsBuildable) {
        self.builder = builder
        super.init(identifier: identifier)
    }

    func activate(withGuaranteedInput _: InputType) {
        let viewController = builder.build { [weak self] topic in
            self?.sendOutput(topic)
            self?.ioFeed().activation.activate()
        }
        rootViewController.show(viewController)
    }
}
