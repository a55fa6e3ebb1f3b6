//
//  PodcastsModulePlugin.swift
//  Library
//
//  Created by NewsApp on 3/20/24.
//
//

import Boardy
import Foundation
import LibraryIO

/// Saved podcast episodes. Built, not launched yet: the app does not install this plugin.
public struct PodcastsModulePlugin: ModulePlugin {
    public init() {}

    public var identifier: BoardID { .pubPodcasts }

    public func apply(for main: MainComponent) {
        let mainProducer = main.producer

        mainProducer.registerBoard(identifier) { [unowned mainProducer] identifier in
            PodcastsBoard(identifier: identifier, producer: BoardProducer(externalProducer: mainProducer, registrationsBuilder: { _ in
                BoardRegistration(.modLoadEpisodes) { identifier in
                    LoadEpisodesTaskBoardFactory.make(identifier: identifier)
                }
            }))
        }
    }
}

extension PodcastsModulePlugin {
    public static var bundledPlugins: [ModulePlugin] {
        return [
            PodcastsModulePlugin(),
        ]
    }
}
