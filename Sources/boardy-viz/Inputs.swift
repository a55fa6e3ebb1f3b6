import ArgumentParser
import BoardyFiles
import BoardyGraphviz
import BoardyImport
import BoardyLock
import BoardySimulation
import BoardyTrace
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif


// Inputs and outputs as docs/contract.md §3.3 says: `-` is standard input or output; an output that is the
// same file as an input is refused before anything runs; a regular file is written whole or not
// at all; a symlink is written through (the link stays); a device or a pipe is streamed, never
// replaced; a missing folder or a place that cannot be written is exit 73.

/// Checks that `path` (an input) can be read: `-` always can; otherwise it must be a readable
/// file (not a folder).
func checkInput(_ path: String) throws {
    if path == "-" { return }
    var st = stat()
    guard stat(path, &st) == 0 else {
        throw NoInputError(message: "cannot open \(path): \(String(cString: strerror(errno))); check the path")
    }
    if (st.st_mode & S_IFMT) == S_IFDIR {
        throw NoInputError(message: "cannot open \(path): it is a folder; give a file")
    }
    if (st.st_mode & S_IFMT) == S_IFSOCK {
        throw NoInputError(message: "cannot open \(path): it is a socket, which cannot be read as a file")
    }
    guard access(path, R_OK) == 0 else {
        throw NoInputError(message: "cannot open \(path): \(String(cString: strerror(errno))); check its permissions")
    }
}

/// Whether `path` is a regular file (not a pipe, a device or a folder).
func isRegularFile(_ path: String) -> Bool {
    var st = stat()
    return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
}

/// Standard input, read once, whole (a folder given as standard input is exit 66). Scenarios
/// only: traces are streamed.
func readStandardInput() throws -> [UInt8] {
    switch InputFiles.readNamedInput(nil, limit: ScenarioLoader.maximumSize, rejectingNUL: true) {
    case let .success(bytes): return bytes
    case let .failure(error):
        if case .notRegular = error.reason { throw NoInputError(message: "cannot read standard input: it is a folder; give a file") }
        if case let .nulByte(_, line, column) = error.reason {
            throw InputError(message: "<stdin>:\(line):\(column): byte 0x0 is not text; a scenario is UTF-8 text (is this a binary file?)")
        }
        throw InputError(message: "<stdin>: \(error.description)")
    }
}

/// The options of a command that reads traces.
struct TraceInputOptions: ParsableArguments {
    @Option(
        name: .customLong("max-line-bytes"),
        help: ArgumentHelp("The longest trace line read, in bytes (a longer one is malformed input, exit 65).", valueName: "bytes"))
    var maximumLineLength: Int = TraceReader.defaultMaximumLineLength

    func validate() throws {
        guard maximumLineLength >= 1024 else { throw ValidationError("--max-line-bytes must be at least 1024 (got \(maximumLineLength))") }
        TraceInput.maximumLineLength.withLockedValue { $0 = maximumLineLength }
    }
}

/// What ``TraceInputOptions`` set for this run.
enum TraceInput {
    static let maximumLineLength = LockedValue(TraceReader.defaultMaximumLineLength)
    static var limit: Int { maximumLineLength.withLockedValue { $0 } }
}

/// Loads a scenario from a file or `-` (standard input; JSON or YAML by its first character).
func loadScenario(_ path: String) throws -> Scenario {
    try checkInput(path)
    if path == "-" { return try ScenarioLoader.load(bytes: readStandardInput(), file: "<stdin>") }
    return try ScenarioLoader.load(path: path)
}

/// Reads a whole trace from a file or `-`, printing its read warnings.
func readTrace(_ path: String, order: TraceReader.OrderChecking = .strict) throws -> Trace {
    var reader = try traceReader(path)
    reader.order = order
    let trace = try reader.readAll()
    for w in trace.warnings { warn(w.description) }
    return trace
}

/// Reads a whole trace from a file or `-` as a table (the fast path), printing its read warnings.
func readTable(_ path: String, keepingDecodedEvents: Bool = false) throws -> TraceTable {
    var reader = try traceReader(path)
    let table = try reader.readTable(keepingDecodedEvents: keepingDecodedEvents)
    for w in table.warnings { warn(w.description) }
    return table
}

/// A streaming reader over a file or `-` (standard input, streamed too: bounded memory).
func traceReader(_ path: String) throws -> TraceReader {
    try checkInput(path)
    if path == "-" {
        if InputFiles.standardInputIsFolder { throw NoInputError(message: "cannot read standard input: it is a folder; give a file") }
        return try TraceReader(fileDescriptor: 0, name: "<stdin>", maximumLineLength: TraceInput.limit)
    }
    return try TraceReader(path: path, maximumLineLength: TraceInput.limit)
}

/// At most one input may be standard input.
func checkOneStandardInput(_ paths: [String]) throws {
    if paths.filter({ $0 == "-" }).count > 1 { throw UsageError(message: "only one input can be - (standard input)") }
}

/// The lower-cased extension of `path` (`svg` for `out/a.SVG`), or "" when it has none.
func fileExtension(_ path: String) -> String {
    let name = (path as NSString).lastPathComponent
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
    return String(name[name.index(after: dot)...]).lowercased()
}

/// Extensions whose meaning is known: a different format than the command writes is a mistake.
let knownExtensions: Set<String> = ["svg", "png", "dot", "gv", "json", "jsonl", "yaml", "yml", "html", "htm"]

// MARK: formats from extensions

/// The picture format: `--format` if given, else the output's extension, else SVG. An extension
/// that names another format than `--format` (or that names no picture) is bad usage.
func pictureFormat(_ flag: RenderFormat?, output: String?) throws -> RenderFormat {
    let ext = output.map(fileExtension) ?? ""
    let byExtension: RenderFormat? = ["svg": .svg, "png": .png, "dot": .dot, "gv": .dot][ext]
    if let output, byExtension == nil, knownExtensions.contains(ext) {
        throw UsageError(message: "\(output) names a .\(ext) file, but this command draws svg, png or dot; name it .svg, .png or .dot")
    }
    if let flag, let byExtension, flag != byExtension, let output {
        throw UsageError(message: "--format \(flag.rawValue) contradicts \(output) (.\(ext)); drop --format or change the extension")
    }
    return flag ?? byExtension ?? .svg
}

/// Checks that a trace output is named as one: `.jsonl`, or an extension we do not know.
func checkTraceOutput(_ output: String?) throws {
    guard let output, output != "-" else { return }
    let ext = fileExtension(output)
    if ext != "jsonl", knownExtensions.contains(ext) {
        throw UsageError(message: "\(output) names a .\(ext) file, but a trace is JSON Lines; name it .jsonl")
    }
}

/// Whether `s` is a glob pattern the shell left unexpanded (quoted).
func isGlobPattern(_ s: String) -> Bool { s.contains("*") || s.contains("?") || s.contains("[") }

/// Trace files from command-line arguments (`stats`, `coverage`): files as given; folders: each
/// .jsonl directly inside, sorted; patterns the shell did not expand (quoted): matched with
/// glob(3), sorted. A missing file, or nothing found, is 66.
func traceFiles(_ args: [String]) throws -> [String] {
    var files: [String] = []
    for a in args {
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: a, isDirectory: &isDir) {
            if isDir.boolValue {
                let inside = (try? FileManager.default.contentsOfDirectory(atPath: a)) ?? []
                files += regularFiles(inside.filter { $0.hasSuffix(".jsonl") }.sorted().map { (a as NSString).appendingPathComponent($0) })
            } else {
                try checkInput(a)  // named: a pipe or device is read as a stream; a socket cannot be
                files.append(a)
            }
        } else if isGlobPattern(a) {
            files += regularFiles(globbed(a))
        } else {
            try checkInput(a)  // a missing file: 66, named
        }
    }
    if files.isEmpty { throw NoInputError(message: "no trace found in \(args.joined(separator: ", "))") }
    return files
}

/// The regular files among `paths` found in a folder or a glob; the others (folders, pipes,
/// sockets, devices, broken links) are named in a warning and skipped: reading one would block
/// or fail (docs/contract.md §3.3).
func regularFiles(_ paths: [String]) -> [String] {
    paths.filter { path in
        let kind = FileKind.of(path)
        if kind == .regular { return true }
        warn("warning: skipped \(escapedForMessage(path)): \(FileKind.reasonSkipped(path))")
        return false
    }
}

/// The paths `pattern` matches, sorted (none when it matches nothing).
func globbed(_ pattern: String) -> [String] {
    var g = glob_t()
    defer { globfree(&g) }
    guard glob(pattern, 0, nil, &g) == 0 else { return [] }
    var out: [String] = []
    for i in 0..<Int(g.gl_pathc) {
        if let p = g.gl_pathv[i], let s = String(validatingCString: p) { out.append(s) }
    }
    return out.sorted()
}
