//
//  ProfileBoard.swift
//  Account
//
//  Created by NewsApp on 2/9/24.
//
//

import AccountIO
import Boardy
import Foundation
import UIKit

final class ProfileBoard: ModernContinuableBoard, GuaranteedBoard, GuaranteedOutputSendingBoard {
    typealias InputType = ProfileInput
    typealias OutputType = ProfileOutput

    private let builder: ProfileBuildable

    init(identifier: BoardID, builder: ProfileBuildable, producer: ActivatableBoardProducer) {
        self.builder = builder
        super.init(identifier: identifier, boardProducer: producer)
        registerFlows()
    }

    func activate(withGuaranteedInput _: InputType) {
        guard let user = AccountSession.shared.currentUser else {
            motherboard.ioLogin().activation.activate()
            return
        }

        let component = builder.build(withDelegate: self)
        let viewController = component.userInterface
        motherboard.putIntoContext(viewController)
        rootViewController.show(viewController)

        userBus.connect(target: component.controller) { controller, user in
            controller.show(user: user)
        }
        userBus.transport(input: user)
    }

    private lazy var userBus = Bus<AuthUser>()
}

extension ProfileBoard: ProfileDelegate {
    func didTapEdit() {
        motherboard.ioEditProfile().activation.activate(with: AccountSession.shared.currentUser)
    }

    func didTapSubscription() {
        motherboard.ioPaywall().activation.activate(with: "profile")
    }

    func didTapSignOut() {
        motherboard.ioSignOut().activation.activate()
        sendOutput(.signedOut)
        complete()
    }

    #if false
        /// The debug menu, switched off until it has a screen of its own.
        func didTapDebugMenu() {
            motherboard.ioBookmarks().activation.activate()
        }
    #endif
}

private extension ProfileBoard {
    func registerFlows() {
        motherboard.ioEditProfile().flow.addTarget(self) { target, user in
            target.userBus.transport(input: user)
        }
    }
}
