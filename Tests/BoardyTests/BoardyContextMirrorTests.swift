// Boardy's tests call addBoard on the main thread. A Swift Testing test runs off it, where addBoard
// traps in a debug build as Boardy's does (TrapTests), so these call installBoard, which does not check.
//
import Boardy
import Foundation
import Testing

/// Mirrors of the nested-flow cases of Boardy's ContextTests (1.63.1), each named after the case
/// and written from what it checks. (`UIViewController()` there is only a context object: any
/// object does here.)
@Suite("Mirrors of Boardy's ContextTests (nested flows)")
struct BoardyContextMirrorTests {
    final class Context: NSObject {}

    /// Produces one id.
    final class SingleBoardProducer: ActivatableBoardProducer {
        let id: BoardID
        let factory: (BoardID) -> any ActivatableBoard
        init(id: BoardID, factory: @escaping (BoardID) -> any ActivatableBoard) {
            self.id = id
            self.factory = factory
        }
        func produceBoard(identifier: BoardID) -> (any ActivatableBoard)? { identifier == id ? factory(identifier) : nil }
    }

    final class Parent: ModernContinuableBoard, ActivatableBoard {
        func activate(withOption _: Any?) {}
    }

    final class Emitting: Board, GuaranteedBoard, GuaranteedOutputSendingBoard {
        typealias InputType = String
        typealias OutputType = String
        func activate(withGuaranteedInput input: String) { sendOutput(input) }
    }

    struct Raised: BoardFlowAction, Equatable { let payload: String }

    final class Raising: Board, ActivatableBoard {
        func activate(withOption option: Any?) {
            if let action = option as? any BoardFlowAction { sendFlowAction(action) }
        }
    }

    @Test("ContextTests.testMountBuildsSubMotherboardAndInstallsIntoContext")
    func mountPutsIntoContext() {
        let parent = Parent(identifier: "parent", boardProducer: NoBoardProducer())
        let context = Context()
        let sub = parent.mountContinuousMotherboard(to: context)
        #expect(sub.context === context)
    }

    @Test("ContextTests.testMountBuildOverloadReturnsCallersMotherboardType")
    func mountBuildKeepsTheType() {
        let parent = Parent(identifier: "parent", boardProducer: NoBoardProducer())
        let context = Context()
        let sub: Motherboard = parent.mountContinuousMotherboard(to: context) { Motherboard(identifier: "custom-sub", boardProducer: $0) }
        #expect(sub.identifier == "custom-sub")
        #expect(sub.context === context)
    }

    @Test("ContextTests.testAttachRetainsMotherboardOnContextUnlikeMount")
    func attachRetains() {
        let parent = Parent(identifier: "parent", boardProducer: NoBoardProducer())
        let (mountContext, attachContext) = (Context(), Context())
        let mounted = parent.mountContinuousMotherboard(to: mountContext)
        let attached = parent.attachContinuousMotherboard(to: attachContext)
        #expect(attachContext.attachedObjects().contains { $0 === attached as AnyObject })
        #expect(!mountContext.attachedObjects().contains { $0 === mounted as AnyObject })
    }

    @Test("ContextTests.testFlowRegisteredInsideSubMotherboardDoesNotFireOnParent")
    func subFlowsStayInside() {
        let top = Motherboard()
        let parent = Parent(identifier: "parent", boardProducer: SingleBoardProducer(id: "child") { Emitting(identifier: $0) })
        top.installBoard(parent)
        let sibling = Emitting(identifier: "sibling")
        top.installBoard(sibling)
        var fired = false
        let sub = parent.mountContinuousMotherboard(to: Context()) { sub in
            sub.registerGeneralFlow(uniqueOutputType: String.self) { _ in fired = true }
        }
        sibling.activate(withGuaranteedInput: "from outside")
        #expect(!fired, "a flow of the sub-motherboard does not hear boards outside it")
        sub.activateBoard(identifier: "child", withOption: "from inside")
        #expect(fired)
    }

    @Test("ContextTests.testFlowActionRaisedInSubMotherboardForwardsToParentBoard")
    func flowActionsGoUp() {
        let top = Motherboard()
        let parent = Parent(identifier: "parent", boardProducer: SingleBoardProducer(id: "child") { Raising(identifier: $0) })
        top.installBoard(parent)
        var received: [Raised] = []
        top.registerGeneralFlow(uniqueOutputType: Raised.self) { received.append($0) }
        let sub = parent.mountContinuousMotherboard(to: Context())
        sub.activateBoard(identifier: "child", withOption: Raised(payload: "up"))
        #expect(received == [Raised(payload: "up")])
    }
}
