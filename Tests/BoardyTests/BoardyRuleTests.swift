import Boardy
import BoardyTestSupport
import Testing

/// One test per rule of `boardy-semantics.md` (1–7, 19–22, 28), named after the rule.
@Suite("Boardy semantics")
struct BoardyRuleTests {
    @Test("rule 1: a board emits only through its motherboard, each emission routed as (sender id, data)")
    func rule01_emissionsGoThroughTheMotherboard() {
        let h = Harness()
        let other = ClosureBoard<String>(identifier: "other", onCommand: { b, c in b.sendOutput("got \(c ?? "")") }) { b, input in
            b.sendOutput("other ran with \(input)")
        }
        let a = ClosureBoard<Void>(identifier: "a") { b, _ in
            b.sendOutput("out")
            b.sendFlowAction("action")
            b.nextToBoard("other", with: "hi")
            b.sendCommand("cmd", to: "other")
            b.complete()
        }
        let mb = h.motherboard([a, other])
        mb.activate("a")
        #expect(
            h.lines == [
                "activation.requested a",
                "activation.performed a",
                #"output.sent a "out""#,
                #"output.sent a "action" {"flowAction":true}"#,
                #"activation.requested other from a "hi""#,
                #"activation.performed other "hi""#,
                #"output.sent other "other ran with hi""#,
                #"command.sent other "cmd""#,
                #"output.sent other "got cmd""#,
                "board.completed a true",
            ])
    }

    @Test("rule 2: every matching flow runs in registration order on a snapshot; unmatched outputs are recorded, not lost")
    func rule02_flowsRunInRegistrationOrderOnASnapshot() {
        let h = Harness()
        let a = ClosureBoard<Int>(identifier: "a") { b, n in b.sendOutput(n) }
        let b = ClosureBoard<Int>(identifier: "b") { _, _ in }
        let mb = h.motherboard([a, b])
        var calls: [String] = []
        mb.io("a", input: Int.self, output: Int.self, command: Void.self).flow.addTarget(mb) { mb, n in
            calls.append("first \(n)")
            // Added during dispatch: must not see this message.
            mb.io("a", input: Int.self, output: Int.self, command: Void.self).flow.addTarget(mb) { _, n in calls.append("late \(n)") }
        }
        mb.io("a", input: Int.self, output: String.self, command: Void.self).flow.addTarget(mb) { _, s in calls.append("string \(s)") }
        mb.io("a", input: Int.self, output: Int.self, command: Void.self).flow.addTarget(mb) { _, n in calls.append("second \(n)") }
        mb.activate("a", with: 1)
        #expect(calls == ["first 1", "second 1"])
        mb.activate("b", with: 2)
        calls = []
        mb.activate("a", with: 3)
        #expect(calls == ["first 3", "second 3", "late 3"])

        // An output no flow matches is recorded (output.sent with no flow.routed after it).
        let h2 = Harness()
        let lonely = ClosureBoard<Void>(identifier: "lonely") { b, _ in b.sendOutput("nobody listens") }
        h2.motherboard([lonely]).activate("lonely")
        #expect(h2.lines == ["activation.requested lonely", "activation.performed lonely", #"output.sent lonely "nobody listens""#])
    }

    @Test("rule 3: default flows come first: flow actions reach the parent before local handlers; removal precedes completion handlers")
    func rule03_defaultFlowsComeFirst() {
        let h = Harness()
        var order: [String] = []
        let inner = ClosureBoard<Void>(identifier: "inner") { b, _ in b.sendFlowAction("close") }
        let cont = ClosureContinuousBoard(identifier: "cont", boards: [inner]) { c, _ in c.continuousMotherboard.activate("inner") }
        cont.continuousMotherboard.registerFlow(
            FlowRoute(source: "inner", trigger: .flowAction(matches: { _ in true }), action: "handler") { _, _ in
                order.append("inner handler")
            })
        let mb = h.motherboard([cont])
        mb.registerFlow(
            FlowRoute(source: "cont", trigger: .flowAction(matches: { _ in true }), action: "handler") { _, _ in
                order.append("parent handler")
            })
        mb.activate("cont")
        #expect(order == ["parent handler", "inner handler"])

        let done = ClosureBoard<Void>(identifier: "done") { b, _ in b.complete(false) }
        let mb2 = h.motherboard([done])
        var installedDuringHandler: Bool?
        mb2.io("done", input: Void.self, output: Void.self, command: Void.self).completion.addTarget(mb2) { mb, isDone in
            installedDuringHandler = mb.isInstalled("done")
            #expect(isDone == false)
        }
        mb2.activate("done")
        #expect(installedDuringHandler == false)
    }

    @Test("rule 4: complete removes the board; its later emissions go nowhere (recorded as dropped); a second completion does nothing")
    func rule04_completeRemovesOnce() {
        let h = Harness()
        var saved: ClosureBoard<Void>?
        let a = ClosureBoard<Void>(identifier: "a") { b, _ in
            saved = b
            b.complete()
            b.complete(false)
        }
        let next = ClosureBoard<String>(identifier: "next") { _, _ in }
        let mb = h.motherboard([a, next])
        mb.registerFlowSteps("a" ->> "next")
        mb.activate("a")
        #expect(!mb.isInstalled("a"))
        saved?.sendOutput("late")
        #expect(
            h.lines == [
                "activation.requested a", "activation.performed a", "board.completed a true",
                #"output.sent a "late" {"dropped":"board-completed"}"#,
            ])
    }

    @Test("rule 5: activation produces and installs a board before any check; commands only reach installed boards")
    func rule05_produceOnActivationNotOnCommand() {
        // A command to a board that is not installed is Boardy's misuse (it asserts): recorded here.
        let h = Harness(misuse: .record)
        var produced = 0
        let producer = BoardProducer(registrationsBuilder: { _ in
            BoardRegistration("lazy") { id in
                produced += 1
                return ClosureBoard<Void>(identifier: id, onCommand: { b, _ in b.sendOutput("pong") }) { _, _ in }
            }
        })
        let mb = h.motherboard(producer: producer)
        mb.sendCommand("ping", to: "lazy")
        #expect(produced == 0)
        #expect(h.lines == [#"command.sent lazy "ping" {"delivered":false}"#, "misuse lazy"])
        mb.activate("lazy")
        #expect(produced == 1)
        #expect((mb.board("lazy") as? Board)?.hostMotherboard === mb)
        mb.sendCommand("ping", to: "lazy")
        mb.activate("lazy")
        #expect(produced == 1, "an installed board is reused")
        #expect(h.lines.suffix(3) == [#"output.sent lazy "pong""#, "activation.requested lazy", "activation.performed lazy"])
    }

    @Test("rule 6: an unregistered id is a traced cancellation (reason unregistered), not a crash")
    func rule06_unregisteredIsCancelled() {
        let h = Harness()
        let mb = h.motherboard()
        mb.activate("ghost", with: "x")
        #expect(h.lines == [#"activation.requested ghost "x""#, "activation.cancelled ghost unregistered"])
        #expect(h.recorder.events[1].cause == 1)
    }

    @Test("rule 7: static and produced registrations; a producer keeps the first registration of a duplicate id")
    func rule07_firstRegistrationWins() {
        let h = Harness()
        var which: [String] = []
        let producer = BoardProducer(registrationsBuilder: { _ in
            BoardRegistration("dup") { id in ClosureBoard<Void>(identifier: id) { _, _ in which.append("first") } }
            BoardRegistration("dup") { id in ClosureBoard<Void>(identifier: id) { _, _ in which.append("second") } }
        })
        #expect(producer.ignoredDuplicates == ["dup"])
        let staticBoard = ClosureBoard<Void>(identifier: "static") { _, _ in which.append("static") }
        let mb = h.motherboard([staticBoard], producer: producer)
        mb.activate("dup")
        mb.activate("static")
        #expect(which == ["first", "static"])
    }

    @Test("rule 19: A ->> B ->> C activates each next board with the previous output as input")
    func rule19_flowSteps() {
        let h = Harness()
        let a = ClosureBoard<String>(identifier: "A") { b, s in b.sendOutput(s + ">A") }
        let b = ClosureBoard<String>(identifier: "B") { b, s in b.sendOutput(s + ">B") }
        var got: String?
        let c = ClosureBoard<String>(identifier: "C") { _, s in got = s }
        let mb = h.motherboard([a, b, c])
        mb.registerFlowSteps("A" ->> "B" ->> "C")
        mb.activate("A", with: "in")
        #expect(got == "in>A>B")
        #expect(
            h.lines == [
                #"activation.requested A "in""#, #"activation.performed A "in""#, #"output.sent A "in>A""#,
                #"flow.routed A "in>A" activate B"#, #"activation.requested B from A "in>A""#, #"activation.performed B "in>A""#,
                #"output.sent B "in>A>B""#, #"flow.routed B "in>A>B" activate C"#, #"activation.requested C from B "in>A>B""#,
                #"activation.performed C "in>A>B""#,
            ])
        // Every event leads back to the first request through `cause`.
        let events = h.recorder.events
        #expect(events.dropFirst().allSatisfy { $0.cause == $0.seq - 1 })
    }

    @Test("rule 20: flow handlers match the sender id and the output type; completion handlers match a completion")
    func rule20_handlersMatchSenderTypeAndCompletion() {
        let h = Harness()
        enum PaymentOutput {
            case success(String)
            case cancelled
        }
        let pay = ClosureBoard<Bool>(identifier: "pay") { b, ok in
            b.sendOutput(ok ? PaymentOutput.success("tx-1") : PaymentOutput.cancelled)
            b.sendOutput("a string, not a PaymentOutput")
            b.complete(ok)
        }
        let other = ClosureBoard<Void>(identifier: "other") { b, _ in b.sendOutput(PaymentOutput.cancelled) }
        let mb = h.motherboard([pay, other])
        var seen: [String] = []
        mb.io("pay", input: Bool.self, output: PaymentOutput.self, command: Void.self).flow.addTarget(mb) { _, out in seen.append("\(out)")
        }
        mb.io("pay", input: Bool.self, output: PaymentOutput.self, command: Void.self).completion.addTarget(mb) { _, done in
            seen.append("done \(done)")
        }
        mb.activate("pay", with: true)
        mb.activate("other")
        #expect(seen == [#"success("tx-1")"#, "done true"])
        #expect(h.lines.contains(#"flow.routed pay true completion"#))
    }

    @Test("rule 21: a continuous board owns an inner motherboard; outputs stay inside unless relayed; flow actions bubble up")
    func rule21_continuousBoards() {
        let h = Harness()
        let confirm = ClosureBoard<String>(identifier: "pubConfirm") { b, s in b.sendOutput("confirmed \(s)") }
        let payment = ClosureContinuousBoard(identifier: "pubPayment", boards: [confirm]) { c, input in
            c.continuousMotherboard.activate("pubConfirm", with: input)
        }
        payment.continuousMotherboard.io("pubConfirm", input: String.self, output: String.self, command: Void.self).flow.addTarget(payment)
        { p, out in
            p.sendOutput("relayed: \(out)")
        }
        let receipt = ClosureBoard<String>(identifier: "pubReceipt") { _, _ in }
        let mb = h.motherboard([payment, receipt])
        mb.registerFlowSteps("pubConfirm" ->> "pubReceipt")  // an inner id: never matches in the parent
        mb.registerFlowSteps("pubPayment" ->> "pubReceipt")
        mb.activate("pubPayment", with: "o-1")
        #expect(
            h.lines == [
                #"activation.requested pubPayment "o-1""#, #"activation.performed pubPayment "o-1""#,
                #"[main/pubPayment] activation.requested pubConfirm "o-1""#, #"[main/pubPayment] activation.performed pubConfirm "o-1""#,
                #"[main/pubPayment] output.sent pubConfirm "confirmed o-1""#,
                #"[main/pubPayment] flow.routed pubConfirm "confirmed o-1" handler"#,
                #"output.sent pubPayment "relayed: confirmed o-1""#,
                #"flow.routed pubPayment "relayed: confirmed o-1" activate pubReceipt"#,
                #"activation.requested pubReceipt from pubPayment "relayed: confirmed o-1""#,
                #"activation.performed pubReceipt "relayed: confirmed o-1""#,
            ])
    }

    @Test("rule 22: a plugin launcher registers every plugin's boards, builds the main motherboard once and launches")
    func rule22_pluginLauncher() {
        struct Auth: ModulePlugin {
            let identifier: BoardID = "mod.Authentication"
            func apply(for main: any MainComponent) {
                main.producer.registerBoard("pubAuth") { id in ClosureBoard<Void>(identifier: id) { b, _ in b.sendOutput("ok") } }
            }
        }
        struct Dashboard: ModulePlugin {
            let identifier: BoardID = "mod.Dashboard"
            func apply(for main: any MainComponent) {
                main.producer.registerBoard("pubDashboard") { id in ClosureBoard<String>(identifier: id) { _, _ in } }
            }
        }
        final class Window {}
        let h = Harness()
        let launcher = PluginLauncher.with(options: MainOptions(runtime: h.runtime))
            .install(plugin: Auth())
            .install(plugin: Dashboard())
            .install(launchSettings: { mainboard in mainboard.registerFlowSteps("pubAuth" ->> "pubDashboard") })
            .initialize()
        let window = Window()
        launcher.launch(in: window) { mb in mb.activateBoard(identifier: "pubAuth", withOption: nil) }
        #expect(launcher.mainboard.board("pubDashboard")?.context === window)
        #expect(h.lines.last == #"activation.performed pubDashboard "ok""#)
    }

    @Test(
        "rule 28: a bus delivers to a snapshot in connection order, holds targets weakly, and a new connection gets the next transport only"
    )
    func rule28_bus() {
        final class Target { var got: [String] = [] }
        let bus = Bus<String>()
        let a = Target()
        var b: Target? = Target()
        let late = Target()
        bus.connect(target: a) { t, v in
            t.got.append("a:\(v)")
            if v == "1" { bus.connect(target: late) { t, v in t.got.append("late:\(v)") } }
        }
        bus.connect(target: b!) { t, v in t.got.append("b:\(v)") }
        bus.transport(input: "1")
        #expect(a.got == ["a:1"])
        #expect(b?.got == ["b:1"])
        #expect(late.got.isEmpty)
        weak let weakB = b
        b = nil
        #expect(weakB == nil, "the bus holds its targets weakly")
        bus.transport(input: "2")
        #expect(a.got == ["a:1", "a:2"])
        #expect(late.got == ["late:2"])
        #expect(bus.connectionCount == 2)
    }
}
