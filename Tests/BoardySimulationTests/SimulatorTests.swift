import Boardy
import BoardySimulation
import BoardyTestSupport
import BoardyViz
import BoardyVizCore
import BoardyVizSimulation
import Foundation
import Testing

@Suite("Samples")
struct SampleTests {
    @Test("each sample simulates to its checked-in trace, byte for byte, twice", arguments: sampleNames)
    func sampleTrace(name: String) throws {
        let s = try sample(name)
        let first = Simulator.run(s).trace.jsonl
        #expect(first == Simulator.run(s).trace.jsonl, "simulating twice gives identical bytes")
        let path = samplesDir.appendingPathComponent("traces/\(name).jsonl")
        if ProcessInfo.processInfo.environment["BOARDY_RECORD_GOLDEN"] == "1" {
            try first.write(to: path, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: path, encoding: .utf8)
        let a = first.split(separator: "\n")
        let e = expected.split(separator: "\n")
        let firstDiff = zip(a, e).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(a.count == e.count && firstDiff == nil, "samples/traces/\(name).jsonl differs at line \((firstDiff?.offset ?? min(a.count, e.count)) + 1); rerun with BOARDY_RECORD_GOLDEN=1 if the change is intended")
        // The checked-in trace reads back as a valid trace.
        #expect(try Trace.read(path: path.path).events.count == a.count - 1)
    }

    @Test("every sample's expectations hold", arguments: sampleNames)
    func sampleExpectations(name: String) throws {
        let s = try sample(name)
        let events = Simulator.run(s).trace.events
        for e in s.expectations {
            let r = e.check(events)
            #expect(r.passed, "\(name): \(r.expectation): \(r.detail)")
        }
    }

    @Test("check: barrier-loop and stuck-gate have errors naming the cycle and the gate; checkout has none")
    func staticCheck() throws {
        let loop = StaticCheck.check(try sample("barrier-loop"))
        #expect(loop.first { $0.severity == .error }?.code.rawValue == "barrier-loop")
        #expect(loop.first?.boards == ["pubAuth"])
        #expect(loop.first?.message.contains("pubAuth → pubAuth") == true)
        let stuck = StaticCheck.check(try sample("stuck-gate"))
        #expect(stuck.map(\.code.rawValue) == ["gate-never-completes"])
        #expect(StaticCheck.check(try sample("checkout")).filter { $0.severity == .error }.isEmpty)
    }

    @Test("check warns about unreachable boards and barriers scoped to unknown dispatchers, and finds A ↔ B barrier loops")
    func staticWarnings() throws {
        let s = try ScenarioLoader.load(json: #"""
            {"scenario":"w","boards":[{"id":"a","activationBarrier":{"board":"b"}},{"id":"b","activationBarrier":{"board":"a"},"onActivate":[{"complete":true}]},{"id":"lonely"}],
             "dispatch":{"dispatchers":[{"id":"collect"}],"barriers":{"BatchingBarrier":{"barrier_id":"BatchingBarrier","scopes":["nope"]}}},
             "script":[{"at":0,"activate":"a"}]}
            """#)
        let f = StaticCheck.check(s)
        #expect(f.map(\.code.rawValue) == ["barrier-loop", "gate-never-completes", "unreachable-board", "unknown-dispatcher"])
        #expect(f[0].boards == ["b", "a"])
    }

    @Test("the same scenario in YAML has the same definition fingerprint and trace")
    func yamlParity() throws {
        let yaml = """
            scenario: checkout
            boards:
              - id: a
                onActivate:
                  - after: 1
                    output: start
              - id: b
            flows:
              - "a ->> b"
            script:
              - at: 0
                activate: a
            """
        let json = #"{"scenario":"checkout","boards":[{"id":"a","onActivate":[{"after":1,"output":"start"}]},{"id":"b"}],"flows":["a ->> b"],"script":[{"at":0,"activate":"a"}]}"#
        let y = try ScenarioLoader.load(yaml: yaml, file: "s.yaml")
        let j = try ScenarioLoader.load(json: json, file: "s.json")
        #expect(y.fingerprint == j.fingerprint)
        #expect(Simulator.run(y).trace.jsonl == Simulator.run(j).trace.jsonl)
    }

    @Test("the Chrome export parses as JSON and has tracks, barrier slices, instants and causal arrows")
    func chromeExport() throws {
        let trace = Simulator.run(try sample("checkout")).trace
        let text = ChromeTraceExport.export(trace).jsonText
        let json = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        let events = try #require(json?["traceEvents"] as? [[String: Any]])
        let names = Set(events.filter { $0["ph"] as? String == "M" }.compactMap { ($0["args"] as? [String: Any])?["name"] as? String })
        #expect(names.isSuperset(of: ["main", "main/pubPayment", "board pubShoppingCart", "dispatcher collect"]))
        #expect(events.contains { $0["ph"] as? String == "b" && $0["name"] as? String == "pubShoppingCart waits for the gateway (pubAuth)" })
        #expect(events.contains { $0["ph"] as? String == "b" && $0["name"] as? String == "pubPayment waits for pubOtp" })
        #expect(events.filter { $0["ph"] as? String == "b" }.count == events.filter { $0["ph"] as? String == "e" }.count)
        #expect(events.contains { $0["ph"] as? String == "i" && $0["name"] as? String == "output.sent" })
        #expect(events.filter { $0["ph"] as? String == "s" }.count == events.filter { $0["ph"] as? String == "f" }.count)
        #expect(events.contains { $0["ph"] as? String == "s" })
    }

    @Test("--until records open waits as stuck with until: true and is not an error")
    func untilStops() throws {
        let r = Simulator.run(try sample("stuck-gate"), until: .seconds(2))
        let stuck = r.trace.events.filter { $0.kind == "stuck" }
        #expect(!stuck.isEmpty && stuck.allSatisfy { $0.extra["until"] == .bool(true) })
        #expect(!r.summary.foundProblems)
    }
}
