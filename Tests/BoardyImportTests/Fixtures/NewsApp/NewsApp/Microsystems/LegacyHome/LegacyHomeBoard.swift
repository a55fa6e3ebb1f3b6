//
//  LegacyHomeBoard.swift
//  NewsApp
//
//  Created by NewsApp on 11/3/22.
//
//

import Boardy
import Foundation
import UIKit

protocol LegacyHomeDelegate: AnyObject {
    func openSettings()
    func openAbout()
}

/// The 1.x home screen, from before the Feed module. Still compiled, but no producer makes it.
final class LegacyHomeBoard: ContinuousBoard, GuaranteedBoard {
    typealias InputType = Any?

    init(identifier: BoardID = "com.newsapp.home", motherboard: FlowMotherboard) {
        super.init(identifier: identifier, motherboard: motherboard)
    }

    func activate(withGuaranteedInput _: InputType) {
        let viewController = LegacyHomeViewController()
        viewController.delegate = self
        window.setRootViewController(UINavigationController(rootViewController: viewController))
        continueBoard(.onboarding)
    }
}

extension LegacyHomeBoard: LegacyHomeDelegate {
    func openSettings() {
        continueBoard(.settings)
    }

    func openAbout() {
        continueBoard(.requireLogin(then: .about))
    }
}
