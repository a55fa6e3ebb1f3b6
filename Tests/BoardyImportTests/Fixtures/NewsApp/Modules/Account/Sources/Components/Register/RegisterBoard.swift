//
//  RegisterBoard.swift
//  Account
//
//  Created by NewsApp on 2/8/24.
//
//

import AccountIO
import Boardy
import Foundation
import UIKit

protocol RegisterDelegate: AnyObject {
    func didRegister(user: AuthUser)
    func backToLogin()
}

protocol RegisterBuildable {
    func build(withDelegate delegate: RegisterDelegate?) -> UIViewController
}

struct RegisterBuilder: RegisterBuildable {
    func build(withDelegate delegate: RegisterDelegate?) -> UIViewController {
        let viewController = RegisterViewController.instantiateFromStoryboard()
        viewController.delegate = delegate
        return viewController
    }
}

final class RegisterBoard: Board, GuaranteedBoard, GuaranteedOutputSendingBoard {
    typealias InputType = RegisterInput
    typealias OutputType = RegisterOutput

    private let builder: RegisterBuildable

    init(identifier: BoardID, builder: RegisterBuildable) {
        self.builder = builder
        super.init(identifier: identifier)
    }

    func activate(withGuaranteedInput _: InputType) {
        let viewController = builder.build(withDelegate: self)
        rootViewController.show(viewController)
    }
}

extension RegisterBoard: RegisterDelegate {
    func didRegister(user: AuthUser) {
        sendOutput(user)
    }

    func backToLogin() {
        rootViewController.returnHere()
        complete()
    }
}
