/// Whether a trace line holds exactly the bytes ``TraceWriter`` writes for an event, checked in
/// place: no value is parsed and no byte written (replay's comparison, a million times per run).
///
/// A match means the line reads back as the event (the writer's round trip); no match means
/// only that the bytes differ, so a caller that must know whether the two *say* the same
/// decodes the line and compares the events (field order in open-ended kinds, a number spelled
/// another way).
extension TraceEvent {
    /// Whether `line` (without its newline) is byte for byte this event as the writer writes it.
    public func matches(line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = line.baseAddress else { return false }
        var m = LineMatcher(p: base, end: base + line.count)
        guard m.literal("{\"seq\":"), m.int(Int64(seq)), m.literal(",\"t\":"), m.time(t), m.literal(",\"kind\":") else { return false }
        if let known = body.knownKind {
            guard m.byte(UInt8(ascii: "\"")), m.literal(known.staticName), m.byte(UInt8(ascii: "\"")) else { return false }
        } else {
            guard m.string(kind) else { return false }
        }
        guard m.literal(",\"mb\":"), m.string(mb) else { return false }
        body.emitFields(to: &m)
        if let cause {
            guard m.literal(",\"cause\":"), m.int(Int64(cause)) else { return false }
        }
        m.members(extra)
        return m.ok && m.byte(UInt8(ascii: "}")) && m.p == m.end
    }
}

/// Compares what ``JSONWriter`` would write with the bytes at a cursor.
struct LineMatcher: FieldSink {
    var p: UnsafePointer<UInt8>
    let end: UnsafePointer<UInt8>
    /// False once something differed (the sink's calls cannot return it).
    var ok = true

    @inline(__always) mutating func byte(_ b: UInt8) -> Bool {
        guard p < end, p.pointee == b else { return false }
        p += 1
        return true
    }

    @inline(__always) mutating func literal(_ s: StaticString) -> Bool {
        let n = s.utf8CodeUnitCount
        guard end - p >= n, LineScanner.memcmpEqual(p, s.utf8Start, n) else { return false }
        p += n
        return true
    }

    /// A string as the writer escapes it: bytes that need no escape are compared in place, the
    /// rest written to a scratch writer first.
    mutating func string(_ s: String) -> Bool {
        var s = s
        let plain: Bool? = s.withUTF8 { u in
            var i = 0
            while i < u.count {
                let c = u[i]
                if c < 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") { return nil }
                i += 1
            }
            guard end - p >= u.count + 2, p[0] == UInt8(ascii: "\""), u.count == 0 || LineScanner.memcmpEqual(p + 1, u.baseAddress!, u.count),
                p[u.count + 1] == UInt8(ascii: "\"")
            else { return false }
            p += u.count + 2
            return true
        }
        if let plain { return plain }
        var w = JSONWriter(capacity: 64)
        w.writeString(s)
        return written(w)
    }

    /// The scratch writer's bytes at the cursor.
    mutating func written(_ w: JSONWriter) -> Bool {
        w.bytes.withUnsafeBufferPointer { b in
            guard end - p >= b.count, LineScanner.memcmpEqual(p, b.baseAddress!, b.count) else { return false }
            p += b.count
            return true
        }
    }

    /// Digits at the cursor as the writer spells a number: no leading zero (but `0` itself),
    /// at most 19. Read by multiplication, not compared digit by digit through division (a
    /// division per digit was most of the comparison's time).
    @inline(__always) mutating func digits() -> UInt64? {
        let start = p
        var v: UInt64 = 0
        while p < end, p.pointee &- UInt8(ascii: "0") < 10 {
            v = v &* 10 &+ UInt64(p.pointee &- UInt8(ascii: "0"))
            p += 1
        }
        let n = p - start
        guard n >= 1, n <= 19, !(n > 1 && start.pointee == UInt8(ascii: "0")) else { return nil }
        return v
    }

    /// A decimal integer as the writer spells it.
    @inline(__always) mutating func int(_ value: Int64) -> Bool {
        if value < 0 { guard byte(UInt8(ascii: "-")) else { return false } }
        guard let v = digits(), v == value.magnitude else { return false }
        return p == end || p.pointee &- UInt8(ascii: "0") >= 10
    }

    /// A time as ``JSONWriter/writeTime(_:)`` spells it: whole seconds, then up to six
    /// decimals without trailing zeros.
    mutating func time(_ t: TraceTime) -> Bool {
        let us = t.microseconds
        guard us >= 0 else {
            var w = JSONWriter(capacity: 32)
            w.writeTime(t)
            return written(w)
        }
        guard int(us / 1_000_000) else { return false }
        let frac = us % 1_000_000
        guard frac != 0 else { return !(p < end && p.pointee == UInt8(ascii: ".")) }
        guard byte(UInt8(ascii: ".")) else { return false }
        var value: Int64 = 0
        var scale: Int64 = 100_000
        var last: UInt8 = 0
        var n = 0
        while p < end, p.pointee &- UInt8(ascii: "0") < 10, n < 6 {
            last = p.pointee &- UInt8(ascii: "0")
            value += Int64(last) * scale
            scale /= 10
            n += 1
            p += 1
        }
        return n >= 1 && last != 0 && value == frac && !(p < end && p.pointee &- UInt8(ascii: "0") < 10)
    }

    mutating func value(_ v: JSONValue, depth: Int) -> Bool {
        switch v {
        case .null: return literal("null")
        case .bool(let b): return b ? literal("true") : literal("false")
        case .int(let i): return int(i)
        case .string(let s): return string(s)
        case .double:
            var w = JSONWriter(capacity: 32)
            w.writeValue(v, depth: depth)
            return written(w)
        case .array where depth >= JSONWriter.maxValueDepth, .object where depth >= JSONWriter.maxValueDepth:
            var w = JSONWriter(capacity: 64)
            w.writeValue(v, depth: depth)
            return written(w)
        case .array(let a):
            guard byte(UInt8(ascii: "[")) else { return false }
            for (i, e) in a.enumerated() {
                if i > 0 { guard byte(UInt8(ascii: ",")) else { return false } }
                guard value(e, depth: depth + 1) else { return false }
            }
            return byte(UInt8(ascii: "]"))
        case .object(let o):
            guard byte(UInt8(ascii: "{")) else { return false }
            for (i, m) in o.members.enumerated() {
                if i > 0 { guard byte(UInt8(ascii: ",")) else { return false } }
                guard string(m.key), byte(UInt8(ascii: ":")), value(m.value, depth: depth + 1) else { return false }
            }
            return byte(UInt8(ascii: "}"))
        }
    }

    /// `,"key":`.
    @inline(__always) mutating func key(_ k: StaticString) -> Bool {
        let n = k.utf8CodeUnitCount
        guard end - p >= n + 4, p[0] == UInt8(ascii: ","), p[1] == UInt8(ascii: "\""), LineScanner.memcmpEqual(p + 2, k.utf8Start, n),
            p[n + 2] == UInt8(ascii: "\""), p[n + 3] == UInt8(ascii: ":")
        else { return false }
        p += n + 4
        return true
    }

    mutating func string(_ k: StaticString, _ value: String) { ok = ok && key(k) && string(value) }
    mutating func int(_ k: StaticString, _ value: Int64) { ok = ok && key(k) && int(value) }
    mutating func bool(_ k: StaticString, _ value: Bool) { ok = ok && key(k) && (value ? literal("true") : literal("false")) }
    mutating func value(_ k: StaticString, _ v: JSONValue) { ok = ok && key(k) && value(v, depth: 0) }
    mutating func strings(_ k: StaticString, _ list: [String]) {
        guard ok, key(k), byte(UInt8(ascii: "[")) else { return ok = false }
        for (i, s) in list.enumerated() {
            if i > 0 { guard byte(UInt8(ascii: ",")) else { return ok = false } }
            guard string(s) else { return ok = false }
        }
        ok = byte(UInt8(ascii: "]"))
    }
    mutating func values(_ k: StaticString, _ list: [JSONValue]) { ok = ok && key(k) && value(.array(list), depth: 0) }
    mutating func members(_ object: JSONObject) {
        for m in object.members {
            guard ok else { return }
            ok = byte(UInt8(ascii: ",")) && string(m.key) && byte(UInt8(ascii: ":")) && value(m.value, depth: 0)
        }
    }
}

extension EventKind {
    /// The raw value as a static string: compared without making a `String`.
    var staticName: StaticString {
        switch self {
        case .stimulus: return "stimulus"
        case .activationRequested: return "activation.requested"
        case .gatewayChecked: return "gateway.checked"
        case .barrierChecked: return "barrier.checked"
        case .barrierStarted: return "barrier.started"
        case .barrierResolved: return "barrier.resolved"
        case .barrierLoop: return "barrier.loop"
        case .activationPerformed: return "activation.performed"
        case .activationCancelled: return "activation.cancelled"
        case .outputSent: return "output.sent"
        case .flowRouted: return "flow.routed"
        case .commandSent: return "command.sent"
        case .boardCompleted: return "board.completed"
        case .dispatchQueued: return "dispatch.queued"
        case .dispatchBlocked: return "dispatch.blocked"
        case .dispatchSent: return "dispatch.sent"
        case .dispatchBarrier: return "dispatch.barrier"
        case .dispatchDropped: return "dispatch.dropped"
        case .stuck: return "stuck"
        case .runaway: return "runaway"
        case .choice: return "choice"
        case .gatewayInstalled: return "gateway.installed"
        case .logWarning: return "log.warning"
        case .logNote: return "log.note"
        case .misuse: return "misuse"
        }
    }
}
