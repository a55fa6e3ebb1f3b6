import Boardy
import BoardySimulation
import Foundation

/// The repository's sample scenarios (samples/), shared by the test targets.
public let samplesDir = repoRoot.appendingPathComponent("samples")
/// The samples with a checked-in trace in samples/traces.
public let sampleNames = ["checkout", "barrier-loop", "stuck-gate", "add-to-cart", "analytics-dispatch"]

/// Loads sample `name` (samples/<name>.json).
public func sample(_ name: String) throws -> Scenario {
    try ScenarioLoader.load(path: samplesDir.appendingPathComponent("\(name).json").path)
}

/// Loads sample scenario `name` (samples/<name>.json): ``sample(_:)`` under the name the
/// rendering tests use.
public func scenario(_ name: String) throws -> Scenario { try sample(name) }

/// Reads the checked-in trace of sample `name` (samples/traces/<name>.jsonl).
public func sampleTrace(_ name: String) throws -> Trace {
    try Trace.read(path: repoRoot.appendingPathComponent("samples/traces/\(name).jsonl").path)
}

/// The trace of the scenario written in `text` (JSON or YAML), simulated on the virtual clock.
public func simulate(_ text: String, name: String = "inline.json") throws -> Trace {
    let s = try ScenarioLoader.load(bytes: Array(text.utf8), file: name)
    return Simulator.run(s).trace
}
