import DequeModule

/// Puts Boardy's records back together from the lines of a capture, in the order they began.
///
/// Boardy prints each line of a record with its own `print`, so records printed by two threads
/// at once can interleave line by line, and the app's own output can land between a record's
/// lines. Lines are grouped by stream (the capture's prefix without its time: a process and
/// thread where the capture names them), and within a stream a field line goes to the youngest
/// open record that can take it next (fields come in a fixed order). A record closes once
/// ``patience`` more of Boardy's lines came in its stream (cut off, if it lacks fields), and at
/// the end of the capture; items are handed on in the order they began. A value that spans lines (a description with line breaks) takes the lines
/// after it while its brackets or quotes are open, or while they are indented.
struct RecordAssembler {
    /// A line Boardy printed that could not be read, or a record cut off.
    struct Problem: Sendable {
        var place: LogPlace
        var message: String
    }

    private final class Open {
        var item: LogItem
        let stream: String
        var closed = false
        /// The stream's line count when the item opened.
        let openedAt: Int
        /// Brackets and quotes still open in the record's last value.
        var depth = 0
        var inQuote = false
        /// Whether the item has taken a line since it opened.
        var continues = true
        /// Lines added after the first value line.
        var extraLines = 0
        /// The last line the item took: items go out in the order they end (a record two
        /// threads' lines interleaved with another's happened when its last line was printed).
        var lastLine: LogPlace
        /// Whether the capture ends inside the item's last line (it has no line end).
        var cut = false
        init(_ item: LogItem, stream: String, openedAt: Int, at place: LogPlace) {
            self.item = item
            self.stream = stream
            self.openedAt = openedAt
            lastLine = place
        }
        var isRecord: Bool { if case .record = item { return true } else { return false } }
        var isWarning: Bool { if case .warning = item { return true } else { return false } }
        var record: LogRecord? { if case .record(let r) = item { return r } else { return nil } }
    }

    /// How many lines of its stream an incomplete record waits for its missing fields.
    static let patience = 32
    /// How many lines a value or a warning goes on over.
    static let maximumContinuation = 1000

    private var queue: Deque<Open> = []
    /// Open items per stream, oldest first.
    private var openByStream: [String: [Open]] = [:]
    private var linesByStream: [String: Int] = [:]
    /// Tokens in the prefix of the last Boardy line (0 without a prefix): how much to take off a
    /// plain line to see whether it continues a value.
    private var prefixTokens = 0
    private var prefixHasTime = false
    /// The item that took the stream's previous line: where a value or warning goes on.
    private var lastItem: [String: Open] = [:]

    /// Lines that were not Boardy's (the app's output, a test runner's, blank lines).
    private(set) var foreignLines = 0
    /// Lines that carried on a value or a warning.
    private(set) var continuationLines = 0
    private(set) var problems: [Problem] = []

    /// Adds a line; `emit` receives the items that are complete, in order.
    mutating func add(_ line: ConsoleLine, place: LogPlace, emit: (LogItem) throws -> Void) rethrows {
        switch line.kind {
        case .plain:
            addPlain(line, place: place)
        default:
            let prefix = LinePrefix(line.prefix)
            let stream = String(prefix.streamKey)
            prefixTokens = line.prefix.split(whereSeparator: { $0 == " " || $0 == "\t" }).count
            prefixHasTime = prefix.microseconds != nil
            linesByStream[stream, default: 0] += 1
            addMarked(line, prefix: prefix, stream: stream, place: place)
            expireWaiting(in: stream)
        }
        try drain(emit)
    }

    /// The capture ended inside line `place` (it has no line end): the record that took it may
    /// lack the rest of its last value, or its last fields, and is not read (a problem says so).
    mutating func cutOff(at place: LogPlace) {
        for o in queue.reversed() where o.lastLine == place {
            if o.isRecord { o.cut = true }
            return
        }
    }

    /// Ends the capture: every open item closes; a record without the fields it needs is a problem.
    mutating func finish(emit: (LogItem) throws -> Void) rethrows {
        for o in queue where !o.closed { close(o) }
        openByStream = [:]
        try drain(emit)
    }

    // MARK: Lines with a marker

    private mutating func addMarked(_ line: ConsoleLine, prefix: LinePrefix, stream: String, place: LogPlace) {
        let opened = linesByStream[stream, default: 0]
        func text() -> LogText { LogText(text: String(line.body), place: place, time: prefix.microseconds, timeOfDayOnly: prefix.timeOfDayOnly) }
        switch line.kind {
        case .header(let icon, let name):
            // Records stay open: another thread's lines may still come for them. A record
            // closes when a younger one in its stream takes a field.
            let kind: LogRecord.Kind
            switch (icon, name) {
            case ("🚀", "Activation"): kind = .activation
            case ("🚚", "Interaction"): kind = .interaction
            case ("🍁", _): kind = .activity(String(name))
            default: kind = .other(icon: String(icon), name: String(name))
            }
            let o = Open(.record(LogRecord(kind: kind, place: place, time: prefix.microseconds, timeOfDayOnly: prefix.timeOfDayOnly)), stream: stream, openedAt: opened, at: place)
            open(o)
            lastItem[stream] = o
        case .field(let icon, let type, let value):
            if let w = handlerWarning(in: stream) {
                appendDetail(w, line.body)
            } else if let o = recordTaking(icon, in: stream), case .record(var r) = o.item {
                r.set(icon, LogField(type: String(type), value: String(value)))
                o.item = .record(r)
                (o.depth, o.inQuote) = Self.balance(value, depth: 0, inQuote: false)
                o.extraLines = 0
                o.lastLine = place
                took(o, in: stream)
            } else if let w = latestWarning(in: stream) {
                appendDetail(w, line.body)
            } else {
                problems.append(Problem(place: place, message: "a Boardy field line (\(icon.icon)) outside any record; it was not read"))
                lastItem[stream] = nil
            }
        case .brokenField(let icon):
            if let w = handlerWarning(in: stream) {
                appendDetail(w, line.body)
            } else if let o = recordTaking(icon, in: stream), case .record(var r) = o.item {
                r.lastField = icon
                o.item = .record(r)
                o.depth = 0
                o.lastLine = place
                took(o, in: stream)
                problems.append(Problem(place: place, message: "a \(icon.icon) line with no \"] ➤ \" in it (cut off, or mixed with other output); the record at line \(r.place.line) lacks it"))
            } else {
                problems.append(Problem(place: place, message: "a Boardy field line (\(icon.icon)) outside any record, not well formed; it was not read"))
                lastItem[stream] = nil
            }
        case .warning:
            // A warning right after a board's description begins with it (Boardy prints
            // `\(board)\n⚠️ Has called …`).
            if let w = latestWarning(in: stream), lastItem[stream] === w, case .warning(let t) = w.item,
                t.text.hasPrefix("⛵️") || t.text.hasPrefix("    🏝"), !t.text.contains("⚠️")
            {
                appendDetail(w, line.body)
                return
            }
            closeWarnings(in: stream)
            let o = Open(.warning(text()), stream: stream, openedAt: opened, at: place)
            open(o)
            lastItem[stream] = o
        case .boardDescription:
            closeWarnings(in: stream)
            let o = Open(.warning(text()), stream: stream, openedAt: opened, at: place)
            open(o)
            lastItem[stream] = o
        case .warningDetail:
            if let w = latestWarning(in: stream) {
                appendDetail(w, line.body)
            } else {
                let o = Open(.warning(text()), stream: stream, openedAt: opened, at: place)
                open(o)
                lastItem[stream] = o
            }
        case .note:
            closeWarnings(in: stream)
            let o = Open(.note(text()), stream: stream, openedAt: opened, at: place)
            open(o)
            close(o)
            lastItem[stream] = nil
        case .plain:
            break
        }
    }

    /// The youngest open record of the stream that can take a field with `icon` next (a
    /// record's first field is always its 🏝): a thread prints a record's lines in a row, so a
    /// field belongs to the latest record still waiting for it; an older one takes it only when
    /// no younger one can (another thread's lines landed between its own).
    private func recordTaking(_ icon: ConsoleLine.FieldIcon, in stream: String) -> Open? {
        openByStream[stream]?.last { o in
            guard !o.closed, let r = o.record else { return false }
            if r.source == nil && r.lastField == nil { return icon == .source }
            return r.accepts(icon)
        }
    }

    /// A record took a line: it is where a value's next lines go.
    private mutating func took(_ o: Open, in stream: String) {
        o.continues = true
        lastItem[stream] = o
    }

    /// FlowBoard's "missing a handler" warning, whose details are field lines (`    🏝 [T] ➤ id`,
    /// `    🚦 …`, `    🌏 …`), while its lines are coming.
    private func handlerWarning(in stream: String) -> Open? {
        guard let w = latestWarning(in: stream), lastItem[stream] === w, case .warning(let t) = w.item,
            t.text.hasPrefix("⚠️ The FlowBoard received an interaction command but missing a handler")
        else { return nil }
        return w
    }

    // MARK: Plain lines

    private mutating func addPlain(_ line: ConsoleLine, place: LogPlace) {
        // Take the capture's prefix off, so the line finds its stream and its indentation.
        var body = line.body
        var stream = ""
        if prefixTokens > 0 {
            let (prefixPart, rest) = Self.splitTokens(body, prefixTokens)
            let p = LinePrefix(prefixPart)
            if !prefixHasTime || p.microseconds != nil {
                stream = String(p.streamKey)
                body = rest
            }
        }
        let indented = body.first == " " || body.first == "\t"
        if let last = lastItem[stream], !last.closed, last.extraLines < Self.maximumContinuation {
            if let r = last.record, r.lastField == .option || r.lastField == .data, last.depth > 0 || indented,
                case .record(var rec) = last.item, var field = rec.data
            {
                last.extraLines += 1
                last.lastLine = place
                field.value += "\n" + body
                rec.data = field
                last.item = .record(rec)
                (last.depth, last.inQuote) = Self.balance(body, depth: last.depth, inQuote: last.inQuote)
                continuationLines += 1
                return
            }
            if last.isWarning, indented {
                last.extraLines += 1
                appendDetail(last, body)
                return
            }
        }
        foreignLines += 1
        lastItem[stream] = nil
        if !indented { closeWarnings(in: stream) }
    }

    /// The first `n` whitespace-separated tokens of `s` (with the spaces between them), and the
    /// rest after the one space that follows them.
    static func splitTokens(_ s: Substring, _ n: Int) -> (Substring, Substring) {
        var i = s.startIndex
        var tokens = 0
        while i < s.endIndex, tokens < n {
            while i < s.endIndex, s[i] == " " || s[i] == "\t" { i = s.index(after: i) }
            guard i < s.endIndex else { break }
            while i < s.endIndex, s[i] != " " && s[i] != "\t" { i = s.index(after: i) }
            tokens += 1
        }
        guard tokens == n else { return ("", s) }
        let prefix = s[..<i]
        if i < s.endIndex { i = s.index(after: i) }
        return (prefix, s[i...])
    }

    /// The nesting of brackets and quotes after `text`, from `depth` and `inQuote`.
    static func balance(_ text: Substring, depth: Int, inQuote: Bool) -> (Int, Bool) {
        var d = depth
        var q = inQuote
        var escaped = false
        for b in text.utf8 {
            if q {
                if escaped { escaped = false } else if b == 0x5C { escaped = true } else if b == 0x22 { q = false }
                continue
            }
            switch b {
            case 0x22: q = true
            case 0x28, 0x5B, 0x7B: d += 1
            case 0x29, 0x5D, 0x7D: d = max(0, d - 1)
            default: break
            }
        }
        // A quote left open at the end of a line is more often an apostrophe than a string that
        // goes on: only brackets carry a value over.
        return (d, false)
    }

    // MARK: Bookkeeping

    private mutating func open(_ o: Open) {
        queue.append(o)
        openByStream[o.stream, default: []].append(o)
    }

    private func latestWarning(in stream: String) -> Open? {
        guard let last = openByStream[stream]?.last, last.isWarning, !last.closed else { return nil }
        return last
    }

    private mutating func appendDetail(_ o: Open, _ text: Substring) {
        guard case .warning(var t) = o.item else { return }
        t.text += "\n" + text
        t.detailLines += 1
        o.item = .warning(t)
        continuationLines += 1
    }

    private mutating func closeWarnings(in stream: String) {
        guard let opens = openByStream[stream] else { return }
        for o in opens where o.isWarning { close(o) }
        let kept = opens.filter { !$0.closed }
        openByStream[stream] = kept.isEmpty ? nil : kept
    }

    /// Records open for more than ``patience`` lines of their stream are done (cut off, if
    /// they lack fields).
    private mutating func expireWaiting(in stream: String) {
        guard let opens = openByStream[stream], let first = opens.first, !first.closed,
            linesByStream[stream, default: 0] - first.openedAt > Self.patience
        else { return }
        for o in opens where linesByStream[stream, default: 0] - o.openedAt > Self.patience { close(o) }
        let kept = opens.filter { !$0.closed }
        openByStream[stream] = kept.isEmpty ? nil : kept
    }

    private mutating func close(_ o: Open) {
        guard !o.closed else { return }
        o.closed = true
        if let r = o.record, o.cut {
            let line = o.lastLine
            problems.append(Problem(place: r.place, message: "the capture ends inside this record (\(Self.describe(r.kind))), in line \(line.line), which has no line end: it was not read"))
        } else if let r = o.record, !r.isComplete {
            let missing = r.source == nil ? "🏝" : "🎯"
            problems.append(Problem(place: r.place, message: "a record cut off before its \(missing) line (\(Self.describe(r.kind))); it was not read"))
        }
    }

    /// Hands over the items that are done, in the order they ended: the closed item that ended
    /// first, once no open item (whose end is at least its last line so far) can end before it.
    /// Lines of one thread come in order, so without interleaving this is the order they began.
    private mutating func drain(_ emit: (LogItem) throws -> Void) rethrows {
        while let front = queue.first {
            if queue.count == 1 {
                // The common case: nothing to reorder.
                guard front.closed else { return }
                queue.removeFirst()
                try hand(front, emit)
            } else {
                guard let i = firstReady() else { return }
                try hand(queue.remove(at: i), emit)
            }
        }
    }

    /// The closed item that ended first, if no open item can still end before it.
    private func firstReady() -> Int? {
        var best: Int?
        var openEnd: LogPlace?
        for (i, o) in queue.enumerated() {
            if o.closed {
                if best == nil || Self.before(o.lastLine, queue[best!].lastLine) { best = i }
            } else if openEnd == nil || Self.before(o.lastLine, openEnd!) {
                openEnd = o.lastLine
            }
        }
        guard let b = best else { return nil }
        if let e = openEnd, !Self.before(queue[b].lastLine, e) { return nil }
        return b
    }

    private static func before(_ a: LogPlace, _ b: LogPlace) -> Bool { (a.file, a.line) < (b.file, b.line) }

    private func hand(_ o: Open, _ emit: (LogItem) throws -> Void) rethrows {
        if let r = o.record, !r.isComplete || o.cut { return }
        try emit(o.item)
    }

    static func describe(_ kind: LogRecord.Kind) -> String {
        switch kind {
        case .activation: return "🚀 [Activation]"
        case .interaction: return "🚚 [Interaction]"
        case .activity(let name): return "🍁 [\(name)]"
        case .other(let icon, let name): return "\(icon) [\(name)]"
        }
    }
}
