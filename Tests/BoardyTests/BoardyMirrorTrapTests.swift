import Boardy
import CwlPreconditionTesting
import Foundation
import Testing

/// Mirrors of Boardy's five CwlPreconditionTesting cases (1.63.1), each named after the case it
/// mirrors and catching the trap with our `CwlPreconditionTesting` (POSIX signals; Boardy's own
/// catcher needs Mach exceptions). The assertion cases trap in a debug build only, as Boardy's do;
/// the precondition traps in every build.
@Suite("Mirrors of Boardy's trap cases (CwlPreconditionTesting)")
struct BoardyMirrorTrapTests {
    /// Written by the guarded block and read after it (the block runs on a thread of its own
    /// while the test waits).
    // @unchecked Sendable: written only by the guarded block, on the catcher's thread, and read
    // after `catchBadInstruction` returns, which joins that thread (a happens-before edge).
    final class Flags: @unchecked Sendable {
        var called = false
        var passed = false
    }

    final class Sender: Board, ActivatableBoard {
        func activate(withOption _: Any?) {}
    }

    final class TypedGuaranteedBoard: Board, GuaranteedBoard {
        typealias InputType = String
        private(set) var receivedInputs: [String] = []
        func activate(withGuaranteedInput input: String) { receivedInputs.append(input) }
    }

    final class Owner {}

    @Test("FlowTests.test_guaranteedFlow")
    func guaranteedFlow() throws {
        let board = Sender(identifier: "test")
        let mb = Motherboard(boards: [board])
        let owner = Owner()
        var result: (Owner, String)?
        mb.registerGuaranteedFlow(matchedIdentifiers: ["test"], target: owner, uniqueOutputType: String.self) { result = ($0, $1) }
        board.sendToMotherboard(data: "text")
        let valid = try #require(result)
        #expect(valid.0 === owner && valid.1 == "text")

        let flags = Flags()
        let caught = catchBadInstruction {
            flags.called = true
            board.sendToMotherboard()
            flags.passed = true
        }
        #if DEBUG
            #expect(caught != nil, "nil for a String flow traps")
            #expect(flags.called && !flags.passed)
        #else
            #expect(caught == nil && flags.passed)
        #endif
    }

    @Test("FlowPrimitiveTests.testDoNextWithMismatchedNonSilentType_trapsOnAssertionFailure")
    func mismatchedNonSilentTypeTraps() {
        let flow = IDGenericBoardFlow<String>(matchedBoardIDs: ["a"]) { _ in }
        let flags = Flags()
        let caught = catchBadInstruction {
            flags.called = true
            flow.doNext(with: OutputModel(identifier: "a", data: 42))
        }
        #if DEBUG
            #expect(caught != nil, "an Int for a String flow traps")
        #else
            #expect(caught == nil)
        #endif
        #expect(flags.called)
    }

    @Test("ServiceMapTests.testUninstalledBoardServiceMapTrapsWithPrecondition")
    func uninstalledServiceMapTraps() {
        let orphan = Sender(identifier: "orphan")
        let flags = Flags()
        let caught = catchBadInstruction {
            flags.called = true
            _ = orphan.serviceMap
        }
        #expect(caught != nil, "a precondition: every build traps")
        #expect(flags.called)
    }

    @Test("ContextTests.testRootViewControllerWithNoContextAssertsInDebug")
    func rootViewControllerWithoutContextTraps() {
        let board = Sender(identifier: "board")
        let flags = Flags()
        let caught = catchBadInstruction {
            flags.called = true
            _ = board.rootViewController
        }
        #if DEBUG
            #expect(caught != nil)
        #else
            #expect(caught == nil)
        #endif
        #expect(flags.called)
    }

    @Test("ContextTests.testGuaranteedBoardReportsMismatchedOptionInsteadOfSilentlyActivating")
    func guaranteedBoardMismatchTraps() {
        let board = TypedGuaranteedBoard(identifier: "guaranteed")
        let flags = Flags()
        let caught = catchBadInstruction {
            flags.called = true
            board.activate(withOption: 42)
        }
        #if DEBUG
            #expect(caught != nil)
        #else
            #expect(caught == nil)
        #endif
        #expect(flags.called)
        #expect(board.receivedInputs.isEmpty)
    }
}
