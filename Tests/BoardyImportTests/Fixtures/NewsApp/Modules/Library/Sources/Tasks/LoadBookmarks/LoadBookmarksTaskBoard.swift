//
//  LoadBookmarksTaskBoard.swift
//  Library
//
//  Created by NewsApp on 2/14/24.
//
//

import Boardy
import Foundation
import LibraryIO

// MARK: - ID

extension BoardID {
    static let modLoadBookmarks: BoardID = "mod.Library.LoadBookmarks"
}

// MARK: - Interface

struct LoadBookmarksMainDestination {
    let activation: MainboardActivation<Void>
    let flow: FlowHandler<[Bookmark]>
}

extension MotherboardType where Self: FlowManageable {
    func ioLoadBookmarks(_ identifier: BoardID = .modLoadBookmarks) -> LoadBookmarksMainDestination {
        LoadBookmarksMainDestination(
            activation: activation(identifier, with: Void.self),
            flow: matchedFlow(identifier, with: [Bookmark].self)
        )
    }
}

// MARK: - Task

enum LoadBookmarksTaskBoardFactory {
    static func make(identifier: BoardID) -> ActivatableBoard {
        BlockTaskBoard<Void, [Bookmark]>(identifier: identifier, executingType: .latest) { _, _, completion in
            completion(.success(BookmarkStore.shared.all()))
            return .none
        }
    }
}
