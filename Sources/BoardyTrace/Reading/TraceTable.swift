/// A trace read for its common fields, as columns: `seq`, `t`, `kind`, `mb`, the board and
/// `cause` of every event, with its line kept to decode the rest on request.
///
/// The fast way to read a trace (see BENCHMARKS.md, `read_vs_scan`): a line as ``TraceWriter``
/// writes it is read in one structural pass without building a value, and strings are interned
/// per trace (``strings``), so a column holds numbers. What the fast pass does not read (an
/// unusual line, a kind it does not know, anything malformed) goes through the full parser, so
/// a table accepts exactly the traces ``TraceReader`` accepts, with the same errors and warnings
/// at the same lines. ``event(at:)`` is the full typed event, byte for byte the reader's.
///
/// The columnar layout follows Perfetto's trace processor: a command that counts kinds per
/// board touches four numbers per event.
public struct TraceTable: Sendable {
    /// Line 1.
    public internal(set) var header: TraceHeader
    /// Warnings (a cut-off last line).
    public internal(set) var warnings: [TraceReadWarning] = []
    /// The file, as named in messages.
    public let file: String
    /// Every `kind`, `mb` and board string, numbered. Numbers below `EventKind.allCases.count`
    /// are the known kinds, in that order.
    public internal(set) var strings = StringTable()

    /// `seq` of each event.
    public internal(set) var seqs: [Int] = []
    /// `t` of each event.
    public internal(set) var times: [TraceTime] = []
    /// `kind` of each event, as a number in ``strings``.
    public internal(set) var kinds: [Int32] = []
    /// `mb` of each event, as a number in ``strings``.
    public internal(set) var mbs: [Int32] = []
    /// The board of each event (``TraceEvent/Body/board``), as a number in ``strings``; -1 when
    /// it has none.
    public internal(set) var boards: [Int32] = []
    /// `cause` of each event; 0 when it has none.
    public internal(set) var causes: [Int] = []

    /// Whether the fast pass read row `i` (false: the full parser did): its line is then in the
    /// writer's layout (members in the kind's order, no whitespace, strings without escapes or
    /// bytes outside ASCII, integers without leading zeros, nothing after `cause`), though `t`
    /// and a payload's numbers may still be written otherwise once decoded (`0.50`, `1.50`, `-0`,
    /// an integer of 19 digits or more).
    package private(set) var readInOnePass: [Bool] = []

    /// The events the full parser read while the table was built (rows the fast pass did not
    /// read), when asked to keep them (``TraceReader/readTable(keepingDecodedEvents:)``), so
    /// that ``event(at:)`` does not parse their lines a second time: `keptSlot[i]` is row `i`'s
    /// place in `kept`, -1 for none. Empty while no row was kept.
    private var kept: [TraceEvent] = []
    private var keptSlot: [Int32] = []

    /// The event lines, one after another, without newlines.
    private var bytes: [UInt8] = []
    /// Where each line ends in ``bytes`` (it starts where the previous one ends).
    private var lineEnds: [Int] = []

    init(header: TraceHeader, file: String, capacity: Int, byteCapacity: Int) {
        self.header = header
        self.file = file
        bytes.reserveCapacity(byteCapacity)
        if capacity > 0 {
            seqs.reserveCapacity(capacity)
            times.reserveCapacity(capacity)
            kinds.reserveCapacity(capacity)
            mbs.reserveCapacity(capacity)
            boards.reserveCapacity(capacity)
            causes.reserveCapacity(capacity)
            readInOnePass.reserveCapacity(capacity)
            lineEnds.reserveCapacity(capacity)
        }
    }

    /// How many events.
    public var count: Int { seqs.count }

    /// The known kind of event `i`, nil for a kind this version does not know.
    public func eventKind(at i: Int) -> EventKind? { EventKind(number: kinds[i]) }

    /// The number of a known kind in ``kinds``.
    public static func id(of kind: EventKind) -> Int32 { LineScanner.number(of: kind) }

    /// Event `i`'s common fields.
    public subscript(i: Int) -> Row {
        Row(
            seq: seqs[i], t: times[i], kind: strings[kinds[i]], eventKind: eventKind(at: i), mb: strings[mbs[i]],
            board: boards[i] < 0 ? nil : strings[boards[i]], cause: causes[i] == 0 ? nil : causes[i], line: i + 2)
    }

    /// One event's common fields.
    public struct Row: Sendable, Hashable {
        /// Position in the run.
        public var seq: Int
        /// When it happened.
        public var t: TraceTime
        /// The `kind` string.
        public var kind: String
        /// The kind, when known to this version.
        public var eventKind: EventKind?
        /// The motherboard path.
        public var mb: String
        /// The board (``TraceEvent/Body/board``).
        public var board: String?
        /// The `seq` of the event that led to this one.
        public var cause: Int?
        /// The 1-based line in the file.
        public var line: Int
    }

    /// The 1-based line of event `i` in the file.
    public func line(of i: Int) -> Int { i + 2 }

    /// Calls `body` with the bytes of event `i`'s line, without its newline.
    public func withLine<R>(_ i: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let start = i == 0 ? 0 : lineEnds[i - 1]
        return try bytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[start..<lineEnds[i]])) }
    }

    /// Event `i`, decoded in full: the event ``TraceReader`` reads from the line.
    public func event(at i: Int) throws(TraceReadError) -> TraceEvent {
        if !keptSlot.isEmpty, keptSlot[i] >= 0 { return kept[Int(keptSlot[i])] }
        let parsed = withLine(i) { TraceReader.parseObject($0) }
        switch parsed {
        case .failure(let f):
            throw TraceReadError(file: file, line: line(of: i), column: f.offset + 1, message: "not valid JSON: \(f.message)")
        case .success(let o):
            do {
                return try TraceEvent(jsonObject: o)
            } catch {
                throw TraceReadError(file: file, line: line(of: i), message: error.message)
            }
        }
    }

    /// The value of event `i`'s member `key`, decoded alone; nil when the line has none.
    public func value(_ key: String, at i: Int) -> JSONValue? {
        withLine(i) { buf in
            guard case .success(let o) = TraceReader.parseObject(buf) else { return nil }
            return o[key]
        }
    }

    /// Every event, decoded in full, as a ``Trace``.
    public func trace() throws(TraceReadError) -> Trace {
        var events: [TraceEvent] = []
        events.reserveCapacity(count)
        for i in 0..<count { events.append(try event(at: i)) }
        return Trace(header: header, events: events, warnings: warnings)
    }

    // MARK: Building

    @inline(__always)
    mutating func append(_ row: TraceRow, keepingDecoded: Bool) {
        seqs.append(row.seq)
        times.append(row.t)
        kinds.append(row.kind)
        mbs.append(row.mb)
        boards.append(row.board)
        causes.append(row.cause)
        readInOnePass.append(row.decodedBox == nil)
        if keepingDecoded, let decoded = row.decodedBox {
            if keptSlot.isEmpty { keptSlot = [Int32](repeating: -1, count: seqs.count - 1) }
            keptSlot.append(Int32(truncatingIfNeeded: kept.count))
            kept.append(decoded.event)
        } else if !keptSlot.isEmpty {
            keptSlot.append(-1)
        }
        bytes.append(contentsOf: row.bytes)
        lineEnds.append(bytes.count)
    }
}

extension TraceTable {
    /// Reads a whole trace file (a regular file, or a pipe or device as a stream). With `order`
    /// ``TraceReader/OrderChecking/lenient``, `seq` gaps and time going backwards are accepted.
    public static func read(
        path: String, order: TraceReader.OrderChecking = .strict, maximumLineLength: Int = TraceReader.defaultMaximumLineLength
    ) throws(TraceReadError) -> TraceTable {
        var reader = try TraceReader(path: path, maximumLineLength: maximumLineLength)
        reader.order = order
        return try reader.readTable()
    }

    /// Reads a whole trace from bytes in memory; `name` stands for the file in messages.
    /// `keepingDecodedEvents` as for ``TraceReader/readTable(keepingDecodedEvents:)``.
    public static func read(
        bytes: [UInt8], name: String, order: TraceReader.OrderChecking = .strict, maximumLineLength: Int = TraceReader.defaultMaximumLineLength,
        keepingDecodedEvents: Bool = false
    ) throws(TraceReadError) -> TraceTable {
        var reader = try TraceReader(bytes: bytes, name: name, maximumLineLength: maximumLineLength)
        reader.order = order
        return try reader.readTable(keepingDecodedEvents: keepingDecodedEvents)
    }
}

extension TraceReader {
    /// Reads every remaining event as a ``TraceTable`` (the fast path), sized from the file's
    /// length when it has one (a stream grows as it goes).
    ///
    /// With `keepingDecodedEvents`, the events the full parser reads (lines the fast pass does
    /// not read) are kept beside their lines, so ``TraceTable/event(at:)`` returns them without
    /// parsing again: for a tool that decodes most lines, at the cost of holding both.
    public mutating func readTable(keepingDecodedEvents: Bool = false) throws(TraceReadError) -> TraceTable {
        let byteCapacity = byteCount
        var table = TraceTable(header: header, file: file, capacity: byteCapacity / 120, byteCapacity: byteCapacity)
        if keepingDecodedEvents {
            while try nextRow({ row, _ in table.append(row, keepingDecoded: true) }) {}
        } else {
            while try nextRow({ row, _ in table.append(row, keepingDecoded: false) }) {}
        }
        table.strings = strings
        table.warnings = warnings
        return table
    }
}

extension TraceTable {
    /// How reading `bytes` as a table differs from reading them with ``TraceReader``, or nil
    /// when it does not: the same error (file, line, column and message), or the same events
    /// (every column and every decoded event) and warnings. The check behind the fast path's
    /// promise, used by the tests and the fuzz targets.
    public static func differenceFromReader(_ bytes: [UInt8], order: TraceReader.OrderChecking = .strict) -> String? {
        var expected: Result<Trace, TraceReadError>
        do {
            var reader = try TraceReader(bytes: bytes, name: "input")
            reader.order = order
            expected = .success(try reader.readAll())
        } catch {
            expected = .failure(error)
        }
        let got: Result<TraceTable, TraceReadError>
        do {
            got = .success(try TraceTable.read(bytes: bytes, name: "input", order: order))
        } catch {
            got = .failure(error)
        }
        switch (expected, got) {
        case (.failure(let a), .failure(let b)):
            return a == b ? nil : "reader: \(a); table: \(b)"
        case (.failure(let a), .success(let t)):
            return "reader: \(a); table read \(t.count) events"
        case (.success(let trace), .failure(let b)):
            return "reader read \(trace.events.count) events; table: \(b)"
        case (.success(let trace), .success(let table)):
            guard trace.events.count == table.count else { return "reader read \(trace.events.count) events, table \(table.count)" }
            guard trace.warnings == table.warnings, trace.header == table.header else { return "warnings or header differ" }
            for (i, e) in trace.events.enumerated() {
                let row = table[i]
                guard row.seq == e.seq, row.t == e.t, row.kind == e.kind, row.eventKind == e.eventKind, row.mb == e.mb,
                    row.board == e.body.board, row.cause == e.cause
                else { return "line \(i + 2): columns \(row) differ from \(e.jsonLine)" }
                guard let decoded = try? table.event(at: i), decoded == e, decoded.jsonLine == e.jsonLine else {
                    return "line \(i + 2): the decoded event differs from \(e.jsonLine)"
                }
            }
            return nil
        }
    }
}

/// One event's common fields, as ``TraceReader/nextRow(_:)`` hands them out: numbers, with the
/// strings in the reader's ``StringTable``, and the line's bytes.
///
/// ``bytes`` points into the reader's buffer: valid only during the call that hands the row
/// out. ``event()`` decodes the whole event from them (or returns the one the full parser
/// already read); call it there too.
public struct TraceRow {
    /// Position in the run.
    public var seq: Int
    /// When it happened.
    public var t: TraceTime
    /// The `kind` (a number in the strings; below `EventKind.allCases.count`, a known kind).
    public var kind: Int32
    /// The motherboard path (a number in the strings).
    public var mb: Int32
    /// The board (``TraceEvent/Body/board``; a number in the strings), -1 for none.
    public var board: Int32
    /// The `seq` of the cause, 0 for none.
    public var cause: Int
    /// The 1-based line in the file.
    public var line: Int
    /// The line, without its newline: valid only during the call.
    public let bytes: UnsafeBufferPointer<UInt8>
    /// The event, when the full parser read the line. Boxed: a row is handed to a closure per
    /// line, and an inline optional event would make it three times the size (a copy of ~200
    /// bytes per row, 5% of the fast path).
    let decodedBox: DecodedEvent?

    init(
        seq: Int, t: TraceTime, kind: Int32, mb: Int32, board: Int32, cause: Int, line: Int, bytes: UnsafeBufferPointer<UInt8>,
        decoded: TraceEvent?
    ) {
        self.seq = seq
        self.t = t
        self.kind = kind
        self.mb = mb
        self.board = board
        self.cause = cause
        self.line = line
        self.bytes = bytes
        decodedBox = decoded.map(DecodedEvent.init)
    }

    /// An event the full parser read, held by reference.
    final class DecodedEvent {
        let event: TraceEvent
        init(_ event: TraceEvent) { self.event = event }
    }

    /// The known kind, nil for a kind this version does not know.
    public var eventKind: EventKind? { EventKind(number: kind) }

    /// The event, when the full parser read the line (the fast path did not): nil for a line
    /// the fast path read.
    public var decodedEvent: TraceEvent? { decodedBox?.event }

    /// The whole event, as ``TraceReader/next()`` reads it (during the call only).
    public func event() -> TraceEvent {
        if let decodedBox { return decodedBox.event }
        // The fast pass checked the line as the full parser would: it decodes.
        guard let e = try? TraceEvent.decodeLine(bytes) else {
            preconditionFailure("line \(line): the fast pass accepted a line the full parser refuses")
        }
        return e
    }
}

extension TraceEvent {
    /// Decodes one trace line (without its newline) with the full parser; the error says what
    /// was wrong (without a file or line: the caller knows them).
    public static func decodeLine(_ line: UnsafeBufferPointer<UInt8>) throws(TraceFieldError) -> TraceEvent {
        switch TraceReader.parseObject(line) {
        case .failure(let f): throw TraceFieldError("not valid JSON at column \(f.offset + 1): \(f.message)")
        case .success(let o): return try TraceEvent(jsonObject: o)
        }
    }
}

extension EventKind {
    /// The known kind numbered `number` in a trace's strings (its index in `allCases`), nil for
    /// a number past them (a kind this version does not know).
    init?(number: Int32) {
        guard number >= 0, Int(number) < Self.allCases.count else { return nil }
        self = Self.allCases[Int(number)]
    }
}
