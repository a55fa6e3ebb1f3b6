import Boardy

/// The README's checkout flow in Swift: shopping cart → ordering → payment, where payment is a
/// continuous board (confirm → charge inside) that relays its result out, and a receipt follows.
/// Every delay runs on the virtual clock, so the trace is the same on every run and machine.
enum CheckoutSample {
    /// Builds the flow on `runtime`, runs it to quiescence, and returns the trace as JSON Lines.
    static func record() -> String {
        let recorder = TraceRecorder()
        let scheduler = VirtualScheduler()
        let mainboard = build(runtime: BoardyRuntime(scheduler: scheduler, observer: recorder))
        mainboard.stimulate(.activate("pubShoppingCart", input: "cart-1"))
        scheduler.run()
        return recorder.jsonl(header: mainboard.traceHeader(scenario: "checkout-swift"))
    }

    static func build(runtime: BoardyRuntime) -> Motherboard {
        let cart = ClosureBoard<String>(identifier: "pubShoppingCart") { board, cartID in
            board.schedule(after: .seconds(1)) { board.sendOutput("order:\(cartID)") }
        }
        let ordering = ClosureBoard<String>(identifier: "pubOrdering") { board, order in
            board.schedule(after: .seconds(1)) {
                board.sendOutput(["order": order, "total": 42] as [String: Any])
                board.complete()
            }
        }
        let confirm = ClosureBoard<[String: JSONValue]>(identifier: "pubConfirm") { board, _ in
            board.schedule(after: .milliseconds(500)) { board.sendOutput("confirmed") }
        }
        let charge = ClosureBoard<String>(identifier: "taskCharge") { board, _ in
            board.schedule(after: .seconds(2)) {
                board.sendOutput("charged")
                board.complete()
            }
        }
        let payment = ClosureContinuousBoard(identifier: "pubPayment", boards: [confirm, charge]) { payment, input in
            payment.continuousMotherboard.activate("pubConfirm", with: input)
        }
        let inner = payment.continuousMotherboard
        inner.registerFlowSteps("pubConfirm" ->> "taskCharge")
        // Relay: the charge's result leaves the continuous board as its own output; the payment
        // completes when the charge does.
        let chargeIO = inner.io("taskCharge", input: String.self, output: String.self, command: Void.self)
        chargeIO.flow.addTarget(payment) { payment, _ in payment.sendOutput("success") }
        chargeIO.completion.addTarget(payment) { payment, isDone in payment.complete(isDone) }
        let receipt = ClosureBoard<String>(identifier: "pubReceipt") { board, _ in board.complete() }

        let mainboard = Motherboard(boards: [cart, ordering, payment, receipt], runtime: runtime)
        mainboard.registerFlowSteps("pubShoppingCart" ->> "pubOrdering")
        // Ordering's output is a dictionary; payment's confirm step takes it as JSON.
        mainboard.registerFlow(
            FlowRoute(source: "pubOrdering", trigger: .output(matches: { _ in true }), action: "activate", destination: "pubPayment") {
                mb, output in
                mb.activate(
                    "pubPayment",
                    with: TraceValue.json(output)?.objectValue.map {
                        Dictionary(uniqueKeysWithValues: $0.members.map { ($0.key, $0.value) })
                    })
            })
        mainboard.registerFlowSteps("pubPayment" ->> "pubReceipt")
        return mainboard
    }
}
