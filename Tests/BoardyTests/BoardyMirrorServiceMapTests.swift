// Boardy's tests call addBoard on the main thread. A Swift Testing test runs off it, where addBoard
// traps in a debug build as Boardy's does (TrapTests), so these call installBoard, which does not check.
//
import Boardy
import Testing

// Mirrored elsewhere:
// - ServiceMapTests.testUninstalledBoardServiceMapTrapsWithPrecondition: in
//   BoardyMirrorTrapTests.swift, with the other cases that catch a trap.

/// Mirrors of Boardy's ServiceMapTests (1.63.1), each named after the case it mirrors and written
/// from what the case checks: a service map's motherboard, module maps linked from it, and
/// `BoardContainer.registerBoards`.
@Suite("Mirrors of Boardy's ServiceMapTests")
struct BoardyMirrorServiceMapTests {
    /// Two module maps, as an app's modules declare them.
    final class FirstModuleMap: ServiceMap {}
    final class SecondModuleMap: ServiceMap {}

    final class Stub: Board, ActivatableBoard {
        func activate(withOption _: Any?) {}
    }

    @Test("ServiceMapTests.testMotherboardServiceMapExposesThatMotherboard")
    func motherboardMap() {
        let motherboard = Motherboard()
        #expect(motherboard.serviceMap.mainboard === motherboard)
    }

    @Test("ServiceMapTests.testInstalledBoardServiceMapReachesTheMotherboard")
    func installedBoardMap() {
        let motherboard = Motherboard()
        let board = Stub(identifier: "alpha")
        motherboard.installBoard(board)
        #expect(board.serviceMap.mainboard === motherboard, "an installed board's map is over its motherboard")
    }

    @Test("ServiceMapTests.testLinkedModuleMapSharesTheParentMotherboard")
    func linkedMapSharesTheMotherboard() {
        let motherboard = Motherboard()
        let parent = motherboard.serviceMap
        let linked = parent.mirrorFirstModule
        #expect(linked.mainboard === parent.mainboard)
        #expect(linked.mainboard === motherboard)
    }

    @Test("ServiceMapTests.testSubclassAccessorReturnsDestinationWithExpectedIdentifier")
    func moduleAccessorNamesItsBoard() {
        let motherboard = Motherboard()
        #expect(motherboard.serviceMap.mirrorFirstModule.ioFirst.destinationID == "alpha")
    }

    @Test("ServiceMapTests.testTwoModuleMapsLinkedFromSameServiceMapShareTheMotherboard")
    func twoModuleMapsShareTheMotherboard() {
        let motherboard = Motherboard()
        let parent = motherboard.serviceMap
        let first = parent.mirrorFirstModule
        let second = parent.mirrorSecondModule
        #expect(first.mainboard === second.mainboard)
        #expect(first.mainboard === motherboard)
        #expect(second.mainboard === motherboard)
        #expect(second.ioSecond.destinationID == "beta")
    }

    @Test("ServiceMapTests.testLinkReturnsFreshInstanceEachCallSharingMainboard")
    func linkMakesANewMapEachTime() {
        let motherboard = Motherboard()
        let first = motherboard.serviceMap.mirrorFirstModule
        let second = motherboard.serviceMap.mirrorFirstModule
        #expect(first !== second, "link() makes a new map on each call")
        #expect(first.mainboard === second.mainboard)
        #expect(first.mainboard === motherboard)
    }

    @Test("ServiceMapTests.testRegisterBoardsSharesOneFactoryAcrossIdentifiers")
    func registerBoardsSharesAFactory() {
        let container = BoardContainer()
        container.registerBoards("alpha", "beta", "gamma") { Stub(identifier: $0) }
        #expect(container.produceBoard(identifier: "alpha") != nil)
        #expect(container.produceBoard(identifier: "beta") != nil)
        #expect(container.produceBoard(identifier: "gamma") != nil)
    }

    @Test("ServiceMapTests.testRegisterBoardsProducesDistinctInstancesPerIdentifier")
    func registerBoardsMakesOneBoardPerID() throws {
        let container = BoardContainer()
        container.registerBoards("alpha", "beta") { Stub(identifier: $0) }
        let alpha = try #require(container.produceBoard(identifier: "alpha") as? Stub)
        let beta = try #require(container.produceBoard(identifier: "beta") as? Stub)
        #expect(alpha.identifier == "alpha")
        #expect(beta.identifier == "beta")
        #expect(alpha !== beta)
    }

    @Test("ServiceMapTests.testRegisterBoardsVariadicAndArrayFormsAgree")
    func variadicAndArrayAgree() {
        let ids: [BoardID] = ["alpha", "beta", "gamma"]
        let variadic = BoardContainer()
        variadic.registerBoards("alpha", "beta", "gamma") { Stub(identifier: $0) }
        let array = BoardContainer()
        array.registerBoards(ids) { Stub(identifier: $0) }
        for id in ids {
            #expect(variadic.produceBoard(identifier: id)?.identifier == array.produceBoard(identifier: id)?.identifier, "\(id)")
            #expect(variadic.produceBoard(identifier: id)?.identifier == id)
        }
        #expect(variadic.produceBoard(identifier: "delta") == nil, "nothing it was not given is registered")
        #expect(array.produceBoard(identifier: "delta") == nil)
    }
}

// Module accessors, as an app declares them on its service maps (extensions cannot be nested in
// the suite).
extension ServiceMap {
    fileprivate var mirrorFirstModule: BoardyMirrorServiceMapTests.FirstModuleMap { link() }
    fileprivate var mirrorSecondModule: BoardyMirrorServiceMapTests.SecondModuleMap { link() }
}

extension BoardyMirrorServiceMapTests.FirstModuleMap {
    fileprivate var ioFirst: MainboardDestination { mainboard.ioDestination("alpha") }
}

extension BoardyMirrorServiceMapTests.SecondModuleMap {
    fileprivate var ioSecond: MainboardDestination { mainboard.ioDestination("beta") }
}
