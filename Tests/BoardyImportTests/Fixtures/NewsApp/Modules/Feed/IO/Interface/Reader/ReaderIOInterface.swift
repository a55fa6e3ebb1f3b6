//
//  ReaderIOInterface.swift
//  FeedIO
//
//  Created by NewsApp on 2/5/24.
//
//

import Boardy
import Foundation

// MARK: - ID

extension BoardID {
    static let pubReader: BoardID = "pub.mod.Feed.Reader"
}

// MARK: - Interface

public struct ReaderDestination {
    public let activation: BoardActivation<ReaderParameter>
    public let interaction: BoardInteraction<ReaderCommand>

    public static let defaultIdentifier: BoardID = .pubReader
}

extension ActivatableBoard {
    public func ioReader(_ identifier: BoardID = ReaderDestination.defaultIdentifier) -> ReaderDestination {
        ReaderDestination(
            activation: activation(identifier, with: ReaderParameter.self),
            interaction: interaction(identifier, with: ReaderCommand.self)
        )
    }
}

public struct ReaderMainDestination {
    public let activation: MainboardActivation<ReaderParameter>
    public let interaction: MainboardInteraction<ReaderCommand>
    public let flow: FlowHandler<ReaderOutput>

    public static let defaultIdentifier: BoardID = .pubReader
}

extension MotherboardType where Self: FlowManageable {
    public func ioReader(_ identifier: BoardID = ReaderMainDestination.defaultIdentifier) -> ReaderMainDestination {
        ReaderMainDestination(
            activation: activation(identifier, with: ReaderParameter.self),
            interaction: interaction(identifier, with: ReaderCommand.self),
            flow: matchedFlow(identifier, with: ReaderOutput.self)
        )
    }
}
