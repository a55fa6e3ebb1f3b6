//
//  OnboardingBoard.swift
//  NewsApp
//
//  Created by NewsApp on 1/22/24.
//
//

import Boardy
import FeedIO
import Foundation
import UIKit

final class OnboardingBoard: Board, GuaranteedBoard {
    typealias InputType = Any?

    private let builder: OnboardingBuildable

    init(identifier: BoardID = .onboarding, builder: OnboardingBuildable) {
        self.builder = builder
        super.init(identifier: identifier)
    }

    func activate(withGuaranteedInput _: InputType) {
        let viewController = builder.build(withDelegate: self)
        rootViewController.show(viewController) {
            $0.style = .present(.embeddedInNavigationFullScreen)
        }
    }
}

extension OnboardingBoard: OnboardingDelegate {
    func didTapGetStarted(edition: String) {
        sendToMotherboard(data: edition)
    }

    func didTapChooseEdition() {
        nextToBoard(.editionPicker)
    }

    func didTapSignIn() {
        nextToBoard(.login)
    }

    func didTapFeaturedStory(_ article: ArticleInput) {
        nextToBoard(.requireLogin(then: .article(article)))
    }
}
