//
//  PodcastsBoard.swift
//  Library
//
//  Created by NewsApp on 3/20/24.
//
//

import Boardy
import FeedIO
import Foundation
import LibraryIO
import UIKit

// MARK: - ID

extension BoardID {
    static let pubPodcasts: BoardID = "pub.mod.Library.Podcasts"
    static let modLoadEpisodes: BoardID = "mod.Library.LoadEpisodes"
}

extension MotherboardType where Self: FlowManageable {
    func ioLoadEpisodes(_ identifier: BoardID = .modLoadEpisodes) -> MainboardGenericDestination<Void, [String], Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }
}

enum LoadEpisodesTaskBoardFactory {
    static func make(identifier: BoardID) -> ActivatableBoard {
        TaskBoard<Void, [String]>(identifier: identifier) { _, _, completion in
            completion(.success(BookmarkStore.shared.episodeIDs))
        }
    }
}

final class PodcastsBoard: ModernContinuableBoard, GuaranteedBoard {
    typealias InputType = Any?

    init(identifier: BoardID, producer: ActivatableBoardProducer) {
        super.init(identifier: identifier, boardProducer: producer)
        motherboard.ioLoadEpisodes().flow.addTarget(self) { target, episodes in
            guard let first = episodes.first else { return }
            target.motherboard.ioReader().activation.activate(with: ArticleInput(articleID: first, title: "Episode"))
        }
    }

    func activate(withGuaranteedInput _: InputType) {
        motherboard.ioLoadEpisodes().activation.activate()
    }
}
