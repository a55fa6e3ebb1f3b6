import Boardy
import Testing

// Not mirrored:
// - BarrierTests.testConfigurePopoverAnchorsActionSheetToSourceView,
//   testConfigurePopoverLeavesAlertWithoutPopoverConfiguration: UIKit (UIAlertController's popover).
// - BarrierTests.testBarrierBoardCancelDropsQueuedProcessesWithoutRunningThem is mirrored in
//   BoardyMirrorTests.swift.

/// Mirrors of Boardy's BarrierTests (1.63.1), each named after the case it mirrors and written
/// from what the case checks. Boardy's required board sends its output from
/// `DispatchQueue.main.async`; here it sends it during its activation.
@Suite("Mirrors of Boardy's BarrierTests")
struct BoardyMirrorBarrierTests {
    /// Sends its Int input as a String.
    final class Required: Board, GuaranteedBoard, GuaranteedOutputSendingBoard {
        typealias InputType = Int
        typealias OutputType = String
        func activate(withGuaranteedInput input: Int) { sendOutput(String(input)) }
    }

    /// Keeps the last option it got.
    final class Client: Board, ActivatableBoard {
        private(set) var input: Any?
        func activate(withOption option: Any?) { input = option }
    }

    @Test("BarrierTests.testBarrierBoard")
    func waitersRunWhenOvercome() {
        let clients = ["client-1", "client-2", "client-3"].map { Client(identifier: BoardID($0)) }
        let barrier = BarrierBoard<String>(identifier: "barrier")
        let motherboard: any FlowMotherboard = Motherboard(boards: [Required(identifier: "required-board")] + clients + [barrier])
        for client in clients {
            motherboard.activation("barrier", with: BarrierBoard<String>.Action.self).activate(with: .wait { [unowned motherboard] value in
                motherboard.activateBoard(identifier: client.identifier, withOption: value)
            })
        }
        motherboard.matchedFlow("required-board", with: String.self).addTarget(motherboard) { mainboard, value in
            mainboard.activation("barrier", with: BarrierBoard<String>.Action.self).activate(with: .overcome(value))
        }
        var outputs = 0
        motherboard.matchedFlow("required-board").handle { _ in outputs += 1 }
        #expect(motherboard.boards.count == 5, "four boards and the barrier")
        motherboard.activateBoard(identifier: "required-board", withOption: 123)
        #expect(outputs == 1)
        for client in clients { #expect(client.input as? String == "123", "\(client.identifier)") }
        #expect(motherboard.boards.count == 4, "the barrier leaves once overcome")
    }

    @Test("BarrierTests.testMissingGatewayDoesNotInstallPhantomBarrier")
    func noGatewayNoBarrier() {
        let client = Client(identifier: "client")
        let motherboard = Motherboard(boards: [client])
        motherboard.activateBoard(identifier: "client", withOption: "value")
        #expect(client.input as? String == "value")
        #expect(motherboard.boards.count == 1)
        #expect(motherboard.boards.first === client, "nothing but the board is installed")
    }
}
