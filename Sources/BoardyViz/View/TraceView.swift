import BoardyGraphviz
import BoardyTrace
import BoardyVizCore

/// One self-contained HTML page to explore a trace: the timeline (zoom and pan), an event table
/// (search, filters, virtual scrolling), each event's JSON line and cause chain, and the flow
/// graph with counts. Its script and styles are ours and inline; it loads nothing.
///
/// Safety: the trace is embedded as JSON in a `<script type="application/json">` element with
/// `<`, `>`, `&`, U+2028 and U+2029 escaped (`\u003c`, ...), so no text in it can close the
/// element; the page's script only ever puts trace text into the document as text
/// (`textContent`), never into an attribute or through an HTML parser. A Content Security Policy
/// forbids every network request.
///
/// Compact encoding, for a million events: columns of small integers (seq and time as deltas),
/// strings interned once (lanes, motherboards, each distinct rest of an event's JSON line).
public enum TraceView {
    /// The page for `trace`; `model` is the flow graph to draw (observed, or a scenario's
    /// definition weighed by the trace).
    public static func html(_ trace: Trace, model: FlowModel) throws(GraphvizError) -> [UInt8] {
        try page(header: trace.header, Columns(events: trace.events), model: model, reserving: trace.events.count * 40 + 200_000)
    }

    /// The page for a trace read as a table, byte for byte the page of its events. A line the
    /// fast pass read, in the form the writer gives it, is copied into the page as it is; any
    /// other line, and any line whose lane or mark needs more than its kind and board, is decoded.
    public static func html(table: TraceTable, model: FlowModel) throws -> [UInt8] {
        let columns = try Columns(table: table)
        return try page(header: table.header, columns, model: model, reserving: table.count * 40 + 200_000)
    }

    private static func page(header: TraceHeader, _ columns: Columns, model: FlowModel, reserving: Int) throws(GraphvizError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(reserving)
        out.append(contentsOf: ViewerPage.head.utf8)
        out.append(contentsOf: "<script id=\"data\" type=\"application/json\">".utf8)
        var data: [UInt8] = []
        try Self.data(header: header, columns, model: model, into: &data)
        escapeForScript(&data)
        out.append(contentsOf: data)
        out.append(contentsOf: "</script>\n".utf8)
        out.append(contentsOf: ViewerPage.tail.utf8)
        return out
    }

    /// The page's data as JSON (every `<` escaped), appended to `out`.
    static func data(_ trace: Trace, model: FlowModel, into out: inout [UInt8]) throws(GraphvizError) {
        try data(header: trace.header, Columns(events: trace.events), model: model, into: &out)
    }

    /// What the page shows of each event, interned: from decoded events or from a table.
    struct Columns {
        var count = 0
        var layout: LaneLayout
        var seqs: [Int] = []
        var times: [Int64] = []
        var mbIndex: [String: Int] = [:]
        var mbs: [String] = []
        var kindIndex: [String: Int] = [:]
        var kinds: [String] = []
        var restIndex: [String: Int] = [:]
        var rests: [String] = []
        var restTails: [Int64] = []
        var mbCol: [Int64] = [], kindCol: [Int64] = [], restCol: [Int64] = [], markCol: [Int64] = [], causeCol: [Int64] = []
        var spans: TraceSpans
        /// Stimuli's labels: [event index, label index, ...] and the labels.
        var notes: [Int64] = []
        var noteTexts: [String] = []
        var noteIndex: [String: Int] = [:]

        init(events: [TraceEvent]) {
            layout = LaneLayout(events, including: events.indices)
            spans = TraceSpans(events)
            reserve(events.count)
            for (i, e) in events.enumerated() {
                add(seq: e.seq, t: e.t, cause: e.cause, mb: e.mb, kind: e.kind, mark: Timeline.mark(e), rest: TraceView.rest(of: e))
                note(e, at: i)
            }
        }

        init(table: TraceTable) throws(TraceReadError) {
            layout = try LaneLayout(table: table)
            spans = TraceSpans(table)
            reserve(table.count)
            let fixedMarks = Dictionary(uniqueKeysWithValues: Timeline.marksByKind.map { (TraceTable.id(of: $0.key), $0.value) })
            for i in 0..<table.count {
                let mb = table.strings[table.mbs[i]]
                let kind = table.strings[table.kinds[i]]
                let cause = table.causes[i] == 0 ? nil : table.causes[i]
                if let mark = fixedMarks[table.kinds[i]], let rest = TraceView.rest(ofLine: i, in: table, mb: mb, kind: kind) {
                    add(seq: table.seqs[i], t: table.times[i], cause: cause, mb: mb, kind: kind, mark: mark, rest: (rest, 0))
                } else {
                    let e = try table.event(at: i)
                    add(seq: e.seq, t: e.t, cause: e.cause, mb: e.mb, kind: e.kind, mark: Timeline.mark(e), rest: TraceView.rest(of: e))
                    note(e, at: i)
                }
            }
        }

        private mutating func reserve(_ n: Int) {
            for c in [\Columns.mbCol, \Columns.kindCol, \Columns.restCol, \Columns.markCol, \Columns.causeCol, \Columns.times] {
                self[keyPath: c].reserveCapacity(n)
            }
            seqs.reserveCapacity(n)
        }

        private mutating func add(seq: Int, t: TraceTime, cause: Int?, mb: String, kind: String, mark: Timeline.Mark, rest: (String, Int64)) {
            count += 1
            seqs.append(seq)
            times.append(t.microseconds)
            if let k = mbIndex[mb] { mbCol.append(Int64(k)) } else {
                mbIndex[mb] = mbs.count
                mbCol.append(Int64(mbs.count))
                mbs.append(mb)
            }
            if let k = kindIndex[kind] { kindCol.append(Int64(k)) } else {
                kindIndex[kind] = kinds.count
                kindCol.append(Int64(kinds.count))
                kinds.append(kind)
            }
            let (text, tail) = rest
            let internKey = tail == 0 ? text : "\(tail)|" + text
            if let k = restIndex[internKey] { restCol.append(Int64(k)) } else {
                restIndex[internKey] = rests.count
                restCol.append(Int64(rests.count))
                rests.append(text)
                restTails.append(tail)
            }
            markCol.append(Int64(mark.rawValue))
            causeCol.append(cause.map { Int64(seq - $0) } ?? 0)
        }

        private mutating func note(_ e: TraceEvent, at i: Int) {
            // An activation's star sits on its board's lane, which says enough.
            guard case .stimulus(let action, let fields) = e.body, StimulusAction(rawValue: action) != .activate else { return }
            let text = Timeline.stimulusLabel(action, fields)
            let k = noteIndex[text] ?? noteTexts.count
            if k == noteTexts.count {
                noteIndex[text] = k
                noteTexts.append(text)
            }
            notes += [Int64(i), Int64(k)]
        }
    }

    /// The line of `e` after `"mb":...` without its closing brace and its `cause`, and how long
    /// (in UTF-16 units) the extra fields a newer writer added are at its end (0: none), so that
    /// the page can put `cause` back before them and rebuild the exact line.
    static func rest(of e: TraceEvent) -> (String, Int64) {
        var bare = e
        bare.cause = nil
        let line = bare.jsonLine
        let prefix = linePrefix(seq: e.seq, t: e.t, kind: e.kind, mb: e.mb)
        let restBytes = line.utf8.dropFirst(prefix.count).dropLast()
        let rest = String(decoding: restBytes, as: UTF8.self)
        var tail: Int64 = 0
        if !e.extra.members.isEmpty {
            var fieldsOnly = bare
            fieldsOnly.extra = JSONObject()
            tail = Int64(rest.utf16.count - (fieldsOnly.jsonLine.utf16.count - String(decoding: prefix, as: UTF8.self).utf16.count - 1))
        }
        return (rest, tail)
    }

    /// `{"seq":...,"t":...,"kind":...,"mb":...` as the writer writes it.
    static func linePrefix(seq: Int, t: TraceTime, kind: String, mb: String) -> [UInt8] {
        var prefix = JSONWriter(capacity: 96)
        prefix.raw("{\"seq\":")
        prefix.writeInt(Int64(seq))
        prefix.raw(",\"t\":")
        prefix.writeTime(t)
        prefix.raw(",\"kind\":")
        prefix.writeString(kind)
        prefix.raw(",\"mb\":")
        prefix.writeString(mb)
        return prefix.bytes
    }

    /// ``rest(of:)`` of row `i` straight from its line, when the line is the one the writer
    /// writes for its event: read by the fast pass (the writer's layout, plain strings, integers
    /// without leading zeros), opening with the writer's own prefix (`t` as the writer prints
    /// it), and holding no number with a fraction, no `-0` and no run of more than 18 digits
    /// (each written otherwise once decoded). Nil when the line must be decoded to tell.
    static func rest(ofLine i: Int, in table: TraceTable, mb: String, kind: String) -> String? {
        guard table.readInOnePass[i] else { return nil }
        let prefix = linePrefix(seq: table.seqs[i], t: table.times[i], kind: kind, mb: mb)
        return table.withLine(i) { line -> String? in
            guard line.count > prefix.count, line.starts(with: prefix) else { return nil }
            var end = line.count - 1  // the closing brace
            if table.causes[i] != 0 {
                // The fast pass reads nothing after `cause`: the line ends `,"cause":N}`.
                var n = table.causes[i]
                var digits = 0
                repeat { digits += 1; n /= 10 } while n > 0
                end -= digits + 9  // `,"cause":` and the digits
                guard end >= prefix.count, line[end] == UInt8(ascii: ",") else { return nil }
            }
            let rest = UnsafeBufferPointer(rebasing: line[prefix.count..<end])
            // Outside strings (which hold no quote or backslash here): no fraction and no `-0`.
            // The bytes are plain ASCII, so any `.` outside a string is a fraction's.
            var inString = false
            var previous: UInt8 = 0
            var digits = 0
            for (k, b) in rest.enumerated() {
                if b == UInt8(ascii: "\"") {
                    inString.toggle()
                } else if !inString {
                    if b == UInt8(ascii: ".") { return nil }
                    if b &- UInt8(ascii: "0") < 10 {
                        // More than 18 digits may not fit an `Int64`: read as a double, written otherwise.
                        digits += 1
                        if digits > 18 { return nil }
                        if previous == UInt8(ascii: "-"), b == UInt8(ascii: "0") {
                            let next = k + 1 < rest.count ? rest[k + 1] : 0
                            if next &- UInt8(ascii: "0") >= 10 { return nil }
                        }
                    } else {
                        digits = 0
                    }
                }
                previous = b
            }
            return String(decoding: rest, as: UTF8.self)
        }
    }

    /// The page's data as JSON (every `<` escaped), appended to `out`.
    private static func data(header: TraceHeader, _ columns: Columns, model: FlowModel, into out: inout [UInt8]) throws(GraphvizError) {
        let layout = columns.layout
        let lanes = layout.lanes
        let laneOf = layout.laneOf
        let order = layout.ordered(Array(lanes.indices))
        let laneIndex = layout.indexByKey
        var row = [Int32](repeating: 0, count: lanes.count)
        for (r, l) in order.enumerated() { row[l] = Int32(r) }

        var w = JSONWriter(capacity: 1 << 16)
        func flush() {
            out.append(contentsOf: w.bytes)
            w.bytes.removeAll(keepingCapacity: true)
        }
        func key(_ k: String) {
            w.writeString(k)
            w.bytes.append(UInt8(ascii: ":"))
        }
        func ints(_ values: some Sequence<Int64>) {
            w.bytes.append(UInt8(ascii: "["))
            var first = true
            for v in values {
                if !first { w.bytes.append(UInt8(ascii: ",")) }
                first = false
                w.writeInt(v)
                if w.bytes.count > 1 << 16 { flush() }
            }
            w.bytes.append(UInt8(ascii: "]"))
        }
        // A member of the data object and its comma: a column of integers, or of strings.
        func column(_ name: String, _ values: some Sequence<Int64>) {
            key(name)
            ints(values)
            w.bytes.append(UInt8(ascii: ","))
        }
        func stringColumn(_ name: String, _ values: [String]) {
            key(name)
            strings(values)
            w.bytes.append(UInt8(ascii: ","))
        }
        func strings(_ values: [String]) {
            w.bytes.append(UInt8(ascii: "["))
            for (i, s) in values.enumerated() {
                if i > 0 { w.bytes.append(UInt8(ascii: ",")) }
                w.writeString(s)
                if w.bytes.count > 1 << 16 { flush() }
            }
            w.bytes.append(UInt8(ascii: "]"))
        }

        w.bytes.append(UInt8(ascii: "{"))
        key("title")
        w.writeString(header.scenario ?? "trace")
        w.bytes.append(UInt8(ascii: ","))
        key("header")
        w.writeValue(.object(header.jsonObject))
        w.bytes.append(UInt8(ascii: ","))
        key("n")
        w.writeInt(Int64(columns.count))
        w.bytes.append(UInt8(ascii: ","))
        stringColumn("lanes", order.map { lanes[$0].label })
        key("marks")
        w.writeValue(.array(Timeline.Mark.allCases.map { m in
            let a = m.attributes
            return [
                "text": .string(m.text), "fill": .string(a["fillcolor"] ?? "#ffffff"), "shape": .string(a["shape"] ?? "circle"),
                "double": .bool(a["peripheries"] == "2" || a["shape"] == "doublecircle" || a["shape"] == "doubleoctagon"),
                "dashed": .bool((a["style"] ?? "").contains("dashed")),
            ]
        }))
        w.bytes.append(UInt8(ascii: ","))
        flush()

        // Columns.
        stringColumn("mbs", columns.mbs)
        stringColumn("kinds", columns.kinds)
        stringColumn("rests", columns.rests)
        column("restTails", columns.restTails)
        var previousSeq: Int64 = 0
        column("seq", columns.seqs.lazy.map { seq in
            defer { previousSeq = Int64(seq) }
            return Int64(seq) - previousSeq
        })
        var previousT: Int64 = 0
        column("t", columns.times.lazy.map { t in
            defer { previousT = t }
            return t - previousT
        })
        column("lane", laneOf.lazy.map { Int64(row[Int($0)]) })
        column("mb", columns.mbCol)
        column("kind", columns.kindCol)
        column("rest", columns.restCol)
        column("mark", columns.markCol)
        column("cause", columns.causeCol)
        flush()

        // Spans: [lane row, start index, end index (-1: the end), type].
        let spans = columns.spans
        var spanValues: [Int64] = []
        func laneRow(_ key: String) -> Int64? { laneIndex[key].map { Int64(row[$0]) } }
        for s in spans.waits {
            guard let r = laneRow(LaneKey.board(mb: s.mb, id: s.board)) else { continue }
            let type: Int64 = switch s.outcome {
            case .passed: 0
            case .failed: 1
            case .loop: 2
            case .stuck: 3
            }
            spanValues += [r, Int64(s.start), Int64(s.end ?? -1), type]
        }
        for s in spans.runs {
            guard let r = laneRow(LaneKey.board(mb: s.mb, id: s.board)) else { continue }
            if let until = s.overlapsUntil, until > s.start { spanValues += [r, Int64(s.start), Int64(min(until, s.end)), 5] }
            spanValues += [r, Int64(max(s.start, min(s.overlapsUntil ?? s.start, s.end))), Int64(s.end), 4]
        }
        for h in spans.holds {
            guard let r = laneRow(LaneKey.dispatcher(h.dispatcher)) else { continue }
            spanValues += [r, Int64(h.start), Int64(h.end ?? -1), h.end == nil ? 7 : 6]
        }
        column("spans", spanValues)
        key("spanMarks")
        w.writeValue(.array([Timeline.Mark.waitPassed, .waitFailed, .waitLoop, .waitStuck, .running, .queuedRun, .held, .heldToEnd].map { .int(Int64($0.rawValue)) }))
        w.bytes.append(UInt8(ascii: ","))
        // Stimuli's labels: [event index, label index, ...] and the labels.
        column("notes", columns.notes)
        stringColumn("noteTexts", columns.noteTexts)
        key("graph")
        w.writeValue(try graph(model, lanes: Dictionary(uniqueKeysWithValues: laneIndex.compactMap { k, v in LaneKey.boardKey(of: k).map { ($0, Int64(row[v])) } })))
        w.bytes.append(UInt8(ascii: "}"))
        flush()
    }

    /// `<`, `>`, `&`, U+2028 and U+2029 as `\u` escapes. They only occur inside JSON strings,
    /// where the escape means the same character.
    static func escapeForScript(_ bytes: inout [UInt8]) {
        guard bytes.contains(where: { $0 == 0x3C || $0 == 0x3E || $0 == 0x26 || $0 == 0xE2 }) else { return }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 1024)
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            switch b {
            case 0x3C: out.append(contentsOf: Array("\\u003c".utf8))
            case 0x3E: out.append(contentsOf: Array("\\u003e".utf8))
            case 0x26: out.append(contentsOf: Array("\\u0026".utf8))
            case 0xE2 where i + 2 < bytes.count && bytes[i + 1] == 0x80 && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9):
                out.append(contentsOf: Array((bytes[i + 2] == 0xA8 ? "\\u2028" : "\\u2029").utf8))
                i += 2
            default: out.append(b)
            }
            i += 1
        }
        bytes = out
    }

    /// The flow graph as Graphviz laid it out (its xdot drawing operations), reduced to what the
    /// page draws: per object, its operations, and for a board, its lane row (a click filters
    /// the table to it).
    static func graph(_ model: FlowModel, lanes: [String: Int64]) throws(GraphvizError) -> JSONValue {
        let bytes = try FlowGraph.xdotJSON(model)
        guard let doc = try? JSONValue(parsing: String(decoding: bytes, as: UTF8.self)), let o = doc.objectValue else {
            throw GraphvizError(stage: "reading Graphviz's JSON", messages: ["not a JSON object"])
        }
        let bb = (o["bb"]?.stringValue).flatMap(LayoutBox.init) ?? LayoutBox(minX: 0, minY: 0, maxX: 0, maxY: 0)
        var items: [JSONValue] = []
        func ops(_ v: JSONValue?) -> [JSONValue] {
            var out: [JSONValue] = []
            for op in v?.arrayValue ?? [] {
                guard let op = op.objectValue, let name = op["op"]?.stringValue else { continue }
                switch name {
                case "c", "C": out.append(["op": .string(name), "color": op["color"] ?? "#000000"])
                case "S": out.append(["op": "S", "style": op["style"] ?? "solid"])
                case "F": out.append(["op": "F", "size": op["size"] ?? 14])
                case "T": out.append(["op": "T", "pt": op["pt"] ?? [], "align": op["align"] ?? "c", "text": op["text"] ?? ""])
                case "P", "p", "L", "b", "B": out.append(["op": .string(name), "points": op["points"] ?? []])
                case "e", "E": out.append(["op": .string(name), "rect": op["rect"] ?? []])
                default: break
                }
            }
            return out
        }
        func drawn(_ obj: JSONObject) -> [JSONValue] {
            ["_draw_", "_ldraw_", "_hdraw_", "_tdraw_", "_hldraw_", "_tldraw_"].flatMap { ops(obj[$0]) }
        }
        items.append(["kind": "graph", "ops": .array(drawn(o))])
        for obj in o["objects"]?.arrayValue ?? [] {
            guard let obj = obj.objectValue else { continue }
            var item: JSONObject = ["kind": obj["nodes"] != nil || obj["edges"] != nil ? "cluster" : "node", "ops": .array(drawn(obj))]
            if let id = obj["id"]?.stringValue, id.hasPrefix("board-"), let lane = lanes[String(id.dropFirst(6))] { item["lane"] = .int(lane) }
            items.append(.object(item))
        }
        for e in o["edges"]?.arrayValue ?? [] {
            guard let e = e.objectValue else { continue }
            items.append(["kind": "edge", "ops": .array(drawn(e))])
        }
        return ["width": .double(bb.width), "height": .double(bb.height), "minX": .double(bb.minX), "minY": .double(bb.minY), "items": .array(items)]
    }
}
