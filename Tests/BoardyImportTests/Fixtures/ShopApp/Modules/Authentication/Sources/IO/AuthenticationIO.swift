//
//  AuthenticationIO.swift
//  Authentication
//

import Boardy
import Foundation

// MARK: - ID

public extension BoardID {
    static let authPrefix = "pub.mod.Authentication"
    static let pubLogin: BoardID = "\(authPrefix).Login"
    static let pubRegister: BoardID = "\(authPrefix).Register"
    static let pubAuthGate: BoardID = "\(authPrefix).AuthGate"
    static let pubLogout: BoardID = "pub.mod.Authentication.Logout"
    /// Declared, never registered.
    static let pubForgotPassword: BoardID = "pub.mod.Authentication.ForgotPassword"
}

// MARK: - Interface

public enum LoginOutput {
    case loggedIn
    case cancelled
}

public typealias LoginMainDestination = MainboardGenericDestination<Void, LoginOutput, Void, Void>

public extension MotherboardType where Self: FlowManageable {
    func ioLogin(_ identifier: BoardID = .pubLogin) -> LoginMainDestination {
        LoginMainDestination(destinationID: identifier, mainboard: self)
    }

    func ioRegister(_ identifier: BoardID = .pubRegister) -> MainboardGenericDestination<Void, Bool, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }

    func ioAuthGate(_ identifier: BoardID = .pubAuthGate) -> MainboardGenericDestination<Any?, Bool, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }

    func ioLogout(_ identifier: BoardID = .pubLogout) -> MainboardGenericDestination<Void, Void, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }

    func ioForgotPassword(_ identifier: BoardID = .pubForgotPassword) -> MainboardGenericDestination<Void, Void, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }
}
