//
//  LoginBoard.swift
//  Account
//
//  Created by NewsApp on 2/8/24.
//
//

import AccountIO
import Boardy
import Foundation
import UIKit

final class LoginBoard: ModernContinuableBoard, GuaranteedBoard, GuaranteedOutputSendingBoard {
    typealias InputType = LoginInput
    typealias OutputType = LoginOutput

    private let builder: LoginBuildable

    init(identifier: BoardID, builder: LoginBuildable, producer: ActivatableBoardProducer) {
        self.builder = builder
        super.init(identifier: identifier, boardProducer: producer)
        registerFlows()
    }

    func activate(withGuaranteedInput _: InputType) {
        let viewController = builder.build(withDelegate: self)
        motherboard.putIntoContext(viewController)
        rootViewController.show(viewController) {
            $0.style = .present(.embeddedInNavigationFullScreen)
        }
    }
}

extension LoginBoard: LoginDelegate {
    func performLogin(email: String, password: String) {
        motherboard.ioSignIn().activation.activate(with: SignInParameter(email: email, password: password))
    }

    func openRegister() {
        motherboard.ioRegister().activation.activate()
    }

    func loginDidClose() {
        sendOutput(.cancelled)
    }
}

private extension LoginBoard {
    func registerFlows() {
        motherboard.ioSignIn().flow.addTarget(self) { board, user in
            AccountSession.shared.update(user)
            board.rootViewController.returnHere()
            board.sendOutput(.loggedIn(user))
        }

        motherboard.registerGuaranteedFlow(matchedIdentifiers: .modRegister, target: self, uniqueOutputType: AuthUser.self) { board, user in
            AccountSession.shared.update(user)
            board.rootViewController.returnHere()
            board.sendOutput(.loggedIn(user))
        }
    }
}
