#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// Opening what a user hands us, as docs/contract.md §3.3 says: a file found inside a folder is read only
// when it is a regular file, and nothing opens a path in a way that can block before its type is
// known (a named pipe with no writer blocks `open(2)` forever; a folder makes Foundation's
// `FileHandle` trap). Written on POSIX calls because Foundation offers no non-blocking open and
// no way to ask what a path is without following it into a read.

/// What a path is, without opening it.
package enum FileKind: Sendable, Equatable {
    /// A regular file.
    case regular
    /// A folder.
    case directory
    /// A named pipe.
    case fifo
    /// A socket.
    case socket
    /// A character or block device.
    case device
    /// A symlink that reaches nothing (dangling, or a loop).
    case brokenLink
    /// Nothing is there.
    case missing
    /// Something that cannot be asked about (permission denied on the folder, …).
    case unknown

    /// Why a file found in a folder under `path` is not read, as a message says it: what it is,
    /// or that its name is not UTF-8 (Foundation hands such a name over with U+FFFD in place of
    /// the bytes, and nothing can open it by that name).
    package static func reasonSkipped(_ path: String) -> String {
        let kind = FileKind.of(path)
        if kind == .missing, path.unicodeScalars.contains("\u{FFFD}") {
            return "its name is not UTF-8 text, so it cannot be opened by name; rename it"
        }
        return "it is \(kind.described), not a file"
    }

    /// The kind as a message says it: "a folder", "a named pipe", ...
    package var described: String {
        switch self {
        case .regular: return "a file"
        case .directory: return "a folder"
        case .fifo: return "a named pipe"
        case .socket: return "a socket"
        case .device: return "a device"
        case .brokenLink: return "a symlink that reaches no file"
        case .missing: return "missing"
        case .unknown: return "not readable"
        }
    }

    init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFIFO: self = .fifo
        case S_IFSOCK: self = .socket
        case S_IFCHR, S_IFBLK: self = .device
        default: self = .unknown
        }
    }

    /// What `path` is, following symlinks (a link to a folder is a folder).
    package static func of(_ path: String) -> FileKind {
        var st = stat()
        if stat(path, &st) == 0 { return FileKind(mode: st.st_mode) }
        let error = errno
        var lst = stat()
        if lstat(path, &lst) == 0, (lst.st_mode & S_IFMT) == S_IFLNK { return .brokenLink }
        return error == ENOENT || error == ENOTDIR ? .missing : .unknown
    }
}

/// A file's identity on its device: two paths with the same identity are the same file, through
/// symlinks and hard links.
package struct FileIdentity: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64

    /// The identity of the file `path` reaches (following symlinks), or nil when it reaches none.
    package init?(path: String) {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
    }
}

/// Why a file could not be read.
package struct FileReadError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    package enum Reason: Sendable, Equatable {
        /// Not a regular file (only regular files are read from inside a folder).
        case notRegular(FileKind)
        /// `open(2)` or `read(2)` failed.
        case system(String)
        /// Longer than the limit the caller set.
        case tooLarge(limit: Int)
        /// A NUL byte, which no text input holds (a binary file, `/dev/zero`), at this offset
        /// (0-based), line and column (1-based).
        case nulByte(offset: Int, line: Int, column: Int)
    }

    /// The path read.
    package var path: String
    /// What went wrong.
    package var reason: Reason

    /// One sentence: what the path is and what was wrong.
    package var description: String {
        switch reason {
        case let .notRegular(kind): return "\(path) is \(kind.described), not a file"
        case let .system(message): return "cannot read \(path): \(message)"
        case let .tooLarge(limit): return "\(path) is larger than \(byteCount(limit)); it is not an input this command reads"
        case let .nulByte(_, line, column): return "\(path):\(line):\(column): byte 0x0 (NUL): it is binary, not text"
        }
    }
}

/// `n` bytes as a message says it (`64 MiB`, `512 KiB`, `100 bytes`).
package func byteCount(_ n: Int) -> String {
    if n >= 1 << 30 && n % (1 << 30) == 0 { return "\(n >> 30) GiB" }
    if n >= 1 << 20 && n % (1 << 20) == 0 { return "\(n >> 20) MiB" }
    if n >= 1 << 10 && n % (1 << 10) == 0 { return "\(n >> 10) KiB" }
    return "\(n) bytes"
}

/// Reads inputs without ever blocking on opening them.
package enum InputFiles {
    /// Reads the regular file `path` whole (at most `limit` bytes; more is ``FileReadError/Reason/tooLarge(limit:)``).
    /// Anything else (a folder, a pipe, a socket, a device, also through a symlink) is refused
    /// without being read: it is opened non-blocking and checked on the open descriptor, so a
    /// path swapped for a pipe between a check and the open cannot block either.
    package static func readRegularFile(_ path: String, limit: Int = Int.max) -> Result<[UInt8], FileReadError> {
        switch openRegular(path) {
        case let .failure(error): return .failure(error)
        case let .success((fd, size)):
            defer { close(fd) }
            return readAll(fd, path: path, limit: limit, sizeHint: size, rejectingNUL: false)
        }
    }

    /// Opens `path` non-blocking and returns its descriptor (the caller closes it) and size when
    /// the descriptor is a regular file; anything else is closed and refused unread.
    private static func openRegular(_ path: String) -> Result<(fd: Int32, size: Int), FileReadError> {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return .failure(FileReadError(path: path, reason: openFailure(path))) }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let message = lastError()
            close(fd)
            return .failure(FileReadError(path: path, reason: .system(message)))
        }
        let kind = FileKind(mode: st.st_mode)
        guard kind == .regular else {
            close(fd)
            return .failure(FileReadError(path: path, reason: .notRegular(kind)))
        }
        return .success((fd, Int(st.st_size)))
    }

    /// The first `count` bytes (or fewer) of the regular file `path`; anything else is refused
    /// without being read, as by ``readRegularFile(_:limit:)``.
    package static func readRegularPrefix(_ path: String, count: Int) -> Result<[UInt8], FileReadError> {
        let fd: Int32
        switch openRegular(path) {
        case let .failure(error): return .failure(error)
        case let .success(opened): fd = opened.fd
        }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: max(0, count))
        var got = 0
        while got < buffer.count {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + got, $0.count - got) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            got += n
        }
        return .success(Array(buffer[0..<got]))
    }

    /// Reads an input named on the command line (or standard input, for nil or `-`) to its end:
    /// a regular file, or a pipe or device read as a stream. A folder is refused. With
    /// `rejectingNUL`, the first NUL byte ends the read with an error (text inputs hold none: this
    /// stops `/dev/zero` at once instead of filling memory); past `limit` bytes, the read ends
    /// with ``FileReadError/Reason/tooLarge(limit:)``.
    package static func readNamedInput(_ path: String?, limit: Int = Int.max, rejectingNUL: Bool = false) -> Result<[UInt8], FileReadError> {
        let name = path ?? "-"
        if name == "-" {
            var st = stat()
            if fstat(0, &st) == 0, FileKind(mode: st.st_mode) == .directory {
                return .failure(FileReadError(path: "standard input", reason: .notRegular(.directory)))
            }
            return readAll(0, path: "standard input", limit: limit, sizeHint: 0, rejectingNUL: rejectingNUL)
        }
        switch openNamedInput(name) {
        case let .failure(error): return .failure(error)
        case let .success((fd, size)):
            defer { close(fd) }
            return readAll(fd, path: name, limit: limit, sizeHint: size, rejectingNUL: rejectingNUL)
        }
    }

    /// Opens `path`, named on the command line, for reading to its end: a regular file, or a
    /// pipe or device read as a stream; a folder (or a socket) is refused. A named pipe is
    /// opened as the user asked, waiting for its writer; anything else is opened non-blocking and
    /// checked on the descriptor, then read blocking. Returns the descriptor (the caller closes
    /// it) and the file's size (0 for a stream).
    package static func openNamedInput(_ path: String) -> Result<(fd: Int32, size: Int), FileReadError> {
        let expected = FileKind.of(path)
        switch expected {
        case .directory, .socket, .brokenLink: return .failure(FileReadError(path: path, reason: .notRegular(expected)))
        default: break
        }
        let fd = open(path, expected == .fifo ? O_RDONLY | O_CLOEXEC : O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return .failure(FileReadError(path: path, reason: openFailure(path))) }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let message = lastError()
            close(fd)
            return .failure(FileReadError(path: path, reason: .system(message)))
        }
        let kind = FileKind(mode: st.st_mode)
        guard kind != .directory, kind != .socket else {
            close(fd)
            return .failure(FileReadError(path: path, reason: .notRegular(kind)))
        }
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0, flags & O_NONBLOCK != 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        return .success((fd, kind == .regular ? Int(st.st_size) : 0))
    }

    /// Whether standard input is a folder (a shell's `< folder`), which nothing can read.
    package static var standardInputIsFolder: Bool {
        var st = stat()
        return fstat(0, &st) == 0 && FileKind(mode: st.st_mode) == .directory
    }

    private static func readAll(_ fd: Int32, path: String, limit: Int, sizeHint: Int, rejectingNUL: Bool) -> Result<[UInt8], FileReadError> {
        var bytes: [UInt8] = []
        if sizeHint > 0 { bytes.reserveCapacity(min(sizeHint, limit) + 1) }
        let chunk = 1 << 16
        var buffer = [UInt8](repeating: 0, count: chunk)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, chunk) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {
                    // A regular file never says this; a stream opened non-blocking may: wait.
                    var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    _ = poll(&p, 1, -1)
                    continue
                }
                if errno == EISDIR { return .failure(FileReadError(path: path, reason: .notRegular(.directory))) }
                return .failure(FileReadError(path: path, reason: .system(lastError())))
            }
            if n == 0 { return .success(bytes) }
            if rejectingNUL, let i = buffer[0..<n].firstIndex(of: 0) {
                var line = 1 + bytes.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
                var lineStart = (bytes.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0) - bytes.count
                for k in 0..<i where buffer[k] == 0x0A {
                    line += 1
                    lineStart = k + 1
                }
                return .failure(FileReadError(path: path, reason: .nulByte(offset: bytes.count + i, line: line, column: i - lineStart + 1)))
            }
            guard bytes.count + n <= limit else { return .failure(FileReadError(path: path, reason: .tooLarge(limit: limit))) }
            bytes.append(contentsOf: buffer[0..<n])
        }
    }

    private static func openFailure(_ path: String) -> FileReadError.Reason {
        let message = lastError()
        switch FileKind.of(path) {
        case .regular, .missing, .unknown: return .system(message)
        case let kind: return .notRegular(kind)
        }
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}
