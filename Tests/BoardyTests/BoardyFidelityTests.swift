import Boardy
import BoardyTestSupport
import Testing

/// The three behaviours measured on the real Boardy 1.63.1 where boardy-viz differed (issue 18),
/// each on the engine through its Swift API; the scenario-file forms are in BoardySimulationTests.
@Suite("Faithful to the real Boardy: gateway runs and gate inputs")
struct BoardyFidelityTests {
    /// A gate that records when and with what it ran, and completes true `after` seconds later.
    static func registrations(log: Log, gateAfter: Int = 2) -> BoardProducer {
        BoardProducer(registrations: [
            BoardRegistration("pubAuth") { _ in gate("pubAuth", after: gateAfter, log: log) },
            BoardRegistration("pubHome") { _ in plain("pubHome", log: log) },
            BoardRegistration("pubSettings") { _ in plain("pubSettings", log: log) },
        ])
    }

    /// What ran, at which virtual second: `t=2 pubHome ran with "h1"`.
    static func timed(_ h: Harness) -> [String] {
        h.recorder.events.compactMap { e in
            guard case let .activationPerformed(board, input) = e.body else { return nil }
            let at = e.t.microseconds % 1_000_000 == 0 ? "\(e.t.microseconds / 1_000_000)" : "\(Double(e.t.microseconds) / 1e6)"
            return "t=\(at) \(e.mb == "main" ? "" : "[\(e.mb)] ")\(board) ran with \(input?.jsonText ?? "nil")"
        }
    }

    static func gated(_ h: Harness, log: Log, instances: GatewayBarrier.GateInstances = .perRun) -> Motherboard {
        let mb = h.motherboard(producer: registrations(log: log))
        mb.install(gatewayBarrier: .gate("pubAuth", instances: instances))
        mb.install(gatewayBarrier: .exempt, for: "pubAuth")
        return mb
    }

    @Test("same destination, one gateway run: a second request while the run is open joins it (Boardy's <dest>.___GATEWAY___)")
    func sameDestinationOneGatewayRun() {
        for instances in [GatewayBarrier.GateInstances.perRun, .shared] {
            let h = Harness()
            let log = Log()
            let mb = Self.gated(h, log: log, instances: instances)
            mb.activate("pubHome", with: "h1")
            _ = h.scheduler.schedule(after: .seconds(1)) { mb.activate("pubHome", with: "h2") }
            h.scheduler.run()
            let gateRuns = log.items.filter { $0.hasPrefix("pubAuth ran") }
            #expect(gateRuns == [#"pubAuth ran with {"destination":"pubHome","input":"h1"}"#], "\(instances)")
            #expect(Self.timed(h).filter { $0.contains("pubHome ran") } == [#"t=2 pubHome ran with "h1""#, #"t=2 pubHome ran with "h2""#])
            #expect(h.recorder.events.filter { $0.kind == "barrier.started" }.count == 1)
            #expect(h.recorder.events.contains { $0.body == .barrierResolved(barrier: "pubAuth", passed: true, released: 2) })
        }
    }

    @Test("each gateway run has its own gate: runs for different destinations resolve on their own timelines")
    func eachGatewayRunHasItsOwnGate() {
        let h = Harness()
        let log = Log()
        let mb = Self.gated(h, log: log)
        mb.activate("pubHome")
        _ = h.scheduler.schedule(after: .seconds(0.5)) { mb.activate("pubSettings") }
        h.scheduler.run()
        let performed = Self.timed(h)
        #expect(performed.contains("t=2 pubHome ran with nil"))
        #expect(performed.contains("t=2.5 pubSettings ran with nil"))
        // Each run's gate instance records under its own motherboard, and main's flows do not see
        // its outputs: the gate ran in main/<destination>.___GATEWAY___.
        #expect(performed.contains { $0.hasPrefix("t=0 [main/pubHome.___GATEWAY___] pubAuth ran") })
        #expect(performed.contains { $0.hasPrefix("t=0.5 [main/pubSettings.___GATEWAY___] pubAuth ran") })
        #expect(!h.recorder.events.contains { $0.mb == "main" && $0.body.board == "pubAuth" && $0.kind == "activation.performed" })
        #expect(h.runtime.waitForGraph.isEmpty)
    }

    @Test("a shared gate instance (the app activates the gate on its main motherboard): one completion resolves every open run")
    func sharedGateResolvesEveryRun() {
        let h = Harness()
        let log = Log()
        let mb = Self.gated(h, log: log, instances: .shared)
        mb.activate("pubHome")
        _ = h.scheduler.schedule(after: .seconds(0.5)) { mb.activate("pubSettings") }
        h.scheduler.run()
        let performed = Self.timed(h)
        #expect(performed.contains("t=2 pubHome ran with nil"))
        #expect(performed.contains("t=2 pubSettings ran with nil"))
        #expect(!h.recorder.events.contains { $0.mb != "main" })
    }

    @Test("a gate installed as an instance (no producer to make one per run) is shared")
    func installedGateIsShared() {
        let h = Harness()
        let log = Log()
        let mb = h.motherboard([gate("pubAuth", after: 2, log: log), plain("pubHome", log: log), plain("pubSettings", log: log)])
        mb.install(gatewayBarrier: .gate("pubAuth"))
        mb.install(gatewayBarrier: .exempt, for: "pubAuth")
        mb.activate("pubHome")
        _ = h.scheduler.schedule(after: .seconds(0.5)) { mb.activate("pubSettings") }
        h.scheduler.run()
        #expect(Self.timed(h).filter { !$0.contains("pubAuth") } == ["t=2 pubHome ran with nil", "t=2 pubSettings ran with nil"])
    }

    @Test("the gate's input is the barrier option's value: nothing for .void, the key for .unique, the value for .unidentified")
    func gateInputIsTheOptionValue() {
        let h = Harness()
        let log = Log()
        let mb = h.motherboard(producer: BoardProducer(registrations: [
            BoardRegistration("pubOtp") { _ in gate("pubOtp", after: 1, log: log) },
            BoardRegistration("v") { _ in plain("v", log: log, barrier: ActivationBarrier(identifier: "pubOtp")) },
            BoardRegistration("u") { _ in plain("u", log: log, barrier: ActivationBarrier(identifier: "pubOtp", option: .unique("k1"))) },
            BoardRegistration("n") { _ in plain("n", log: log, barrier: ActivationBarrier(identifier: "pubOtp", option: .unidentified(7))) },
        ]))
        for id: BoardID in ["v", "u", "n", "n"] { mb.activate(id) }
        h.scheduler.run()
        #expect(log.items.filter { $0.hasPrefix("pubOtp") } == [
            "pubOtp ran with nil", #"pubOtp ran with "k1""#, "pubOtp ran with 7", "pubOtp ran with 7",
        ])
        // .unidentified: each request its own barrier (numbered in the trace), never shared.
        let started = h.recorder.events.compactMap { e -> String? in
            if case let .barrierStarted(barrier, _) = e.body { return barrier } else { return nil }
        }
        #expect(started == ["pubOtp", "pubOtp:k1", "pubOtp#1", "pubOtp#2"])
        #expect(log.items.filter { !$0.hasPrefix("pubOtp") } == ["v ran with nil", "u ran with nil", "n ran with nil", "n ran with nil"])
    }

    @Test("a gate not exempt from its own per-run gateway is a loop, reported, not a recursion without bound")
    func perRunGatewayLoop() {
        let h = Harness()
        let log = Log()
        let mb = h.motherboard(producer: Self.registrations(log: log))
        mb.install(gatewayBarrier: .gate("pubAuth"))
        mb.activate("pubHome")
        h.scheduler.run()
        #expect(h.recorder.events.contains { if case .barrierLoop(_, ["pubAuth"]) = $0.body { return true } else { return false } })
        #expect(h.lines.contains("activation.cancelled pubHome loop"))
        #expect(h.runtime.waitForGraph.isEmpty)
        #expect(!log.items.contains { $0.hasPrefix("pubHome") })
    }

    @Test("Boardy's wiring (registerWithActivation) with a gate that is not exempt: a loop, reported, not proxies nested without end")
    func proxyWiringLoop() {
        let h = Harness()
        let log = Log()
        let mb = h.motherboard(producer: Self.registrations(log: log))
        mb.install(
            gatewayBarrier: .registerWithActivation { barrier, _ in
                barrier.motherboard.activateBoard(identifier: "pubAuth", withOption: nil)
            }.withFlowRegistration { barrier in
                barrier.motherboard.completionFlow("pubAuth").handle { barrier.complete($0) }
            })
        mb.activate("pubHome")
        h.scheduler.run()
        #expect(h.recorder.events.contains { if case .barrierLoop = $0.body { return true } else { return false } })
        #expect(!h.recorder.events.contains { if case .runaway = $0.body { return true } else { return false } })
        #expect(h.lines.contains("activation.cancelled pubHome loop"))
        #expect(!log.items.contains { $0.hasPrefix("pubHome") })
    }

    @Test("Boardy's wiring with the gate exempt: the proxy's gate runs in the proxy's motherboard, and its completion lets the board through")
    func proxyWiringPasses() {
        let h = Harness()
        let log = Log()
        let mb = h.motherboard(producer: Self.registrations(log: log))
        mb.install(
            gatewayBarrier: .registerWithActivation { barrier, _ in
                barrier.motherboard.activateBoard(identifier: "pubAuth", withOption: nil)
            }.withFlowRegistration { barrier in
                barrier.motherboard.completionFlow("pubAuth").handle { barrier.complete($0) }
            })
        mb.install(gatewayBarrier: .exempt, for: "pubAuth")
        mb.activate("pubHome", with: "h1")
        _ = h.scheduler.schedule(after: .seconds(1)) { mb.activate("pubHome", with: "h2") }
        h.scheduler.run()
        let performed = Self.timed(h)
        #expect(performed.contains("t=0 [main/pubHome.___GATEWAY___] pubAuth ran with nil"))
        #expect(performed.filter { $0.contains("pubHome ran") } == [#"t=2 pubHome ran with "h1""#, #"t=2 pubHome ran with "h2""#])
        #expect(!mb.boards.contains { $0.identifier.rawValue.hasSuffix(".___GATEWAY___") })
    }
}
