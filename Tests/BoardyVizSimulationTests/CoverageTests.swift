import Boardy
import BoardySimulation
import BoardyTestSupport
import BoardyTrace
import BoardyVizCore
import BoardyVizSimulation
import Foundation
import Testing

@Suite("Coverage")
struct CoverageTests {
    static let planted = plantedCoverageScenario

    @Test("a planted flow no trace takes is found and listed first; its target and the unused barrier too")
    func planted() throws {
        let s = try ScenarioLoader.load(bytes: Array(Self.planted.utf8), file: "planted.json")
        let t = Simulator.run(s).trace
        let c = Coverage(model: FlowModel(scenario: s), fingerprint: s.fingerprint, traces: [("t1", t), ("t2", t)])
        #expect(c.traces == 2)
        let never = c.items.prefix { $0.traces == 0 }.map(\.name)
        #expect(Set(never) == ["c", "gate", "d", "d waits for gate", "a → c on cancel"])
        #expect(c.items.first { $0.name == "a → b on ok" }.map { [$0.traces, $0.count] } == [2, 2])
        #expect(c.items.first { $0.name == "a" }?.count == 2)
        #expect(abs(c.percent - 100 * 3 / 8) < 0.01)
        // A trace from another definition is left out and said, not mixed in.
        let other = try sampleTrace("checkout")
        let mixed = Coverage(model: FlowModel(scenario: s), fingerprint: s.fingerprint, traces: [("t1", t), ("other", other)])
        #expect(mixed.traces == 1)
        #expect(mixed.excluded.map(\.name) == ["other"])
    }

    @Test("boards running on our Boardy in a test: the recorded trace covers the motherboard's own graph")
    func liveBoards() throws {
        let recorder = TraceRecorder()
        let runtime = BoardyRuntime(scheduler: VirtualScheduler(), observer: recorder)
        let mb = Motherboard(
            boards: [
                ClosureBoard<Any?>(identifier: "cart") { b, _ in b.sendOutput("checkout") },
                ClosureBoard<Any?>(identifier: "order") { _, _ in }, ClosureBoard<Any?>(identifier: "help") { _, _ in },
            ], runtime: runtime)
        mb.registerFlowSteps("cart" ->> "order")
        mb.stimulate(.activate("cart"))
        let model = FlowModel(definition: mb.definition, path: mb.path, title: "live")
        let trace = Trace(header: TraceHeader(scenario: "live"), events: recorder.events)
        let c = Coverage(model: model, fingerprint: nil, traces: [("live", trace)])
        #expect(c.items.filter { $0.traces == 0 }.map(\.name) == ["help"])
        #expect(c.items.first { $0.kind == "flow" }?.count == 1)
        #expect(c.unknownBoards.isEmpty)
    }

    @Test("the samples' own traces cover their scenarios exactly where they ran", arguments: sampleNames)
    func samples(name: String) throws {
        let s = try scenario(name)
        let c = Coverage(model: FlowModel(scenario: s), fingerprint: s.fingerprint, traces: [(name, try sampleTrace(name))])
        #expect(c.excluded.isEmpty)
        // Every board the trace performed is exercised, and only those (a gateway run's own gate
        // instance counts for the gate).
        let performed = Set(try sampleTrace(name).events.compactMap { e -> String? in
            guard case .activationPerformed(let b, _) = e.body else { return nil }
            return FlowModel.Board.key(mb: MotherboardPath(FlowModel.foldingGatewayRuns(e.mb)), id: b)
        })
        for i in c.items where i.kind == "board" { #expect((i.traces > 0) == performed.contains(i.name), "\(i.name)") }
    }

    @Test("read as tables, every sample trace gives the model, the observation and the coverage its events give", arguments: sampleNames)
    func tablesMatchEvents(name: String) throws {
        let s = try scenario(name)
        let trace = try sampleTrace(name)
        let table = try TraceTable.read(bytes: Array(trace.jsonl.utf8), name: name)
        try expectSame(trace: trace, table: table, model: FlowModel(scenario: s), fingerprint: s.fingerprint)
        // Against every other sample's scenario too: excluded by its fingerprint, or (without
        // one) matched by ids, with the boards the definition lacks listed in the same order.
        for other in sampleNames where other != name {
            let o = try scenario(other)
            try expectSame(trace: trace, table: table, model: FlowModel(scenario: o), fingerprint: o.fingerprint)
            try expectSame(trace: trace, table: table, model: FlowModel(scenario: o), fingerprint: nil)
        }
    }

    @Test("a trace numbered with gaps, read leniently: a request's cause finds the same board as table and as events")
    func lenientNumbering() throws {
        let text = """
            {"format":"boardy-trace","version":1,"scenario":"gaps","clock":"virtual"}
            {"seq":1,"t":0,"kind":"stimulus","mb":"main","action":"activate","board":"a"}
            {"seq":4,"t":0,"kind":"activation.performed","mb":"main","board":"a","cause":1}
            {"seq":2,"t":0,"kind":"activation.performed","mb":"main","board":"x","cause":1}
            {"seq":9,"t":0,"kind":"activation.requested","mb":"main","board":"b","cause":4}
            {"seq":10,"t":0,"kind":"activation.requested","mb":"main","board":"c","cause":2}
            {"seq":11,"t":0,"kind":"activation.requested","mb":"main","board":"d","source":"a","cause":9}
            {"seq":12,"t":0,"kind":"activation.requested","mb":"main","board":"e","cause":3}

            """
        let trace = try Trace.read(text: text, order: .lenient)
        let table = try TraceTable.read(bytes: Array(text.utf8), name: "gaps.jsonl", order: .lenient)
        let events = TraceObservation(trace: trace).activations.map { "\($0.from)>\($0.to)" }
        #expect(events == ["a>b", "x>c", "a>d"])
        #expect(try TraceObservation(table: table).activations.map { "\($0.from)>\($0.to)" } == events)
        #expect(try FlowModel(table: table) == FlowModel(trace: trace))
    }
}

/// Coverage, its model and its observations from a table equal those from the trace's events.
func expectSame(trace: Trace, table: TraceTable, model: FlowModel, fingerprint: String?) throws {
    #expect(try FlowModel(table: table) == FlowModel(trace: trace))
    let pairs: (TraceObservation) -> [String] = { $0.activations.map { "\($0.from)>\($0.to)" } }
    #expect(try pairs(TraceObservation(table: table)) == pairs(TraceObservation(trace: trace)))
    let a = Coverage(model: model, fingerprint: fingerprint, traces: [("t", trace), ("t2", trace)])
    let b = try Coverage(model: model, fingerprint: fingerprint, tables: [("t", table), ("t2", table)])
    #expect(a.items == b.items)
    #expect(a.excluded == b.excluded)
    #expect(a.unknownBoards == b.unknownBoards)
    #expect(a.traces == b.traces && a.name == b.name)
    #expect(a.observed.map(\.observed) == b.observed.map(\.observed))
    #expect(a.observed.map(pairs) == b.observed.map(pairs))
    var weighedA = model
    weighedA.weigh(by: [trace])
    var weighedB = model
    try weighedB.weigh(byTables: [table])
    #expect(weighedA == weighedB)
}
