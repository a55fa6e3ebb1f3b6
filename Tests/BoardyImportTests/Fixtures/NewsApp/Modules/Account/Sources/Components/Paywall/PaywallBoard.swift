//
//  PaywallBoard.swift
//  Account
//
//  Created by NewsApp on 2/12/24.
//
//

import AccountIO
import Boardy
import Foundation
import UIKit

protocol PaywallDelegate: AnyObject {
    func didSelect(productID: String)
    func didTapRestore()
    func paywallDidClose()
}

protocol PaywallBuildable {
    func build(withDelegate delegate: PaywallDelegate?, source: String?) -> UIViewController
}

struct PaywallBuilder: PaywallBuildable {
    func build(withDelegate delegate: PaywallDelegate?, source: String?) -> UIViewController {
        let viewController = PaywallViewController.instantiateFromStoryboard()
        viewController.delegate = delegate
        viewController.source = source
        return viewController
    }
}

/// Sells the subscription. Also the gate of premium stories: it completes(true) once the reader
/// is a subscriber, completes(false) when they close it.
final class PaywallBoard: ModernContinuableBoard, GuaranteedBoard, GuaranteedOutputSendingBoard {
    typealias InputType = PaywallInput
    typealias OutputType = PaywallOutput

    private let builder: PaywallBuildable

    init(identifier: BoardID, builder: PaywallBuildable, producer: ActivatableBoardProducer) {
        self.builder = builder
        super.init(identifier: identifier, boardProducer: producer)
        registerFlows()
    }

    func activate(withGuaranteedInput input: InputType) {
        if AccountSession.shared.currentUser?.isSubscriber == true {
            sendOutput(true)
            complete(true)
            return
        }

        let viewController = builder.build(withDelegate: self, source: input as? String)
        motherboard.putIntoContext(viewController)
        rootViewController.show(viewController) {
            $0.style = .defaultPresent
        }
    }
}

extension PaywallBoard: PaywallDelegate {
    func didSelect(productID: String) {
        motherboard.ioPurchase().activation.activate(with: .buy(productID))
    }

    func didTapRestore() {
        motherboard.ioPurchase().activation.activate(with: .restore)
    }

    func paywallDidClose() {
        sendOutput(false)
        complete(false)
    }
}

private extension PaywallBoard {
    func registerFlows() {
        motherboard.ioPurchase().flow.addTarget(self) { target, subscribed in
            target.rootViewController.returnHere()
            target.sendOutput(subscribed)
            target.complete(subscribed)
        }
    }
}
