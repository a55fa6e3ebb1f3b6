//
//  LoginProtocols.swift
//  Account
//
//  Created by NewsApp on 2/8/24.
//
//

import UIKit

protocol LoginDelegate: AnyObject {
    func performLogin(email: String, password: String)
    func openRegister()
    func loginDidClose()
}

protocol LoginBuildable {
    func build(withDelegate delegate: LoginDelegate?) -> UIViewController
}

struct LoginBuilder: LoginBuildable {
    func build(withDelegate delegate: LoginDelegate?) -> UIViewController {
        let viewController = LoginViewController.instantiateFromStoryboard()
        viewController.delegate = delegate
        return viewController
    }
}
