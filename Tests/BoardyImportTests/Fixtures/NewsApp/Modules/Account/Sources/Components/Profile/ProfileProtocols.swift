//
//  ProfileProtocols.swift
//  Account
//
//  Created by NewsApp on 2/9/24.
//
//

import AccountIO
import UIKit

protocol ProfileDelegate: AnyObject {
    func didTapEdit()
    func didTapSubscription()
    func didTapSignOut()
}

protocol ProfileControllable: AnyObject {
    func show(user: AuthUser)
}

protocol ProfileBuildable {
    func build(withDelegate delegate: ProfileDelegate?) -> ProfileComponent
}

struct ProfileComponent {
    let userInterface: UIViewController
    let controller: ProfileControllable
}

struct ProfileBuilder: ProfileBuildable {
    func build(withDelegate delegate: ProfileDelegate?) -> ProfileComponent {
        let viewController = ProfileViewController.instantiateFromStoryboard()
        viewController.delegate = delegate
        return ProfileComponent(userInterface: viewController, controller: viewController)
    }
}
