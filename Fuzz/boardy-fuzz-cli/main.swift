import Foundation
import FuzzTargets

// `make fuzz-cli`: generated scenarios through the whole pipeline, with a mutation of each
// scenario and of its trace, for --runs cases or --seconds, from --seed. Every --cli-every-th case
// also goes through the real `boardy-viz` (--cli PATH): every command must succeed on the valid
// files and exit 64/65 naming the file on the mutated ones, never crash. A failing case is written
// to --failures and the run exits 1. Prints `name=value` lines last.

var runs = Int.max
var seconds = 60.0
var seed: UInt64 = 1
var cli: String?
var cliEvery = 200
var failures = ".build-fuzz-cli/failures"
var args = Array(CommandLine.arguments.dropFirst())
while !args.isEmpty {
    let flag = args.removeFirst()
    guard let value = args.first else { break }
    args.removeFirst()
    switch flag {
    case "--runs": runs = Int(value) ?? runs
    case "--seconds": seconds = Double(value) ?? seconds
    case "--seed": seed = UInt64(value) ?? seed
    case "--cli": cli = value
    case "--cli-every": cliEvery = max(1, Int(value) ?? cliEvery)
    case "--failures": failures = value
    default: FileHandle.standardError.write(Data("unknown flag \(flag)\n".utf8))
    }
}

/// SplitMix64: a reproducible stream from --seed.
var state = seed
@MainActor func nextRandom() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
}

@MainActor func fail(_ message: String, files: [String: String]) -> Never {
    try? FileManager.default.createDirectory(atPath: failures, withIntermediateDirectories: true)
    for (name, text) in files { try? Data(text.utf8).write(to: URL(fileURLWithPath: failures + "/" + name)) }
    FileHandle.standardError.write(Data("FAILURE: \(message)\n(written to \(failures))\n".utf8))
    exit(1)
}

@MainActor func runCLI(_ arguments: [String]) -> (code: Int32, err: String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: cli!)
    p.arguments = arguments
    p.standardOutput = FileHandle.nullDevice
    let err = Pipe()
    p.standardError = err
    do { try p.run() } catch { fail("cannot run \(cli!): \(error)", files: [:]) }
    let data = err.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    if p.terminationReason == .uncaughtSignal { return (128 + p.terminationStatus, String(decoding: data, as: UTF8.self)) }
    return (p.terminationStatus, String(decoding: data, as: UTF8.self))
}

let start = Date()
var executions = 0
var cliRuns = 0
let work = NSTemporaryDirectory() + "boardy-fuzz-cli-\(ProcessInfo.processInfo.processIdentifier)"
try? FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: work) }
while executions < runs, Date().timeIntervalSince(start) < seconds {
    let length = 8 + Int(nextRandom() % 200)
    let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: nextRandom()) }
    var genome = ScenarioGenome(bytes)
    let text = genome.scenarioJSON()
    let mutation = nextRandom()
    let badScenario = Pipeline.mutate(text, seed: mutation)
    let jsonl: String
    // BOARDY_FUZZ_KEEP_CASE=path: each case is written there before it runs, so a crash (which
    // no error handler sees) leaves the scenario that caused it.
    if let keep = ProcessInfo.processInfo.environment["BOARDY_FUZZ_KEEP_CASE"] {
        try? Data(text.utf8).write(to: URL(fileURLWithPath: keep))
    }
    do {
        jsonl = try Pipeline.run(scenarioJSON: text)
        try Pipeline.checkMutatedScenario(badScenario)
        try Pipeline.checkMutatedTrace(Pipeline.mutate(jsonl, seed: mutation))
    } catch {
        fail("\(error)", files: ["scenario.json": text, "mutated.json": badScenario])
    }
    executions += 1
    if let cli, executions % cliEvery == 0, cli.isEmpty == false {
        let s = work + "/s.json", t = work + "/s.jsonl", bad = work + "/bad.json"
        try? Data(text.utf8).write(to: URL(fileURLWithPath: s))
        try? Data(badScenario.utf8).write(to: URL(fileURLWithPath: bad))
        let sim = runCLI(["simulate", s, "-o", t, "--horizon", "120", "--max-events", "2000"])
        guard sim.code == 0 || sim.code == 3 else { fail("simulate exited \(sim.code): \(sim.err)", files: ["scenario.json": text]) }
        for command in [["stats", t], ["graph", s, "--format", "dot"], ["timeline", t, "--format", "dot"], ["export", t], ["replay", t, "--scenario", s]] {
            let r = runCLI(command)
            guard r.code == 0 else { fail("\(command[0]) exited \(r.code): \(r.err)", files: ["scenario.json": text]) }
        }
        let c = runCLI(["check", bad])
        guard [0, 3, 65].contains(c.code), c.code != 65 || c.err.contains("bad.json:") else {
            fail("check on a mutated scenario exited \(c.code): \(c.err)", files: ["mutated.json": badScenario])
        }
        cliRuns += 1
    }
}
let elapsed = Date().timeIntervalSince(start)
print("executions=\(executions)")
print("cli_cases=\(cliRuns)")
print("seconds=\(String(format: "%.1f", elapsed))")
print("per_second=\(String(format: "%.0f", Double(executions) / max(elapsed, 0.001)))")
