import Boardy
import Testing

/// Mirrors of Boardy's GatewayBarrierTests (1.63.1), each named after the case it mirrors and
/// written from what the case checks: a gateway installed through `PluginLauncher`, resolved by
/// a `registerWithActivation` gate, bypassed by a board or by `.exempt`.
@Suite("Mirrors of Boardy's GatewayBarrierTests")
struct BoardyMirrorGatewayBarrierTests {
    /// Records every option it is activated with.
    final class Recorder: Board, ActivatableBoard {
        private(set) var options: [Any?] = []
        var activations: Int { options.count }
        func activate(withOption option: Any?) { options.append(option) }
    }

    /// Opts out of the gateway.
    final class Bypassing: Board, ActivatableBoard {
        private(set) var activations = 0
        func activate(withOption _: Any?) { activations += 1 }
        func shouldBypassGatewayBarrier() -> Bool { true }
    }

    /// A module that registers one board instance under its own id.
    final class OneBoardModule: ModulePlugin {
        let identifier: BoardID
        let board: any ActivatableBoard
        init(_ board: any ActivatableBoard) {
            identifier = board.identifier
            self.board = board
        }
        func apply(for main: any MainComponent) {
            main.producer.registerBoard(identifier) { [board] _ in board }
        }
    }

    @Test("GatewayBarrierTests.testGatewayActivatesBeforeDestinationBoard")
    func gateRunsFirst() {
        let destination = Recorder(identifier: "gated-destination")
        var destinationIdleWhenGateRan = false
        var destinationRanOnceGatePassed = false
        let launcher = PluginLauncher.with(options: .default)
            .install(plugin: OneBoardModule(destination))
            .install(gatewayBarrier: .registerWithActivation { barrier, _ in
                destinationIdleWhenGateRan = destination.activations == 0
                barrier.complete(true)
                destinationRanOnceGatePassed = destination.activations == 1
            })
            .instantiate { _ in }
        launcher.activateNow { $0.activateBoard(identifier: "gated-destination", withOption: "test") }
        #expect(destinationIdleWhenGateRan, "the gate runs before the destination")
        #expect(destinationRanOnceGatePassed, "the destination runs as soon as the gate completes")
        #expect(destination.activations == 1)
    }

    @Test("GatewayBarrierTests.testGateCompletingTrueActivatesDestinationWithOriginalOption")
    func passingGateKeepsTheOption() {
        let destination = Recorder(identifier: "gated-destination")
        let launcher = PluginLauncher.with(options: .default)
            .install(plugin: OneBoardModule(destination))
            .install(gatewayBarrier: .registerWithActivation { barrier, _ in barrier.complete(true) })
            .instantiate { _ in }
        launcher.activateNow { $0.activateBoard(identifier: "gated-destination", withOption: "original-option") }
        #expect(destination.activations == 1)
        #expect(destination.options.first as? String == "original-option")
    }

    @Test("GatewayBarrierTests.testGateCompletingFalseDoesNotActivateDestination")
    func failingGateBlocks() {
        let destination = Recorder(identifier: "blocked-destination")
        let launcher = PluginLauncher.with(options: .default)
            .install(plugin: OneBoardModule(destination))
            .install(gatewayBarrier: .registerWithActivation { barrier, _ in barrier.complete(false) })
            .instantiate { _ in }
        launcher.activateNow { $0.activateBoard(identifier: "blocked-destination", withOption: "blocked") }
        #expect(destination.activations == 0, "a gate completing false keeps the destination from running")
    }

    @Test("GatewayBarrierTests.testWithFlowRegistrationIsInvoked")
    func flowRegistrationRuns() {
        let destination = Recorder(identifier: "gated-destination")
        var registrations = 0
        var handedBarrier: (any GatewayBarrierBoard)?
        let launcher = PluginLauncher.with(options: .default)
            .install(plugin: OneBoardModule(destination))
            .install(
                gatewayBarrier: .registerWithActivation { barrier, _ in barrier.complete(true) }
                    .withFlowRegistration { barrier in
                        registrations += 1
                        handedBarrier = barrier
                    })
            .instantiate { _ in }
        launcher.activateNow { $0.activateBoard(identifier: "gated-destination", withOption: nil) }
        #expect(registrations > 0, "withFlowRegistration runs")
        #expect(handedBarrier != nil, "the flow registration is handed the barrier")
    }

    @Test("GatewayBarrierTests.testBarrierBoardRemovedAfterCompletion")
    func gateLeavesNothingBehind() {
        let destinationID: BoardID = "gated-destination"
        let launcher = PluginLauncher.with(options: .default)
            .install(plugin: OneBoardModule(Recorder(identifier: destinationID)))
            .install(gatewayBarrier: .registerWithActivation { barrier, _ in barrier.complete(true) })
            .instantiate { _ in }
        var captured: (any FlowMotherboard)?
        launcher.activateNow { mainboard in
            captured = mainboard
            mainboard.activateBoard(identifier: destinationID, withOption: nil)
        }
        let ids = (captured?.boards ?? []).map(\.identifier)
        #expect(!ids.contains(destinationID.gateway), "the gateway board leaves once the gate resolves")
        #expect(!ids.contains { $0.rawValue.contains("___PRIVATE_BARRIER___") }, "no private barrier board is left behind")
        #expect(ids == [destinationID], "only the destination stays installed")
    }

    @Test("GatewayBarrierTests.testBoardReturningTrueBypassesGateway")
    func bypassingBoardSkipsTheGate() {
        let board = Bypassing(identifier: "bypassing-destination")
        var gateRuns = 0
        let launcher = PluginLauncher.with(options: .default)
            .install(plugin: OneBoardModule(board))
            .install(gatewayBarrier: .registerWithActivation { barrier, _ in
                gateRuns += 1
                barrier.complete(true)
            })
            .instantiate { _ in }
        launcher.activateNow { $0.activateBoard(identifier: "bypassing-destination", withOption: "bypass") }
        #expect(gateRuns == 0, "the gate does not run for a board that bypasses it")
        #expect(board.activations == 1, "the bypassing board runs directly")
    }

    @Test("GatewayBarrierTests.testExemptRegistrationBypassesSpecificIdentifier")
    func exemptIdSkipsTheGate() {
        let exempt = Recorder(identifier: "exempt-destination")
        let gated = Recorder(identifier: "gated-destination")
        var gateRuns = 0
        let launcher = PluginLauncher.with(options: .default)
            .install(plugin: OneBoardModule(exempt))
            .install(plugin: OneBoardModule(gated))
            .install(gatewayBarrier: .exempt, for: "exempt-destination")
            .install(gatewayBarrier: .registerWithActivation { barrier, _ in
                gateRuns += 1
                barrier.complete(true)
            })
            .instantiate { _ in }
        launcher.activateNow { mainboard in
            mainboard.activateBoard(identifier: "exempt-destination", withOption: "exempt")
            mainboard.activateBoard(identifier: "gated-destination", withOption: "gated")
        }
        #expect(exempt.activations == 1)
        #expect(gated.activations == 1, "the gated board runs once the gate passes")
        #expect(gateRuns == 1, "the gate runs only for the board that is not exempt")
    }

    @Test("GatewayBarrierTests.testWildcardGatewayAppliesToNonSpecificIdentifiers")
    func gatewayForAllCoversTheRest() {
        let specific = Recorder(identifier: "specific-exempt")
        let first = Recorder(identifier: "wildcard-destination-1")
        let second = Recorder(identifier: "wildcard-destination-2")
        var gateRuns = 0
        let launcher = PluginLauncher.with(options: .default)
            .install(plugin: OneBoardModule(specific))
            .install(plugin: OneBoardModule(first))
            .install(plugin: OneBoardModule(second))
            .install(gatewayBarrier: .exempt, for: "specific-exempt")
            .install(gatewayBarrier: .registerWithActivation { barrier, _ in
                gateRuns += 1
                barrier.complete(true)
            })
            .instantiate { _ in }
        launcher.activateNow { mainboard in
            for id: BoardID in ["specific-exempt", "wildcard-destination-1", "wildcard-destination-2"] {
                mainboard.activateBoard(identifier: id, withOption: nil)
            }
        }
        #expect(specific.activations == 1)
        #expect(first.activations == 1)
        #expect(second.activations == 1)
        #expect(gateRuns == 2, "the gateway for every board gates both boards without an entry of their own")
    }
}
