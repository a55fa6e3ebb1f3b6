import Boardy
import BoardyReplay
import BoardyVizSimulation
import BoardySimulation
import BoardyTestSupport
import Foundation
import Testing

/// Every sample trace, damaged one way at a time: replay must report a divergence, at the right
/// `seq`, for every mutation.
///
/// - Dropping event k, swapping events k and k+1, or changing a field of an engine event k:
///   the divergence is at seq k.
/// - Changing a field of a stimulus (an input: which board, what input, which network, when):
///   the replay feeds the changed input, so the trace stops following from it either at the
///   stimulus itself or, at the latest, at the stimulus's first recorded consequence.
/// - Appending an event: the trace claims one the replay never records, at seq n+1.
///
/// A changed input can make a trace that is itself a faithful run of the changed inputs (a
/// flush with nothing queued, moved by a second): no replayer can call that a divergence. Where
/// replay says "same" for a changed stimulus, the test proves it by simulating the changed
/// inputs as a script, independently of the replayer, and comparing every event.
@Suite("Replay mutation corpus")
struct MutationTests {
    struct Outcome: CustomStringConvertible {
        var sample: String
        var mutation: String
        var expected: ClosedRange<Int>
        var found: Int?
        var description: String { "\(sample): \(mutation): expected a divergence at seq \(expected), found \(found.map(String.init) ?? "none")" }
    }

    @Test("every mutation of every sample trace is detected at the right seq", arguments: sampleNames)
    func mutations(sample: String) throws {
        let scenario = try sampleScenario(sample)
        let text = try sampleTraceText(sample)
        let (header, events) = try traceLines(text)
        let original = try Trace.read(text: text).events
        let n = events.count
        var outcomes: [Outcome] = []
        var faithful: [String] = []
        var checked = 0

        func check(_ mutation: String, _ mutated: [JSONObject], expect range: ClosedRange<Int>, input: Bool = false) throws {
            let text = traceText(header: header, mutated)
            let result = try replay(text, scenario)
            if input, result.isSame, try Self.isFaithfulRun(text, of: sample) {
                faithful.append(mutation)
            } else {
                outcomes.append(Outcome(sample: sample, mutation: mutation, expected: range, found: result.divergence?.seq))
            }
            // The file path (read on a second thread while the engine runs) says the same: checked
            // for every tenth mutation and every append, to keep the suite quick.
            checked += 1
            guard checked % 10 == 0 || mutation.hasPrefix("append") else { return }
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("mutation-\(getpid())-\(sample).jsonl").path
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            let streamed = try Replayer.replay(tracePath: file, scenario: scenario)
            #expect(streamed.divergence?.seq == result.divergence?.seq, "\(sample): \(mutation): streamed replay differs")
            #expect(streamed.divergence?.note == result.divergence?.note, "\(sample): \(mutation): streamed note differs")
        }

        for k in 1...n {
            var dropped = events
            dropped.remove(at: k - 1)
            try check("drop \(k)", dropped, expect: k...k)
        }
        for k in 1..<n {
            var swapped = events
            swapped.swapAt(k - 1, k)
            try check("swap \(k) and \(k + 1)", swapped, expect: k...k)
        }
        for k in 1...n {
            let event = events[k - 1]
            let isStimulus = event["kind"] == "stimulus"
            for member in event.members {
                guard let changed = Self.change(member.key, member.value, seq: k) else { continue }
                var mutated = events
                mutated[k - 1][member.key] = changed
                let structural = ["seq", "kind", "mb"].contains(member.key)
                let last = isStimulus && !structural ? Self.firstConsequence(of: k, in: original) ?? k : k
                try check("change \(member.key) of \(k) to \(changed.jsonText)", mutated, expect: k...last, input: isStimulus && !structural)
            }
        }
        // Appending: a copy of the last event under the next seq, and a new output of a board.
        var copy = events[n - 1]
        copy["seq"] = .int(Int64(n + 1))
        try check("append a copy of \(n)", events + [copy], expect: (n + 1)...(n + 1))
        let t = events[n - 1]["t"] ?? 0
        let output: JSONObject = [
            "seq": .int(Int64(n + 1)), "t": t, "kind": "output.sent", "mb": "main", "board": "appended", "output": "x", "cause": .int(Int64(n)),
        ]
        try check("append an output", events + [output], expect: (n + 1)...(n + 1))

        let missed = outcomes.filter { o in o.found.map { !o.expected.contains($0) } ?? true }
        #expect(missed.isEmpty, "\(missed.count) of \(outcomes.count) mutations missed:\n\(missed.map(\.description).joined(separator: "\n"))")
        #expect(outcomes.count > 3 * n)
        // Inputs changed into another faithful run are rare, and proven so above.
        #expect(faithful.count * 20 < outcomes.count, "faithful runs of changed inputs: \(faithful)")
    }

    /// Whether `text` is exactly what the sample's scenario records when its script is the
    /// trace's stimuli (simulated from a scenario file, not through the replayer).
    static func isFaithfulRun(_ text: String, of sample: String) throws -> Bool {
        let trace = try Trace.read(text: text, name: "mutated", order: .lenient)
        let path = repoRoot.appendingPathComponent("samples/\(sample).json").path
        guard var json = try JSONValue(parsing: String(contentsOfFile: path, encoding: .utf8)).objectValue else { return false }
        var script: [JSONValue] = []
        for e in trace.events {
            guard case let .stimulus(action, fields) = e.body else { continue }
            var step: JSONObject = ["at": .double(e.t.seconds)]
            switch action {
            case "activate":
                step["activate"] = fields["board"] ?? .null
                if let input = fields["input"] { step["input"] = input }
            case "complete":
                step["complete"] = fields["board"] ?? .null
                step["with"] = fields["with"] ?? .null
            case "network": step["network"] = fields["network"] ?? .null
            case "track":
                step["track"] = fields["event"] ?? .null
                if let d = fields["dispatcher"] { step["dispatcher"] = d }
            case "flush": step["flush"] = true
            case "configure": step["configure"] = fields["settings"] ?? .null
            default: return false
            }
            script.append(.object(step))
        }
        json["script"] = .array(script)
        guard let scenario = try? ScenarioLoader.load(json: JSONValue.object(json).jsonText, file: "\(sample)-mutated.json") else { return false }
        return Simulator.run(scenario).trace.events == trace.events
    }

    /// A different, well-formed value for `key` of event `seq`; nil when none keeps the line valid.
    static func change(_ key: String, _ value: JSONValue, seq: Int) -> JSONValue? {
        switch key {
        case "seq": return .int(Int64(seq + 1000))
        case "t": return .double((value.doubleValue ?? 0) + 1)
        case "kind": return .string(value.stringValue.map { $0 + ".mutated" } ?? "mutated")
        case "mb": return .string((value.stringValue ?? "main") + "/mutated")
        case "cause":
            guard let c = value.intValue else { return nil }
            if c > 1 { return .int(c - 1) }
            return c + 1 < Int64(seq) ? .int(c + 1) : nil
        default:
            switch value {
            case .string(let s): return .string(s + "′")
            case .bool(let b): return .bool(!b)
            case .int(let i): return .int(i + 1)
            case .double(let d): return .double(d + 1)
            case .null: return "mutated"
            case .array(let a): return .array(a + ["mutated"])
            case .object(var o):
                o["mutated"] = true
                return .object(o)
            }
        }
    }

    /// The first event after `seq` whose chain of causes reaches `seq`.
    static func firstConsequence(of seq: Int, in events: [TraceEvent]) -> Int? {
        var caused = Set([seq])
        for e in events where e.seq > seq {
            if let c = e.cause, caused.contains(c) {
                caused.insert(e.seq)
                return e.seq
            }
        }
        return nil
    }
}
