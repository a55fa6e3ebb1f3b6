import CwlPreconditionTesting
import Foundation
import Testing

/// The trap catcher behind our `CwlPreconditionTesting`: what Boardy's trap tests rely on.
@Suite struct TrapCatcherTests {
    // @unchecked Sendable: written only by the guarded block, on the catcher's thread, and read
    // after `catchBadInstruction` returns, which joins that thread (a happens-before edge).
    final class Flags: @unchecked Sendable {
        var entered = false
        var finished = false
    }

    @Test func aBlockThatReturnsIsNotATrap() {
        let flags = Flags()
        let caught = catchBadInstruction {
            flags.entered = true
            flags.finished = true
        }
        #expect(caught == nil)
        #expect(flags.entered && flags.finished)
    }

    @Test func anAssertionFailureInADebugBuildIsCaughtWhereItStood() {
        let flags = Flags()
        let caught = catchBadInstruction {
            flags.entered = true
            Self.failAssertion()
            flags.finished = true
        }
        #if DEBUG
            #expect(caught != nil)
            #expect(flags.entered && !flags.finished)
        #else
            #expect(caught == nil)
            #expect(flags.finished)
        #endif
    }

    @Test func aPreconditionFailureIsCaughtInEveryBuild() {
        let flags = Flags()
        let caught = catchBadInstruction {
            flags.entered = true
            Self.failPrecondition(flags)
            flags.finished = true
        }
        #expect(caught != nil)
        #expect(flags.entered && !flags.finished)
    }

    @Test func catchesOneAfterAnother() {
        for _ in 0..<3 {
            #expect(catchBadInstruction { Self.failPrecondition(Flags()) } != nil)
            #expect(catchBadInstruction {} == nil)
        }
    }

    // Not inlined into the closure, so the trap is the library's kind, not the optimizer's.
    @inline(never) static func failAssertion() { assertionFailure("expected by the test") }
    @inline(never) static func failPrecondition(_ flags: Flags) {
        if !flags.finished { preconditionFailure("expected by the test") }
    }
}
