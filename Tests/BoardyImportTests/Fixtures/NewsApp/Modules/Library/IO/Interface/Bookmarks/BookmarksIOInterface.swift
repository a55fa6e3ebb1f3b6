//
//  BookmarksIOInterface.swift
//  LibraryIO
//
//  Created by NewsApp on 2/14/24.
//
//

import Boardy
import Foundation

// MARK: - ID

extension BoardID {
    static let pubBookmarks: BoardID = "pub.mod.Library.Bookmarks"
}

// MARK: - Interface

public struct BookmarksDestination {
    public let activation: BoardActivation<BookmarksParameter>
    public let interaction: BoardInteraction<BookmarksCommand>

    public static let defaultIdentifier: BoardID = .pubBookmarks
}

extension ActivatableBoard {
    public func ioBookmarks(_ identifier: BoardID = BookmarksDestination.defaultIdentifier) -> BookmarksDestination {
        BookmarksDestination(
            activation: activation(identifier, with: BookmarksParameter.self),
            interaction: interaction(identifier, with: BookmarksCommand.self)
        )
    }
}

public struct BookmarksMainDestination {
    public let activation: MainboardActivation<BookmarksParameter>
    public let interaction: MainboardInteraction<BookmarksCommand>
    public let flow: FlowHandler<BookmarksOutput>

    public static let defaultIdentifier: BoardID = .pubBookmarks
}

extension MotherboardType where Self: FlowManageable {
    public func ioBookmarks(_ identifier: BoardID = BookmarksMainDestination.defaultIdentifier) -> BookmarksMainDestination {
        BookmarksMainDestination(
            activation: activation(identifier, with: BookmarksParameter.self),
            interaction: interaction(identifier, with: BookmarksCommand.self),
            flow: matchedFlow(identifier, with: BookmarksOutput.self)
        )
    }
}
