//
//  RemoveBookmarkTaskBoard.swift
//  Library
//
//  Created by NewsApp on 2/14/24.
//
//

import Boardy
import Foundation

// MARK: - ID

extension BoardID {
    static let modRemoveBookmark: BoardID = "mod.Library.RemoveBookmark"
}

// MARK: - Interface

struct RemoveBookmarkMainDestination {
    let activation: MainboardActivation<String>
    let flow: FlowHandler<String>
}

extension MotherboardType where Self: FlowManageable {
    func ioRemoveBookmark(_ identifier: BoardID = .modRemoveBookmark) -> RemoveBookmarkMainDestination {
        RemoveBookmarkMainDestination(
            activation: activation(identifier, with: String.self),
            flow: matchedFlow(identifier, with: String.self)
        )
    }
}

// MARK: - Task

enum RemoveBookmarkTaskBoardFactory {
    static func make(identifier: BoardID) -> ActivatableBoard {
        TaskBoard<String, String>(identifier: identifier) { _, articleID, completion in
            BookmarkStore.shared.remove(articleID: articleID)
            completion(.success(articleID))
        }
    }
}
