import Boardy
import BoardyLock
import BoardyTestSupport
import Testing

@Suite("Engine: ordering, scheduling, typed IO")
struct EngineTests {
    @Test("emissions are processed depth-first in emission order, as Boardy's synchronous calls are")
    func depthFirstInEmissionOrder() {
        let h = Harness()
        let root = ClosureBoard<Void>(identifier: "root") { b, _ in
            b.sendOutput("o1")
            b.sendOutput("o2")
        }
        let x = ClosureBoard<String>(identifier: "x") { b, s in b.sendOutput("x(\(s))") }
        let y = ClosureBoard<String>(identifier: "y") { _, _ in }
        let mb = h.motherboard([root, x, y])
        mb.registerFlowSteps("root" ->> "x" ->> "y")
        mb.activate("root")
        let order = h.recorder.events.compactMap { e -> String? in
            if case .activationPerformed(let b, let input) = e.body, b != "root" { return "\(b) \(input!)" }
            return nil
        }
        // o1's whole cascade runs before o2 is routed.
        #expect(order == [#"x "o1""#, #"y "x(o1)""#, #"x "o2""#, #"y "x(o2)""#])
    }

    @Test("a synchronous flow cycle stops at the bound with a runaway event, instead of running forever")
    func runawayCycleStops() throws {
        let recorder = TraceRecorder()
        let runtime = BoardyRuntime(scheduler: VirtualScheduler(), observer: recorder)
        runtime.maxStepsPerDrain = 2_000
        let a = ClosureBoard<Any?>(identifier: "a") { b, _ in b.sendOutput("again") }
        let mb = Motherboard(boards: [a], runtime: runtime)
        mb.registerFlowSteps("a" ->> "a")
        mb.stimulate(.activate("a"))
        let events = recorder.events
        let last = try #require(events.last)
        #expect(last.kind == "runaway")
        #expect(last.body == .runaway(fields: ["bound": "steps", "steps": 2_000, "dropped": 1]))
        #expect(last.cause == last.seq - 1)
        #expect(events.count < 2_000 * 2)
        // The runtime goes on working afterwards.
        let b = ClosureBoard<Any?>(identifier: "b") { b, _ in b.sendOutput("done") }
        mb.installBoard(b)
        mb.activate("b")
        #expect(recorder.events.last?.body == .outputSent(board: "b", output: "done"))
    }

    @Test("immediate processing: a synchronous flow cycle stops at the bound too, and what was left is counted once")
    func runawayCycleStopsImmediate() throws {
        let recorder = TraceRecorder()
        let runtime = BoardyRuntime(scheduler: VirtualScheduler(), observer: recorder, processing: .immediate)
        runtime.maxStepsPerDrain = 2_000
        let a = ClosureBoard<Any?>(identifier: "a") { b, _ in b.sendOutput("again") }
        let mb = Motherboard(boards: [a], runtime: runtime)
        mb.registerFlowSteps("a" ->> "a")
        mb.stimulate(.activate("a"))
        let runaways = recorder.events.filter { $0.kind == "runaway" }
        #expect(runaways.count == 1)
        let stop = try #require(runaways.first)
        guard case .runaway(let fields) = stop.body else { Issue.record("not a runaway: \(stop.body)"); return }
        #expect(fields["bound"] == "steps" && fields["steps"] == 2_000)
        // Nothing else was queued when the bound was passed: the item it stopped at.
        #expect(fields["dropped"] == 1)
        #expect(recorder.events.count < 2_000 * 2)
        let b = ClosureBoard<Any?>(identifier: "b") { b, _ in b.sendOutput("done") }
        mb.installBoard(b)
        mb.activate("b")
        #expect(recorder.events.last?.body == .outputSent(board: "b", output: "done"))
    }

    @Test("a recorder whose payload policy reads the recorder: the policy runs outside its lock, every event kept")
    func policyReadingItsRecorder() {
        // The policy is made before its recorder, so it finds the recorder through a box.
        let box = LockedValue<TraceRecorder?>(nil)
        let recorder = TraceRecorder(policy: PayloadPolicy(redact: { _, _, value in
            _ = box.withLockedValue { $0 }?.count  // a lock the engine's hand-over must not hold
            return value
        }))
        box.withLockedValue { $0 = recorder }
        let runtime = BoardyRuntime(scheduler: VirtualScheduler(), observer: recorder)
        let a = ClosureBoard<Int>(identifier: "a") { b, v in b.sendOutput(v + 1) }
        let c = ClosureBoard<Int>(identifier: "c") { b, v in b.sendOutput(v + 1) }
        let mb = Motherboard(boards: [a, c], runtime: runtime)
        mb.registerFlowSteps("a" ->> "c")
        for i in 0..<300 { mb.activate("a", with: i) }
        #expect(recorder.count == 300 * 7)
        #expect(recorder.events.map(\.seq) == Array(1...(300 * 7)))
    }

    @Test("code a payload's conversion runs records events of its own: none lost or torn, in seq order, past a full batch")
    func recordingWhileAnEventIsBuilt() {
        struct Noisy: TraceValueConvertible {
            let runtime: BoardyRuntime
            var traceValue: JSONValue {
                // Recorded while the command's own event is being built.
                runtime.recordEvent(.runaway(fields: ["note": "from a payload"]))
                return "noisy"
            }
        }
        let recorder = TraceRecorder()
        let runtime = BoardyRuntime(scheduler: VirtualScheduler(), observer: recorder)
        var commands = 0
        let a = ClosureBoard<Int>(identifier: "a", onCommand: { _, _ in commands += 1 }) { _, _ in }
        let mb = Motherboard(boards: [a], runtime: runtime)
        // One step of 700 commands, each recording two events (its own, then its payload's), with
        // one event first: in the first batch a command's own event takes the last slot and its
        // payload's event goes past the batch; in later ones the payload's event takes the last
        // slot and the flush waits until the command's event is whole. (The first case needs an
        // even batch size; the runtime's is 256.)
        mb.perform {
            runtime.recordEvent(.runaway(fields: ["note": "first"]))
            for _ in 0..<700 { mb.sendCommand(Noisy(runtime: runtime), to: "a") }
        }
        mb.sendCommand(Noisy(runtime: runtime), to: "a")
        let events = recorder.events
        #expect(commands == 701)
        #expect(events.map(\.seq) == Array(1...events.count))
        #expect(events.filter { $0.kind == "command.sent" }.count == 701)
        #expect(events.filter { $0.kind == "runaway" }.count == 702)
        #expect(events.filter { $0.kind == "command.sent" }.allSatisfy { $0.body == .commandSent(board: "a", command: "noisy") })
    }

    @Test("a chain of 100,000 activations runs on the work stack without overflowing the call stack")
    func deepChainDoesNotOverflow() {
        let n = 100_000
        var boards: [any ActivatableBoard] = []
        var last = 0
        for i in 0..<n {
            boards.append(
                ClosureBoard<Int>(identifier: BoardID("b\(i)")) { b, v in
                    last = v
                    b.nextToBoard(BoardID("b\(i + 1)"), with: v + 1)
                })
        }
        let mb = Motherboard(boards: boards)
        mb.activate("b0", with: 0)
        #expect(last == n - 1)
    }

    @Test("an input of the wrong type is a traced cancellation that says what was expected, then Boardy's misuse")
    func wrongInputTypeIsCancelled() {
        let h = Harness(misuse: .record)
        var ran = false
        let typed = ClosureBoard<Int>(identifier: "typed") { _, _ in ran = true }
        h.motherboard([typed]).activate("typed", with: "not an int")
        #expect(!ran)
        #expect(h.lines.suffix(2).first == #"activation.cancelled typed invalid-input {"detail":"expected input of type Int, got String"}"#)
        #expect(h.recorder.events.last?.kind == "misuse")
    }

    @Test("Void and optional inputs accept nil")
    func voidAndOptionalInputs() {
        var got: [String] = []
        let v = ClosureBoard<Void>(identifier: "v") { _, _ in got.append("void") }
        let o = ClosureBoard<String?>(identifier: "o") { _, s in got.append("opt \(s ?? "nil")") }
        let mb = Motherboard(boards: [v, o])
        mb.activate("v")
        mb.activate("o")
        mb.activate("o", with: "x")
        #expect(got == ["void", "opt nil", "opt x"])
    }

    @Test("the virtual clock runs delayed steps in time order, same-time steps in scheduling order, with their cause")
    func virtualClockOrdersSteps() {
        let h = Harness()
        let a = ClosureBoard<Void>(identifier: "a") { b, _ in
            b.schedule(after: .seconds(2)) { b.sendOutput("late") }
            b.schedule(after: .seconds(1)) { b.sendOutput("early-1") }
            b.schedule(after: .seconds(1)) { b.sendOutput("early-2") }
            b.schedule(after: .milliseconds(1500)) { b.complete() }
        }
        let mb = h.motherboard([a])
        mb.activate("a")
        h.scheduler.run()
        let outputs = h.recorder.events.map { "\($0.t) \($0.short)" }
        #expect(
            outputs == [
                "0 activation.requested a", "0 activation.performed a", #"1 output.sent a "early-1""#, #"1 output.sent a "early-2""#,
                "1.5 board.completed a true", #"2 output.sent a "late" {"dropped":"board-completed"}"#,
            ])
        #expect(
            h.recorder.events.dropFirst(2).allSatisfy { $0.cause == 2 },
            "delayed emissions are caused by the activation that scheduled them")
    }

    @Test("the same run records the same trace every time")
    func deterministic() {
        func run() -> String {
            let h = Harness()
            let boards: [any ActivatableBoard] = (0..<20).map { i in
                ClosureBoard<Int>(identifier: BoardID("n\(i)")) { b, v in
                    b.schedule(after: .milliseconds(Int64(10 * (i % 3)))) { b.sendOutput(v * 2 + i) }
                }
            }
            let mb = h.motherboard(boards)
            for i in 0..<19 { mb.registerFlowSteps(BoardID("n\(i)") ->> BoardID("n\(i + 1)")) }
            mb.activate("n0", with: 1)
            h.scheduler.run()
            return h.recorder.jsonl(header: mb.traceHeader(scenario: "det"))
        }
        #expect(run() == run())
    }

    @Test("without an observer the engine records nothing and still runs")
    func noObserver() {
        var got = 0
        let a = ClosureBoard<Int>(identifier: "a") { b, v in b.sendOutput(v + 1) }
        let b = ClosureBoard<Int>(identifier: "b") { _, v in got = v }
        let mb = Motherboard(boards: [a, b])
        mb.registerFlowSteps("a" ->> "b")
        mb.activate("a", with: 41)
        #expect(got == 42)
        #expect(mb.runtime?.lastSeq == 0)
    }

    @Test("the definition fingerprint follows the registrations, not the run")
    func definitionFingerprint() {
        func build(extraFlow: Bool) -> Motherboard {
            let mb = Motherboard(boards: [ClosureBoard<Void>(identifier: "a") { _, _ in }, ClosureBoard<Void>(identifier: "b") { _, _ in }])
            mb.registerFlowSteps("a" ->> "b")
            if extraFlow { mb.registerFlowSteps("b" ->> "a") }
            return mb
        }
        #expect(build(extraFlow: false).definitionFingerprint == build(extraFlow: false).definitionFingerprint)
        #expect(build(extraFlow: false).definitionFingerprint != build(extraFlow: true).definitionFingerprint)
    }

    @Test("the live scheduler runs posted work from other threads on the driving thread, in order")
    func liveScheduler() async {
        let scheduler = LiveScheduler()
        let recorder = TraceRecorder()
        let runtime = BoardyRuntime(scheduler: scheduler, observer: recorder)
        let counter = ClosureBoard<Int>(identifier: "c") { b, v in b.sendOutput(v) }
        let mb = Motherboard(boards: [counter], runtime: runtime)
        nonisolated(unsafe) let unsafeMB = mb  // only touched on the driving thread (inside post)
        for i in 0..<5 {
            scheduler.post { unsafeMB.activate("c", with: i) }
        }
        scheduler.run()
        let outputs = recorder.events.compactMap { e -> Int64? in
            if case .outputSent(_, .int(let v)) = e.body { return v }
            return nil
        }
        #expect(outputs == [0, 1, 2, 3, 4])
        #expect(mb.traceHeader().clock == .live)
    }
}

@Suite("Engine: nothing vanishes")
struct DroppedEmissionTests {
    @Test("an inner board emitting after its continuous board was released is recorded as dropped, not lost")
    func emissionAfterMotherboardReleased() {
        let h = Harness()
        // Only the inner board survives this function: the continuous board and both
        // motherboards are released.
        func run() -> ClosureBoard<Void> {
            let inner = ClosureBoard<Void>(identifier: "inner") { _, _ in }
            let cont = ClosureContinuousBoard(identifier: "cont", boards: [inner]) { c, _ in
                c.continuousMotherboard.activate("inner")
                c.complete()
            }
            h.motherboard([cont]).activate("cont")
            return inner
        }
        var inner: ClosureBoard<Void>? = run()
        #expect(inner?.hostMotherboard == nil)
        inner?.sendOutput("late")
        inner?.complete()
        inner = nil
        #expect(
            h.lines.suffix(2) == [
                #"[main/cont] output.sent inner "late" {"dropped":"motherboard-released"}"#,
                #"[main/cont] board.completed inner true {"dropped":"motherboard-released"}"#,
            ])
    }
}

@Suite("Engine: delivery to observers")
struct DeliveryTests {
    @Test("every event of a step reaches the observer before control returns, in seq order, also past one batch")
    func eventsVisibleWhenControlReturns() {
        let h = Harness()
        let n = 700  // more than one batch of events
        let boards: [any ActivatableBoard] = (0..<n).map { i in
            ClosureBoard<Int>(identifier: BoardID("c\(i)")) { b, v in b.sendOutput(v) }
        }
        let mb = h.motherboard(boards)
        for i in 0..<(n - 1) { mb.registerFlowSteps(BoardID("c\(i)") ->> BoardID("c\(i + 1)")) }
        mb.stimulate(.activate("c0", input: 1))
        let events = h.recorder.events
        #expect(events.count == 1 + 4 * n - 1)
        #expect(events.map(\.seq) == Array(1...events.count))
        // A board that reads the recorder while the step runs sees the earlier steps' events.
        var seenDuring = -1
        let probe = ClosureBoard<Void>(identifier: "probe") { _, _ in seenDuring = h.recorder.count }
        let mb2 = h.motherboard([probe])
        mb2.activate("probe")
        #expect(seenDuring == events.count)
        #expect(h.recorder.count == events.count + 2)
    }
}

@Suite("Engine: API misuse does not crash")
struct MisuseTests {
    @Test("an inner motherboard used before its continuous board is installed runs that work once it is")
    func innerBeforeInstall() {
        let h = Harness()
        var ran = false
        let inner = ClosureBoard<Void>(identifier: "inner") { _, _ in ran = true }
        let cont = ClosureContinuousBoard(identifier: "cont", boards: [inner]) { _, _ in }
        cont.continuousMotherboard.activate("inner")
        #expect(!ran)
        _ = h.motherboard([cont])
        #expect(ran)
        #expect(h.lines.contains("[main/cont] activation.performed inner"))
    }

    @Test("a negative delay means now; gateways installed on the main motherboard after launch apply")
    func lateInstallsAndNegativeDelays() {
        let scheduler = VirtualScheduler()
        var fired = false
        scheduler.schedule(after: TraceTime(microseconds: -5)) { fired = true }
        scheduler.run()
        #expect(fired)
        #expect(scheduler.now == .zero)

        struct Late: ModulePlugin {
            let identifier: BoardID = "mod.Late"
            func apply(for main: any MainComponent) {
                main.producer.registerBoard("late") { ClosureBoard<Void>(identifier: $0) { _, _ in } }
            }
        }
        let h = Harness()
        let launcher = PluginLauncher.with(options: MainOptions(runtime: h.runtime)).install(plugin: Late()).initialize()
        launcher.mainboard.install(gatewayBarrier: .gate("nobody"))
        launcher.mainboard.install(gatewayBarrier: .exempt, for: "late")
        launcher.mainboard.activate("late")
        #expect(h.lines.contains("activation.performed late"))
        #expect(h.lines.contains("gateway.checked late"))
    }
}
