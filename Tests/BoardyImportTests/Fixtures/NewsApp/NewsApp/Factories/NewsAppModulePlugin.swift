//
//  NewsAppModulePlugin.swift
//  NewsApp
//
//  Created by NewsApp on 2/16/24.
//

import Boardy
import Foundation

/// Puts the app's own screens behind one board of the launcher: the welcome flow, whose
/// motherboard is built on the old switch producer.
struct NewsAppModulePlugin: ModulePlugin {
    var identifier: BoardID { .welcome }

    func apply(for main: MainComponent) {
        let mainProducer = main.producer

        mainProducer.registerBoard(identifier) { identifier in
            WelcomeBoard(identifier: identifier, motherboard: Motherboard(boardProducer: AppBoardProducer(externalProducer: mainProducer)))
        }
    }
}
