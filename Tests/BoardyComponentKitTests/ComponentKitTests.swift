import Boardy
import BoardyComponentKit
import BoardyTestSupport
import Testing

struct Failure: Error, CustomStringConvertible {
    var description: String { "payment declined" }
}

/// A task that finishes after `seconds` on the virtual clock.
func delayed<I, O>(_ seconds: Int, _ result: @escaping (I) -> Result<O, any Error>) -> TaskBoard<I, O>.Executor {
    { board, input, completion in board.schedule(after: .seconds(seconds)) { completion(result(input)) } }
}

@Suite("ComponentKit: TaskBoard, ResultTaskBoard, FlowBoard, BarrierBoard")
struct ComponentKitRuleTests {
    @Test("rule 23: TaskBoard runs one activation at a time; others are dropped as busy; success handlers run in Boardy's order (golden)")
    func rule23_taskBoardOneAtATime() throws {
        let h = Harness()
        var calls: [String] = []
        let task = TaskBoard<String, String>(
            identifier: "taskFetch", executor: delayed(1) { .success("result of \($0)") },
            successHandler: { _, out in calls.append("success \(out)") },
            processingHandler: { b in calls.append("processing \(b.isProcessing)") },
            completionHandler: { b in calls.append("completion \(b.isCompleted)") })
        let mb = h.motherboard([task])
        for q in ["a", "b", "c"] { mb.stimulate(.activate("taskFetch", input: q)) }
        h.scheduler.run()
        #expect(calls == ["processing true", "success result of a", "processing false", "completion true"])
        #expect(h.lines.filter { $0.hasPrefix("activation.cancelled") } == [
            "activation.cancelled taskFetch busy", "activation.cancelled taskFetch busy",
        ])
        #expect(h.lines.suffix(2) == [#"output.sent taskFetch "result of a""#, "board.completed taskFetch true"])
        try expectGolden(h.recorder.jsonl(header: mb.traceHeader(scenario: "task-board-busy")), "task-board-busy.jsonl")
    }

    @Test("rule 23: on failure the error handler, processing false, the completion handler, then complete(false); no output")
    func rule23_taskBoardFailure() {
        let h = Harness()
        var calls: [String] = []
        let task = TaskBoard<Int, Int>(
            identifier: "taskPay", executor: delayed(1) { _ in .failure(Failure()) }, errorHandler: { _, e in calls.append("error \(e)") },
            completionHandler: { b in calls.append("completion \(b.isCompleted)") })
        let mb = h.motherboard([task])
        mb.activate("taskPay", with: 5)
        h.scheduler.run()
        #expect(calls == ["error payment declined", "completion true"])
        #expect(!h.lines.contains { $0.hasPrefix("output.sent") })
        #expect(h.lines.last == "board.completed taskPay false")
    }

    @Test("rule 25: ResultTaskBoard sends progress, then success completes true; failure and cancel complete false; busy while running")
    func rule25_resultTaskBoard() {
        for (final, ok) in [(BoardResult<Int, Failure>.success(3), true), (.cancel, false), (.failure(Failure()), false)] {
            let h = Harness()
            var board: ResultTaskBoard<Void, Int, Failure>!
            board = ResultTaskBoard<Void, Int, Failure>(identifier: "taskUpload") { _, send in
                send(.progress(fractionCompleted: 0.5))
                board.schedule(after: .seconds(1)) { send(.progress(fractionCompleted: 1)) }
                board.schedule(after: .seconds(2)) { send(final) }
                board.schedule(after: .seconds(3)) { send(.success(4)) }
            }
            let mb = h.motherboard([board])
            mb.activate("taskUpload")
            mb.activate("taskUpload")
            h.scheduler.run()
            let outputs = h.recorder.events.compactMap { e -> String? in
                if case let .outputSent(_, o) = e.body { return o.jsonText }
                return nil
            }
            #expect(outputs == [#"{"progress":0.5}"#, #"{"progress":1}"#, final.traceValue.jsonText], "a second final result is a no-op")
            #expect(h.lines.last == "board.completed taskUpload \(ok)")
            #expect(h.lines.contains("activation.cancelled taskUpload busy"))
        }
    }

    @Test("rule 26: FlowBoard is a continuous board from a registration and an activation closure, and bypasses the gateway")
    func rule26_flowBoard() {
        let h = Harness()
        let cart = ClosureBoard<String>(identifier: "pubCart") { b, s in b.sendOutput("order:\(s)") }
        var paid: String?
        let pay = ClosureBoard<String>(identifier: "pubPay") { _, s in paid = s }
        let flow = FlowBoard<String, Void, Void, BoardFlowNoneAction>(
            identifier: "flowCheckout", producer: BoardProducer(registrations: [cart, pay].map { b in BoardRegistration(b.identifier) { _ in b } }),
            flowRegistration: { flow in flow.motherboard.registerFlowSteps("pubCart" ->> "pubPay") },
            flowActivation: { flow, input in flow.motherboard.activateBoard(identifier: "pubCart", withOption: input) })
        let mb = h.motherboard([flow, ClosureBoard<Any?>(identifier: "pubAuth") { _, _ in }])
        mb.install(gatewayBarrier: .gate("pubAuth"))
        mb.activate("flowCheckout", with: "c1")
        #expect(paid == "order:c1")
        #expect(h.lines.contains("gateway.checked flowCheckout"))
        #expect(h.recorder.events.contains { $0.body == .gatewayChecked(board: "flowCheckout", barrier: "pubAuth", result: .bypass) })
    }

    @Test("rule 27: BarrierBoard runs waiters in order on overcome, sends the value, completes; cancel drops them; the next wait gets a fresh board")
    func rule27_barrierBoard() {
        let h = Harness()
        var ran: [String] = []
        var produced = 0
        let producer = BoardProducer(registrations: [
            BoardRegistration("pubAuthUser") { id in
                produced += 1
                return BarrierBoard<String>(identifier: id)
            }
        ])
        let mb = h.motherboard(producer: producer)
        mb.activate("pubAuthUser", with: BarrierBoardInput<String>.wait { ran.append("first \($0)") })
        mb.activate("pubAuthUser", with: BarrierBoardInput<String>.wait { ran.append("second \($0)") })
        mb.activate("pubAuthUser", with: BarrierBoardInput<String>.overcome("alice"))
        #expect(ran == ["first alice", "second alice"])
        #expect(h.lines.suffix(2) == [#"output.sent pubAuthUser "alice""#, "board.completed pubAuthUser true"])
        mb.activate("pubAuthUser", with: BarrierBoardInput<String>.wait { ran.append("third \($0)") })
        mb.activate("pubAuthUser", with: BarrierBoardInput<String>.cancel)
        mb.activate("pubAuthUser", with: BarrierBoardInput<String>.overcome("bob"))
        #expect(ran == ["first alice", "second alice"], "cancelled waiters never run; a fresh board has none")
        #expect(produced == 3)
        #expect(h.recorder.events.contains { $0.body == .activationPerformed(board: "pubAuthUser", input: ["wait": true]) })
    }

    @Test("the reference's add-to-cart example: wait on the barrier board, authenticate, the action runs once; closing login cancels it")
    func addToCart() {
        enum AuthResult { case authenticated(String), userClosed }
        for closes in [false, true] {
            let h = Harness()
            var added: [String] = []
            let producer = BoardProducer(registrations: [
                BoardRegistration("pubAuthUser") { BarrierBoard<String>(identifier: $0) },
                BoardRegistration("pubAuthenticate") { id in
                    ClosureBoard<Void>(identifier: id) { b, _ in
                        b.schedule(after: .seconds(2)) { b.sendOutput(closes ? AuthResult.userClosed : .authenticated("alice")) }
                    }
                },
            ])
            let mb = h.motherboard(producer: producer)
            mb.io("pubAuthenticate", input: Void.self, output: AuthResult.self, command: Void.self).flow.addTarget(mb) { mb, result in
                switch result {
                case let .authenticated(user): mb.activate("pubAuthUser", with: BarrierBoardInput<String>.overcome(user))
                case .userClosed: mb.activate("pubAuthUser", with: BarrierBoardInput<String>.cancel)
                }
            }
            // Not logged in: wait on the barrier, then ask for a login.
            mb.stimulate(.activate("pubAuthUser", input: BarrierBoardInput<String>.wait { user in added.append("cart items for \(user)") }))
            mb.stimulate(.activate("pubAuthenticate"))
            h.scheduler.run()
            if closes {
                #expect(added.isEmpty)
                #expect(h.lines.contains("board.completed pubAuthUser false"))
                #expect(h.recorder.events.contains { $0.body == .activationPerformed(board: "pubAuthUser", input: ["cancel": true]) })
            } else {
                #expect(added == ["cart items for alice"])
                #expect(h.lines.contains("board.completed pubAuthUser true"))
            }
        }
    }
}

@Suite("ComponentKit: BlockTaskBoard executing types")
struct BlockTaskBoardTests {
    /// Activates `board` three times at t=0 with inputs 1, 2, 3; each task takes `durations[i]`
    /// seconds. Returns the log of handler calls with their times.
    func run(_ type: BlockTaskExecutingType, durations: [Int] = [3, 1, 2]) -> (log: [String], h: Harness, mb: Motherboard) {
        let h = Harness()
        var log: [String] = []
        let board = BlockTaskBoard<Int, String>(identifier: "taskLoad", executingType: type) { b, n, completion in
            b.schedule(after: .seconds(durations[n - 1])) { completion(.success("r\(n)")) }
        }
        let mb = h.motherboard([board])
        for n in 1...3 {
            let p = BlockTaskParameter<Int, String>(input: n)
                .onSuccess { log.append("t=\(h.scheduler.now) \(n) success \($0)") }
                .onCompletion { log.append("t=\(h.scheduler.now) \(n) \($0)") }
            mb.stimulate(.activate("taskLoad", input: p))
        }
        h.scheduler.run()
        return (log, h, mb)
    }

    @Test("default: every activation runs in parallel; the board completes when none remains")
    func defaultParallel() {
        let (log, h, _) = run(.default)
        #expect(log == ["t=1 2 success r2", "t=1 2 done", "t=2 3 success r3", "t=2 3 done", "t=3 1 success r1", "t=3 1 done"])
        #expect(h.lines.last == "board.completed taskLoad true")
        #expect(h.lines.filter { $0 == "board.completed taskLoad true" }.count == 1)
    }

    @Test("latest: a new activation cancels the running ones (traced as superseded)")
    func latest() {
        let (log, h, _) = run(.latest)
        #expect(log == ["t=0 1 cancelled", "t=0 2 cancelled", "t=2 3 success r3", "t=2 3 done"])
        #expect(h.lines.filter { $0.hasPrefix("activation.cancelled") } == [
            #"activation.cancelled taskLoad superseded {"detail":"a newer activation replaced this task"}"#,
            #"activation.cancelled taskLoad superseded {"detail":"a newer activation replaced this task"}"#,
        ])
    }

    @Test("only: while a task runs, new activations are turned down (cancelled, traced as busy)")
    func only() {
        let (log, h, _) = run(.only)
        #expect(log == ["t=0 2 cancelled", "t=0 3 cancelled", "t=3 1 success r1", "t=3 1 done"])
        #expect(h.lines.filter { $0.hasPrefix("activation.cancelled") }.count == 2)
    }

    @Test("onlyResult: activations during a running task share its result")
    func onlyResult() {
        let (log, h, _) = run(.onlyResult)
        #expect(log == ["t=3 1 success r1", "t=3 1 done", "t=3 2 success r1", "t=3 2 done", "t=3 3 success r1", "t=3 3 done"])
        #expect(h.lines.filter { $0.hasPrefix("output.sent") }.count == 3)
    }

    @Test("queue: one at a time, in activation order (golden)")
    func queue() throws {
        let (log, h, mb) = run(.queue)
        #expect(log == ["t=3 1 success r1", "t=3 1 done", "t=4 2 success r2", "t=4 2 done", "t=6 3 success r3", "t=6 3 done"])
        try expectGolden(h.recorder.jsonl(header: mb.traceHeader(scenario: "block-task-queue")), "block-task-queue.jsonl")
    }

    @Test("concurrent(max: 2): at most two at a time, the rest in order")
    func concurrent() {
        let (log, _, _) = run(.concurrent(max: 2))
        #expect(log == ["t=1 2 success r2", "t=1 2 done", "t=3 1 success r1", "t=3 1 done", "t=3 3 success r3", "t=3 3 done"])
    }

    @Test("rule 24: per task, success or error, output on success only, processing false, then done; task boards bypass the gateway")
    func perTaskOrder() {
        let h = Harness()
        var log: [String] = []
        // Produced: the board completes when no task remains, and the next activation gets a new one.
        let producer = BoardProducer(registrations: [
            BoardRegistration("taskCheck") { id in
                BlockTaskBoard<Bool, Int>(identifier: id) { _, ok, completion in completion(ok ? .success(1) : .failure(Failure())) }
            }
        ])
        let mb = h.motherboard([ClosureBoard<Any?>(identifier: "pubAuth") { _, _ in }], producer: producer)
        mb.install(gatewayBarrier: .gate("pubAuth"))
        for ok in [true, false] {
            mb.activate(
                "taskCheck",
                with: BlockTaskParameter<Bool, Int>(input: ok).onSuccess { log.append("success \($0)") }.onError { log.append("error \($0)") }
                    .onProcessing { log.append("processing \($0)") }.onCompletion { log.append("\($0)") })
        }
        #expect(log == [
            "processing true", "success 1", "processing false", "done", "processing true", "error payment declined", "processing false", "done",
        ])
        #expect(h.recorder.events.filter { $0.body == .gatewayChecked(board: "taskCheck", barrier: "pubAuth", result: .bypass) }.count == 2)
    }
}
