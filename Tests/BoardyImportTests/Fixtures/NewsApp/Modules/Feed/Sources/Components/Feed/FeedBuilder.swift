//
//  FeedBuilder.swift
//  Feed
//
//  Created by NewsApp on 2/5/24.
//
//

import SiFUtilities
import UIKit

struct FeedBuilder: FeedBuildable {
    func build(withDelegate delegate: FeedDelegate?) -> FeedComponent {
        let viewController = FeedViewController.instantiateFromStoryboard()
        viewController.delegate = delegate
        return FeedComponent(userInterface: viewController, controller: viewController)
    }
}
