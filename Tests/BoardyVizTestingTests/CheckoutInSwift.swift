import Boardy
import BoardyComponentKit
import BoardyDispatch
import BoardyVizTesting

/// The checkout flow of `samples/checkout.json`, assembled in Swift with the engine's public API
/// (no scenario file): closure boards produced on demand, a continuous payment board with an
/// activation barrier, a task board, the gateway with its exemptions, Tealium dispatch.
enum CheckoutInSwift {
    /// What to change, for tests that expect a divergence.
    struct Variation {
        /// Seconds the ordering board takes before it sends "ordered" (the recorded run: 1).
        var orderingDelay: Int64 = 1
    }

    static func assemble(runtime: BoardyRuntime, variation: Variation = Variation()) -> ReplayTarget {
        let producer = BoardProducer()
        func add(_ id: BoardID, _ make: @escaping () -> any ActivatableBoard) {
            producer.add(registration: BoardRegistration(id) { _ in make() })
        }
        /// A board that sends `output` after `seconds` each time it is activated.
        func sender(_ id: BoardID, after seconds: Int64, _ output: String) -> ClosureBoard<Any?> {
            ClosureBoard<Any?>(identifier: id) { board, _ in
                board.schedule(after: .seconds(Int(seconds))) { board.sendOutput(JSONValue.string(output)) }
            }
        }
        add("pubWelcome") { sender("pubWelcome", after: 1, "start") }
        add("pubAuth") {
            ClosureBoard<Any?>(identifier: "pubAuth", bypassGateway: true) { board, _ in
                board.schedule(after: .seconds(2)) {
                    board.sendOutput(JSONValue.string("authenticated"))
                    board.complete(true)
                }
            }
        }
        add("pubShoppingCart") { sender("pubShoppingCart", after: 1, "checkout") }
        add("pubOrdering") { sender("pubOrdering", after: variation.orderingDelay, "ordered") }
        add("pubPayment") { Payment() }
        add("pubOtp") {
            ClosureBoard<Any?>(identifier: "pubOtp") { board, _ in board.schedule(after: .seconds(1)) { board.complete(true) } }
        }
        add("pubReceipt") { ClosureBoard<Any?>(identifier: "pubReceipt") { _, _ in } }

        let mainboard = Motherboard(identifier: "main", boardProducer: producer, runtime: runtime)
        mainboard.registerFlow(
            FlowRoute(source: "pubWelcome", trigger: .output(matches: { TraceValue.json($0) == "start" }), action: "activate", destination: "pubShoppingCart") {
                mb, _ in mb.activate("pubShoppingCart", with: JSONValue.string("cart-1"))
            })
        mainboard.registerFlowSteps("pubShoppingCart" ->> "pubOrdering")
        mainboard.registerFlowSteps("pubOrdering" ->> "pubPayment")
        mainboard.registerFlow(
            FlowRoute(source: "pubPayment", trigger: .output(matches: { TraceValue.json($0) == "success" }), action: "activate", destination: "pubReceipt") {
                mb, output in mb.activate("pubReceipt", with: TraceValue.json(output))
            })
        mainboard.install(
            gatewayBarrier: .gate(
                "pubAuth",
                resolveOn: { output in
                    switch TraceValue.json(output)?.stringValue {
                    case "authenticated": return true
                    case "cancelled": return false
                    default: return nil
                    }
                }))
        for id: BoardID in ["pubAuth", "pubWelcome", "pubOtp"] { mainboard.install(gatewayBarrier: .exempt, for: id) }

        // Tealium's JSON barrier settings, as an app would receive them.
        let settings: JSONValue = [
            "ConnectivityBarrier": ["barrier_id": "ConnectivityBarrier", "scopes": ["collect"], "configuration": ["wifi_only": true]],
            "BatchingBarrier": ["barrier_id": "BatchingBarrier", "scopes": ["all"], "configuration": ["batch_size": 2]],
        ]
        let dispatch = DispatchManager(
            runtime: runtime, dispatchers: [SimulatedDispatcher(id: "collect", dispatchLimit: 10)], settings: BarrierSettings.parse(settings))
        mainboard.trackOutputs(of: ["pubReceipt", "pubPayment"], into: dispatch)
        return ReplayTarget(mainboard: mainboard, dispatch: dispatch)
    }

    /// Payment: a continuous board behind the OTP gate; confirm ->> charge inside, the charge's
    /// result relayed out as "success".
    final class Payment: ContinuousBoard, ActivatableBoard {
        init() {
            let inner = BoardProducer()
            inner.add(
                registration: BoardRegistration("pubConfirm") { _ in
                    ClosureBoard<Any?>(identifier: "pubConfirm") { board, _ in
                        board.schedule(after: .seconds(1)) { board.sendOutput(JSONValue.string("confirmed")) }
                    }
                })
            inner.add(
                registration: BoardRegistration("taskCharge") { _ in
                    TaskBoard<Any?, JSONValue>(identifier: "taskCharge") { board, _, completion in
                        board.schedule(after: .seconds(2)) { completion(.success("charged")) }
                    }
                })
            super.init(identifier: "pubPayment", boardProducer: inner)
            continuousMotherboard.registerFlowSteps("pubConfirm" ->> "taskCharge")
            continuousMotherboard.registerFlow(
                FlowRoute(source: "taskCharge", trigger: .output(matches: { TraceValue.json($0) == "charged" }), action: "relay") {
                    [weak self] _, _ in self?.sendOutput(JSONValue.string("success"))
                })
        }

        func activate(withOption option: Any?) { continuousMotherboard.activate("pubConfirm", with: nil) }

        func activationBarrier(withOption option: Any?) -> ActivationBarrier? {
            ActivationBarrier(gate: "pubOtp", scope: .mainboard, option: .void)
        }
    }
}

