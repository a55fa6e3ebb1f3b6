import Boardy
import UIKit

protocol WelcomeDelegate: AnyObject {
    func didTapSignIn()
    func didTapGuest()
}

final class WelcomeBoard: Board, ActivatableBoard {
    init() {
        super.init(identifier: .welcome)
    }

    func activate(withOption option: Any?) {
        let controller = WelcomeViewController()
        controller.delegate = self
        rootViewController.show(controller, sender: nil)
    }
}

extension WelcomeBoard: WelcomeDelegate {
    func didTapSignIn() {
        nextToBoard(.signIn)
    }

    func didTapGuest() {
        nextToBoard(.entries(owner: "guest"))
    }
}

final class WelcomeViewController: UIViewController {
    weak var delegate: WelcomeDelegate?
}
