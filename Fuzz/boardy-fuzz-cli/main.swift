import BoardySimulation
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
/// With --keep-going 1, each failing case is written to its own folder under --failures and the
/// run goes on (`failures=` is printed last, and the run exits 1 if there were any); otherwise
/// the first failure ends the run.
var keepGoing = false
var failureCount = 0
/// With --log-round-trip 1, each case only checks Boardy's debug log of its run against its
/// trace (`LogRoundTripCheck`): the engine's log, ingested, tells the same steps.
var logRoundTrip = false
var stepsCompared = 0
/// With --replay 1, each case only checks replay (`ReplayCheck`): the case's trace under bounds it
/// chooses (cut by `until`, stopped by the horizon or the event bound, or whole) replays the
/// same, and so does every failure a small `explore` finds.
var replayOnly = false
/// The bounds --replay cases draw from: --until-one-in N (0: never cut), --until-below SECONDS,
/// --horizons 1,5,30,120 and --max-events 20,100,500,2000.
var replayBounds = ReplayCheck.Choices()
var replayCounts = (until: 0, horizon: 0, maxEvents: 0, varying: 0, schedules: 0, explored: 0, events: 0)
var ambiguousCases = 0
var inexactCases = 0
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
    case "--keep-going": keepGoing = value == "1" || value == "true"
    case "--log-round-trip": logRoundTrip = value == "1" || value == "true"
    case "--replay": replayOnly = value == "1" || value == "true"
    case "--until-one-in": replayBounds.untilOneIn = Int(value) ?? replayBounds.untilOneIn
    case "--until-below": replayBounds.untilBelow = Double(value) ?? replayBounds.untilBelow
    case "--horizons": replayBounds.horizons = value.split(separator: ",").compactMap { Double($0) }.filter { $0 > 0 }
    case "--max-events": replayBounds.maxEvents = value.split(separator: ",").compactMap { Int($0) }.filter { $0 > 0 }
    case "--log-case":
        // One scenario file through the log round trip (a failure's scenario.json, to debug it).
        do {
            let text = try String(contentsOfFile: value, encoding: .utf8)
            let outcome = try LogRoundTripCheck.check(try ScenarioLoader.load(json: text, file: value), text: text)
            print("steps=\(outcome.steps) exact=\(outcome.exact) ambiguous=\(outcome.ambiguous)")
            exit(0)
        } catch {
            // The whole report (the log included) beside the scenario; its start here.
            let report = value + ".report.txt"
            try? Data("\(error)".utf8).write(to: URL(fileURLWithPath: report))
            print("\(error)".prefix(3000))
            print("(the whole report: \(report))")
            exit(1)
        }
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

/// What ends a failing case under --keep-going.
struct CaseFailed: Error {}

@MainActor func fail(_ message: String, files: [String: String]) throws -> Never {
    let folder = keepGoing ? failures + "/\(failureCount + 1)" : failures
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for (name, text) in files { try? Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + name)) }
    try? Data(message.utf8).write(to: URL(fileURLWithPath: folder + "/message.txt"))
    FileHandle.standardError.write(Data("FAILURE: \(keepGoing ? String(message.prefix(300)) : message)\n(written to \(folder))\n".utf8))
    guard keepGoing else { exit(1) }
    failureCount += 1
    throw CaseFailed()
}

@MainActor func runCLI(_ arguments: [String]) -> (code: Int32, err: String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: cli!)
    p.arguments = arguments
    p.standardOutput = FileHandle.nullDevice
    let err = Pipe()
    p.standardError = err
    p.standardInput = FileHandle.nullDevice
    do { try p.run() } catch {
        FileHandle.standardError.write(Data("cannot run \(cli!): \(error)\n".utf8))
        exit(1)
    }
    // A command that blocks (on a pipe it found in a folder) is a failure, not a stuck fuzzer.
    let pid = p.processIdentifier
    let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
    DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
    defer { watchdog.cancel() }
    let data = err.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    if p.terminationReason == .uncaughtSignal { return (128 + p.terminationStatus, String(decoding: data, as: UTF8.self)) }
    return (p.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// Issue 32: the same case's files in a tree as a careless or hostile user leaves it: named pipes,
/// a link to a folder and a dangling link with the extensions commands look for, a Package.swift
/// and a podspec made of the case's random bytes beside a small app. `stats` and `test` over the
/// folder and `import` of the app must end (no hang, no crash), name what they skipped, and an
/// output onto a link to a file they read must be refused (73) with the file unchanged.
@MainActor func hostileTree(scenario: String, trace: String, genome: [UInt8]) throws {
    let fm = FileManager.default
    let root = work + "/tree"
    try? fm.removeItem(atPath: root)
    try? fm.createDirectory(atPath: root + "/App/Sources/App", withIntermediateDirectories: true)
    // A small scenario for `test` to run (the generated one may run to its 24-hour horizon).
    let small = #"{"scenario":"small","boards":[{"id":"a","onActivate":[{"output":"o"}]}],"script":[{"at":0,"activate":"a"}],"expect":[{"performed":"a"}]}"#
    try? Data(small.utf8).write(to: URL(fileURLWithPath: root + "/s.json"))
    try? fm.copyItem(atPath: trace, toPath: root + "/s.jsonl")
    _ = mkfifo(root + "/pipe.jsonl", 0o644)
    _ = mkfifo(root + "/pipe.json", 0o644)
    try? fm.createSymbolicLink(atPath: root + "/folder.json", withDestinationPath: root + "/App")
    try? fm.createSymbolicLink(atPath: root + "/gone.jsonl", withDestinationPath: root + "/nothing")
    let app = """
        import Boardy
        extension BoardID { static let pubA: BoardID = "pub.A" }
        final class ABoard: Board, GuaranteedBoard { func activate(withGuaranteedInput input: Void) {} }
        let registrations = [BoardRegistration(.pubA) { ABoard(identifier: $0) }]
        """
    try? Data(app.utf8).write(to: URL(fileURLWithPath: root + "/App/Sources/App/A.swift"))
    _ = mkfifo(root + "/App/Sources/App/Pipe.swift", 0o644)
    try? fm.createSymbolicLink(atPath: root + "/App/Sources/App/Folder.swift", withDestinationPath: root + "/App/Sources")
    try? Data(Array("// swift-tools-version:5.9\n".utf8) + genome).write(to: URL(fileURLWithPath: root + "/App/Package.swift"))
    try? Data(genome).write(to: URL(fileURLWithPath: root + "/App/App.podspec"))
    for command in [["stats", root], ["test", root], ["import", root + "/App"]] {
        let r = runCLI(command)
        guard r.code < 128, r.code != 70 else { try fail("\(command[0]) over a hostile tree exited \(r.code): \(r.err)", files: ["scenario.json": scenario]) }
        guard command[0] == "import" || (r.err.contains("pipe.json") && r.err.contains("named pipe")) else {
            try fail("\(command[0]) did not name the pipe it skipped: \(r.err)", files: ["scenario.json": scenario])
        }
    }
    let source = root + "/App/Sources/App/A.swift"
    try? fm.createSymbolicLink(atPath: root + "/out.json", withDestinationPath: source)
    let refused = runCLI(["import", root + "/App", "-o", root + "/out.json"])
    let kept = (try? String(contentsOfFile: source, encoding: .utf8)) ?? ""
    guard refused.code == 73, kept == app else {
        try fail("import -o onto a link to its own source exited \(refused.code) (\(kept == app ? "source kept" : "SOURCE OVERWRITTEN")): \(refused.err)", files: [:])
    }
}

let start = Date()
var executions = 0
var cliRuns = 0
let work = NSTemporaryDirectory() + "boardy-fuzz-cli-\(ProcessInfo.processInfo.processIdentifier)"
try? FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: work) }
/// One generated case through the pipeline (and, every --cli-every-th, the CLI).
@MainActor func runCase() throws {
    executions += 1
    let length = 8 + Int(nextRandom() % 200)
    let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: nextRandom()) }
    var genome = ScenarioGenome(bytes)
    let text = genome.scenarioJSON()
    let mutation = nextRandom()
    let badScenario = Pipeline.mutate(text, seed: mutation)
    if replayOnly {
        let bounds = ReplayCheck.bounds(replayBounds) { nextRandom() }
        do {
            let outcome = try ReplayCheck.check(try ScenarioLoader.load(json: text, file: "gen.json"), bounds: bounds, text: text)
            if outcome.cutByUntil { replayCounts.until += 1 }
            if outcome.stoppedByHorizon { replayCounts.horizon += 1 }
            if outcome.stoppedByMaxEvents { replayCounts.maxEvents += 1 }
            if outcome.varies { replayCounts.varying += 1 }
            replayCounts.schedules += outcome.schedules
            replayCounts.explored += outcome.failuresReplayed
            replayCounts.events += outcome.events
        } catch {
            try fail("\(error)", files: ["scenario.json": text, "bounds.txt": "\(bounds)"])
        }
        return
    }
    if logRoundTrip {
        do {
            let s = try ScenarioLoader.load(json: text, file: "gen.json")
            let outcome = try LogRoundTripCheck.check(s, text: text)
            stepsCompared += outcome.steps
            if outcome.ambiguous { ambiguousCases += 1 }
            if !outcome.exact { inexactCases += 1 }
        } catch {
            try fail("\(error)", files: ["scenario.json": text])
        }
        return
    }
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
        try fail("\(error)", files: ["scenario.json": text, "mutated.json": badScenario])
    }
    if let cli, executions % cliEvery == 0, cli.isEmpty == false {
        let s = work + "/s.json", t = work + "/s.jsonl", bad = work + "/bad.json"
        try? Data(text.utf8).write(to: URL(fileURLWithPath: s))
        try? Data(badScenario.utf8).write(to: URL(fileURLWithPath: bad))
        let sim = runCLI(["simulate", s, "-o", t, "--horizon", "120", "--max-events", "2000"])
        guard sim.code == 0 || sim.code == 3 else { try fail("simulate exited \(sim.code): \(sim.err)", files: ["scenario.json": text]) }
        for command in [["stats", t], ["graph", s, "--format", "dot"], ["timeline", t, "--format", "dot"], ["export", t], ["replay", t, "--scenario", s]] {
            let r = runCLI(command)
            guard r.code == 0 else { try fail("\(command[0]) exited \(r.code): \(r.err)", files: ["scenario.json": text]) }
        }
        let c = runCLI(["check", bad])
        guard [0, 3, 65].contains(c.code), c.code != 65 || c.err.contains("bad.json:") else {
            try fail("check on a mutated scenario exited \(c.code): \(c.err)", files: ["mutated.json": badScenario])
        }
        try hostileTree(scenario: text, trace: t, genome: bytes)
        cliRuns += 1
    }
}

while executions < runs, Date().timeIntervalSince(start) < seconds {
    do {
        try runCase()
    } catch {
        // Written to --failures by `fail`; with --keep-going the run goes on.
    }
}
let elapsed = Date().timeIntervalSince(start)
print("executions=\(executions)")
print("cli_cases=\(cliRuns)")
print("seconds=\(String(format: "%.1f", elapsed))")
print("per_second=\(String(format: "%.0f", Double(executions) / max(elapsed, 0.001)))")
if logRoundTrip {
    print("steps_compared=\(stepsCompared)")
    print("cases_ambiguous=\(ambiguousCases)")
    print("cases_same_steps_not_order=\(inexactCases)")
}
if replayOnly {
    print("events_simulated=\(replayCounts.events)")
    print("cases_varying=\(replayCounts.varying)")
    print("cases_cut_by_until=\(replayCounts.until)")
    print("cases_stopped_by_horizon=\(replayCounts.horizon)")
    print("cases_stopped_by_max_events=\(replayCounts.maxEvents)")
    print("explore_schedules=\(replayCounts.schedules)")
    print("explore_failures_replayed=\(replayCounts.explored)")
}
print("failures=\(failureCount)")
if failureCount > 0 { exit(1) }
