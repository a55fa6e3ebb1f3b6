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
        // Names of a file a process holds open (/dev/stdout, /dev/fd/3, /proc/self/fd/1), and
        // links through them, are streams even when the shell sent them to a file: replacing that
        // file would lose what is written, since the shell holds the old one open. Other paths
        // under /dev (a tmpfs such as /dev/shm) are ordinary: devices are streamed below.
        if Self.namesOpenFile(path) {
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
        // A name directly in /dev that is not there is a mistyped device (`/dev/nul`), not a
        // file to create beside the devices; folders under it (a tmpfs such as /dev/shm) hold
        // ordinary files.
        if stat(target, &st) != 0, (Self.canonicalFolder(target) as NSString).deletingLastPathComponent == "/dev" {
            throw CannotCreateError(message: "cannot write \(path): there is no such device; give a file name outside /dev")
        }
        guard (fst.st_mode & S_IFMT) == S_IFDIR else {
            throw CannotCreateError(message: "cannot write \(path): \(folder) is a file, not a folder")
        }
        // The interrupt handlers are registered before the file exists (a signal that comes
        // before is lost), and the file is tracked before a handler can look for it.
        // mkstemp replaces the X's with a unique name and creates the file, mode 0600.
        var fd: Int32 = -1
        var failure: Int32 = 0
        guard
            let temporary = Interrupts.creatingTracked({
                var template = Array((folder + "/.boardy-viz-XXXXXX").utf8CString)
                fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
                guard fd >= 0 else {
                    failure = errno
                    return nil
                }
                return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            })
        else {
            throw CannotCreateError(message: "cannot write \(path): \(String(cString: strerror(failure))) in \(folder)")
        }
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

    /// Whether `path`, or a link it passes through, names a file a process holds open:
    /// `/dev/stdin`, `/dev/stdout`, `/dev/stderr`, anything under `/dev/fd/` or `/proc/`.
    static func namesOpenFile(_ path: String) -> Bool {
        func named(_ p: String) -> Bool {
            p.hasPrefix("/proc/") || p.hasPrefix("/dev/fd/") || ["/dev/stdin", "/dev/stdout", "/dev/stderr"].contains(p)
        }
        // Each step as written and with its folder resolved: `readlink` follows the folders of a
        // path silently, so `/dev//fd/1` or `/dev/./stdout` only show what they are resolved.
        return linkChain(path).contains { p in named(p) || named(canonicalFolder(p)) }
    }

    /// `path` with its folder resolved (symlinks, `.`, `..`, doubled slashes) and its last
    /// component as it is; `path` itself when the folder does not resolve.
    static func canonicalFolder(_ path: String) -> String {
        let ns = path as NSString
        let folder = ns.deletingLastPathComponent.isEmpty ? "." : ns.deletingLastPathComponent
        guard let resolved = realpath(folder, nil) else { return path }
        defer { free(resolved) }
        let base = String(cString: resolved)
        return (base == "/" ? "" : base) + "/" + ns.lastPathComponent
    }

    /// Whether `a` and `b` name the same file (symlinks followed).
    static func sameFile(_ a: String, _ b: String) -> Bool {
        guard let ia = FileIdentity(path: a), let ib = FileIdentity(path: b) else { return false }
        return ia == ib
    }

    /// `path` with every symlink along it followed (a dangling link names its would-be target).
    static func resolveLinks(_ path: String) -> String { linkChain(path).last ?? path }

    /// `path` and each path its symlinks lead to, in order (at most 40 links, as the kernel).
    static func linkChain(_ path: String) -> [String] {
        var chain = [path]
        for _ in 0..<40 {
            let current = chain[chain.count - 1]
            var buf = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let n = readlink(current, &buf, Int(PATH_MAX))
            guard n > 0 else { break }
            let link = String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            chain.append(link.hasPrefix("/") ? link : ((current as NSString).deletingLastPathComponent as NSString).appendingPathComponent(link))
        }
        return chain
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

/// POSIX `write`, named apart from ``Output/write(_:)``.
@inline(__always) private func posixWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { write(fd, bytes, count) }
