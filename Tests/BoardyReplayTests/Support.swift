import Boardy
import BoardyReplay
import BoardyVizSimulation
import BoardySimulation
import BoardyTestSupport
import Foundation


func sampleScenario(_ name: String) throws -> Scenario { try sample(name) }

func sampleTracePath(_ name: String) -> String { repoRoot.appendingPathComponent("samples/traces/\(name).jsonl").path }

func sampleTraceText(_ name: String) throws -> String { try String(contentsOfFile: sampleTracePath(name), encoding: .utf8) }

/// The trace's lines: the header, then one JSON object per event.
func traceLines(_ text: String) throws -> (header: String, events: [JSONObject]) {
    var lines = text.split(separator: "\n").map(String.init)
    let header = lines.removeFirst()
    return (
        header,
        try lines.map { line in
            guard let o = try JSONValue(parsing: line).objectValue else { throw ReplayError("not an object: \(line)") }
            return o
        }
    )
}

func traceText(header: String, _ events: [JSONObject]) -> String {
    ([header] + events.map { JSONValue.object($0).jsonText }).joined(separator: "\n") + "\n"
}

/// Replays a trace given as text against `scenario`.
func replay(_ text: String, _ scenario: Scenario, options: Replayer.Options = .init()) throws -> ReplayResult {
    try Replayer.replay(Trace.read(text: text, name: "mutated", order: .lenient), scenario: scenario, traceName: "mutated", options: options)
}
