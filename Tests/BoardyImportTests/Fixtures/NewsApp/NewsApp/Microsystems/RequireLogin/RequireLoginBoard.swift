//
//  RequireLoginBoard.swift
//  NewsApp
//
//  Created by NewsApp on 1/25/24.
//
//

import AccountIO
import Boardy
import Foundation
import UIKit

/// Opens its target once somebody is signed in: at once, or after the login.
final class RequireLoginBoard: ContinuousBoard, GuaranteedBoard {
    typealias InputType = BoardInputModel

    private let session: AccountSession

    private var pendingTarget: InputType?

    init(identifier: BoardID = .requireLogin,
         session: AccountSession,
         motherboard: FlowMotherboard) {
        self.session = session
        super.init(identifier: identifier, motherboard: motherboard)
        registerFlows()
    }

    func activate(withGuaranteedInput input: InputType) {
        if session.isLoggedIn {
            nextToBoard(model: input)
        } else {
            pendingTarget = input
            motherboard.ioLogin().activation.activate()
        }
    }

    private func registerFlows() {
        motherboard.ioLogin().flow.addTarget(self) { target, output in
            guard let user = output.user else {
                target.pendingTarget = nil
                target.complete(false)
                return
            }
            target.sendToMotherboard(data: user.displayName)
            target.activatePending()
        }
    }

    private func activatePending() {
        guard let pending = pendingTarget else { return }
        pendingTarget = nil
        nextToBoard(model: pending)
    }
}
