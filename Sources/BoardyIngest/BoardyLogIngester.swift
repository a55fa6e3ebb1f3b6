import BoardyTrace

/// Where an ingested trace goes: its header first, then its events in order.
public protocol IngestSink: AnyObject {
    /// The trace's header, once the first of Boardy's lines decided its clock.
    func begin(_ header: TraceHeader) throws
    /// One event, in `seq` order.
    func record(_ event: TraceEvent) throws
}

/// Reads a Boardy app's console (what Boardy 1.63 prints in DEBUG builds with
/// `BOARDY_LOG_ENABLED=YES`) into a trace, as the captures come: Xcode's console copied or
/// saved, a test run's output, a capture whose every line carries a time and a process.
///
/// ```swift
/// let sink = CollectingSink()
/// let ingester = BoardyLogIngester(sink: sink)
/// try ingester.beginFile("app.log")
/// try bytes.withUnsafeBytes { try ingester.read($0) }   // in chunks of any size
/// let summary = try ingester.finish()
/// ```
///
/// It streams: memory holds the open barrier runs and at most `EventWindow.capacity` events
/// waiting for a name, never the whole capture. Every record Boardy printed becomes an event;
/// a line that looks like Boardy's but cannot be read is in ``IngestSummary/problems`` with its
/// line; the app's own lines are counted. With a time on every record, `t` is seconds on a
/// `live` clock from the first one; without, the header's clock is `order` and `t` counts
/// records. docs/contract.md §2.6 has the rule for each record.
public final class BoardyLogIngester {
    /// How a capture is read.
    public struct Options: Sendable {
        /// The longest line read whole, in bytes; a longer line keeps its first bytes.
        public var maximumLineLength: Int
        /// The `scenario` name written in the header (nil: none).
        public var scenario: String?

        /// Lines up to 1 MiB; no scenario name.
        public init(maximumLineLength: Int = 1 << 20, scenario: String? = nil) {
            self.maximumLineLength = maximumLineLength
            self.scenario = scenario
        }
    }

    private let options: Options
    private let sink: IngestSink
    private var splitter: LogLineSplitter
    private var assembler = RecordAssembler()
    private var translator: LogTranslator!
    private var files: [String] = []
    private var fileIndex = -1
    private var header: TraceHeader?
    private var pendingFiles: [String] = []
    private var linesRead = 0
    private var cutLines: [LogPlace] = []
    private var unterminated = false

    // Time.
    private var firstTime: Int64?
    private var lastRaw: Int64?
    private var dayOffset: Int64 = 0
    private var lastT = TraceTime.zero
    private var ordinal: Int64 = 0
    private var untimed = 0
    private var live = false
    private var eventsWritten = 0
    private var lastSeqWritten = 0

    /// An ingester writing to `sink`.
    public init(options: Options = Options(), sink: IngestSink) {
        self.options = options
        self.sink = sink
        splitter = LogLineSplitter(maximumLineLength: max(1024, options.maximumLineLength))
        translator = LogTranslator { [unowned self] event in
            try self.sink.record(event)
            self.eventsWritten += 1
        }
    }

    /// Starts the next capture file, `name` as the user gave it (`<stdin>` for standard input).
    /// Several files are read as one capture, in order: the parts of one console, say.
    public func beginFile(_ name: String) throws {
        if fileIndex >= 0 { try endFile() }
        files.append(name)
        fileIndex = files.count - 1
        translator.multipleFiles = files.count > 1 || translator.multipleFiles
        splitter = LogLineSplitter(maximumLineLength: max(1024, options.maximumLineLength))
    }

    /// Reads the next bytes of the current file.
    public func read(_ chunk: UnsafeRawBufferPointer) throws {
        if fileIndex < 0 { try beginFile("<log>") }
        let file = fileIndex
        try splitter.feed(chunk) { bytes, number, cut in
            try self.line(bytes, place: LogPlace(file: file, line: number), cut: cut)
        }
    }

    private func endFile() throws {
        let file = fileIndex
        var tail: LogPlace?
        let hadTail = try splitter.finish { bytes, number, cut in
            tail = LogPlace(file: file, line: number)
            try self.line(bytes, place: LogPlace(file: file, line: number), cut: cut)
        }
        if hadTail {
            unterminated = true
            // A record that took the last line may be cut off inside it.
            if let tail { assembler.cutOff(at: tail) }
        }
    }

    private func line(_ bytes: UnsafeRawBufferPointer, place: LogPlace, cut: Bool) throws {
        linesRead += 1
        if cut { cutLines.append(place) }
        let line = ConsoleLine(bytes: bytes)
        try assembler.add(line, place: place) { try self.item($0) }
    }

    private func item(_ item: LogItem) throws {
        let (time, dayOnly): (Int64?, Bool)
        switch item {
        case .record(let r): (time, dayOnly) = (r.time, r.timeOfDayOnly)
        case .warning(let w), .note(let w): (time, dayOnly) = (w.time, w.timeOfDayOnly)
        }
        if header == nil {
            live = time != nil
            var extra: JSONObject = ["ingested": "boardy-log"]
            extra["logs"] = .array(files.map { .string($0) })
            let h = TraceHeader(scenario: options.scenario, clock: live ? .live : .order, definition: nil, extra: extra)
            header = h
            try sink.begin(h)
        }
        ordinal += 1
        let t: TraceTime
        if live {
            if var raw = time {
                if dayOnly, let last = lastRaw, raw + dayOffset < last - 43_200_000_000 { dayOffset += 86_400_000_000 }
                raw += dayOffset
                lastRaw = raw
                if firstTime == nil { firstTime = raw }
                t = max(lastT, TraceTime(microseconds: raw - firstTime!))
            } else {
                untimed += 1
                t = lastT
            }
        } else {
            t = TraceTime(microseconds: ordinal * 1_000_000)
        }
        lastT = t
        try translator.read(item, at: t)
    }

    /// Ends the capture: open barrier runs become `stuck` events, everything is written.
    public func finish() throws -> IngestSummary {
        if fileIndex >= 0 { try endFile() }
        try assembler.finish { try self.item($0) }
        if header == nil {
            var extra: JSONObject = ["ingested": "boardy-log"]
            extra["logs"] = .array(files.map { .string($0) })
            let h = TraceHeader(scenario: options.scenario, clock: .order, definition: nil, extra: extra)
            header = h
            try sink.begin(h)
        }
        let stuck = try translator.finish(stuckAt: lastT)
        var problems = assembler.problems
        problems += cutLines.map { .init(place: $0, message: "a line longer than \(options.maximumLineLength) bytes; only its first \(options.maximumLineLength) bytes were read") }
        problems.sort { ($0.place.file, $0.place.line) < ($1.place.file, $1.place.line) }
        return IngestSummary(
            files: files, lines: linesRead, records: translator.records, warnings: translator.warnings, notes: translator.notes,
            foreignLines: assembler.foreignLines, continuationLines: assembler.continuationLines,
            problems: problems.map { IngestSummary.Problem(file: files.isEmpty ? "<log>" : files[$0.place.file], line: $0.place.line, message: $0.message) },
            observations: translator.observations.map {
                IngestSummary.Problem(file: files.isEmpty ? "<log>" : files[$0.place.file], line: $0.place.line, message: $0.message)
            },
            events: eventsWritten, clock: header!.clock, untimedRecords: live ? untimed : 0, stuck: stuck,
            loops: translator.loopsInOrder, unterminated: unterminated)
    }

    // MARK: Conveniences

    /// Collects a trace in memory.
    public final class CollectingSink: IngestSink {
        /// The header, once begun.
        public private(set) var header: TraceHeader?
        /// The events, in order.
        public private(set) var events: [TraceEvent] = []
        /// An empty sink.
        public init() {}
        /// Keeps the header.
        public func begin(_ header: TraceHeader) { self.header = header }
        /// Appends the event.
        public func record(_ event: TraceEvent) { events.append(event) }
    }

    /// The trace of a whole capture held in memory (`name` is used in problems' places).
    public static func trace(of text: String, name: String = "<log>", options: Options = Options()) throws -> (
        header: TraceHeader, events: [TraceEvent], summary: IngestSummary
    ) {
        let sink = CollectingSink()
        let ingester = BoardyLogIngester(options: options, sink: sink)
        try ingester.beginFile(name)
        var bytes = Array(text.utf8)
        try bytes.withUnsafeMutableBytes { try ingester.read(UnsafeRawBufferPointer($0)) }
        let summary = try ingester.finish()
        return (sink.header!, sink.events, summary)
    }
}

/// What reading a capture found.
public struct IngestSummary: Sendable {
    /// A line that looks like Boardy's but could not be read.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// The capture, as named.
        public var file: String
        /// Its line, from 1.
        public var line: Int
        /// What was wrong.
        public var message: String
        /// `file:line: message`.
        public var description: String { "\(file):\(line): \(message)" }
    }

    /// The captures read, in order.
    public var files: [String]
    /// Lines read.
    public var lines: Int
    /// Boardy's records read (activations, interactions, messages).
    public var records: Int
    /// Warnings (`⚠️ …`) read.
    public var warnings: Int
    /// Notes (`⏩`, `ℹ️`, …) read.
    public var notes: Int
    /// Lines that were not Boardy's: the app's own output, a test runner's, blank lines.
    public var foreignLines: Int
    /// Lines that carried a value or a warning on from the line before.
    public var continuationLines: Int
    /// Lines that look like Boardy's but could not be read, and records cut off.
    public var problems: [Problem]
    /// What the log implies but does not show, with the line of the wait it concerns (a
    /// released activation that never appears: the log was cut, or the board was gone).
    public var observations: [Problem]
    /// Events written.
    public var events: Int
    /// The trace's clock: `live` when every record had a time, `order` otherwise.
    public var clock: TraceHeader.Clock
    /// On a `live` clock, records without a time (given the time of the record before).
    public var untimedRecords: Int
    /// What still waited at the end.
    public var stuck: [StuckReport]
    /// Boards found waiting on their own barrier (barrier loops), with how many waits closed
    /// the loop (a gateway loop nests a run in a run until the app crashes).
    public var loops: [(board: String, waits: Int)]
    /// Whether the capture ended without a line end (cut off).
    public var unterminated: Bool
}
