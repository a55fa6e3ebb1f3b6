//
//  CommentsIOInterface.swift
//  FeedIO
//
//  Created by NewsApp on 2/6/24.
//
//

import Boardy
import Foundation

// MARK: - ID

extension BoardID {
    static let pubComments: BoardID = "pub.mod.Feed.Comments"
}

// MARK: - Interface

public struct CommentsDestination {
    public let activation: BoardActivation<CommentsParameter>
    public let interaction: BoardInteraction<CommentsCommand>

    public static let defaultIdentifier: BoardID = .pubComments
}

extension ActivatableBoard {
    public func ioComments(_ identifier: BoardID = CommentsDestination.defaultIdentifier) -> CommentsDestination {
        CommentsDestination(
            activation: activation(identifier, with: CommentsParameter.self),
            interaction: interaction(identifier, with: CommentsCommand.self)
        )
    }
}

public struct CommentsMainDestination {
    public let activation: MainboardActivation<CommentsParameter>
    public let interaction: MainboardInteraction<CommentsCommand>
    public let flow: FlowHandler<CommentsOutput>

    public static let defaultIdentifier: BoardID = .pubComments
}

extension MotherboardType where Self: FlowManageable {
    public func ioComments(_ identifier: BoardID = CommentsMainDestination.defaultIdentifier) -> CommentsMainDestination {
        CommentsMainDestination(
            activation: activation(identifier, with: CommentsParameter.self),
            interaction: interaction(identifier, with: CommentsCommand.self),
            flow: matchedFlow(identifier, with: CommentsOutput.self)
        )
    }
}
