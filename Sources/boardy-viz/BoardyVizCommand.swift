import ArgumentParser
import Boardy
import BoardyGraphviz
import BoardySimulation
import BoardyViz
import Foundation

/// `boardy-viz`: simulate, test, check and inspect Boardy flows (contract §3).
@main
struct BoardyVizCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "boardy-viz",
        abstract: "Makes Boardy's barrier-gated flows visible: simulate scenarios, check them, inspect traces.",
        discussion: """
            Exit codes: 0 ok; 1 a test failed; 3 barrier loops or stuck barriers; 64 bad usage;
            65 malformed input (the message names the file and line); 70 internal error.
            """,
        version: "0.1.0",
        subcommands: [
            Simulate.self, Test.self, Check.self, Stats.self, Export.self, GraphCommand.self, TimelineCommand.self, ReplayCommand.self,
        ])
}

/// Output formats for humans or for CI.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

/// Exit codes of contract §3.
enum Exit {
    static let failed = ExitCode(1)
    static let problems = ExitCode(3)
    static let malformed = ExitCode(65)
    static let internalError = ExitCode(70)
}

/// Prints to standard error.
func warn(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// Runs `body`, turning input errors into exit 65 with their message, and anything unexpected
/// into exit 70 (never 1 by accident).
func guarded<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let e as ScenarioError {
        warn("error: \(e)")
        throw Exit.malformed
    } catch let e as TraceReadError {
        warn("error: \(e)")
        throw Exit.malformed
    } catch let e as InputError {
        warn("error: \(e.message)")
        throw Exit.malformed
    } catch let e as GraphvizError {
        warn("error: \(e)")
        throw Exit.internalError
    } catch let e as ExitCode {
        throw e
    } catch {
        warn("internal error: \(error)")
        throw Exit.internalError
    }
}

struct InputError: Error {
    var message: String
}

/// Writes `data` to `path` whole or not at all: a temporary file beside it, then a rename.
func writeAtomically(_ data: Data, to path: String) throws {
    do {
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
        throw InputError(message: "cannot write \(path): \(error.localizedDescription)")
    }
}

func emit(_ text: String, to path: String?) throws {
    if let path { try writeAtomically(Data(text.utf8), to: path) } else { print(text, terminator: text.hasSuffix("\n") ? "" : "\n") }
}

func readTrace(_ path: String) throws -> Trace {
    let trace = try Trace.read(path: path)
    for w in trace.warnings { warn(w.description) }
    return trace
}

// MARK: simulate

struct Simulate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a scenario on the engine and write its trace.",
        discussion: """
            Runs to quiescence (or virtual time --until), writes the trace (standard output unless -o)
            and prints a summary. Exits 3 when a barrier loop, a stuck barrier, or a runaway flow
            cycle (boards emitting to each other synchronously, forever) was found.

            Examples:
              boardy-viz simulate samples/checkout.json -o out/checkout.jsonl
              boardy-viz simulate samples/stuck-gate.json --until 30 --format json
            """)

    @Argument(help: "The scenario file (.json, .yaml, .yml).") var scenario: String
    @Option(name: .shortAndLong, help: "Write the trace here (whole or not at all).") var output: String?
    @Option(help: "Stop at this virtual time (seconds); open waits are recorded with \"until\": true.") var until: Double?
    @Option(help: "Summary format.") var format: OutputFormat = .text

    func validate() throws {
        if let until, until < 0 || !until.isFinite { throw ValidationError("--until takes a non-negative number of seconds") }
    }

    func run() throws {
        let result = try guarded { () throws -> SimulationResult in
            let s = try ScenarioLoader.load(path: scenario)
            let r = Simulator.run(s, until: until.map(TraceTime.seconds))
            try emit(r.jsonl, to: output)
            return r
        }
        for w in result.warnings { warn("warning: \(w)") }
        let summary = result.summary
        let text: String
        switch format {
        case .json:
            var o: JSONObject = [
                "scenario": .string(result.header.scenario ?? ""), "events": .int(Int64(summary.events)),
                "boardsActivated": .int(Int64(summary.boardsActivated)), "barriersResolved": .int(Int64(summary.barriersResolved)),
                "loops": .int(Int64(summary.loops)), "stuck": .int(Int64(summary.stuckBarriers)),
                "heldDispatchers": .int(Int64(summary.heldDispatchers)), "runaways": .int(Int64(summary.runaways)),
                "endTime": summary.endTime.jsonValue,
            ]
            if let output { o["trace"] = .string(output) }
            text = JSONValue.object(o).jsonText
        case .text:
            text = """
                \(result.header.scenario ?? "scenario"): \(summary.events) events, \(summary.boardsActivated) boards activated, \
                \(summary.barriersResolved) barriers resolved, \(summary.loops) loops, \(summary.stuckBarriers) stuck, \
                \(summary.heldDispatchers) dispatchers holding events\(summary.runaways > 0 ? ", \(summary.runaways) runaway flow cycles stopped" : ""); ended at t=\(summary.endTime)\(output.map { "\ntrace: \($0)" } ?? "")
                """
        }
        // With the trace on standard output, the summary goes to standard error.
        if output == nil { warn(text) } else { print(text) }
        if summary.foundProblems { throw Exit.problems }
    }
}

// MARK: test

struct Test: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Simulate scenarios and check their expect lists.",
        discussion: """
            Exits 1 when an expectation fails, printing what was expected and what the trace shows.

            Example:
              boardy-viz test samples/*.json
            """)

    @Argument(help: "Scenario files, or folders (their .json, .yaml and .yml files).") var scenarios: [String]
    @Option(help: "Report format.") var format: OutputFormat = .text

    func validate() throws {
        if scenarios.isEmpty { throw ValidationError("give at least one scenario") }
    }

    func run() throws {
        var allPassed = true
        var reports: [JSONValue] = []
        for path in Self.expand(scenarios) {
            let (s, results) = try guarded { () throws -> (Scenario, [ExpectationResult]) in
                let s = try ScenarioLoader.load(path: path)
                let r = Simulator.run(s)
                return (s, s.expectations.map { $0.check(r.trace.events) })
            }
            let failed = results.filter { !$0.passed }
            allPassed = allPassed && failed.isEmpty
            switch format {
            case .text:
                print("\(failed.isEmpty ? "PASS" : "FAIL") \(path) (\(s.name)): \(results.count - failed.count)/\(results.count) expectations hold")
                for f in failed { print("  ✗ \(f.expectation)\n    \(f.detail)") }
            case .json:
                reports.append([
                    "file": .string(path), "scenario": .string(s.name), "passed": .bool(failed.isEmpty),
                    "expectations": .array(results.map { ["expect": .string($0.expectation), "passed": .bool($0.passed), "detail": .string($0.detail)] }),
                ])
            }
        }
        if format == .json { print(JSONValue.array(reports).jsonText) }
        if !allPassed { throw Exit.failed }
    }

    /// Files as given; a folder stands for the scenario files directly in it, sorted.
    static func expand(_ paths: [String]) -> [String] {
        paths.flatMap { path -> [String] in
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue else { return [path] }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            return names.filter { n in [".json", ".yaml", ".yml"].contains { n.lowercased().hasSuffix($0) } }.sorted()
                .map { (path as NSString).appendingPathComponent($0) }
        }
    }
}

// MARK: check

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Find barrier loops, gates that never complete and unreachable boards, without running.",
        discussion: """
            Errors (exit 3): barrier loops, gates that can never complete. Warnings (exit unchanged):
            boards never reached, dispatch barriers scoped to unknown dispatchers.

            Example:
              boardy-viz check samples/barrier-loop.json
            """)

    @Argument(help: "The scenario file.") var scenario: String
    @Option(help: "Report format.") var format: OutputFormat = .text

    func run() throws {
        let findings = try guarded { StaticCheck.check(try ScenarioLoader.load(path: scenario)) }
        switch format {
        case .text:
            if findings.isEmpty { print("\(scenario): no findings") }
            for f in findings { print("\(scenario): \(f.severity.rawValue): \(f.message)\n  fix: \(f.suggestion)") }
        case .json:
            print(JSONValue.array(findings.map {
                ["severity": .string($0.severity.rawValue), "code": .string($0.code), "message": .string($0.message),
                 "suggestion": .string($0.suggestion), "boards": .array($0.boards.map { .string($0.rawValue) })]
            }).jsonText)
        }
        if findings.contains(where: { $0.severity == .error }) { throw Exit.problems }
    }
}

// MARK: stats

struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Counts per kind, board and dispatcher, barrier wait times, loops and stuck.",
        discussion: "Streams the trace in bounded memory.\n\nExample:\n  boardy-viz stats out/checkout.jsonl --format json")

    @Argument(help: "The trace file.") var trace: String
    @Option(help: "Report format.") var format: OutputFormat = .text

    func run() throws {
        let stats = try guarded { () throws -> TraceStats in
            var reader = try TraceReader(path: trace)
            var stats = TraceStats()
            while let e = try reader.next() { stats.add(e) }
            for w in reader.warnings { warn(w.description) }
            return stats
        }
        print(format == .json ? stats.json.jsonText : stats.text)
    }
}

// MARK: export

struct Export: ParsableCommand {
    enum Target: String, ExpressibleByArgument, CaseIterable { case chrome, dot }

    static let configuration = CommandConfiguration(
        abstract: "Export a trace as Chrome trace JSON (opens in Perfetto) or its observed flow graph as DOT.",
        discussion: "Examples:\n  boardy-viz export out/checkout.jsonl --to chrome -o checkout.chrome.json\n  boardy-viz export out/checkout.jsonl --to dot")

    @Argument(help: "The trace file.") var trace: String
    @Option(help: "chrome or dot.") var to: Target
    @Option(name: .shortAndLong, help: "Write here instead of standard output.") var output: String?

    func run() throws {
        try guarded {
            let t = try readTrace(trace)
            switch to {
            case .chrome:
                try emit(ChromeTraceExport.export(t).jsonText + "\n", to: output)
            case .dot:
                let dot = try FlowGraph.render(FlowModel(trace: t), format: .dot)
                try emit(String(decoding: dot, as: UTF8.self), to: output)
            }
        }
    }
}

// MARK: graph, timeline

extension RenderFormat: ExpressibleByArgument {}

/// Writes rendered bytes to `path` (whole or not at all), or to standard output.
func emitBytes(_ bytes: [UInt8], to path: String?) throws {
    if let path {
        try writeAtomically(Data(bytes), to: path)
    } else {
        FileHandle.standardOutput.write(Data(bytes))
    }
}

/// Whether `path` names a trace (by its extension, else by its first line).
func isTrace(_ path: String) -> Bool {
    let lower = path.lowercased()
    if lower.hasSuffix(".jsonl") { return true }
    if lower.hasSuffix(".json") || lower.hasSuffix(".yaml") || lower.hasSuffix(".yml") { return false }
    guard let h = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? h.close() }
    let head = String(decoding: h.readData(ofLength: 200), as: UTF8.self)
    return head.contains("\"boardy-trace\"")
}

struct GraphCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph",
        abstract: "Draw the flow graph of a scenario (declared) or of a trace (observed, with counts).",
        discussion: """
            Boards are nodes (shape by kind), modules clusters, continuous boards nested clusters;
            flows are solid edges labelled with the output; activation-barrier and gateway edges
            are dashed from the gate; exempt boards have a double border; barrier loops are red.
            Large graphs (over 400 boards) use a layered layout of our own pinned through
            Graphviz's nop2 engine; the SVG's title names the layout used. `--format dot` writes
            the graph before layout (no coordinates): the same text on every machine.

            Examples:
              boardy-viz graph samples/checkout.json -o checkout.graph.svg
              boardy-viz graph out/checkout.jsonl --format dot
            """)

    @Argument(help: "A scenario (.json, .yaml) or a trace (.jsonl).") var input: String
    @Option(name: .shortAndLong, help: "Write here instead of standard output.") var output: String?
    @Option(help: "svg, dot or png.") var format: RenderFormat = .svg

    func run() throws {
        try guarded {
            let model = isTrace(input) ? FlowModel(trace: try readTrace(input)) : FlowModel(scenario: try ScenarioLoader.load(path: input))
            try emitBytes(try FlowGraph.render(model, format: format), to: output)
        }
    }
}

struct TimelineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timeline",
        abstract: "Draw a trace on its time axis: lanes per board and dispatcher, barrier waits as spans.",
        discussion: """
            Events are marks (see the legend), barrier waits run from the wait check to the
            resolution (stuck waits to the end, dashed), arrows follow `cause` between lanes, and
            cancellations and loops are red. The layout is pinned (linear in the events);
            Graphviz's nop2 engine draws it. Hovering a mark shows its title: the event's
            fields, one per line. Element ids: board-<id>, dispatcher-<id>, event-<seq>,
            wait-<seq>, cause-<seq>.

            Examples:
              boardy-viz timeline out/checkout.jsonl -o checkout.timeline.svg
              boardy-viz timeline big.jsonl --from 10 --to 20 --board pubPayment -o window.svg
            """)

    @Argument(help: "The trace file.") var trace: String
    @Option(name: .shortAndLong, help: "Write here instead of standard output.") var output: String?
    @Option(help: "svg, dot or png.") var format: RenderFormat = .svg
    @Option(help: "Only events at or after this virtual time (seconds).") var from: Double?
    @Option(help: "Only events at or before this virtual time (seconds).") var to: Double?
    @Option(help: "Only this board's lane (repeatable; `path/id` inside continuous boards).") var board: [String] = []
    @Flag(help: "Leave out the causal arrows between lanes.") var noCauses = false

    func validate() throws {
        if let from, from < 0 { throw ValidationError("--from must be at least 0") }
        if let to, to < 0 { throw ValidationError("--to must be at least 0") }
        if let from, let to, from > to { throw ValidationError("--from must not be after --to") }
    }

    func run() throws {
        try guarded {
            let t = try readTrace(trace)
            let big = t.events.count > 10_000
            if big { warn("timeline: \(t.events.count) events read; laying out") }
            let options = Timeline.Options(
                from: from.map { TraceTime(microseconds: Int64(($0 * 1_000_000).rounded())) },
                to: to.map { TraceTime(microseconds: Int64(($0 * 1_000_000).rounded())) }, boards: Set(board), causes: !noCauses)
            let graph = Timeline.graph(t, options: options)
            if big { warn("timeline: \(graph.nodes.count) marks; rendering \(format.rawValue) with Graphviz") }
            let bytes = try GraphvizRenderer.render(graph, engine: "nop2", format: format)
            if big { warn("timeline: \(bytes.count) bytes") }
            try emitBytes(bytes, to: output)
        }
    }
}
