import Boardy
import BoardyReplay
import BoardyVizSimulation
import BoardySimulation
import BoardyTestSupport
import Foundation
import Testing

/// Replaying from a file: the trace is parsed on a second thread, in chunks, while the engine
/// runs; these use traces larger than a chunk so the two threads meet.
@Suite("Replay from a file, read while it runs")
struct StreamingReplayTests {
    /// A chain of `boards` boards started `starts` times: 4 events an activation.
    static func chain(boards: Int, starts: Int) throws -> Scenario {
        try ScenarioLoader.load(json: chainScenarioJSON(boards: boards, starts: starts), file: "chain.json")
    }

    func write(_ text: String, _ name: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("streaming-\(getpid())-\(name)").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("a 40,000-event trace replays the same from its file, and a late change is found at its seq")
    func largeTrace() throws {
        let s = try Self.chain(boards: 100, starts: 100)
        let text = Simulator.run(s).jsonl
        let path = try write(text, "large.jsonl")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let same = try Replayer.replay(tracePath: path, scenario: s)
        #expect(same.isSame, "\(same)")
        #expect(same.recordedEvents == 40_000)
        #expect(same.stimuliFed == 100)

        var (header, events) = try traceLines(text)
        let k = 37_123
        events[k - 1]["t"] = .double(1e6)
        let mutated = try write(traceText(header: header, events), "late.jsonl")
        defer { try? FileManager.default.removeItem(atPath: mutated) }
        let result = try Replayer.replay(tracePath: mutated, scenario: s)
        #expect(result.divergence?.seq == k)
        #expect(result.divergence?.context.count == 3)
    }

    @Test("a malformed line deep in the file is malformed input, named by its line, not a divergence")
    func malformedLate() throws {
        let s = try Self.chain(boards: 50, starts: 100)
        var lines = Simulator.run(s).jsonl.split(separator: "\n").map(String.init)
        lines[15_000] = "{\"seq\": oops}"
        let path = try write(lines.joined(separator: "\n") + "\n", "malformed.jsonl")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect {
            try Replayer.replay(tracePath: path, scenario: s)
        } throws: { error in
            (error as? TraceReadError)?.line == 15_001
        }
    }

    @Test("a cut-off last line is a warning; the events before it replay")
    func truncated() throws {
        let s = try sampleScenario("checkout")
        var text = try sampleTraceText("checkout")
        text.removeLast(30)  // inside the last line, newline gone
        let path = try write(text, "truncated.jsonl")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try Replayer.replay(tracePath: path, scenario: s)
        #expect(result.readWarnings.count == 1)
        // The replay records the event the file lost: one more than the trace kept.
        #expect(result.divergence?.kind == .extra)
        #expect(result.divergence?.seq == result.recordedEvents + 1)
    }

    @Test("stimuli written with \\u escapes or odd spacing are still found and fed")
    func escapedStimulus() throws {
        let s = try sampleScenario("add-to-cart")
        let text = try sampleTraceText("add-to-cart")
        let odd = text.replacingOccurrences(of: "\"kind\":\"stimulus\"", with: "\"kind\" : \"stim\\u0075lus\"")
        #expect(odd != text)
        let path = try write(odd, "escaped.jsonl")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try Replayer.replay(tracePath: path, scenario: s)
        #expect(result.isSame, "\(result)")
    }
}
