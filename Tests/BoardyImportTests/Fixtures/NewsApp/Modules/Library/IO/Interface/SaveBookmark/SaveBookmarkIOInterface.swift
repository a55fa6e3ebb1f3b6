//
//  SaveBookmarkIOInterface.swift
//  LibraryIO
//
//  Created by NewsApp on 2/14/24.
//
//

import Boardy
import Foundation

// MARK: - ID

extension BoardID {
    static let pubSaveBookmark: BoardID = "pub.mod.Library.SaveBookmark"
}

// MARK: - Interface

public struct SaveBookmarkMainDestination {
    public let activation: MainboardActivation<SaveBookmarkParameter>
    public let flow: FlowHandler<SaveBookmarkOutput>

    public static let defaultIdentifier: BoardID = .pubSaveBookmark
}

extension MotherboardType where Self: FlowManageable {
    public func ioSaveBookmark(_ identifier: BoardID = SaveBookmarkMainDestination.defaultIdentifier) -> SaveBookmarkMainDestination {
        SaveBookmarkMainDestination(
            activation: activation(identifier, with: SaveBookmarkParameter.self),
            flow: matchedFlow(identifier, with: SaveBookmarkOutput.self)
        )
    }
}
