import Boardy
import Testing

// Not mirrored:
// - ContextTests.testBoardResolvesRootViewControllerFromAWindowContext,
//   testBoardResolvesRootViewControllerFromAViewControllerContext,
//   testBoardResolvesTheEnclosingNavigationController, testBoardResolvesTheEnclosingTabBarController,
//   testInstallIntoRootViewControllerPutsBoardIntoThatContext, testInstallIntoWindowPutsBoardIntoThatContext:
//   UIKit (UIWindow, UIViewController, navigation and tab bar controllers).
// Mirrored elsewhere:
// - ContextTests.testRootViewControllerWithNoContextAssertsInDebug,
//   testGuaranteedBoardReportsMismatchedOptionInsteadOfSilentlyActivating: in
//   BoardyMirrorTrapTests.swift, with the other cases that catch a trap.
// - The five nested-flow cases (testMountBuildsSubMotherboardAndInstallsIntoContext and the four
//   after it) are mirrored in BoardyContextMirrorTests.swift.

/// Mirrors of Boardy's ContextTests (1.63.1) not mirrored elsewhere, named after the case and
/// written from what it checks.
@Suite("Mirrors of Boardy's ContextTests")
struct BoardyMirrorContextTests {
    /// Takes a String, and records nil when the option is missing or of another type.
    final class Dedicated: Board, DedicatedBoard {
        typealias InputType = String
        private(set) var received: [String?] = []
        func activate(withInput input: String?) { received.append(input) }
    }

    @Test("ContextTests.testDedicatedBoardReceivesNilOnMismatchedOptionWithoutTrapping")
    func dedicatedBoardGetsNil() {
        let board = Dedicated(identifier: "dedicated")
        board.activate(withOption: 42)
        #expect(board.received == [nil], "an Int for a String input arrives as nil, without a trap")
    }
}
