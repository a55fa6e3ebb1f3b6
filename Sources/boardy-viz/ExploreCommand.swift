import ArgumentParser
import Boardy
import BoardySimulation
import BoardyTrace
import Foundation

struct ExploreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explore",
        abstract: "Run every schedule a scenario's declared variation allows; report each way it fails.",
        discussion: """
            What may vary is declared in the scenario: a delay as a range ("after": [1, 5]), a
            stimulus time as a range ("at": [0, 4]) and an outcome left open ("complete":
            "either"). Each range is tried before, between and after the other events it can
            race, and events on one instant in each order. Every schedule is checked: no barrier
            loop, no stuck barrier, no runaway, and the expect list.

            Each distinct failure is written once, with the shortest schedule found, as a trace
            (with its choice events) that `replay --scenario` reproduces and `timeline` draws.
            Exits 1 when a failure was found, else 3 when a bound stopped the search before
            every schedule was covered, else 0.

            Examples:
              boardy-viz explore samples/explore-login.json
              boardy-viz explore app.json --out failures --time-budget 300
            """)

    @Argument(help: "The scenario file, or - for standard input.") var scenario: String
    @Option(help: "Folder for the failures' traces (created when missing; default: <scenario>-explore).") var out: String?
    @Option(help: "Report format.") var format: OutputFormat = .text
    @Option(help: "The most choice points along one schedule.") var maxDepth: Int = 10_000
    @Option(help: "The most schedules to run.") var maxSchedules: Int = 100_000
    @Option(help: "The most wall-clock seconds to search.") var timeBudget: Double = 60
    @Option(help: "Threads (default: one per core).") var jobs: Int?
    @Option(help: "The most events one schedule may record before it is a runaway.") var maxEvents: Int = 100_000
    @Flag(help: "Enumerate every schedule, without partial-order reduction or state hashing.") var naive = false

    func validate() throws {
        if maxDepth < 1 { throw ValidationError("--max-depth must be at least 1") }
        if maxSchedules < 1 { throw ValidationError("--max-schedules must be at least 1") }
        if !(timeBudget > 0) || !timeBudget.isFinite { throw ValidationError("--time-budget must be a positive number of seconds") }
        if let jobs, jobs < 1 || jobs > 256 { throw ValidationError("--jobs must be from 1 to 256") }
        if maxEvents < 1 { throw ValidationError("--max-events must be at least 1") }
    }

    func run() throws {
        let s = try guarded { try loadScenario(scenario) }
        let folder = out ?? Self.defaultFolder(for: scenario)
        if out != nil { try guarded { try Self.checkFolder(folder) } }

        var options = Explorer.Options()
        options.maxDepth = maxDepth
        options.maxSchedules = maxSchedules
        options.timeBudget = timeBudget
        if let jobs { options.workers = jobs }
        options.reduction = !naive
        options.bounds = RunBounds(maxEvents: maxEvents)
        let showsProgress = format == .text && isatty(STDERR_FILENO) == 1
        if showsProgress {
            options.progress = { p in
                guard p.elapsed >= 1 else { return }
                let rate = p.elapsed > 0 ? Int(min(Double(p.schedules) / p.elapsed, 1e15)) : 0
                FileHandle.standardError.write(
                    Data("\r\u{1B}[K\(Self.bar(p.elapsed / timeBudget)) \(p.schedules) schedules (\(rate)/s), \(p.states) states, \(p.failures) failures".utf8))
            }
        }
        let report = Explorer.explore(s, options: options)
        if showsProgress, report.elapsed >= 1 { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }

        var written: [String] = []
        if !report.failures.isEmpty {
            try guarded { try Self.checkFolder(folder) }
            for (i, f) in report.failures.enumerated() {
                let path = (folder as NSString).appendingPathComponent("failure-\(i + 1)-\(f.kind.rawValue).jsonl")
                try guarded {
                    let output = try Output(path, inputs: [scenario])
                    try output.write(Array(f.trace.jsonl.utf8))
                }
                written.append(path)
            }
        }
        let rate = report.elapsed > 0 ? Double(report.schedules) / report.elapsed : 0
        switch format {
        case .text:
            var line = "\(scenario): \(report.schedules) schedule\(report.schedules == 1 ? "" : "s") explored, \(report.states) distinct states, "
            line += "\(report.prunedByReduction) pruned by reduction, \(report.merged) merged into explored states"
            if report.fixedRanges > 0 { line += ", \(report.fixedRanges) ranges that commute with everything taken at their start" }
            line += String(format: " (%.2f s, %.0f schedules/s)", report.elapsed, rate)
            print(line)
            if !report.varies { print("  the scenario declares nothing that varies: it has exactly one schedule") }
            for (i, f) in report.failures.enumerated() {
                print("FAIL \(f.kind.rawValue): \(f.message)")
                print("  shortest schedule found: \(f.events) events, \(f.choices) choice\(f.choices == 1 ? "" : "s"): \(written[i])")
                print("  replay:   boardy-viz replay \(written[i]) --scenario \(scenario)")
            }
            if let bound = report.boundHit {
                print("INCOMPLETE: \(Self.describe(bound, report)); schedules not run may hide other failures")
            } else if report.failures.isEmpty {
                print("OK: every schedule explored; no loop, nothing stuck, no runaway, every expectation holds")
            }
        case .json:
            var o = JSONObject()
            o["scenario"] = .string(scenario)
            o["schedules"] = .int(Int64(report.schedules))
            o["states"] = .int(Int64(report.states))
            o["prunedByReduction"] = .int(Int64(report.prunedByReduction))
            o["merged"] = .int(Int64(report.merged))
            o["fixedRanges"] = .int(Int64(report.fixedRanges))
            o["seconds"] = .double((report.elapsed * 1000).rounded() / 1000)
            o["exhausted"] = .bool(report.boundHit == nil)
            o["bound"] = report.boundHit.map { .string($0) } ?? .null
            o["subtrees"] = ["explored": .int(Int64(report.subtrees.explored)), "of": .int(Int64(report.subtrees.of))]
            o["failures"] = .array(report.failures.enumerated().map { i, f in
                ["key": .string(f.key), "kind": .string(f.kind.rawValue), "message": .string(f.message), "events": .int(Int64(f.events)),
                 "choices": .int(Int64(f.choices)), "trace": .string(written[i])]
            })
            print(JSONValue.object(o).jsonText)
        }
        if !report.failures.isEmpty { throw Exit.failed }
        if report.boundHit != nil { throw Exit.problems }
    }

    static func describe(_ bound: String, _ r: Explorer.Report) -> String {
        let covered = "\(r.subtrees.explored) of the \(r.subtrees.of) subtrees the search was split into were explored to their end"
        switch bound {
        case "max-schedules": return "stopped at --max-schedules after \(r.schedules) schedules, before the space was exhausted; \(covered)"
        case "time-budget":
            return String(format: "stopped at --time-budget after %.1f s and \(r.schedules) schedules, before the space was exhausted; ", r.elapsed) + covered
        default: return "schedules went deeper than --max-depth (\(r.deepest) choice points explored); past it each took its first option"
        }
    }

    static func bar(_ fraction: Double) -> String {
        let n = Int((min(max(fraction, 0), 1) * 20).rounded())
        return "[" + String(repeating: "#", count: n) + String(repeating: ".", count: 20 - n) + "]"
    }

    /// `<scenario file name without extension>-explore`, in the current folder.
    static func defaultFolder(for scenario: String) -> String {
        guard scenario != "-" else { return "explore-failures" }
        let name = ((scenario as NSString).lastPathComponent as NSString).deletingPathExtension
        return "\(name.isEmpty ? "scenario" : name)-explore"
    }

    /// Makes sure `folder` exists (creating it, not its parents) and is a folder.
    static func checkFolder(_ folder: String) throws {
        var st = stat()
        if stat(folder, &st) == 0 {
            guard (st.st_mode & S_IFMT) == S_IFDIR else {
                throw CannotCreateError(message: "cannot write failures into \(folder): it is a file, not a folder; choose another --out")
            }
            return
        }
        guard mkdir(folder, 0o777) == 0 else {
            throw CannotCreateError(message: "cannot create the folder \(folder): \(String(cString: strerror(errno)))")
        }
    }
}
