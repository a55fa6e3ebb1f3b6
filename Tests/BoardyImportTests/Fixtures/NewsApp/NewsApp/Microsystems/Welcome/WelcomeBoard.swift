//
//  WelcomeBoard.swift
//  NewsApp
//
//  Created by NewsApp on 1/22/24.
//
//

import AccountIO
import Boardy
import Foundation
import UIKit

/// The first-launch flow: onboarding, the edition, then signing in to keep them.
final class WelcomeBoard: ContinuousBoard, GuaranteedBoard {
    typealias InputType = Any?

    private let preferences: AppPreferences

    init(identifier: BoardID = .welcome,
         preferences: AppPreferences = .shared,
         motherboard: FlowMotherboard) {
        self.preferences = preferences
        super.init(identifier: identifier, motherboard: motherboard)
        registerFlows()
    }

    func activate(withGuaranteedInput _: InputType) {
        continueBoard(.onboarding)
    }

    private func registerFlows() {
        /// An edition was chosen: sign in to keep it, then fine-tune it in Settings
        motherboard.registerGuaranteedFlow(matchedIdentifiers: .onboarding, .editionPicker, target: self, uniqueOutputType: String.self) { target, edition in
            target.preferences.completeOnboarding(edition: edition)
            target.motherboard.activateBoard(.requireLogin(then: .settings))
        }

        motherboard.registerGeneralFlow(target: self, uniqueOutputType: CloseAction.self) { target, action in
            switch action {
            case .close:
                target.rootViewController.returnHere()
            }
        }
    }
}
