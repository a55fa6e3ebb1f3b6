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

// Inputs and outputs as contract §3 says: `-` is standard input or output; an output that is the
// same file as an input is refused before anything runs; a regular file is written whole or not
// at all; a symlink is written through (the link stays); a device or a pipe is streamed, never
// replaced; a missing folder or a place that cannot be written is exit 73.

/// An input that cannot be opened (exit 66).
struct NoInputError: CommandError {
    var message: String
    var report: String { message }
    var exitCode: ExitCode { Exit.noInput }
}

/// An output that cannot be created (exit 73).
struct CannotCreateError: CommandError {
    var message: String
    var report: String { message }
    var exitCode: ExitCode { Exit.cannotCreate }
}

/// Bad usage found after parsing (exit 64): a flag that contradicts an output's extension.
struct UsageError: CommandError {
    var message: String
    var report: String { message }
    var exitCode: ExitCode { Exit.usage }
}

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

/// Where an output goes, decided (and checked) before the command runs.
final class Output {
    enum Kind {
        /// Standard output.
        case standardOutput
        /// A device node, a pipe or a socket: written as a stream, in place.
        case stream(String)
        /// A regular file (perhaps through a symlink): a temporary file beside it, renamed over it.
        case file(target: String, temporary: String, fd: Int32, mode: mode_t)
    }

    /// The path as the user gave it (nil for standard output).
    let given: String?
    let kind: Kind
    private var finished = false

    /// Decides where `path` goes; refuses (exit 73) an output that is the same file as one of
    /// `inputs`, a folder, a missing folder or a place that cannot be written.
    init(_ path: String?, inputs named: [String]) throws {
        given = path
        // Every file the command reads is an input, not only those named: a folder of an app's
        // sources stands for the Swift files and manifests an import reads under it.
        let inputs = named.flatMap { FileKind.of($0) == .directory ? AppImporter.filesRead([$0]) : [$0] }
        guard let path, path != "-" else {
            kind = .standardOutput
            return
        }
        guard !path.isEmpty else { throw UsageError(message: "-o needs a path (or - for standard output)") }
        // Standard output's own names (/dev/stdout, /proc/self/fd/1) and every other device are
        // streams, even when the shell sent them to a file: replacing that file would lose what
        // is written, since the shell holds the old one open.
        if path.hasPrefix("/dev/") || path.hasPrefix("/proc/") {
            for input in inputs where input != "-" && Self.sameFile(input, path) {
                throw CannotCreateError(message: "refusing to write \(path): it is the same file as the input \(input); choose another output")
            }
            kind = .stream(path)
            return
        }
        // Follow symlinks to what they name: the link stays, its target is written.
        let target = Self.resolveLinks(path)
        var st = stat()
        var lst = stat()
        if lstat(target, &lst) == 0, (lst.st_mode & S_IFMT) == S_IFLNK {
            throw CannotCreateError(message: "cannot write \(path): its symlinks never reach a file (a loop); fix the link or choose another output")
        }
        if stat(target, &st) == 0 {
            for input in inputs where input != "-" && Self.sameFile(input, target) {
                throw CannotCreateError(message: "refusing to write \(path): it is the same file as the input \(input); choose another output")
            }
            switch st.st_mode & S_IFMT {
            case S_IFDIR:
                throw CannotCreateError(message: "cannot write \(path): it is a folder; give a file name, such as \(path)/out")
            case S_IFREG:
                break
            default:
                kind = .stream(target)
                return
            }
        }
        let folder = (target as NSString).deletingLastPathComponent.isEmpty ? "." : (target as NSString).deletingLastPathComponent
        var fst = stat()
        guard stat(folder, &fst) == 0 else {
            throw CannotCreateError(message: "cannot write \(path): the folder \(folder) does not exist; create it first")
        }
        guard (fst.st_mode & S_IFMT) == S_IFDIR else {
            throw CannotCreateError(message: "cannot write \(path): \(folder) is a file, not a folder")
        }
        // The interrupt handlers are in place before the file exists: an interrupt that comes
        // as soon as it appears must find them (a signal ignored before its source runs is lost).
        Interrupts.install()
        // mkstemp replaces the X's with a unique name and creates the file, mode 0600.
        var template = Array((folder + "/.boardy-viz-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw CannotCreateError(message: "cannot write \(path): \(String(cString: strerror(errno))) in \(folder)")
        }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        Interrupts.track(temporary)
        // A new file gets the usual mode (0666 less the umask); a replaced one keeps its own.
        let mode: mode_t
        if stat(target, &st) == 0 {
            mode = st.st_mode & 0o7777
        } else {
            let mask = umask(0)
            umask(mask)
            mode = 0o666 & ~mask
        }
        kind = .file(target: target, temporary: temporary, fd: fd, mode: mode)
    }

    /// Whether `a` and `b` name the same file (symlinks followed).
    static func sameFile(_ a: String, _ b: String) -> Bool {
        var sa = stat()
        var sb = stat()
        return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino
    }

    /// `path` with every symlink along it followed (a dangling link names its would-be target).
    static func resolveLinks(_ path: String) -> String {
        var current = path
        for _ in 0..<40 {
            var buf = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let n = readlink(current, &buf, Int(PATH_MAX))
            guard n > 0 else { return current }
            let link = String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = link.hasPrefix("/") ? link : ((current as NSString).deletingLastPathComponent as NSString).appendingPathComponent(link)
        }
        return current
    }

    /// A descriptor to stream into (the temporary file, the device, or standard output), and
    /// whether it must be closed afterwards.
    func openStream() throws -> (fd: Int32, owned: Bool) {
        switch kind {
        case .standardOutput: return (STDOUT_FILENO, false)
        case .file(_, _, let fd, _): return (fd, false)
        case .stream(let target):
            let fd = open(target, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { throw CannotCreateError(message: "cannot write \(given ?? target): \(String(cString: strerror(errno)))") }
            return (fd, true)
        }
    }

    /// Writes `data` whole, then commits.
    func write(_ data: [UInt8]) throws {
        let (fd, owned) = try openStream()
        defer { if owned { close(fd) } }
        var offset = 0
        while offset < data.count {
            let n = data.withUnsafeBytes { posixWrite(fd, $0.baseAddress! + offset, data.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw CannotCreateError(message: "cannot write \(given ?? "standard output"): \(String(cString: strerror(errno)))")
            }
            offset += n
        }
        try commit()
    }

    /// Makes a regular file's content visible (rename over the target); nothing for streams.
    func commit() throws {
        guard !finished else { return }
        finished = true
        guard case let .file(target, temporary, fd, mode) = kind else { return }
        fchmod(fd, mode)
        defer { Interrupts.untrack(temporary) }
        let closed = close(fd)
        guard closed == 0, rename(temporary, target) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw CannotCreateError(message: "cannot write \(given ?? target): \(reason)")
        }
    }

    /// Drops a temporary file that was not committed (the target is left as it was).
    func discard() {
        guard !finished else { return }
        finished = true
        if case let .file(_, temporary, fd, _) = kind {
            close(fd)
            unlink(temporary)
            Interrupts.untrack(temporary)
        }
    }

    deinit { discard() }
}

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

/// POSIX `write`, named apart from ``Output/write(_:)``.
@inline(__always) private func posixWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { write(fd, bytes, count) }

/// Ctrl-C (or SIGTERM, SIGHUP) during a long run removes the temporary files not yet renamed
/// into place, then ends the process by the same signal, as users and scripts expect: the target
/// is left as it was, and no `.boardy-viz-*` file stays behind.
enum Interrupts {
    struct State {
        var temporaries: [String] = []
        var sources: [any DispatchSourceSignal] = []
    }

    static let state = LockedValue(State())

    static func track(_ path: String) {
        install()
        state.withLockedValue { s in s.temporaries.append(path) }
    }

    /// Installs the handlers, once, before any temporary file exists: a signal that comes while
    /// they are being installed (its default action off, its source not yet running) is lost,
    /// so the window must close before there is anything to clean up.
    static func install() {
        state.withLockedValue { s in
            guard s.sources.isEmpty else { return }
            // A parent may have started us with these signals blocked (Foundation's Process
            // does): unblock them, or an interrupt would wait for the end of the run.
            var set = sigset_t()
            sigemptyset(&set)
            for sig in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&set, sig) }
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
            for sig in [SIGINT, SIGTERM, SIGHUP] {
                signal(sig, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
                source.setEventHandler {
                    for p in state.withLockedValue({ $0.temporaries }) { unlink(p) }
                    signal(sig, SIG_DFL)
                    kill(getpid(), sig)
                }
                source.resume()
                s.sources.append(source)
            }
        }
    }

    static func untrack(_ path: String) {
        state.withLockedValue { s in s.temporaries.removeAll { $0 == path } }
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
/// or fail (contract §3).
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
