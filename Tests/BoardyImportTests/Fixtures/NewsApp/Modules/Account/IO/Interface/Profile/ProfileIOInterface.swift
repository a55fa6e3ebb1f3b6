//
//  ProfileIOInterface.swift
//  AccountIO
//
//  Created by NewsApp on 2/9/24.
//
//

import Boardy
import Foundation

// MARK: - ID

extension BoardID {
    static let pubProfile: BoardID = "pub.mod.Account.Profile"
}

// MARK: - Interface

public struct ProfileDestination {
    public let activation: BoardActivation<ProfileParameter>
    public let interaction: BoardInteraction<ProfileCommand>

    public static let defaultIdentifier: BoardID = .pubProfile
}

extension ActivatableBoard {
    public func ioProfile(_ identifier: BoardID = ProfileDestination.defaultIdentifier) -> ProfileDestination {
        ProfileDestination(
            activation: activation(identifier, with: ProfileParameter.self),
            interaction: interaction(identifier, with: ProfileCommand.self)
        )
    }
}

public struct ProfileMainDestination {
    public let activation: MainboardActivation<ProfileParameter>
    public let interaction: MainboardInteraction<ProfileCommand>
    public let flow: FlowHandler<ProfileOutput>

    public static let defaultIdentifier: BoardID = .pubProfile
}

extension MotherboardType where Self: FlowManageable {
    public func ioProfile(_ identifier: BoardID = ProfileMainDestination.defaultIdentifier) -> ProfileMainDestination {
        ProfileMainDestination(
            activation: activation(identifier, with: ProfileParameter.self),
            interaction: interaction(identifier, with: ProfileCommand.self),
            flow: matchedFlow(identifier, with: ProfileOutput.self)
        )
    }
}
