import Boardy
import UIKit

/// The guest book itself: its own motherboard holds the boards it opens.
final class EntriesBoard: ContinuousBoard, GuaranteedBoard {
    typealias InputType = String

    init() {
        super.init(identifier: .entries, motherboard: Motherboard(boards: [ComposeBoard(), SettingsBoard()]))
        motherboard.installBoard(HelpBoard())
        motherboard.registerGuaranteedFlow(matchedIdentifiers: .compose, target: self, uniqueOutputType: String.self) { target, text in
            target.append(text)
        }
    }

    func activate(withGuaranteedInput owner: String) {
        motherboard.activateBoard(.compose(draft: "Hello from \(owner)"))
    }

    func append(_ text: String) {}

    func showSettings() {
        motherboard.activateBoard(.settings)
    }
}
