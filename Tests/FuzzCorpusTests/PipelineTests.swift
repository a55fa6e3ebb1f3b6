import Boardy
import BoardyDispatch
import BoardySimulation
import BoardyTestSupport
import BoardyTrace
import BoardyVizCore
import BoardyVizSimulation
import Foundation
import FuzzTargets
import PropertyBased
import Testing

/// Whole-pipeline generative tests (issue 17): random valid scenarios through every command, and
/// random mutations of scenarios and traces, which must be refused with a location or handled,
/// never crash or hang. Fixed seeds and small counts here; `make fuzz-cli` runs long.
@Suite("Whole pipeline, generated")
struct PipelineTests {
    static let genome = Gen.uint8().array(of: 8...160)

    /// Fixed seeds, so `make test` runs the same cases every time (PropertyBased's own
    /// `propertyCheck` draws a new seed per run; `make fuzz-cli` is where new cases come from).
    static func inputs(_ count: Int, seed: UInt64) -> [([UInt8], UInt64)] {
        var rng = Xoshiro(seed: (seed, 0x5EED, 17, 4))
        let mutation = Gen.uint64()
        return (0..<count).map { _ in (genome.run(using: &rng), mutation.run(using: &rng)) }
    }

    @Test("random valid scenarios go through simulate, read-back, stats, graph, timeline, export, replay and check")
    func validScenarios() {
        for (bytes, _) in Self.inputs(60, seed: 1) {
            var g = ScenarioGenome(bytes)
            let text = g.scenarioJSON()
            #expect(throws: Never.self) { try Pipeline.run(scenarioJSON: text) }
        }
    }

    @Test("mutated scenarios and traces are handled or refused with a location")
    func mutations() {
        for (bytes, seed) in Self.inputs(60, seed: 2) {
            var g = ScenarioGenome(bytes)
            let text = g.scenarioJSON()
            #expect(throws: Never.self) { try Pipeline.checkMutatedScenario(Pipeline.mutate(text, seed: seed)) }
            guard let jsonl = try? Pipeline.run(scenarioJSON: text) else { continue }
            #expect(throws: Never.self) { try Pipeline.checkMutatedTrace(Pipeline.mutate(jsonl, seed: seed)) }
        }
    }

    @Test("a run that is over leaves nothing alive: stuck barriers and pending work do not keep the app in a reference cycle")
    func nothingLeftAlive() throws {
        var kept = 0
        for (bytes, _) in Self.inputs(150, seed: 3) {
            var g = ScenarioGenome(bytes)
            let s = try ScenarioLoader.load(json: g.scenarioJSON())
            weak var mainboard: Motherboard?
            weak var runtime: BoardyRuntime?
            weak var dispatch: DispatchManager?
            do {
                let built = ScenarioBuilder.build(s, observer: TraceRecorder())
                (mainboard, runtime, dispatch) = (built.mainboard, built.runtime, built.dispatch)
                for step in s.script {
                    built.scheduler.schedule(after: step.at) { Simulator.apply(step.action, to: built.mainboard, dispatch: built.dispatch) }
                }
                _ = built.runtime.drive(built.scheduler, bounds: Pipeline.bounds, lastStimulus: s.script.map(\.at).max() ?? .zero)
                built.runtime.tearDown()
            }
            if mainboard != nil || runtime != nil || dispatch != nil { kept += 1 }
        }
        #expect(kept == 0, "\(kept) of 150 runs kept their app alive")
    }

    /// Weak references to everything a built app is made of: the runtime, the clock, the
    /// dispatch pipeline, every motherboard (roots and continuous boards' inner ones) and every
    /// board installed in them when the run is over.
    final class Lifetimes {
        struct Weak { weak var object: AnyObject? }
        var objects: [(String, Weak)] = []

        func hold(_ built: BuiltScenario) {
            objects.append(("runtime", Weak(object: built.runtime)))
            objects.append(("scheduler", Weak(object: built.scheduler)))
            if let d = built.dispatch { objects.append(("dispatch", Weak(object: d))) }
            var seen = Set<ObjectIdentifier>()
            func visit(_ mb: Motherboard) {
                guard seen.insert(ObjectIdentifier(mb)).inserted else { return }
                objects.append(("motherboard \(mb.path)", Weak(object: mb)))
                for b in mb.boards {
                    objects.append(("board \(mb.path)/\(b.identifier.rawValue)", Weak(object: b)))
                    if let c = b as? ContinuousBoard, let inner = c.motherboard as? Motherboard { visit(inner) }
                }
            }
            visit(built.mainboard)
            for (_, root) in built.roots.sorted(by: { $0.key < $1.key }) { visit(root) }
        }

        var alive: [String] { objects.filter { $0.1.object != nil }.map(\.0) }
    }

    @Test("the leak check over the whole engine: after every sample and 150 generated scenarios (stuck, looping and runaway runs among them), no motherboard, board, runtime or clock is left alive")
    func noObjectOfTheAppOutlivesItsRun() throws {
        var scenarios: [Scenario] = []
        let samples = repoRoot.appendingPathComponent("samples")
        for f in try FileManager.default.contentsOfDirectory(atPath: samples.path).sorted() where f.hasSuffix(".json") || f.hasSuffix(".yaml") {
            scenarios.append(try ScenarioLoader.load(path: samples.appendingPathComponent(f).path))
        }
        #expect(scenarios.count >= 5)
        for (bytes, _) in Self.inputs(150, seed: 5) {
            var g = ScenarioGenome(bytes)
            scenarios.append(try ScenarioLoader.load(json: g.scenarioJSON()))
        }
        var leaks: [String] = []
        var objectsChecked = 0
        for s in scenarios {
            let lifetimes = Lifetimes()
            _ = Simulator.run(s, bounds: Pipeline.bounds, inspect: { lifetimes.hold($0) })
            objectsChecked += lifetimes.objects.count
            if let first = lifetimes.alive.first { leaks.append("\(s.name): \(first) (\(lifetimes.alive.count) alive)") }
        }
        #expect(objectsChecked > scenarios.count * 3)
        #expect(leaks.isEmpty, "\(leaks.prefix(5))")
    }

    @Test("coverage of 200 generated scenarios is exact: a planted flow no output triggers is found; boards are exercised exactly when they performed")
    func generatedCoverage() throws {
        var checked = 0
        for (bytes, seed) in Self.inputs(200, seed: 4) {
            var g = ScenarioGenome(bytes)
            guard var doc = try? JSONValue(parsing: g.scenarioJSON()).objectValue, let boards = doc["boards"]?.arrayValue,
                let first = boards.first?.objectValue?["id"]?.stringValue, let last = boards.last?.objectValue?["id"]?.stringValue
            else { continue }
            // Planted: a flow on an output no board ever sends.
            let never = "planted-never-sent-\(seed)"
            doc["flows"] = .array((doc["flows"]?.arrayValue ?? []) + [["from": .string(first), "on": .string(never), "activate": .string(last)]])
            let s = try ScenarioLoader.load(json: JSONValue.object(doc).jsonText, file: "gen.json")
            let trace = Simulator.run(s, bounds: Pipeline.bounds).trace
            let c = Coverage(model: FlowModel(scenario: s), fingerprint: s.fingerprint, traces: [("gen.jsonl", trace)])
            // The fast path (the trace read as a table) gives the same coverage and model.
            let table = try TraceTable.read(bytes: Array(trace.jsonl.utf8), name: "gen.jsonl")
            let fast = try Coverage(model: FlowModel(scenario: s), fingerprint: s.fingerprint, tables: [("gen.jsonl", table)])
            #expect(fast.items == c.items && fast.unknownBoards == c.unknownBoards, "\(seed): coverage from the table")
            #expect(try FlowModel(table: table) == FlowModel(trace: trace), "\(seed): observed model from the table")
            let loose = try Coverage(model: FlowModel(scenario: s), fingerprint: nil, tables: [("gen.jsonl", table)])
            #expect(loose.items == Coverage(model: FlowModel(scenario: s), fingerprint: nil, traces: [("gen.jsonl", trace)]).items, "\(seed)")
            let planted = c.items.filter { $0.kind == "flow" && $0.name == "\(first) → \(last) on \(never)" }
            #expect(planted.count == 1 && planted.first?.traces == 0, "\(seed): the planted flow")
            // Boards: exercised exactly when the trace shows them performing (a gateway run's
            // gate counts for the gate).
            let performed = Set(trace.events.compactMap { e -> String? in
                guard case .activationPerformed(let b, _) = e.body else { return nil }
                return FlowModel.Board.key(mb: MotherboardPath(FlowModel.foldingGatewayRuns(e.mb)), id: b)
            })
            for i in c.items where i.kind == "board" {
                #expect((i.traces > 0) == performed.contains(i.name), "\(seed): board \(i.name)")
            }
            checked += 1
        }
        #expect(checked >= 150)
    }
}
