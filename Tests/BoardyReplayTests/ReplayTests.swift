import Boardy
import BoardyReplay
import BoardyVizSimulation
import BoardySimulation
import BoardyTestSupport
import Foundation
import Testing

@Suite("Replay")
struct ReplayTests {
    @Test("every checked-in sample trace replays the same on its scenario", arguments: sampleNames)
    func samplesReplay(name: String) throws {
        let trace = try Trace.read(path: sampleTracePath(name))
        let result = try Replayer.replay(trace, scenario: try sampleScenario(name), traceName: name)
        #expect(result.isSame, "\(result)")
        #expect(result.verdict == .same)
        #expect(result.definitionMatches == true)
        #expect(result.replayedEvents == trace.events.count)
        #expect(result.stimuliFed == trace.events.filter { $0.kind == "stimulus" }.count)
    }

    @Test("a sample with one flow step removed diverges with the verdict: the definition changed")
    func definitionChanged() throws {
        let path = repoRoot.appendingPathComponent("samples/checkout.json").path
        var json = try #require(try JSONValue(parsing: String(contentsOfFile: path, encoding: .utf8)).objectValue)
        // "pubShoppingCart ->> pubOrdering ->> pubPayment" loses its last step.
        json["flows"] = .array(
            (json["flows"]?.arrayValue ?? []).map { $0 == "pubShoppingCart ->> pubOrdering ->> pubPayment" ? "pubShoppingCart ->> pubOrdering" : $0 })
        let changed = try ScenarioLoader.load(json: JSONValue.object(json).jsonText, file: "checkout-changed.json")
        let result = try Replayer.replay(try Trace.read(path: sampleTracePath("checkout")), scenario: changed)
        let d = try #require(result.divergence)
        #expect(result.verdict == .definitionChanged)
        #expect(d.seq == 37)
        #expect(d.expected?.kind == "flow.routed")
        #expect(result.description.contains("the flow definition changed"))
    }

    @Test("a changed outcome with the same definition: same definition, different behaviour, with a full report")
    func differentBehaviour() throws {
        let text = try sampleTraceText("checkout")
        var (header, events) = try traceLines(text)
        events[16]["board"] = "pubCart"  // seq 17: activation.performed pubShoppingCart
        let result = try replay(traceText(header: header, events), try sampleScenario("checkout"))
        let d = try #require(result.divergence)
        #expect(d.seq == 17)
        #expect(d.kind == .differs)
        #expect(result.verdict == .differentBehaviour)
        #expect(d.fields == [FieldDifference(name: "board", expected: "pubCart", actual: "pubShoppingCart")])
        #expect(d.context.map(\.seq) == [14, 15, 16])
        // The cause chain runs back to the stimulus that started it all.
        #expect(d.expectedCauses.first?.seq == 16)
        #expect(d.expectedCauses.last?.kind == "stimulus")
        let report = result.description
        for part in ["DIVERGED at seq 17", "before it (the same in both):", "- expected (trace):", "+ actual (replay):", "fields that differ:",
            "board  - \"pubCart\"", "caused by (trace):  16 barrier.resolved", "3 stimulus activate pubWelcome", "same definition, different behaviour"]
        {
            #expect(report.contains(part), "report lacks \(part.debugDescription):\n\(report)")
        }
        let json = try #require(result.json.objectValue)
        #expect(json["result"] == "diverged")
        #expect(json["verdict"] == "different-behaviour")
        #expect(json["divergence"]?.objectValue?["seq"] == 17)
    }

    @Test("events missing at the end and extra events are divergences too")
    func missingAndExtra() throws {
        let text = try sampleTraceText("add-to-cart")
        let (header, events) = try traceLines(text)
        let short = try replay(traceText(header: header, Array(events.dropLast(2))), try sampleScenario("add-to-cart"))
        #expect(short.divergence?.kind == .extra)
        #expect(short.divergence?.seq == events.count - 1)
        #expect(short.description.contains("the trace ends before this"))
        var copy = events.last!
        copy["seq"] = .int(Int64(events.count + 1))
        let long = try replay(traceText(header: header, events + [copy]), try sampleScenario("add-to-cart"))
        #expect(long.divergence?.kind == .missing)
        #expect(long.divergence?.seq == events.count + 1)
    }

    @Test("a stimulus that cannot be replayed is reported at its place, with why")
    func unreplayableStimulus() throws {
        let text = try sampleTraceText("checkout")
        var (header, events) = try traceLines(text)
        events[18]["action"] = "teleport"  // seq 19: the network stimulus
        let result = try replay(traceText(header: header, events), try sampleScenario("checkout"))
        #expect(result.divergence?.seq == 19)
        #expect(result.divergence?.note?.contains("unknown stimulus action \"teleport\"") == true)
        #expect(result.stimulusErrors.count == 1)
    }

    @Test("a trace cut with --until replays to the same cut", arguments: [("stuck-gate", 3.0), ("checkout", 5.0), ("analytics-dispatch", 2.5)])
    func until(name: String, at seconds: Double) throws {
        let s = try sampleScenario(name)
        let cut = Simulator.run(s, until: .seconds(seconds))
        #expect(cut.header.extra["until"] != nil)
        let trace = try Trace.read(text: cut.jsonl)
        let result = try Replayer.replay(trace, scenario: s)
        #expect(result.isSame, "\(result)")
    }

    @Test("--flip of a barrier verdict: the gate now fails, and the report shows where the run goes")
    func flipVerdict() throws {
        let trace = try Trace.read(path: sampleTracePath("checkout"))
        let result = try Replayer.replay(trace, scenario: try sampleScenario("checkout"), options: .init(flip: 16))
        let d = try #require(result.divergence)
        #expect(d.seq == 16)
        #expect(d.fields.map(\.name) == ["passed"])
        let run = try #require(result.run)
        #expect(run.contains { $0.body == .activationCancelled(board: "pubShoppingCart", reason: .barrierFailed) })
        #expect(!run.contains { $0.body.board == "pubReceipt" && $0.kind == "activation.performed" })
        let delta = OutcomeDelta(recorded: trace.events, run: run)
        #expect(delta.changes.contains(.init(what: "pubReceipt performed", before: 1, after: 0)))
        #expect(delta.changes.contains(.init(what: "pubShoppingCart cancelled (barrier-failed)", before: 0, after: 1)))
        // The counterfactual run is a valid trace on its own.
        let reread = try Trace.read(text: try #require(result.runTrace).jsonl)
        #expect(reread.events.count == run.count)
    }

    @Test("--flip of an outside completion: the login closed instead of completing")
    func flipCompletion() throws {
        let s = try ScenarioLoader.load(
            json: """
                {"scenario": "login", "boards": [
                   {"id": "pubLogin"},
                   {"id": "pubHome", "activationBarrier": {"board": "pubLogin"}, "onActivate": [{"output": "home"}]}],
                 "script": [{"at": 0, "activate": "pubHome"}, {"at": 2, "complete": "pubLogin", "with": true}]}
                """, file: "login.json")
        let recorded = Simulator.run(s)
        let trace = try Trace.read(text: recorded.jsonl)
        #expect(try Replayer.replay(trace, scenario: s).isSame)
        let complete = try #require(trace.events.first { $0.kind == "stimulus" && $0.body.board == "pubLogin" })
        let result = try Replayer.replay(trace, scenario: s, options: .init(flip: complete.seq))
        #expect(result.divergence?.seq == complete.seq)
        #expect(result.flip?.what.contains("with=true → false") == true)
        #expect(result.run?.contains { $0.body == .activationCancelled(board: "pubHome", reason: .barrierFailed) } == true)
    }

    @Test("--flip of an event that is neither a verdict nor an outside completion is refused, naming it")
    func flipRefused() throws {
        let trace = try Trace.read(path: sampleTracePath("checkout"))
        #expect(throws: ReplayError.self) { try Replayer.replay(trace, scenario: try sampleScenario("checkout"), options: .init(flip: 17)) }
        #expect(throws: ReplayError.self) { try Replayer.replay(trace, scenario: try sampleScenario("checkout"), options: .init(flip: 9999)) }
    }

    @Test("a Swift target not on virtual time, or not reporting to the replay, is refused")
    func targetMisuse() throws {
        let trace = try Trace.read(path: sampleTracePath("add-to-cart"))
        #expect(throws: ReplayError.self) {
            try Replayer.replay(trace) { _ in ReplayTarget(mainboard: Motherboard(runtime: BoardyRuntime(scheduler: VirtualScheduler()))) }
        }
    }
}
