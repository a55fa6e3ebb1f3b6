//
//  AppBoardProducer.swift
//  NewsApp
//
//  Created by NewsApp on 1/22/24.
//

import AccountIO
import Boardy
import Foundation

/// The app's own screens, from before the modules. Anything else comes from the launcher's producer.
struct AppBoardProducer: ActivatableBoardProducer {
    let externalProducer: ActivatableBoardProducer

    func produceBoard(identifier: BoardID) -> ActivatableBoard? {
        switch identifier {
        case .onboarding:
            return OnboardingBoard(builder: OnboardingBuilder())
        case .editionPicker:
            return EditionPickerBoard(builder: EditionPickerBuilder())
        case .requireLogin:
            return RequireLoginBoard(session: AccountSession.shared, motherboard: Motherboard(boardProducer: externalProducer))
        case .settings:
            return SettingsBoard(builder: SettingsBuilder())
        case .about:
            return AboutBoard(builder: AboutBuilder())
        case .share:
            return ShareBoard()
        default:
            return externalProducer.produceBoard(identifier: identifier)
        }
    }
}
