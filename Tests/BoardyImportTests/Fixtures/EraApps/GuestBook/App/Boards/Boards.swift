import Boardy
import UIKit

final class ComposeBoard: Board, GuaranteedBoard {
    typealias InputType = String
    typealias OutputType = String

    init() {
        super.init(identifier: .compose)
    }

    func activate(withGuaranteedInput draft: String) {
        sendToMotherboard(data: draft)
    }
}

final class SettingsBoard: Board, ActivatableBoard {
    init() {
        super.init(identifier: .settings)
    }

    func activate(withOption option: Any?) {
        nextToBoard(.help)
    }
}

final class HelpBoard: Board, ActivatableBoard {
    init() {
        super.init(identifier: .help)
    }

    func activate(withOption option: Any?) {}
}

/// Written for a screen that was never shipped: no motherboard holds one.
final class AboutBoard: Board, ActivatableBoard {
    init() {
        super.init(identifier: .about)
    }

    func activate(withOption option: Any?) {}
}

/// A banner: Boardy gives it a random id, since it is made without one.
final class BannerBoard: Board, ActivatableBoard {
    func activate(withOption option: Any?) {}
}
