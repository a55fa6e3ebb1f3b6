//
//  ShareBoard.swift
//  NewsApp
//
//  Created by NewsApp on 1/23/24.
//
//

import Boardy
import Foundation
import UIKit

/// Shares the app's App Store link.
final class ShareBoard: Board, GuaranteedBoard {
    typealias InputType = Any?

    private let appURL = URL(string: "https://apps.apple.com/app/id0000000000")!

    init(identifier: BoardID = .share) {
        super.init(identifier: identifier)
    }

    func activate(withGuaranteedInput _: InputType) {
        let activity = UIActivityViewController(activityItems: [appURL], applicationActivities: nil)
        activity.completionWithItemsHandler = { [weak self] _, _, _, _ in
            self?.complete()
        }
        rootViewController.present(activity, animated: true)
    }
}
