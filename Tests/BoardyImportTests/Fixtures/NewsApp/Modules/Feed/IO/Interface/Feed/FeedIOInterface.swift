//
//  FeedIOInterface.swift
//  FeedIO
//
//  Created by NewsApp on 2/5/24.
//
//

import Boardy
import Foundation

// MARK: - ID

extension BoardID {
    static let pubFeed: BoardID = "pub.mod.Feed"
}

// MARK: - Interface

public struct FeedDestination {
    public let activation: BoardActivation<FeedParameter>
    public let interaction: BoardInteraction<FeedCommand>

    public static let defaultIdentifier: BoardID = .pubFeed
}

extension ActivatableBoard {
    public func ioFeed(_ identifier: BoardID = FeedDestination.defaultIdentifier) -> FeedDestination {
        FeedDestination(
            activation: activation(identifier, with: FeedParameter.self),
            interaction: interaction(identifier, with: FeedCommand.self)
        )
    }
}

public struct FeedMainDestination {
    public let activation: MainboardActivation<FeedParameter>
    public let interaction: MainboardInteraction<FeedCommand>
    public let flow: FlowHandler<FeedOutput>

    public static let defaultIdentifier: BoardID = .pubFeed
}

extension MotherboardType where Self: FlowManageable {
    public func ioFeed(_ identifier: BoardID = FeedMainDestination.defaultIdentifier) -> FeedMainDestination {
        FeedMainDestination(
            activation: activation(identifier, with: FeedParameter.self),
            interaction: interaction(identifier, with: FeedCommand.self),
            flow: matchedFlow(identifier, with: FeedOutput.self)
        )
    }
}
