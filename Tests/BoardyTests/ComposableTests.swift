import Boardy
import BoardyTrace
import Foundation
import Testing

/// The board side of Boardy's Composable, headless: boards put elements to their composer, a
/// composable motherboard passes the actions to its interface, and a trace records each one.
@Suite("Composable boards, headless")
struct ComposableTests {
    /// An interface of our own that keeps what it is shown.
    final class Screen: NSObject, ComposableInterface {
        var composedElements: [UIElement] = []
        var elementSortRule: ((UIElement, UIElement) -> Bool)? { { $0.identifier < $1.identifier } }
        func composeInterface(elements: [UIElement]) { composedElements = elements }
    }

    /// Puts an element for itself, then removes its content when told.
    final class Headline: Board, ActivatableBoard {
        func activate(withOption option: Any?) {
            if option as? String == "remove" {
                putToComposer(elementAction: .removeContent(identifier: identifier.rawValue))
            } else {
                putToComposer(elementAction: .update(element: UIElement(identifier: identifier, contentViewController: NSObject(), configuration: option)))
            }
        }
    }

    final class Parent: ModernContinuableBoard, ActivatableBoard {
        func activate(withOption _: Any?) {}
    }

    @Test("element actions reach the connected interface, in its order; reload and removal keep the element's place")
    func composes() throws {
        let producer = BoardProducer()
        producer.registerBoard("b") { Headline(identifier: $0) }
        producer.registerBoard("a") { Headline(identifier: $0) }
        let parent = Parent(identifier: "parent", boardProducer: producer)
        let screen = Screen()
        let composable = parent.attachComposableMotherboard(to: screen)
        composable.activateBoard(identifier: "b", withOption: "first")
        composable.activateBoard(identifier: "a", withOption: nil)
        #expect(screen.composedElements.map(\.identifier) == ["a", "b"])
        #expect(screen.composedElements[1].configuration as? String == "first")
        let before = screen.composedElements[1]
        composable.activateBoard(identifier: "b", withOption: "remove")
        #expect(screen.composedElements.map(\.identifier) == ["a", "b"])
        #expect(screen.composedElements[1].contentViewController == nil)
        #expect(screen.composedElements[1] != before, "a new version")
        #expect(screen.attachedObjects().contains { $0 === composable as AnyObject })
    }

    @Test("a composition is recorded as the board's output, and the interface is not kept alive by its motherboard")
    func tracedAndWeak() throws {
        let recorder = TraceRecorder()
        let mb = ComposableMotherboard(boards: [Headline(identifier: "h")], runtime: BoardyRuntime(scheduler: VirtualScheduler(), observer: recorder))
        weak var weakScreen: Screen?
        do {
            let screen = Screen()
            weakScreen = screen
            mb.connect(to: screen)
            mb.activate("h")
            #expect(screen.composedElements.count == 1)
        }
        #expect(weakScreen == nil)
        mb.activate("h")
        let outputs = recorder.events.compactMap { e -> String? in
            if case let .outputSent(_, o) = e.body { return o.jsonText }
            return nil
        }
        #expect(outputs == [#"{"compose":"update","element":"h"}"#, #"{"compose":"update","element":"h"}"#])
    }
}

/// What a composable motherboard does with an activation its boards ask for.
@Suite("Composable motherboards and activation requests")
struct ComposableActivationTests {
    final class Counting: Board, ActivatableBoard {
        var activations = 0
        func activate(withOption _: Any?) { activations += 1 }
    }

    final class Host: ModernContinuableBoard, ActivatableBoard {
        func activate(withOption _: Any?) {}
    }

    @Test("a composable motherboard does not perform its boards' activation requests; the motherboard it was produced for does")
    func forwardsActivationUp() throws {
        let local = Counting(identifier: "target")
        let composable = ComposableMotherboard(boards: [local])
        composable.board(local, didSendData: BoardInput(target: "target", input: "value"))
        #expect(local.activations == 0)

        let host = Host(identifier: "host", boardProducer: BoardProducer())
        let parentMotherboard = Motherboard(boards: [host])
        let target = Counting(identifier: "target")
        parentMotherboard.installBoard(target)
        let child = try #require(BoardProducer().produceComposableMotherboard(identifier: "child", from: host) as? ComposableMotherboard)
        child.board(target, didSendData: BoardInput(target: "target", input: "value"))
        #expect(target.activations == 1)
    }
}

/// Mirrors of the 4 UIKit-free cases of Boardy's ComposableTests (1.63.1), each named after the
/// case it mirrors. They have no Linux control (Boardy's Composable needs UIComposable), so they
/// say what Boardy's cases check, not what a control run measured.
@Suite("Mirrors of Boardy's ComposableTests")
struct BoardyComposableMirrorTests {
    typealias Counting = ComposableActivationTests.Counting
    typealias Host = ComposableActivationTests.Host

    @Test("ComposableTests.testComposableMotherboardDoesNotRegisterTheActivationFlow")
    func noActivationFlow() {
        let composableTarget = Counting(identifier: "target")
        let composable = ComposableMotherboard(boards: [composableTarget])
        let plainTarget = Counting(identifier: "target")
        let plain = Motherboard(boards: [plainTarget])
        let request = BoardInput(target: BoardID("target"), input: "value")
        composable.board(composableTarget, didSendData: request)
        plain.board(plainTarget, didSendData: request)
        #expect(plainTarget.activations == 1, "a plain motherboard performs the request")
        #expect(composableTarget.activations == 0, "a composable one leaves it to its parent")
    }

    @Test("ComposableTests.testComposableMotherboardStillHandlesCompletion")
    func completionStillRemovesTheBoard() {
        let board = Counting(identifier: "panel")
        let motherboard = ComposableMotherboard(boards: [board])
        #expect(motherboard.boards.count == 1)
        board.complete()
        #expect(motherboard.boards.isEmpty)
    }

    @Test("ComposableTests.testProduceComposableMotherboardForwardsActionAndActivationToTheParent")
    func producedMotherboardForwardsToItsParent() throws {
        let host = Host(identifier: "host", boardProducer: BoardProducer())
        let parent = Motherboard(boards: [host])
        let target = Counting(identifier: "target")
        parent.installBoard(target)
        let child = try #require(BoardProducer().produceComposableMotherboard(identifier: "child", from: host) as? ComposableMotherboard)
        child.board(target, didSendData: BoardInput(target: BoardID("target"), input: "value"))
        #expect(target.activations == 1)
    }

    @Test("ComposableTests.testProduceComposableMotherboardWithoutAParentInstallsTheBuiltElements")
    func producedWithoutAParentInstallsWhatItBuilds() {
        let child = BoardProducer().produceComposableMotherboard(identifier: "child") { _ in
            [Counting(identifier: "a"), Counting(identifier: "b")]
        }
        #expect(child.boards.map(\.identifier) == ["a", "b"])
        #expect(child.identifier == "child")
    }
}
