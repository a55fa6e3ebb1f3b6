//
//  LoginBoard.swift
//  Authentication
//

import Boardy
import Foundation
import UIKit

extension BoardID {
    static let modOTP: BoardID = "mod.Authentication.OTP"
    static let modCaptcha: BoardID = "mod.Authentication.Captcha"
    static let modSession: BoardID = "mod.Authentication.Session"
    static let modTokenRefresh: BoardID = "mod.Authentication.TokenRefresh"
}

extension MotherboardType where Self: FlowManageable {
    func ioOTP(_ identifier: BoardID = .modOTP) -> MainboardGenericDestination<String, Bool, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }

    func ioCaptcha(_ identifier: BoardID = .modCaptcha) -> MainboardGenericDestination<Void, Bool, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }

    func ioSession(_ identifier: BoardID = .modSession) -> MainboardGenericDestination<SessionParameter, String, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }

    func ioTokenRefresh(_ identifier: BoardID = .modTokenRefresh) -> MainboardGenericDestination<TokenRefreshParameter, String, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }
}

protocol LoginDelegate: AnyObject {
    func didSubmit(phone: String)
    func didTapRegister()
}

final class LoginBoard: ModernContinuableBoard, GuaranteedBoard, GuaranteedOutputSendingBoard {
    typealias InputType = Void
    typealias OutputType = LoginOutput

    init(identifier: BoardID, producer: ActivatableBoardProducer) {
        super.init(identifier: identifier, boardProducer: producer)
        registerFlows()
    }

    func activate(withGuaranteedInput input: Void) {
        motherboard.ioCaptcha().activation.activate()
    }

    private func registerFlows() {
        motherboard.ioOTP().flow.addTarget(self) { target, verified in
            target.motherboard.ioSession().activation.activate(with: SessionParameter(verified: verified))
        }
        motherboard.ioSession().flow.addTarget(self) { target, _ in
            target.sendOutput(.loggedIn)
            target.complete(true)
        }
    }
}

extension LoginBoard: LoginDelegate {
    func didSubmit(phone: String) {
        // A completion closure handed as input: runs for the board that holds it.
        motherboard.ioTokenRefresh().activation.activate(with: TokenRefreshParameter(input: phone, onSuccess: { [weak self] _ in
            self?.motherboard.ioOTP().activation.activate(with: phone)
        }))
    }

    func didTapRegister() {
        motherboard.serviceMap.modAuthentication.ioRegister.activation.activate()
    }
}
