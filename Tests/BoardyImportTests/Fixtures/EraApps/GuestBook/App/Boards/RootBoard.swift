import Boardy
import UIKit

final class RootBoard: Board, GuaranteedBoard {
    typealias InputType = Void

    private let mainboard: AppMotherboard

    init(mainboard: AppMotherboard) {
        self.mainboard = mainboard
        super.init(identifier: .root)
    }

    func activate(withGuaranteedInput input: Void) {
        mainboard.activateBoard(.welcome)
    }

    /// Left from an older menu; nothing calls it.
    private func openSettingsDirectly() {
        mainboard.activateBoard(.settings)
    }
}
