//
//  EditionPickerBoard.swift
//  NewsApp
//
//  Created by NewsApp on 1/24/24.
//
//

import Boardy
import Foundation
import UIKit

protocol EditionPickerBuildable {
    func build() -> EditionPickerViewController
}

struct EditionPickerBuilder: EditionPickerBuildable {
    func build() -> EditionPickerViewController {
        EditionPickerViewController(editions: ["us", "uk", "international"])
    }
}

final class EditionPickerBoard: Board, GuaranteedBoard {
    typealias InputType = Any?

    private let builder: EditionPickerBuildable

    init(identifier: BoardID = .editionPicker, builder: EditionPickerBuildable) {
        self.builder = builder
        super.init(identifier: identifier)
    }

    func activate(withGuaranteedInput _: InputType) {
        let viewController = builder.build()
        viewController.onPick = { [weak self] edition in
            self?.sendToMotherboard(data: edition)
        }
        rootViewController.show(viewController)
    }
}
