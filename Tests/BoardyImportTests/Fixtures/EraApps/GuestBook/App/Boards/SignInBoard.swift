import Boardy
import UIKit

final class SignInBoard: Board, GuaranteedBoard {
    typealias InputType = Any?

    init(identifier: BoardID = .signIn) {
        super.init(identifier: identifier)
    }

    func activate(withGuaranteedInput input: Any?) {
        let controller = SignInViewController()
        controller.onSignedIn = { [weak self] name in
            self?.nextToBoard(.entries(owner: name))
        }
        rootViewController.present(controller, animated: true)
    }
}

final class SignInViewController: UIViewController {
    var onSignedIn: ((String) -> Void)?
}
