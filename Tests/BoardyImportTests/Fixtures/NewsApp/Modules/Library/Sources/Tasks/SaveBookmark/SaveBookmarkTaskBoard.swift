//
//  SaveBookmarkTaskBoard.swift
//  Library
//
//  Created by NewsApp on 2/14/24.
//
//

import Boardy
import FeedIO
import Foundation
import LibraryIO

enum SaveBookmarkTaskBoardFactory {
    static func make(identifier: BoardID) -> ActivatableBoard {
        TaskBoard<SaveBookmarkInput, SaveBookmarkOutput>(identifier: identifier) { _, article, completion in
            let bookmark = Bookmark(article: article)
            BookmarkStore.shared.add(bookmark)
            completion(.success(bookmark))
        }
    }
}
