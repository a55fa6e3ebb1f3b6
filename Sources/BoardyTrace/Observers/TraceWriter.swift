import Dispatch
import BoardyLock

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Streams a trace to a file as it is recorded.
///
/// Whole lines only ever reach the file: the writer flushes when its buffer holds 64 KiB, when
/// the oldest buffered line is 100 ms old (a background timer checks), and on ``close()``. After a
/// crash the file ends at a line boundary or in a partial last line, and at most the unflushed
/// buffer is lost. Safe to call from several threads.
public final class TraceWriter: TraceObserver {
    /// Flush when the buffer reaches this many bytes.
    public static let flushBytes = 64 * 1024
    /// Flush lines that have waited this long (wall time).
    public static let flushInterval: DispatchTimeInterval = .milliseconds(100)

    private struct State {
        var buffer = JSONWriter(capacity: TraceWriter.flushBytes + 4096)
        var fd: Int32
        var closed = false
        var error: TraceWriteError?
        var bufferedSince: DispatchTime?
    }

    private let state: LockedValue<State>
    // DispatchSource is thread-safe; it is only resumed and cancelled.
    private nonisolated(unsafe) let timer: DispatchSourceTimer
    /// The file's path.
    public let path: String
    /// The payload policy applied before an event is written.
    public let policy: PayloadPolicy
    private let closesDescriptor: Bool

    /// Creates (or truncates) `path` and writes the header line.
    public convenience init(path: String, header: TraceHeader, policy: PayloadPolicy = .keepAll) throws(TraceWriteError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw TraceWriteError(path: path, message: "cannot create: \(String(cString: strerror(errno)))") }
        try self.init(fileDescriptor: fd, path: path, header: header, policy: policy, closesDescriptor: true)
    }

    /// Writes to an open file descriptor (a temporary file, a pipe, a device, standard output),
    /// named `path` in errors; ``close()`` closes it only when `closesDescriptor` says so.
    public init(
        fileDescriptor fd: Int32, path: String, header: TraceHeader, policy: PayloadPolicy = .keepAll, closesDescriptor: Bool
    ) throws(TraceWriteError) {
        self.closesDescriptor = closesDescriptor
        self.path = path
        self.policy = policy
        var s = State(fd: fd)
        s.buffer.writeValue(.object(header.jsonObject))
        s.buffer.byte(UInt8(ascii: "\n"))
        state = LockedValue(s)
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "boardy-trace.writer.flush"))
        timer.schedule(deadline: .now() + Self.flushInterval, repeating: Self.flushInterval, leeway: .milliseconds(10))
        timer.setEventHandler { [weak self] in self?.flushIfStale() }
        timer.resume()
        try flush()
    }

    deinit {
        timer.cancel()
        state.withLockedValue { s in
            if !s.closed {
                Self.drain(&s, path: path)
                if closesDescriptor { _ = Glibc_close(s.fd) }
            }
        }
    }

    /// Buffers the event's line, after ``policy``, and writes the buffer out once it holds
    /// ``flushBytes``; ignored after ``close()``.
    public func record(_ event: consuming TraceEvent) {
        let e = policy.isKeepAll ? event : policy.apply(to: event)
        state.withLockedValue { s in
            guard !s.closed else { return }
            if s.bufferedSince == nil { s.bufferedSince = .now() }
            e.write(to: &s.buffer)
            if s.buffer.bytes.count >= Self.flushBytes { Self.drain(&s, path: path) }
        }
    }

    /// Buffers each event's line in order, as ``record(_:)`` does, under one lock.
    public func record(contentsOf events: consuming [TraceEvent]) {
        let events = copy events
        state.withLockedValue { s in
            guard !s.closed else { return }
            if s.bufferedSince == nil { s.bufferedSince = .now() }
            for event in events {
                (policy.isKeepAll ? event : policy.apply(to: event)).write(to: &s.buffer)
                if s.buffer.bytes.count >= Self.flushBytes { Self.drain(&s, path: path) }
            }
        }
    }

    /// Writes what is buffered now.
    public func flush() throws(TraceWriteError) {
        let error = state.withLockedValue { s -> TraceWriteError? in
            Self.drain(&s, path: path)
            return s.error
        }
        if let error { throw error }
    }

    /// Writes what is buffered now; an error is kept for ``close()``.
    public func flushBeforeTrap() { try? flush() }

    /// Flushes, closes the file and stops the timer. Throws the first write error, if any.
    public func close() throws(TraceWriteError) {
        timer.cancel()
        let error = state.withLockedValue { s -> TraceWriteError? in
            guard !s.closed else { return s.error }
            Self.drain(&s, path: path)
            if closesDescriptor, Glibc_close(s.fd) != 0, s.error == nil {
                s.error = TraceWriteError(path: path, message: "close failed: \(String(cString: strerror(errno)))")
            }
            s.closed = true
            return s.error
        }
        if let error { throw error }
    }

    private func flushIfStale() {
        state.withLockedValue { s in
            guard !s.closed, let since = s.bufferedSince else { return }
            let age = DispatchTime.now().uptimeNanoseconds &- since.uptimeNanoseconds
            if age >= 90_000_000 { Self.drain(&s, path: path) }
        }
    }

    private static func drain(_ s: inout State, path: String) {
        defer {
            s.buffer.bytes.removeAll(keepingCapacity: true)
            s.bufferedSince = nil
        }
        guard !s.buffer.bytes.isEmpty, s.error == nil else { return }
        let fd = s.fd
        let failure: String? = s.buffer.bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc_write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return String(cString: strerror(errno))
                }
                offset += n
            }
            return nil
        }
        if let failure { s.error = TraceWriteError(path: path, message: "write failed: \(failure)") }
    }
}

/// The trace file could not be written.
public struct TraceWriteError: Error, Sendable, CustomStringConvertible {
    /// The file.
    public var path: String
    /// What went wrong.
    public var message: String
    /// `path: message`.
    public var description: String { "\(path): \(message)" }
}

@inline(__always) private func Glibc_write(_ fd: Int32, _ p: UnsafeRawPointer, _ n: Int) -> Int { write(fd, p, n) }
@inline(__always) private func Glibc_close(_ fd: Int32) -> Int32 { close(fd) }
