import Boardy
import Testing

/// Mirrors of Boardy's AdapterTests (1.63.1): an adapter board maps inputs to its destination's
/// and the destination's outputs back, and goes when its destination completes; named after the
/// case it mirrors and written from what it checks.
///
/// Boardy's destination sends from DispatchQueue.global().async and the test waits on an
/// expectation; a motherboard here is driven from one thread, so this destination sends at once.
@Suite("Mirrors of Boardy's AdapterTests")
struct BoardyMirrorAdapterTests {
    /// Takes a String and sends it back.
    final class Destination: Board, GuaranteedBoard, GuaranteedOutputSendingBoard {
        typealias InputType = String
        typealias OutputType = String
        func activate(withGuaranteedInput input: String) { sendOutput(input) }
    }

    @Test("AdapterTests.testAdapterBoard")
    func adapterBoard() {
        let destination = Destination(identifier: "board-to-test")
        let adapter = AdapterBoard<Destination, Int, Int>(
            destination: destination,
            inputMapper: { String($0) },
            outputMapper: { Int($0) ?? 0 }
        )
        let mb: any FlowMotherboard = Motherboard(boards: [adapter])

        var got: [Int] = []
        mb.matchedFlow("board-to-test", with: Int.self).handle { got.append($0) }
        mb.activation("board-to-test", with: Int.self).activate(with: 1)
        #expect(got == [1], "1 went in as \"1\" and came back out as 1")

        destination.complete(true)
        #expect(mb.boards.count == 0, "the destination's completion completes the adapter")
    }
}
