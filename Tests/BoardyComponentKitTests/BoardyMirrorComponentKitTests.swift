import Boardy
import Testing

// Not mirrored (UIKit: they present a UIAlertController in a window):
// - ComponentKitTests.test_alertBoard_presentsAlertControllerWithAlertStyle,
//   test_alertBoard_presentsAlertControllerWithActionSheetStyle, test_alertBoard_actionsHaveMatchingTitles,
//   test_alertBoard_preferredActionSetWhenShouldBePreferredIsTrue, test_activateAlert_installsAndPresentsAlert.

/// Mirrors of Boardy's ComponentKitTests (1.63.1), each named after the case it mirrors and
/// written from what the case checks: FlowBoard's closures and gateway bypass, and AlertAction's
/// handlers.
@Suite("Mirrors of Boardy's ComponentKitTests")
struct BoardyMirrorComponentKitTests {
    enum Action: BoardFlowAction {
        case activated
        case interacted
    }

    struct In { let value: String }
    struct Out { let result: String }
    struct Command { let name: String }

    typealias Flow = FlowBoard<In, Out, Command, Action>

    static func flow(
        bypass: Bool? = nil, registration: @escaping Flow.FlowRegistration = { _ in }, activation: @escaping Flow.FlowActivation = { _, _ in },
        interaction: @escaping Flow.FlowInteraction = { _, _ in }
    ) -> Flow {
        if let bypass {
            return Flow(
                identifier: "test-flow", producer: BoardProducer(), allowBypassGatewayBarrier: bypass, flowRegistration: registration,
                flowActivation: activation, flowInteraction: interaction)
        }
        return Flow(
            identifier: "test-flow", producer: BoardProducer(), flowRegistration: registration, flowActivation: activation,
            flowInteraction: interaction)
    }

    @Test("ComponentKitTests.test_flowRegistration_closureRunsDuringInitAndFlowsAreLive")
    func registrationRunsInInit() {
        var registeredWith: Flow?
        let board = Self.flow(registration: { board in
            registeredWith = board
            board.motherboard.registerGeneralFlow { (_: Out) in }
        })
        #expect(registeredWith != nil, "the registration closure runs while the board is made")
        #expect(registeredWith === board)
        #expect(registeredWith?.identifier == "test-flow")
        #expect(!board.motherboard.flows.isEmpty, "the flows it registers are live")
    }

    @Test("ComponentKitTests.test_flowActivation_receivesBoardAndTypedInput")
    func activationGetsBoardAndInput() {
        var got: (board: Flow, input: In)?
        let board = Self.flow(activation: { got = ($0, $1) })
        board.activate(withGuaranteedInput: In(value: "test-input"))
        #expect(got?.board === board)
        #expect(got?.board.identifier == "test-flow")
        #expect(got?.input.value == "test-input")
    }

    @Test("ComponentKitTests.test_flowInteraction_receivesTypedCommand")
    func interactionGetsBoardAndCommand() {
        var got: (board: Flow, command: Command)?
        let board = Self.flow(interaction: { got = ($0, $1) })
        board.interact(guaranteedCommand: Command(name: "test-command"))
        #expect(got?.board === board)
        #expect(got?.board.identifier == "test-flow")
        #expect(got?.command.name == "test-command")
    }

    @Test("ComponentKitTests.test_shouldBypassGatewayBarrier_returnsTrueByDefault")
    func bypassesByDefault() {
        #expect(Self.flow().shouldBypassGatewayBarrier())
    }

    @Test("ComponentKitTests.test_shouldBypassGatewayBarrier_returnsFalseWhenSetToFalse")
    func bypassOff() {
        #expect(!Self.flow(bypass: false).shouldBypassGatewayBarrier())
    }

    @Test("ComponentKitTests.test_shouldBypassGatewayBarrier_returnsTrueWhenSetToTrue")
    func bypassOn() {
        #expect(Self.flow(bypass: true).shouldBypassGatewayBarrier())
    }

    @Test("ComponentKitTests.test_alertAction_handlerRunsWhenInvoked")
    func alertActionHandlerRuns() {
        var runs = 0
        let action = AlertAction(title: "Test", handler: { runs += 1 })
        action.handler?()
        #expect(runs == 1)
    }

    @Test("ComponentKitTests.test_alertAction_targetBasedInit_holdsTargetWeakly")
    func alertActionTargetIsWeak() {
        final class Target {
            var calls = 0
            func handle() { calls += 1 }
        }
        var closureRuns = 0
        var target: Target? = Target()
        weak let released = target
        let action = AlertAction(title: "Test", target: target!) { (t: Target) in
            closureRuns += 1
            t.handle()
        }
        action.handler?()
        #expect(closureRuns == 1, "the handler runs while the target lives")
        #expect(target?.calls == 1)
        target = nil
        #expect(released == nil, "the action does not keep its target alive")
        action.handler?()
        #expect(closureRuns == 1, "once the target is gone the handler is skipped")
    }
}
