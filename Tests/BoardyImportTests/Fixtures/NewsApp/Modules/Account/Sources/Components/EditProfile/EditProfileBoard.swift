//
//  EditProfileBoard.swift
//  Account
//
//  Created by NewsApp on 2/9/24.
//
//

import AccountIO
import Boardy
import Foundation
import UIKit

protocol EditProfileBuildable {
    func build(user: AuthUser?, onSave: @escaping (AuthUser) -> Void) -> UIViewController
}

struct EditProfileBuilder: EditProfileBuildable {
    func build(user: AuthUser?, onSave: @escaping (AuthUser) -> Void) -> UIViewController {
        EditProfileViewController(user: user, onSave: onSave)
    }
}

final class EditProfileBoard: Board, GuaranteedBoard, GuaranteedOutputSendingBoard {
    typealias InputType = EditProfileInput
    typealias OutputType = EditProfileOutput

    private let builder: EditProfileBuildable

    init(identifier: BoardID, builder: EditProfileBuildable) {
        self.builder = builder
        super.init(identifier: identifier)
    }

    func activate(withGuaranteedInput input: InputType) {
        let viewController = builder.build(user: input) { [weak self] user in
            AccountSession.shared.update(user)
            self?.sendOutput(user)
            self?.complete()
        }
        rootViewController.show(viewController)
    }
}
