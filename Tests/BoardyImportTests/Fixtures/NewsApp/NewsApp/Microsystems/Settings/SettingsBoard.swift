//
//  SettingsBoard.swift
//  NewsApp
//
//  Created by NewsApp on 1/23/24.
//
//

import Boardy
import Foundation
import UIKit

final class SettingsBoard: Board, GuaranteedBoard, GuaranteedActionSendingBoard {
    typealias InputType = Any?
    typealias FlowActionType = CloseAction

    private let builder: SettingsBuildable

    init(identifier: BoardID = .settings, builder: SettingsBuildable) {
        self.builder = builder
        super.init(identifier: identifier)
    }

    func activate(withGuaranteedInput _: InputType) {
        let viewController = builder.build(withDelegate: self)
        viewController.onClose = { [weak self] in
            self?.broadcastAction(.close)
        }
        rootViewController.show(viewController)
    }
}

extension SettingsBoard: SettingsDelegate {
    func didTapAbout() {
        nextToBoard(.about)
    }

    func didTapManageSubscription() {
        nextToBoard(.requireLogin(then: .paywall))
    }

    func didTapWhatsNew(destination serverString: String) {
        /// The server decides which screen "What's new" opens.
        nextToBoard(model: BoardInput<Void>(target: BoardID(rawValue: serverString)))
    }
}
