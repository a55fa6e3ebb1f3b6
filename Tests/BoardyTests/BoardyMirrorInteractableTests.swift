import Boardy
import Testing

/// Mirrors of Boardy's InteractableTests (1.63.1): a command reaches an interactable board
/// whether the motherboard or a sibling board sends it, named after the case it mirrors and
/// written from what it checks.
@Suite("Mirrors of Boardy's InteractableTests")
struct BoardyMirrorInteractableTests {
    /// Keeps the last command it was sent.
    final class Listener: Board, ActivatableBoard, InteractableBoard {
        private(set) var lastCommand: Any?
        func activate(withOption _: Any?) {}
        func interact(command: Any?) { lastCommand = command }
    }

    /// A sibling that sends commands through the motherboard.
    final class Sibling: Board, ActivatableBoard {
        func activate(withOption _: Any?) { sendToMotherboard() }
    }

    @Test("InteractableTests.testInteractableBoard")
    func interactableBoard() {
        let listener = Listener(identifier: "board-to-test")
        let sibling = Sibling(identifier: "other-board")
        let mb: any FlowMotherboard = Motherboard(boards: [listener, sibling])

        mb.interaction("board-to-test").send(command: "COMMAND")
        #expect(listener.lastCommand as? String == "COMMAND", "from the motherboard")

        sibling.interaction("board-to-test").send(command: "OTHER")
        #expect(listener.lastCommand as? String == "OTHER", "from a sibling, through the motherboard")
    }
}
