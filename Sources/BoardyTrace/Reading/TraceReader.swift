import BoardyFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A trace could not be read: the file, the 1-based line (and column, for JSON syntax), and what
/// was wrong.
public struct TraceReadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file (or the name given for in-memory input).
    public var file: String
    /// The 1-based line, 0 when the problem is the file as a whole.
    public var line: Int
    /// The 1-based byte column, for JSON syntax errors.
    public var column: Int?
    /// What was wrong.
    public var message: String

    /// An error at `file:line[:column]`.
    public init(file: String, line: Int, column: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `file:line:column: message`, leaving out a line of 0 and a missing column.
    public var description: String {
        var s = file
        if line > 0 { s += ":\(line)" }
        if let column { s += ":\(column)" }
        return "\(s): \(message)"
    }
}

/// Something the reader accepted but the user should know: a cut-off last line.
public struct TraceReadWarning: Sendable, Hashable, CustomStringConvertible {
    /// The file.
    public var file: String
    /// The 1-based line.
    public var line: Int
    /// What happened.
    public var message: String
    /// `file:line: warning: message`.
    public var description: String { "\(file):\(line): warning: \(message)" }
}

extension TraceHeader {
    /// The header line and `events` as JSON Lines, exactly as ``TraceWriter`` writes them;
    /// `count` sizes the buffer.
    func jsonl(_ events: some Sequence<TraceEvent>, count: Int) -> String {
        var w = JSONWriter(capacity: 256 * (count + 1))
        w.writeValue(.object(jsonObject))
        w.byte(UInt8(ascii: "\n"))
        for e in events { e.write(to: &w) }
        return w.string
    }
}

extension Trace {
    /// Reads a whole trace file. With `order` ``TraceReader/OrderChecking/lenient``, `seq` gaps
    /// and time going backwards are accepted (a replay reports them as divergences).
    public static func read(path: String, order: TraceReader.OrderChecking = .strict) throws(TraceReadError) -> Trace {
        var reader = try TraceReader(path: path)
        reader.order = order
        return try reader.readAll()
    }

    /// Reads a whole trace from text; `name` stands for the file in messages.
    public static func read(text: String, name: String = "<trace>", order: TraceReader.OrderChecking = .strict) throws(TraceReadError) -> Trace {
        var reader = try TraceReader(bytes: Array(text.utf8), name: name)
        reader.order = order
        return try reader.readAll()
    }
}

/// Streams events from a trace file in bounded memory (it reads 1 MiB at a time).
///
/// Checks what the contract promises: a version-1 header on line 1; every other line one event;
/// `seq` from 1 without gaps; `t` never decreasing; `cause` naming an earlier event. A last line
/// without its newline that does not parse is a truncation (a crash while writing): a warning,
/// with every event before it kept. Anything else malformed throws, naming the line.
public struct TraceReader {
    /// Line 1.
    public private(set) var header: TraceHeader
    /// Warnings so far (a truncated last line).
    public private(set) var warnings: [TraceReadWarning] = []
    /// The file's name, as used in messages.
    public let file: String
    /// The strings of the rows read so far (``nextRow(_:)``), numbered: the known kinds first,
    /// in the order of `EventKind.allCases`, then every `kind`, `mb` and board as first seen.
    public private(set) var strings = StringTable.withKnownKinds
    /// The last `mb` the fast path interned: its length, its bytes as two words, its number.
    private var lastMb: (count: Int, words: StringTable.Words, id: Int32) = (-1, .init(0, 0), 0)
    /// The numbers of the lines before, for the fast pass (see `LineScanner.Hints`).
    private var hints = LineScanner.Hints()
    /// Whether `seq` and `t` order are checked (``OrderChecking/strict``, the default).
    public var order: OrderChecking = .strict

    /// How the reader treats the order of events.
    public enum OrderChecking: Sendable {
        /// `seq` counts from 1 without gaps and `t` never decreases, or the line is malformed.
        case strict
        /// Every line must still be a well-formed event (a `cause` before its own `seq`), but
        /// gaps, repeats and reordering are left to the caller: replay compares them with a run
        /// and reports the first one as a divergence at its place.
        case lenient
    }

    private var source: ByteSource
    /// The input's length when it is a regular file or bytes in memory (0 for a stream): sizes
    /// a ``TraceTable``.
    var byteCount = 0
    private var lineNumber = 1
    private var lastSeq = 0
    private var lastT = TraceTime.zero

    /// The longest line read by default: 64 MiB (docs/contract.md §2). A longer line is malformed.
    public static let defaultMaximumLineLength = 64 << 20

    /// Opens `path` and reads its header. A regular file, or a pipe or device read as a stream;
    /// a folder is refused. Lines longer than `maximumLineLength` bytes are malformed: the reader
    /// never holds more than about that much of the file.
    public init(path: String, maximumLineLength: Int = TraceReader.defaultMaximumLineLength) throws(TraceReadError) {
        switch InputFiles.openNamedInput(path) {
        case let .failure(error):
            if case let .notRegular(kind) = error.reason {
                throw TraceReadError(file: path, line: 0, message: "cannot open: it is \(kind.described), not a trace file")
            }
            if case let .system(message) = error.reason { throw TraceReadError(file: path, line: 0, message: "cannot open: \(message)") }
            throw TraceReadError(file: path, line: 0, message: "cannot open: \(error.description)")
        case let .success((fd, size)):
            try self.init(source: ByteSource(fd: fd, owned: true, maximumLine: maximumLineLength), name: path)
            byteCount = size
        }
    }

    /// Streams from an open descriptor (standard input: 0), which it does not close.
    public init(fileDescriptor fd: Int32, name: String, maximumLineLength: Int = TraceReader.defaultMaximumLineLength) throws(TraceReadError) {
        try self.init(source: ByteSource(fd: fd, owned: false, maximumLine: maximumLineLength), name: name)
    }

    /// Reads from bytes in memory; `name` stands for the file in messages.
    public init(bytes: [UInt8], name: String, maximumLineLength: Int = TraceReader.defaultMaximumLineLength) throws(TraceReadError) {
        try self.init(source: ByteSource(bytes: bytes, maximumLine: maximumLineLength), name: name)
        byteCount = bytes.count
    }

    private init(source: ByteSource, name: String) throws(TraceReadError) {
        self.file = name
        self.source = source
        self.header = TraceHeader()
        try source.skipByteOrderMark(file: name)
        guard let first = try source.nextLine(file: name, line: 1) else {
            throw TraceReadError(file: name, line: 1, message: "empty file: a trace starts with a header line")
        }
        let parsed = first.bytes.withUnsafeBufferPointer { buf in Self.parseObject(buf) }
        switch parsed {
        case .failure(let f):
            let cut = first.hasNewline ? "" : " (the file ends inside it)"
            throw TraceReadError(file: name, line: 1, column: f.offset + 1, message: "header is not valid JSON\(cut): \(f.message)")
        case .success(let object):
            do {
                header = try TraceHeader(jsonObject: object)
            } catch {
                throw TraceReadError(file: name, line: 1, message: error.message)
            }
        }
    }

    /// The next event, or nil at the end of the file.
    public mutating func next() throws(TraceReadError) -> TraceEvent? {
        lineNumber += 1
        guard
            let (parsed, hasNewline, blank) = try source.withNextLine(
                file: file, line: lineNumber,
                { buf, nl in (Self.parseObject(buf), nl, Self.isBlank(buf)) })
        else { return nil }
        guard let event = try decode(parsed, hasNewline: hasNewline, blank: blank) else { return nil }
        try checkOrder(seq: event.seq, t: event.t)
        return event
    }

    static func isBlank(_ buf: UnsafeBufferPointer<UInt8>) -> Bool { buf.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D } }

    /// The event of a line the full parser read; nil for a cut-off last line (a warning). Every
    /// reader's verdict on a line that is not well formed comes from here.
    private mutating func decode(_ parsed: Result<JSONObject, JSONParser.Failure>, hasNewline: Bool, blank: Bool) throws(TraceReadError)
        -> TraceEvent?
    {
        let object: JSONObject
        switch parsed {
        case .failure(let f):
            if !hasNewline {
                warnings.append(
                    TraceReadWarning(
                        file: file, line: lineNumber,
                        message: Self.truncationMessage(kept: lastSeq)))
                return nil
            }
            if blank {
                throw TraceReadError(file: file, line: lineNumber, message: "empty line: every line after the header is one event")
            }
            throw TraceReadError(file: file, line: lineNumber, column: f.offset + 1, message: "not valid JSON: \(f.message)")
        case .success(let o):
            object = o
        }
        do {
            return try TraceEvent(jsonObject: object)
        } catch {
            throw TraceReadError(file: file, line: lineNumber, message: error.message)
        }
    }

    /// The order rules of ``order`` for the event just read.
    @inline(__always)
    private mutating func checkOrder(seq: Int, t: TraceTime) throws(TraceReadError) {
        guard order == .strict else {
            lastSeq += 1
            return
        }
        guard seq == lastSeq + 1 else {
            throw TraceReadError(
                file: file, line: lineNumber,
                message: "seq gap: expected seq \(lastSeq + 1), found \(seq) (events must count from 1 without gaps)")
        }
        guard t >= lastT else {
            throw TraceReadError(file: file, line: lineNumber, message: "time goes backwards: t \(t) after \(lastT)")
        }
        lastSeq = seq
        lastT = t
    }

    /// Reads the next event's common fields and calls `body` with them (and the strings they
    /// are numbered in); false at the end of the file (or after a cut-off last line). The fast
    /// path: a line as ``TraceWriter`` writes it is read by one structural pass without
    /// building a value, strings are interned in ``strings``; any other line goes through the
    /// full parser, with the verdict ``next()`` gives.
    public mutating func nextRow(_ body: (TraceRow, StringTable) -> Void) throws(TraceReadError) -> Bool {
        lineNumber += 1
        let line = lineNumber
        // The fast pass first, over the bytes held: it finds the line's end itself (a line it
        // accepts holds no newline before its closing brace), so the newline search is saved.
        // A line it does not accept, or not held whole, goes the way of every line.
        let held = source.unread
        if let fast = LineScanner.scan(prefixOf: held, hints: &hints), fast.length <= source.maximumLine {
            // Consumed first, as every line is before its checks (the bytes stay where they are).
            source.consume(lineOf: fast.length)
            try checkOrder(seq: fast.row.seq, t: TraceTime(microseconds: fast.row.t))
            let buf = UnsafeBufferPointer(start: held.baseAddress, count: fast.length)
            emitFast(fast.row, buf, line: line, body)
            return true
        }
        let result: Bool? = try source.withNextLine(file: file, line: line) { (buf, nl) throws(TraceReadError) -> Bool in
            if let fast = LineScanner.scan(buf, hints: &hints) {
                try checkOrder(seq: fast.seq, t: TraceTime(microseconds: fast.t))
                emitFast(fast, buf, line: line, body)
                return true
            }
            guard let event = try decode(Self.parseObject(buf), hasNewline: nl, blank: Self.isBlank(buf)) else { return false }
            try checkOrder(seq: event.seq, t: event.t)
            let row = TraceRow(
                seq: event.seq, t: event.t, kind: strings.intern(event.kind), mb: strings.intern(event.mb),
                board: event.body.board.map { strings.intern($0) } ?? -1, cause: event.cause ?? 0, line: line, bytes: buf, decoded: event)
            body(row, strings)
            return true
        }
        return result ?? false
    }

    /// Interns a fast-path row's strings and hands the row to `body`.
    @inline(__always)
    private mutating func emitFast(_ fast: LineScanner.Row, _ buf: UnsafeBufferPointer<UInt8>, line: Int, _ body: (TraceRow, StringTable) -> Void) {
        let base = buf.baseAddress!
        // Both strings lie past the line's first 8 bytes (`{"seq":` and more come first).
        // The motherboard is most often the previous line's: two words compared, no hash.
        let mb: Int32
        if fast.mbCount <= 16, fast.mbCount == lastMb.count, StringTable.words(base + fast.mbStart, fast.mbCount) == lastMb.words {
            mb = lastMb.id
        } else {
            mb = strings.internInLine(base + fast.mbStart, fast.mbCount)
            if fast.mbCount <= 16 { lastMb = (fast.mbCount, StringTable.words(base + fast.mbStart, fast.mbCount), mb) }
        }
        let board = fast.boardStart < 0 ? -1 : strings.internInLine(base + fast.boardStart, fast.boardCount)
        let row = TraceRow(
            seq: fast.seq, t: TraceTime(microseconds: fast.t), kind: fast.kindID, mb: mb, board: board, cause: fast.cause, line: line,
            bytes: buf, decoded: nil)
        body(row, strings)
    }

    /// Reads every remaining event.
    public mutating func readAll() throws(TraceReadError) -> Trace {
        var events: [TraceEvent] = []
        while let e = try next() { events.append(e) }
        return Trace(header: header, events: events, warnings: warnings)
    }

    static func truncationMessage(kept: Int) -> String {
        "the last line is cut off (no newline, not valid JSON): a truncated write; the \(kept) events before it are kept"
    }

    static func parseObject(_ buf: UnsafeBufferPointer<UInt8>) -> Result<JSONObject, JSONParser.Failure> {
        var p = JSONParser(buf)
        p.skipWhitespace()
        guard !p.atEnd, buf[p.pos] == UInt8(ascii: "{") else {
            return .failure(
                p.fail(p.atEnd ? "expected a JSON object, found an empty line" : "expected a JSON object, found \(p.describe(buf[p.pos]))"))
        }
        do throws(JSONParser.Failure) {
            let o = try p.parseObject(depth: 1)
            p.skipWhitespace()
            guard p.atEnd else { throw p.fail("unexpected text after the object") }
            return .success(o)
        } catch {
            return .failure(error)
        }
    }
}

/// Lines from a file descriptor (read in 1 MiB chunks) or from memory, in linear time: the search
/// for a newline resumes where the last one stopped, and a line longer than `maximumLine` is an
/// error as soon as that many bytes have come without a newline. Chunks are read straight into
/// the buffer (no copy); a line is handed out in place.
// The source is confined to its reader, which is not shared between threads while it reads
// (it is not Sendable): its hot fields skip Swift's dynamic exclusivity checks, which cost
// about a tenth of the fast path's time.
private final class ByteSource {
    struct Line {
        var bytes: [UInt8]
        var hasNewline: Bool
    }

    /// The bytes read and not yet handed out, in place (valid until the next call).
    @inline(__always) var unread: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: storage + start, count: count - start) }

    /// Hands out the next `length` bytes and the newline after them as a line, which the
    /// caller found in ``unread``.
    @inline(__always) func consume(lineOf length: Int) {
        start += length + 1
        scanned = start
    }

    /// Calls `body` with the next line's bytes (without its newline) in place, and whether it
    /// ended with a newline; nil at the end of the input.
    @inline(__always)
    func withNextLine<R>(file: String, line: Int, _ body: (UnsafeBufferPointer<UInt8>, Bool) throws(TraceReadError) -> R) throws(TraceReadError) -> R? {
        while true {
            if let nl = try indexOfNewline(file: file, line: line) {
                let from = start
                start = nl + 1
                scanned = start
                return try body(UnsafeBufferPointer(start: storage + from, count: nl - from), true)
            }
            if eof {
                guard start < count else { return nil }
                let from = start
                start = count
                scanned = start
                return try body(UnsafeBufferPointer(start: storage + from, count: count - from), false)
            }
            try fill(file: file, line: line)
        }
    }

    private var fd: Int32
    private let ownsDescriptor: Bool
    let maximumLine: Int
    /// The bytes read and not yet handed out: `start ..< count` of `capacity`.
    @exclusivity(unchecked) private var storage: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private var count = 0
    @exclusivity(unchecked) private var start = 0
    /// Where the search for the next newline resumes: no newline lies in `start..<scanned`.
    @exclusivity(unchecked) private var scanned = 0
    @exclusivity(unchecked) private var eof = false
    static let chunk = 1 << 20

    init(fd: Int32, owned: Bool, maximumLine: Int) {
        self.fd = fd
        ownsDescriptor = owned
        self.maximumLine = max(1, maximumLine)
        capacity = 2 * Self.chunk
        storage = .allocate(capacity: capacity)
    }
    init(bytes: [UInt8], maximumLine: Int) {
        fd = -1
        ownsDescriptor = false
        self.maximumLine = max(1, maximumLine)
        capacity = max(1, bytes.count)
        storage = .allocate(capacity: capacity)
        bytes.withUnsafeBufferPointer { if let b = $0.baseAddress { storage.update(from: b, count: bytes.count) } }
        count = bytes.count
        eof = true
    }
    deinit {
        if fd >= 0 && ownsDescriptor { close(fd) }
        storage.deallocate()
    }

    /// Skips a UTF-8 byte-order mark at the start of the input (as scenarios do).
    func skipByteOrderMark(file: String) throws(TraceReadError) {
        while count - start < 3 && !eof { try fill(file: file, line: 1) }
        if count - start >= 3, storage[start] == 0xEF, storage[start + 1] == 0xBB, storage[start + 2] == 0xBF {
            start += 3
            scanned = start
        }
    }

    func nextLine(file: String, line: Int) throws(TraceReadError) -> Line? {
        try withNextLine(file: file, line: line) { buf, nl in Line(bytes: Array(buf), hasNewline: nl) }
    }

    /// The index of the next newline, searching only bytes not searched before; throws once the
    /// line has grown past the maximum without one.
    @inline(__always)
    private func indexOfNewline(file: String, line: Int) throws(TraceReadError) -> Int? {
        let from = max(start, scanned)
        if from < count, let p = memchr(storage + from, 0x0A, count - from) {
            let found = storage.distance(to: p.assumingMemoryBound(to: UInt8.self))
            if found - start > maximumLine { throw tooLong(file: file, line: line) }
            return found
        }
        scanned = count
        if count - start > maximumLine { throw tooLong(file: file, line: line) }
        return nil
    }

    private func tooLong(file: String, line: Int) -> TraceReadError {
        TraceReadError(
            file: file, line: line,
            message: "line \(line) is longer than \(byteCount(maximumLine)), the longest line read (a trace's lines are single events; raise the limit with --max-line-bytes if this one is real)")
    }

    private func fill(file: String, line: Int) throws(TraceReadError) {
        if start > 0 {
            // The unfinished line moves to the front.
            (storage).update(from: storage + start, count: count - start)
            count -= start
            scanned -= start
            start = 0
        }
        if capacity - count < Self.chunk {
            // A line longer than what is held: grow (the line limit bounds it).
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
            grown.update(from: storage, count: count)
            storage.deallocate()
            storage = grown
            capacity *= 2
        }
        var readError: Int32 = 0
        var got = 0
        while true {
            let n = read(fd, storage + count, Self.chunk)
            if n < 0 && errno == EINTR { continue }
            if n < 0 { readError = errno } else { got = n }
            break
        }
        count += got
        if readError != 0 {
            let what = readError == EISDIR ? "it is a folder, not a trace file" : String(cString: strerror(readError))
            throw TraceReadError(file: file, line: line, message: "read failed: \(what)")
        }
        if got == 0 { eof = true }
    }
}
