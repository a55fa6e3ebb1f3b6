//
//  SettingsProtocols.swift
//  NewsApp
//
//  Created by NewsApp on 1/23/24.
//
//

import UIKit

protocol SettingsDelegate: AnyObject {
    func didTapAbout()
    func didTapManageSubscription()
    func didTapWhatsNew(destination: String)
}

protocol SettingsController: UIViewController {
    var onClose: (() -> Void)? { get set }
}

protocol SettingsBuildable {
    func build(withDelegate delegate: SettingsDelegate?) -> SettingsController
}

struct SettingsBuilder: SettingsBuildable {
    func build(withDelegate delegate: SettingsDelegate?) -> SettingsController {
        let controller = SettingsViewController.instantiateFromStoryboard()
        controller.delegate = delegate
        return controller
    }
}
