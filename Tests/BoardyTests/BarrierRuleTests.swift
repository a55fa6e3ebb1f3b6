import Boardy
import BoardyTestSupport
import Testing

/// A gate board: records its inputs; completes with `verdict` right away, after `delay`, or never.
func gate(_ id: BoardID, verdict: Bool? = true, after delay: Int = 0, outputs: [String] = [], log: Log? = nil) -> ClosureBoard<Any?> {
    ClosureBoard<Any?>(identifier: id) { board, input in
        log?.items.append("\(id) ran with \(TraceValue.json(input ?? nil)?.jsonText ?? "nil")")
        let finish = {
            for o in outputs { board.sendOutput(o) }
            if let verdict { board.complete(verdict) }
        }
        if delay == 0 { finish() } else { board.schedule(after: .seconds(delay), finish) }
    }
}

/// A board that records that it ran, optionally behind an activation barrier.
func plain(_ id: BoardID, log: Log, barrier: ActivationBarrier? = nil) -> ClosureBoard<Any?> {
    ClosureBoard<Any?>(identifier: id, barrier: { _ in barrier }) { _, input in
        log.items.append("\(id) ran with \(TraceValue.json(input ?? nil)?.jsonText ?? "nil")")
    }
}

final class Log { var items: [String] = [] }

@Suite("Boardy semantics: barriers")
struct BarrierRuleTests {
    @Test("rule 8: the gateway is checked first, then the board's own activation barrier (golden)")
    func rule08_gatewayThenActivationBarrier() throws {
        let h = Harness()
        let log = Log()
        let mb = h.motherboard([
            gate("pubAuth", after: 1, log: log), gate("pubOtp", after: 2, log: log),
            plain("pubPayment", log: log, barrier: ActivationBarrier(gate: "pubOtp")),
        ])
        mb.install(gatewayBarrier: .gate("pubAuth"))
        mb.install(gatewayBarrier: .exempt, for: "pubAuth")
        mb.install(gatewayBarrier: .exempt, for: "pubOtp")
        mb.stimulate(.activate("pubPayment", input: "order-1"))
        h.scheduler.run()
        #expect(log.items == [
            #"pubAuth ran with {"destination":"pubPayment","input":"order-1"}"#, "pubOtp ran with nil", #"pubPayment ran with "order-1""#,
        ])
        let kinds = h.recorder.events.map(\.kind)
        #expect(kinds.firstIndex(of: "gateway.checked")! < kinds.firstIndex(of: "barrier.checked")!)
        try expectGolden(h.recorder.jsonl(header: mb.traceHeader(scenario: "gateway-then-barrier")), "gateway-then-barrier.jsonl")
    }

    @Test("rule 9: each gated destination has its own run; the gate gets the destination and its input")
    func rule09_oneRunPerDestination() {
        let h = Harness()
        let log = Log()
        let mb = h.motherboard([gate("pubAuth", after: 1, log: log), plain("a", log: log), plain("b", log: log)])
        mb.install(gatewayBarrier: .gate("pubAuth"))
        mb.install(gatewayBarrier: .exempt, for: "pubAuth")
        mb.activate("a", with: 1)
        mb.activate("b", with: 2)
        h.scheduler.run()
        #expect(log.items == [
            #"pubAuth ran with {"destination":"a","input":1}"#, #"pubAuth ran with {"destination":"b","input":2}"#, "a ran with 1",
            "b ran with 2",
        ])
        #expect(h.recorder.events.filter { $0.kind == "barrier.started" }.count == 2)
        #expect(h.runtime.waitForGraph.isEmpty)
    }

    @Test("rule 10: exempt registrations and boards that bypass skip the gateway, recording only the check")
    func rule10_exemptAndBypass() {
        let h = Harness()
        let log = Log()
        let bypasser = ClosureBoard<Void>(identifier: "task", bypassGateway: true) { _, _ in log.items.append("task ran") }
        let mb = h.motherboard([gate("pubAuth", log: log), plain("pubWelcome", log: log), bypasser])
        mb.install(gatewayBarrier: .gate("pubAuth"))
        mb.install(gatewayBarrier: .exempt, for: "pubWelcome")
        mb.activate("pubWelcome")
        mb.activate("task")
        #expect(log.items == ["pubWelcome ran with nil", "task ran"])
        let checks = h.recorder.events.compactMap { e -> String? in
            if case let .gatewayChecked(board, barrier, result) = e.body { return "\(board) \(barrier) \(result)" }
            return nil
        }
        #expect(checks == ["pubWelcome pubAuth exempt", "task pubAuth bypass"])
        #expect(!h.recorder.events.contains { $0.kind == "barrier.started" })
    }

    @Test("rule 11: .exempt is a gate that passes at once; a board no gateway covers passes")
    func rule11_exemptPassesAtOnce() {
        let h = Harness()
        let log = Log()
        let mb = h.motherboard([gate("pubAuth", log: log), plain("open", log: log), plain("guarded", log: log), plain("free", log: log)])
        mb.install(gatewayBarrier: .exempt, for: "open")
        mb.install(gatewayBarrier: .gate("pubAuth"), for: "guarded")
        mb.activate("open")
        mb.activate("free")
        #expect(log.items == ["open ran with nil", "free ran with nil"])
        #expect(h.lines.contains("gateway.checked open"))
        #expect(h.recorder.events.contains { $0.body == .gatewayChecked(board: "free", barrier: "", result: .pass) })
    }

    @Test("rule 12: activations on one identifier share one gate run (activated with the option's value), released in request order (golden)")
    func rule12_oneRunPerIdentifier() throws {
        let h = Harness()
        let log = Log()
        let barrier = ActivationBarrier(gate: "pubOtp")
        let mb = h.motherboard([
            gate("pubOtp", after: 1, log: log), plain("pubPayment", log: log, barrier: barrier),
            plain("pubRefund", log: log, barrier: ActivationBarrier(gate: "pubOtp")),
        ])
        mb.stimulate(.activate("pubPayment", input: "p"))
        mb.stimulate(.activate("pubRefund", input: "r"))
        h.scheduler.run()
        #expect(log.items == ["pubOtp ran with nil", #"pubPayment ran with "p""#, #"pubRefund ran with "r""#])
        #expect(h.recorder.events.contains { $0.body == .barrierResolved(barrier: "pubOtp", passed: true, released: 2) })
        try expectGolden(h.recorder.jsonl(header: mb.traceHeader(scenario: "two-boards-one-barrier")), "two-boards-one-barrier.jsonl")

        // complete(false) cancels every waiting activation; unique keys are separate barriers.
        let h2 = Harness()
        let log2 = Log()
        let mb2 = h2.motherboard([
            gate("g", verdict: false, after: 1, log: log2), plain("x", log: log2, barrier: ActivationBarrier(gate: "g")),
            plain("y", log: log2, barrier: ActivationBarrier(gate: "g")),
            plain("z", log: log2, barrier: ActivationBarrier(gate: "g", option: .unique("k"))),
        ])
        for id: BoardID in ["x", "y", "z"] { mb2.activate(id) }
        h2.scheduler.run()
        #expect(log2.items == ["g ran with nil", #"g ran with "k""#])
        #expect(h2.lines.filter { $0.hasPrefix("activation.cancelled") } == [
            "activation.cancelled x barrier-failed", "activation.cancelled y barrier-failed", "activation.cancelled z barrier-failed",
        ])
        #expect(h2.recorder.events.contains { $0.body == .barrierStarted(barrier: "g:k", board: "g") })
    }

    @Test("rule 13: a request arriving while a cycle completes starts a new cycle that runs the gate again")
    func rule13_requestDuringCompletionStartsNewCycle() {
        let h = Harness()
        let log = Log()
        let barrier = ActivationBarrier(gate: "g")
        let first = ClosureBoard<Void>(identifier: "first", barrier: { _ in barrier }) { b, _ in
            log.items.append("first ran")
            b.nextToBoard("second")
        }
        // The gate is produced on demand: a completed static board would be gone (rule 4).
        let producer = BoardProducer(registrations: [BoardRegistration("g") { id in gate(id, after: 1, log: log) }])
        let mb = h.motherboard([first, plain("second", log: log, barrier: barrier)], producer: producer)
        mb.activate("first")
        h.scheduler.run()
        #expect(log.items == ["g ran with nil", "first ran", "g ran with nil", "second ran with nil"])
        #expect(h.recorder.events.filter { $0.kind == "barrier.started" }.count == 2)
    }

    @Test("rule 14: only the gate's own completion in the owning motherboard resolves; late completions are ignored")
    func rule14_onlyOwnCompletionResolves() {
        let h = Harness()
        let log = Log()
        let mbA = h.motherboard([gate("g", verdict: nil, log: log), plain("x", log: log, barrier: ActivationBarrier(gate: "g"))])
        let mbB = h.motherboard([gate("g", verdict: nil, log: log)])
        mbA.activate("x")
        mbB.activate("g")
        mbB.completeBoard("g")  // same id, other motherboard: no effect on mbA's cycle
        #expect(!h.runtime.waitForGraph.isEmpty)
        mbA.completeBoard("g")
        #expect(log.items.last == "x ran with nil")
        mbA.completeBoard("g")  // late: nothing open, nothing happens
        #expect(h.recorder.events.filter { $0.kind == "barrier.resolved" }.count == 1)
    }

    @Test("rule 15: released activations run directly; the barrier is not checked again")
    func rule15_releasedDoNotRecheck() {
        let h = Harness()
        let log = Log()
        var checks = 0
        let guarded = ClosureBoard<Void>(identifier: "x", barrier: { _ in checks += 1; return ActivationBarrier(gate: "g") }) { _, _ in
            log.items.append("x ran")
        }
        let mb = h.motherboard([gate("g", after: 1), guarded])
        mb.activate("x")
        h.scheduler.run()
        #expect(log.items == ["x ran"])
        #expect(checks == 1)
    }

    @Test("rule 16: .application barriers are shared by every motherboard of a runtime; .mainboard ones are not (golden)")
    func rule16_scopes() throws {
        let h = Harness()
        let log = Log()
        let app = ActivationBarrier(gate: "pubLogin", scope: .application)
        let main = h.motherboard([gate("pubLogin", after: 1, log: log), plain("pubCart", log: log, barrier: app)])
        let other = Motherboard(identifier: "other", boards: [plain("pubWishlist", log: log, barrier: app)], runtime: h.runtime)
        main.stimulate(.activate("pubCart"))
        other.stimulate(.activate("pubWishlist"))
        h.scheduler.run()
        #expect(log.items == ["pubLogin ran with nil", "pubCart ran with nil", "pubWishlist ran with nil"])
        try expectGolden(h.recorder.jsonl(header: main.traceHeader(scenario: "application-scope")), "application-scope.jsonl")

        // The same barrier in mainboard scope runs the gate once per motherboard.
        let h2 = Harness()
        let log2 = Log()
        let local = ActivationBarrier(gate: "pubLogin")
        let m1 = h2.motherboard([gate("pubLogin", after: 1, log: log2), plain("pubCart", log: log2, barrier: local)])
        let m2 = Motherboard(identifier: "other", boards: [gate("pubLogin", after: 1, log: log2), plain("pubWishlist", log: log2, barrier: local)], runtime: h2.runtime)
        m1.activate("pubCart")
        m2.activate("pubWishlist")
        h2.scheduler.run()
        #expect(log2.items.filter { $0.hasPrefix("pubLogin") }.count == 2)
    }

    @Test("rule 17: a gate not exempt from its own gateway is a loop named by the gate, cancelled, and the run finishes")
    func rule17_gatewayLoop() {
        let h = Harness()
        let log = Log()
        let mb = h.motherboard([gate("pubAuth", log: log), plain("pubDashboard", log: log)])
        mb.install(gatewayBarrier: .gate("pubAuth"))  // pubAuth is not exempt
        mb.stimulate(.activate("pubDashboard"))
        h.scheduler.run()
        #expect(log.items.isEmpty)
        #expect(h.recorder.events.contains { $0.body == .barrierLoop(board: "pubAuth", cycle: ["pubAuth"]) })
        #expect(h.lines.filter { $0.hasPrefix("activation.cancelled") } == [
            "activation.cancelled pubDashboard loop", "activation.cancelled pubAuth loop",
        ])
        #expect(h.runtime.waitForGraph.isEmpty)
    }

    @Test("rule 17: A gated by B gated by A is a loop [A, B]; per-instance keys cannot recurse without bound")
    func rule17_transitiveAndPerInstanceLoops() {
        let h = Harness()
        let log = Log()
        let a = ClosureBoard<Void>(identifier: "A", barrier: { _ in ActivationBarrier(gate: "B") }) { _, _ in log.items.append("A") }
        let b = ClosureBoard<Void>(identifier: "B", barrier: { _ in ActivationBarrier(gate: "A") }) { _, _ in log.items.append("B") }
        let mb = h.motherboard([a, b, plain("x", log: log, barrier: ActivationBarrier(gate: "A"))])
        mb.activate("x")
        h.scheduler.run()
        #expect(log.items.isEmpty)
        #expect(h.recorder.events.contains { $0.body == .barrierLoop(board: "B", cycle: ["A", "B"]) })
        #expect(Set(h.lines.filter { $0.hasPrefix("activation.cancelled") }) == [
            "activation.cancelled x loop", "activation.cancelled A loop", "activation.cancelled B loop",
        ])

        // A gate whose barrier has a new key on every activation (the gate gets the key): each
        // would start a new cycle.
        let h2 = Harness()
        var n = 0
        let selfish = ClosureBoard<Any?>(identifier: "S", barrier: { _ in n += 1; return ActivationBarrier(gate: "S", option: .unique("\(n)")) }) { _, _ in }
        h2.motherboard([selfish]).activate("S")
        h2.scheduler.run()
        #expect(h2.recorder.events.contains { if case .barrierLoop(_, ["S"]) = $0.body { return true } else { return false } })
        #expect(n == 2)
    }

    @Test("rule 17: 10,000 distinct chained gates resolve, and a 10,000-gate loop is found, without overflowing the stack")
    func rule17_deepChains() {
        let depth = 10_000
        func chain(closed: Bool) -> (Harness, Log) {
            let h = Harness()
            let log = Log()
            var boards: [any ActivatableBoard] = []
            for i in 0..<depth {
                let next: BoardID? = i + 1 < depth ? BoardID("g\(i + 1)") : (closed ? "g0" : nil)
                boards.append(ClosureBoard<Any?>(identifier: BoardID("g\(i)"), barrier: { _ in next.map { ActivationBarrier(gate: $0) } }) { b, _ in
                    b.complete(true)
                })
            }
            boards.append(plain("x", log: log, barrier: ActivationBarrier(gate: "g0")))
            let mb = h.motherboard(boards)
            mb.activate("x")
            h.scheduler.run()
            return (h, log)
        }
        let (open, openLog) = chain(closed: false)
        #expect(openLog.items == ["x ran with nil"])
        #expect(open.runtime.waitForGraph.isEmpty)
        let (closed, closedLog) = chain(closed: true)
        #expect(closedLog.items.isEmpty)
        let loop = closed.recorder.events.first { $0.kind == "barrier.loop" }
        if case let .barrierLoop(_, cycle) = loop?.body { #expect(cycle.count == depth) } else { Issue.record("no barrier.loop") }
        #expect(closed.recorder.events.filter { $0.kind == "activation.cancelled" }.count == depth + 1)
    }

    @Test("rule 18: a gate that never completes leaves a stuck report naming the gate and every waiting board")
    func rule18_stuck() {
        let h = Harness()
        let log = Log()
        let barrier = ActivationBarrier(gate: "pubOtp")
        let mb = h.motherboard([gate("pubOtp", verdict: nil, log: log), plain("pubPayment", log: log, barrier: barrier), plain("pubRefund", log: log, barrier: barrier)])
        mb.activate("pubPayment")
        mb.activate("pubRefund")
        h.scheduler.run()
        #expect(h.recorder.events.last?.body == .stuckBarrier(barrier: "pubOtp", gate: "pubOtp", waiting: ["pubPayment", "pubRefund"]))
        #expect(h.runtime.waitForGraph.barriers.map(\.waiting) == [["pubPayment", "pubRefund"]])
        h.scheduler.run()
        #expect(h.recorder.events.filter { $0.kind == "stuck" }.count == 1, "an unchanged stuck barrier is reported once")
        mb.completeBoard("pubOtp")
        #expect(h.runtime.waitForGraph.isEmpty)
        #expect(log.items.suffix(2) == ["pubPayment ran with nil", "pubRefund ran with nil"])
    }

    @Test("a gateway run resolves on the first signal (a resolveOn output); later signals are ignored")
    func gatewayResolveOnOutput() {
        let h = Harness()
        let log = Log()
        let auth = gate("pubAuth", verdict: true, after: 2, outputs: ["authenticated"], log: log)
        let mb = h.motherboard([auth, plain("a", log: log), plain("b", log: log)])
        mb.install(gatewayBarrier: .gate("pubAuth", resolveOn: { ($0 as? String) == "authenticated" ? true : nil }))
        mb.install(gatewayBarrier: .exempt, for: "pubAuth")
        mb.activate("a")
        h.scheduler.run()
        let resolved = h.recorder.events.filter { $0.kind == "barrier.resolved" }
        #expect(resolved.count == 1)
        #expect(log.items.last == "a ran with nil")
        // The output resolved it: the resolution's cause is the output.
        let output = h.recorder.events.first { $0.kind == "output.sent" }
        #expect(resolved.first?.cause == output?.seq)
    }

    @Test("the reference example: an app-wide gateway on auth with exemptions, through the plugin launcher")
    func referenceExample() {
        final class Window {}
        struct Auth: ModulePlugin {
            let identifier: BoardID = "mod.Authentication"
            let verdict: Bool
            func apply(for main: any MainComponent) {
                main.producer.registerBoard("pubAuth") { id in gate(id, verdict: verdict, after: 1) }
                main.producer.registerBoard("pubWelcome") { id in ClosureBoard<Any?>(identifier: id) { b, _ in b.nextToBoard("pubDashboard") } }
            }
        }
        struct Dashboard: ModulePlugin {
            let identifier: BoardID = "mod.Dashboard"
            let log: Log
            func apply(for main: any MainComponent) {
                main.producer.registerBoard("pubDashboard") { id in plain(id, log: log) }
            }
        }
        for verdict in [true, false] {
            let h = Harness()
            let log = Log()
            let launcher = PluginLauncher.with(options: MainOptions(runtime: h.runtime))
                .install(plugin: Auth(verdict: verdict))
                .install(plugin: Dashboard(log: log))
                .install(gatewayBarrier: .gate("pubAuth"))
                .install(gatewayBarrier: .exempt, for: "pubAuth")
                .install(gatewayBarrier: .exempt, for: "pubWelcome")
                .initialize()
            launcher.launch(in: Window()) { _ in launcher.mainboard.stimulate(.activate("pubWelcome")) }
            h.scheduler.run()
            let order = h.recorder.events.compactMap { e -> String? in
                if case let .activationPerformed(b, _) = e.body { return b }
                return nil
            }
            if verdict {
                #expect(order == ["pubWelcome", "pubAuth", "pubDashboard"])
                #expect(log.items == ["pubDashboard ran with nil"])
            } else {
                #expect(order == ["pubWelcome", "pubAuth"])
                #expect(log.items.isEmpty)
                #expect(h.lines.contains("activation.cancelled pubDashboard barrier-failed"))
            }
        }
    }
}
