/// Receives an event's fields in the contract's order. One implementation writes bytes (the
/// trace writer's hot path), another builds a ``JSONObject`` (diffs, exports): both see the same
/// fields from one switch.
protocol FieldSink {
    mutating func string(_ key: StaticString, _ value: String)
    mutating func int(_ key: StaticString, _ value: Int64)
    mutating func bool(_ key: StaticString, _ value: Bool)
    mutating func value(_ key: StaticString, _ value: JSONValue)
    mutating func strings(_ key: StaticString, _ value: [String])
    mutating func values(_ key: StaticString, _ value: [JSONValue])
    mutating func members(_ object: JSONObject)
}

extension TraceEvent.Body {
    /// Emits the fields of this kind (not `kind` itself) in the contract's order.
    func emitFields<S: FieldSink>(to s: inout S) {
        switch self {
        case .stimulus(let action, let fields):
            s.string("action", action)
            s.members(fields)
        case .activationRequested(let board, let source, let input):
            s.string("board", board)
            if let source { s.string("source", source) }
            if let input { s.value("input", input) }
        case .gatewayChecked(let board, let barrier, let result):
            s.string("board", board)
            s.string("barrier", barrier)
            s.string("result", result.rawValue)
        case .barrierChecked(let board, let barrier, let scope, let result):
            s.string("board", board)
            s.string("barrier", barrier)
            s.string("scope", scope)
            s.string("result", result.rawValue)
        case .barrierStarted(let barrier, let board):
            s.string("barrier", barrier)
            s.string("board", board)
        case .barrierResolved(let barrier, let passed, let released):
            s.string("barrier", barrier)
            s.bool("passed", passed)
            s.int("released", Int64(released))
        case .barrierLoop(let board, let cycle):
            s.string("board", board)
            s.strings("cycle", cycle)
        case .activationPerformed(let board, let input):
            s.string("board", board)
            if let input { s.value("input", input) }
        case .activationCancelled(let board, let reason):
            s.string("board", board)
            s.string("reason", reason.rawValue)
        case .outputSent(let board, let output):
            s.string("board", board)
            s.value("output", output)
        case .flowRouted(let from, let output, let to, let action):
            s.string("from", from)
            s.value("output", output)
            if let to { s.string("to", to) }
            s.string("action", action)
        case .commandSent(let board, let command):
            s.string("board", board)
            s.value("command", command)
        case .boardCompleted(let board, let success):
            s.string("board", board)
            if let success { s.bool("success", success) }
        case .dispatchQueued(let dispatcher, let event):
            s.string("dispatcher", dispatcher)
            s.value("event", event)
        case .dispatchBlocked(let dispatcher, let barriers):
            s.string("dispatcher", dispatcher)
            s.strings("barriers", barriers)
        case .dispatchSent(let dispatcher, let events, let flush):
            s.string("dispatcher", dispatcher)
            s.int("events", Int64(events))
            s.bool("flush", flush)
        case .dispatchBarrier(let barrier, let dispatcher, let state, let flushable):
            s.string("barrier", barrier)
            if let dispatcher { s.string("dispatcher", dispatcher) }
            s.string("state", state)
            s.bool("flushable", flushable)
        case .stuckBarrier(let barrier, let gate, let waiting):
            s.string("barrier", barrier)
            s.string("gate", gate)
            s.strings("waiting", waiting)
        case .stuckDispatcher(let dispatcher, let waiting):
            s.string("dispatcher", dispatcher)
            s.values("waiting", waiting)
        case .unknown(_, let fields), .dispatchDropped(let fields), .runaway(let fields), .choice(let fields):
            s.members(fields)
        }
    }
}

/// Writes fields as `,"key":value` pairs.
extension JSONWriter: FieldSink {
    @inline(__always) mutating func key(_ key: StaticString) {
        byte(UInt8(ascii: ","))
        byte(UInt8(ascii: "\""))
        raw(key)
        byte(UInt8(ascii: "\""))
        byte(UInt8(ascii: ":"))
    }
    mutating func string(_ k: StaticString, _ value: String) {
        key(k)
        writeString(value)
    }
    mutating func int(_ k: StaticString, _ value: Int64) {
        key(k)
        writeInt(value)
    }
    mutating func bool(_ k: StaticString, _ value: Bool) {
        key(k)
        writeBool(value)
    }
    mutating func value(_ k: StaticString, _ value: JSONValue) {
        key(k)
        writeValue(value)
    }
    mutating func strings(_ k: StaticString, _ value: [String]) {
        key(k)
        byte(UInt8(ascii: "["))
        for (i, s) in value.enumerated() {
            if i > 0 { byte(UInt8(ascii: ",")) }
            writeString(s)
        }
        byte(UInt8(ascii: "]"))
    }
    mutating func values(_ k: StaticString, _ value: [JSONValue]) {
        key(k)
        writeValue(.array(value))
    }
    mutating func members(_ object: JSONObject) {
        for m in object.members {
            byte(UInt8(ascii: ","))
            writeString(m.key)
            byte(UInt8(ascii: ":"))
            writeValue(m.value)
        }
    }
}

/// Collects fields into an object.
struct ObjectSink: FieldSink {
    var object = JSONObject()
    mutating func string(_ k: StaticString, _ value: String) { object.members.append(.init(key: "\(k)", value: .string(value))) }
    mutating func int(_ k: StaticString, _ value: Int64) { object.members.append(.init(key: "\(k)", value: .int(value))) }
    mutating func bool(_ k: StaticString, _ value: Bool) { object.members.append(.init(key: "\(k)", value: .bool(value))) }
    mutating func value(_ k: StaticString, _ value: JSONValue) { object.members.append(.init(key: "\(k)", value: value)) }
    mutating func strings(_ k: StaticString, _ value: [String]) {
        object.members.append(.init(key: "\(k)", value: .array(value.map(JSONValue.string))))
    }
    mutating func values(_ k: StaticString, _ value: [JSONValue]) { object.members.append(.init(key: "\(k)", value: .array(value))) }
    mutating func members(_ o: JSONObject) { object.members.append(contentsOf: o.members) }
}

extension TraceEvent {
    /// The whole event as a JSON object, in the order the trace writes it.
    public var jsonObject: JSONObject {
        var s = ObjectSink()
        s.object.members.reserveCapacity(8)
        s.int("seq", Int64(seq))
        s.object.members.append(.init(key: "t", value: t.jsonValue))
        s.string("kind", kind)
        s.string("mb", mb)
        body.emitFields(to: &s)
        if let cause { s.int("cause", Int64(cause)) }
        s.members(extra)
        return s.object
    }

    /// Appends the event as one JSON line (with its newline) to `w`.
    public func write(to w: inout JSONWriter) {
        w.raw("{\"seq\":")
        w.writeInt(Int64(seq))
        w.raw(",\"t\":")
        w.writeTime(t)
        w.raw(",\"kind\":")
        if case .unknown(let kind, _) = body {
            w.writeString(kind)
        } else {
            w.byte(UInt8(ascii: "\""))
            w.bytes.append(contentsOf: body.kind.utf8)
            w.byte(UInt8(ascii: "\""))
        }
        w.raw(",\"mb\":")
        w.writeString(mb)
        body.emitFields(to: &w)
        if let cause {
            w.raw(",\"cause\":")
            w.writeInt(Int64(cause))
        }
        w.members(extra)
        w.raw("}\n")
    }

    /// The event as one JSON line, without the newline.
    public var jsonLine: String {
        var w = JSONWriter()
        write(to: &w)
        w.bytes.removeLast()
        return w.string
    }
}

extension TraceTime {
    /// The time as the JSON number the trace writes.
    public var jsonValue: JSONValue {
        microseconds % 1_000_000 == 0 ? .int(microseconds / 1_000_000) : .double(Double(microseconds) / 1_000_000)
    }
}

/// Writes fields as `key: value` lines: strings as they are, other values as compact JSON.
struct SummarySink: FieldSink {
    var w = JSONWriter(capacity: 160)
    mutating func key(_ k: StaticString) {
        w.byte(UInt8(ascii: "\n"))
        w.raw(k)
        w.raw(": ")
    }
    mutating func string(_ k: StaticString, _ value: String) {
        key(k)
        w.bytes.append(contentsOf: value.utf8)
    }
    mutating func int(_ k: StaticString, _ value: Int64) {
        key(k)
        w.writeInt(value)
    }
    mutating func bool(_ k: StaticString, _ value: Bool) {
        key(k)
        w.writeBool(value)
    }
    mutating func value(_ k: StaticString, _ value: JSONValue) {
        key(k)
        plain(value)
    }
    /// A string as it is, anything else as compact JSON.
    mutating func plain(_ value: JSONValue) {
        if case .string(let s) = value { w.bytes.append(contentsOf: s.utf8) } else { w.writeValue(value) }
    }
    mutating func strings(_ k: StaticString, _ value: [String]) {
        key(k)
        for (i, s) in value.enumerated() {
            if i > 0 { w.raw(", ") }
            w.bytes.append(contentsOf: s.utf8)
        }
    }
    mutating func values(_ k: StaticString, _ value: [JSONValue]) {
        key(k)
        w.writeValue(.array(value))
    }
    mutating func members(_ object: JSONObject) {
        for m in object.members {
            w.byte(UInt8(ascii: "\n"))
            w.bytes.append(contentsOf: m.key.utf8)
            w.raw(": ")
            plain(m.value)
        }
    }
}

extension TraceEvent {
    /// The event for a person: a first line with `#seq`, the kind, the time and the motherboard,
    /// then one `key: value` line per field (strings as they are, other values as compact JSON),
    /// `cause: #seq` last. Every field of the trace line is there; renderers use it as the
    /// event's title (the tooltip viewers show on hover).
    public var summary: String {
        var s = SummarySink()
        s.w.byte(UInt8(ascii: "#"))
        s.w.writeInt(Int64(seq))
        s.w.byte(UInt8(ascii: " "))
        if case .unknown(let kind, _) = body { s.w.bytes.append(contentsOf: kind.utf8) } else { s.w.bytes.append(contentsOf: body.kind.utf8) }
        s.w.raw(" at t=")
        s.w.writeTime(t)
        s.w.raw("s in ")
        s.w.bytes.append(contentsOf: mb.utf8)
        body.emitFields(to: &s)
        if let cause {
            s.w.raw("\ncause: #")
            s.w.writeInt(Int64(cause))
        }
        s.members(extra)
        return s.w.string
    }
}
