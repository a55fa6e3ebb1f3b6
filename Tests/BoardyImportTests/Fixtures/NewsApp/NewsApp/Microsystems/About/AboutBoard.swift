//
//  AboutBoard.swift
//  NewsApp
//
//  Created by NewsApp on 1/23/24.
//
//

import Boardy
import Foundation
import UIKit

protocol AboutBuildable {
    func build(version: String) -> AboutViewController
}

struct AboutBuilder: AboutBuildable {
    func build(version: String) -> AboutViewController {
        let controller = AboutViewController.instantiateFromStoryboard()
        controller.version = version
        return controller
    }
}

final class AboutBoard: Board, GuaranteedBoard {
    typealias InputType = Any?

    private let builder: AboutBuildable

    init(identifier: BoardID = .about, builder: AboutBuildable) {
        self.builder = builder
        super.init(identifier: identifier)
    }

    func activate(withGuaranteedInput _: InputType) {
        let version = Bundle.main.object(forInfoDictionaryKey: "CFBundleShortVersionString") as? String ?? "-"
        let viewController = builder.build(version: version)
        viewController.onShare = { [weak self] in
            self?.nextToBoard(.share)
        }
        viewController.onClose = { [weak self] in
            self?.sendAction(CloseAction.close)
        }
        rootViewController.show(viewController)
    }
}
