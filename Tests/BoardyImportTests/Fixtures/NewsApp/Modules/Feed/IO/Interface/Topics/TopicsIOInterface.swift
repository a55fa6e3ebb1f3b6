//
//  TopicsIOInterface.swift
//  FeedIO
//
//  Created by NewsApp on 3/11/24.
//
//

import Boardy
import Foundation

// MARK: - ID

extension BoardID {
    static let pubTopics: BoardID = "pub.mod.Feed.Topics"
}

// MARK: - In & Out

public typealias TopicsInput = String?

public typealias TopicsOutput = String

public enum TopicsCommand {}

public typealias TopicsParameter = TopicsInput

// MARK: - Interface

public struct TopicsMainDestination {
    public let activation: MainboardActivation<TopicsParameter>
    public let interaction: MainboardInteraction<TopicsCommand>
    public let flow: FlowHandler<TopicsOutput>

    public static let defaultIdentifier: BoardID = .pubTopics
}

extension MotherboardType where Self: FlowManageable {
    public func ioTopics(_ identifier: BoardID = TopicsMainDestination.defaultIdentifier) -> TopicsMainDestination {
        TopicsMainDestination(
            activation: activation(identifier, with: TopicsParameter.self),
            interaction: interaction(identifier, with: TopicsCommand.self),
            flow: matchedFlow(identifier, with: TopicsOutput.self)
        )
    }
}
