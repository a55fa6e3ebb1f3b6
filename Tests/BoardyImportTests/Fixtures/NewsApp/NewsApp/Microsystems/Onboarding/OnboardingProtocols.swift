//
//  OnboardingProtocols.swift
//  NewsApp
//
//  Created by NewsApp on 1/22/24.
//
//

import FeedIO
import UIKit

protocol OnboardingDelegate: AnyObject {
    func didTapGetStarted(edition: String)
    func didTapChooseEdition()
    func didTapSignIn()
    func didTapFeaturedStory(_ article: ArticleInput)
}

protocol OnboardingBuildable {
    func build(withDelegate delegate: OnboardingDelegate?) -> UIViewController
}

struct OnboardingBuilder: OnboardingBuildable {
    func build(withDelegate delegate: OnboardingDelegate?) -> UIViewController {
        let controller = OnboardingViewController.instantiateFromStoryboard()
        controller.delegate = delegate
        return controller
    }
}
