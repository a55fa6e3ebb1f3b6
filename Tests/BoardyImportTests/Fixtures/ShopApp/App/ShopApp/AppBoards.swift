//
//  AppBoards.swift
//  ShopApp
//

import Authentication
import Boardy
import Payment
import Shopping
import UIKit

extension BoardID {
    static let appPrefix = "pub.app"
    static let pubRoot: BoardID = "\(appPrefix).Root"
    static let pubHome: BoardID = "\(appPrefix).Home"
    static let pubSettings = BoardID("\(appPrefix).Settings")
    static let pubProfile: BoardID = "pub.app.Profile"
    static let pubOnboarding: BoardID = "pub.app.Onboarding"
    /// Declared, never registered: not a board.
    static let pubLegacyHome: BoardID = "pub.app.LegacyHome"
}

enum AppAction: BoardFlowAction {
    case loggedOut
    case openProfile
}

extension MotherboardType where Self: FlowManageable {
    func ioRoot(_ identifier: BoardID = .pubRoot) -> MainboardGenericDestination<Void, Void, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }

    func ioHome(_ identifier: BoardID = .pubHome) -> MainboardGenericDestination<Void, Void, Void, AppAction> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }

    func ioSettings(_ identifier: BoardID = .pubSettings) -> MainboardGenericDestination<Void, Void, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }

    func ioProfile(_ identifier: BoardID = .pubProfile) -> MainboardGenericDestination<Void, Void, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }

    func ioOnboarding(_ identifier: BoardID = .pubOnboarding) -> MainboardGenericDestination<Void, Bool, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }

    /// Never called: its default names a decoy.
    func ioLegacyHome(_ identifier: BoardID = .pubLegacyHome) -> MainboardGenericDestination<Void, Void, Void, Void> {
        MainboardGenericDestination(destinationID: identifier, mainboard: self)
    }
}

/// The app's root: a continuous board whose flows tie the modules together.
final class RootBoard: ModernContinuableBoard, GuaranteedBoard {
    typealias InputType = Void

    init(identifier: BoardID, producer: ActivatableBoardProducer) {
        super.init(identifier: identifier, boardProducer: producer)
        registerFlows()
    }

    func activate(withGuaranteedInput input: Void) {
        motherboard.ioOnboarding().activation.activate()
    }

    private func registerFlows() {
        motherboard.ioOnboarding().flow.addTarget(self) { target, finished in
            if finished {
                target.motherboard.ioHome().activation.activate()
            }
        }
        motherboard.ioLogin().flow.addTarget(self) { target, output in
            switch output {
            case .loggedIn:
                target.motherboard.ioHome().activation.activate()
            case .cancelled:
                target.motherboard.ioOnboarding().activation.activate()
            }
        }
        // Broadcast actions from any board below, matched by type.
        motherboard.registerGeneralFlow { (target: RootBoard, action: AppAction) in
            switch action {
            case .loggedOut:
                target.motherboard.ioLogin().activation.activate()
            case .openProfile:
                target.motherboard.ioProfile().activation.activate()
            }
        }
        motherboard.registerGeneralFlow(uniqueOutputType: AppLogoutAction.self) { [unowned self] _ in
            self.motherboard.ioLogin().activation.activate()
        }
        motherboard.registerFlowSteps(.pubCatalog ->> .pubProductDetail)
    }
}

final class HomeBoard: Board, GuaranteedBoard, GuaranteedActionSendingBoard {
    typealias InputType = Void
    typealias FlowActionType = AppAction

    private let router: HomeRouter

    init(identifier: BoardID) {
        router = HomeRouter()
        super.init(identifier: identifier)
    }

    func activate(withGuaranteedInput input: Void) {
        router.motherboard = motherboard
        motherboard.serviceMap.modShopping.ioCatalog.activation.activate()
    }

    func didTapSettings() {
        open(.pubSettings)
    }

    func didTapProfile() {
        broadcastAction(.openProfile)
    }

    func didTapOrders() {
        router.showHistory()
    }

    private func open(_ id: BoardID) {
        motherboard.ioSettings(id).activation.activate()
    }

    // func didTapWishlist() {
    //     motherboard.serviceMap.modShopping.ioWishlist.activation.activate()
    // }

    #if false
    func legacy() {
        motherboard.ioLegacyHome().activation.activate()
    }
    #endif
}

/// Not a board: its code runs for the boards that call it.
final class HomeRouter {
    weak var motherboard: FlowMotherboard?

    func showHistory() {
        motherboard?.ioHistory().activation.activate()
    }
}

final class SettingsBoard: Board, GuaranteedBoard, GuaranteedActionSendingBoard {
    typealias InputType = Void
    typealias FlowActionType = AppAction

    func activate(withGuaranteedInput input: Void) {}

    func didTapLogout() {
        motherboard.ioLogout().activation.activate()
    }

    func didTapDeepLink(_ url: URL) {
        // The target comes from data: unresolved, never guessed.
        let target = BoardID(rawValue: url.host ?? "")
        motherboard.ioSettings(target).activation.activate()
    }
}

final class ProfileBoard: Board, GuaranteedBoard {
    typealias InputType = Void

    func activate(withGuaranteedInput input: Void) {
        motherboard.ioWallet().activation.activate(with: .wait(.pubPayment))
    }
}

final class OnboardingBoard: Board, GuaranteedBoard, GuaranteedOutputSendingBoard {
    typealias InputType = Void
    typealias OutputType = Bool

    func activate(withGuaranteedInput input: Void) {
        sendOutput(true)
        complete(true)
    }
}

/// Never registered: its edges are not the app's.
final class UnusedBoard: Board, GuaranteedBoard {
    typealias InputType = Void

    func activate(withGuaranteedInput input: Void) {
        motherboard.ioPayment().activation.activate()
    }
}
