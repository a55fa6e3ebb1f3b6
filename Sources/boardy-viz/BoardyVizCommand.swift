import ArgumentParser
import Boardy
import BoardyGraphviz
import BoardySimulation
import BoardyViz
import BoardyVizCore
import BoardyVizSimulation
import Foundation

/// `boardy-viz`: simulate, test, check and inspect Boardy flows (contract §3).
@main
struct BoardyVizCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "boardy-viz",
        abstract: "Makes Boardy's barrier-gated flows visible: simulate scenarios, check them, inspect traces.",
        discussion: """
            Exit codes: 0 ok; 1 a test failed; 3 barrier loops or stuck barriers; 64 bad usage;
            65 malformed input (the message names the file and line); 69 the Graphviz
            installed lacks what was asked (a PNG renderer, a layout plugin); 70 internal error.
            """,
        version: "0.1.0",
        subcommands: [
            SimulateCommand.self, TestCommand.self, CheckCommand.self, StatsCommand.self, ExportCommand.self, GraphCommand.self, TimelineCommand.self, ReplayCommand.self,
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
    /// The Graphviz installed lacks what was asked (a PNG renderer, a layout plugin).
    static let unavailable = ExitCode(69)
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
        throw e.missingPlugin != nil ? Exit.unavailable : Exit.internalError
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

// MARK: pictures

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
