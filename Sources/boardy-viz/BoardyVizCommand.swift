import ArgumentParser
import BoardyFiles
import Boardy
import BoardyGraphviz
import BoardySimulation
import BoardyViz
import BoardyVizCore
import BoardyVizSimulation
import Foundation

/// `boardy-viz`: simulate, test, check and inspect Boardy flows (docs/contract.md §3).
@main
struct BoardyVizCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "boardy-viz",
        abstract: "Makes Boardy's barrier-gated flows visible: simulate scenarios, check them, inspect traces.",
        discussion: """
            Exit codes: 0 ok; 1 a test failed or a replay diverged; 3 barrier loops, stuck
            barriers or a runaway run; 64 bad usage; 65 malformed input (the message names the
            file and line); 66 an input cannot be opened, or no scenario was found; 69 the
            Graphviz installed lacks what was asked (a PNG renderer, a layout plugin); 70
            internal error; 73 an output cannot be created (or is the same file as an input).

            Outputs: no -o, or -o -, writes to standard output; files are written whole or not
            at all; symlinks are written through; devices and pipes are streamed. Inputs take -
            for standard input. Without --format, an output's extension picks the format.
            """,
        version: "0.2.0",
        subcommands: [
            SimulateCommand.self, TestCommand.self, CheckCommand.self, StatsCommand.self, ExportCommand.self, GraphCommand.self, TimelineCommand.self, ReplayCommand.self,
            ImportCommand.self, ViewCommand.self, CoverageCommand.self, ExploreCommand.self, IngestCommand.self,
        ])

    static func main() {
        // The CLI's standard output is its own (a trace may be written to it): Boardy's console
        // warnings, which a debug build prints, stay out of it.
        BoardyConsole.output = nil
        main(nil)
    }
}

/// Output formats for humans or for CI.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

/// Exit codes of docs/contract.md §4.
enum Exit {
    static let failed = ExitCode(1)
    static let problems = ExitCode(3)
    static let usage = ExitCode(64)
    static let malformed = ExitCode(65)
    /// An input cannot be opened, or no input was found.
    static let noInput = ExitCode(66)
    /// An output cannot be created.
    static let cannotCreate = ExitCode(73)
    /// The Graphviz installed lacks what was asked (a PNG renderer, a layout plugin).
    static let unavailable = ExitCode(69)
    static let internalError = ExitCode(70)

    /// Every code the CLI exits with, 0 included: the table docs/contract.md §4 documents (a
    /// test compares the two).
    static let all: [ExitCode] = [.success, failed, problems, usage, malformed, noInput, unavailable, internalError, cannotCreate]
}

/// Prints to standard error.
func warn(_ text: String) {
    FileHandle.standardError.write(Data((escapedLines(text) + "\n").utf8))
}

/// `text` with the invisible characters of each line spelled out (`\u{200B}`), lines kept: what a
/// terminal shows must tell apart ids that differ only by a character it does not draw.
func escapedLines(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { escapedForMessage(String($0)) }.joined(separator: "\n")
}

/// An error the CLI reports as one line and an exit code of docs/contract.md §4.
protocol CommandError: Error {
    /// The line printed after `error: `: what was wrong, where, and what to do.
    var report: String { get }
    /// The exit code.
    var exitCode: ExitCode { get }
}

extension ScenarioError: CommandError {
    var exitCode: ExitCode { Exit.malformed }
    var report: String { description }
}

extension TraceReadError: CommandError {
    var exitCode: ExitCode { Exit.malformed }
    var report: String { description }
}

extension TraceWriteError: CommandError {
    var exitCode: ExitCode { Exit.cannotCreate }
    var report: String { "cannot write \(description)" }
}

/// Runs `body`, turning each known error into its message and exit code (65 malformed input, 66
/// no input, 73 no output, 64 usage, 69 a missing Graphviz plugin), and anything unexpected into
/// exit 70 (never 1 by accident).
func guarded<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let e as any CommandError {
        warn("error: \(e.report)")
        throw e.exitCode
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

/// Input that is malformed in a way no reader reported (exit 65).
struct InputError: CommandError {
    var message: String
    var report: String { message }
    var exitCode: ExitCode { Exit.malformed }
}

/// Writes `text` to `output` (whole or not at all), or to standard output.
func emit(_ text: String, to output: Output) throws {
    try output.write(Array((text.hasSuffix("\n") ? text : text + "\n").utf8))
}

// MARK: pictures

extension RenderFormat: ExpressibleByArgument {}

/// Whether `path` names a trace (by its extension, else by its first line).
func isTrace(_ path: String) -> Bool {
    let lower = path.lowercased()
    if lower.hasSuffix(".jsonl") { return true }
    if lower.hasSuffix(".json") || lower.hasSuffix(".yaml") || lower.hasSuffix(".yml") || path == "-" { return false }
    // Peek only into a regular file (opened without blocking): a stream cannot be peeked without
    // consuming it, and a pipe or a folder is no trace to guess about.
    guard case let .success(head) = InputFiles.readRegularPrefix(path, count: 200) else { return false }
    return String(decoding: head, as: UTF8.self).contains("\"boardy-trace\"")
}

/// A number of virtual seconds given to a flag: 0 (or more than 0 when `positive`) up to the
/// clock's limit, else bad usage naming the flag.
func secondsFlag(_ flag: String, _ value: Double, positive: Bool = false) throws -> TraceTime {
    guard value.isFinite, positive ? value > 0 : value >= 0, let t = TraceTime(checkedSeconds: .double(value)), !positive || t > .zero else {
        throw ValidationError(
            "\(flag) takes a number of seconds from \(positive ? "0.000001" : "0") to 1000000000000, not \(value)")
    }
    return t
}
