/// Why one trace line is not a valid event: a missing field, a field of the wrong type.
public struct TraceFieldError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong, naming the field.
    public var message: String
    /// An error saying `message`.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Reads typed fields out of a parsed event object and remembers which were used, so the rest
/// can be kept as ``TraceEvent/extra``.
struct FieldReader {
    let object: JSONObject
    let kind: String
    /// How many members were read (the base fields count up front).
    var consumed: Int
    /// Where the next field is expected: the writer's order, so in-order lines need one compare
    /// per field.
    var cursor: Int

    init(_ object: JSONObject, kind: String, consumed: Int, cursor: Int = 0) {
        self.object = object
        self.kind = kind
        self.consumed = consumed
        self.cursor = cursor
    }

    mutating func raw(_ key: String) -> JSONValue? {
        let n = object.members.count
        if cursor < n, object.members[cursor].key == key {
            consumed += 1
            cursor += 1
            return object.members[cursor - 1].value
        }
        var i = 0
        let length = key.utf8.count
        while i < n {
            // Unequal lengths reject without Unicode-aware string comparison.
            if object.members[i].key.utf8.count == length && object.members[i].key == key {
                consumed += 1
                cursor = i + 1
                return object.members[i].value
            }
            i += 1
        }
        return nil
    }

    mutating func string(_ key: String) throws(TraceFieldError) -> String {
        guard let v = raw(key) else { throw TraceFieldError("\(kind) event has no \"\(key)\"") }
        guard case .string(let s) = v else { throw TraceFieldError("\"\(key)\" must be a string, found \(v.typeName)") }
        return s
    }

    mutating func optionalString(_ key: String) throws(TraceFieldError) -> String? {
        guard let v = raw(key), v != .null else { return nil }
        guard case .string(let s) = v else { throw TraceFieldError("\"\(key)\" must be a string, found \(v.typeName)") }
        return s
    }

    mutating func bool(_ key: String) throws(TraceFieldError) -> Bool {
        guard let v = raw(key) else { throw TraceFieldError("\(kind) event has no \"\(key)\"") }
        guard case .bool(let b) = v else { throw TraceFieldError("\"\(key)\" must be true or false, found \(v.typeName)") }
        return b
    }

    mutating func optionalBool(_ key: String) throws(TraceFieldError) -> Bool? {
        guard let v = raw(key), v != .null else { return nil }
        guard case .bool(let b) = v else { throw TraceFieldError("\"\(key)\" must be true or false, found \(v.typeName)") }
        return b
    }

    mutating func int(_ key: String) throws(TraceFieldError) -> Int {
        guard let v = raw(key) else { throw TraceFieldError("\(kind) event has no \"\(key)\"") }
        guard let i = v.intValue, let n = Int(exactly: i) else {
            throw TraceFieldError("\"\(key)\" must be an integer, found \(v.typeName)")
        }
        return n
    }

    mutating func value(_ key: String) throws(TraceFieldError) -> JSONValue {
        guard let v = raw(key) else { throw TraceFieldError("\(kind) event has no \"\(key)\"") }
        return v
    }

    mutating func strings(_ key: String) throws(TraceFieldError) -> [String] {
        guard let v = raw(key) else { throw TraceFieldError("\(kind) event has no \"\(key)\"") }
        guard case .array(let a) = v else { throw TraceFieldError("\"\(key)\" must be an array of strings, found \(v.typeName)") }
        var out: [String] = []
        out.reserveCapacity(a.count)
        for e in a {
            guard case .string(let s) = e else {
                throw TraceFieldError("\"\(key)\" must be an array of strings, found an element of type \(e.typeName)")
            }
            out.append(s)
        }
        return out
    }

    mutating func values(_ key: String) throws(TraceFieldError) -> [JSONValue] {
        guard let v = raw(key) else { throw TraceFieldError("\(kind) event has no \"\(key)\"") }
        guard case .array(let a) = v else { throw TraceFieldError("\"\(key)\" must be an array, found \(v.typeName)") }
        return a
    }

    /// The members not read: `known` are the names the kind uses. Allocates only when there are
    /// unknown members.
    func rest(known: @autoclosure () -> [String]) throws(TraceFieldError) -> JSONObject {
        guard consumed < object.count else { return JSONObject() }
        let names = Set(known()).union(TraceEvent.baseKeys)
        var seen = Set<String>()
        var out: [JSONMember] = []
        for m in object.members {
            guard seen.insert(m.key).inserted else { throw TraceFieldError("duplicate key \"\(m.key)\"") }
            if !names.contains(m.key) { out.append(m) }
        }
        return JSONObject(out)
    }
}

extension JSONValue {
    /// The JSON type's name, for messages.
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .int, .double: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

extension TraceEvent {
    /// Builds an event from one parsed trace line. Unknown kinds and fields are kept.
    public init(jsonObject o: JSONObject) throws(TraceFieldError) {
        var base = FieldReader(o, kind: "event", consumed: 0)
        guard let seqValue = base.raw("seq") else { throw TraceFieldError("event has no \"seq\"") }
        guard let seqInt = seqValue.intValue, let seq = Int(exactly: seqInt), seq >= 1 else {
            throw TraceFieldError("\"seq\" must be a positive integer, found \(seqValue)")
        }
        guard let tValue = base.raw("t") else { throw TraceFieldError("event has no \"t\"") }
        guard let t = TraceTime(jsonValue: tValue) else {
            throw TraceFieldError("\"t\" must be a non-negative number of seconds, found \(tValue)")
        }
        guard let kindValue = base.raw("kind") else { throw TraceFieldError("event has no \"kind\"") }
        guard case .string(let kind) = kindValue, !kind.isEmpty else {
            throw TraceFieldError("\"kind\" must be a non-empty string, found \(kindValue)")
        }
        guard let mbValue = base.raw("mb") else { throw TraceFieldError("event has no \"mb\"") }
        guard case .string(let mb) = mbValue else { throw TraceFieldError("\"mb\" must be a string, found \(mbValue.typeName)") }
        var cause: Int?
        if let c = o["cause"], c != .null {
            guard let ci = c.intValue, let cn = Int(exactly: ci), cn >= 1, cn < seq else {
                throw TraceFieldError("\"cause\" must be the seq of an earlier event, found \(c)")
            }
            cause = cn
        }
        var r = FieldReader(o, kind: kind, consumed: cause == nil ? 4 : 5, cursor: base.cursor)
        let body: Body
        var trailing: JSONObject?
        switch kind {
        case "stimulus":
            let action = try r.string("action")
            // Open-ended kinds: members before `cause` are the kind's fields, members after it
            // are extra (that is how the writer orders them), so lines round-trip byte for byte.
            let (fields, after) = try Self.splitAtCause(try r.rest(known: ["action"]), in: o)
            body = .stimulus(action: action, fields: fields)
            r.consumed = o.count
            trailing = after
        case "activation.requested":
            body = .activationRequested(board: try r.string("board"), source: try r.optionalString("source"), input: r.raw("input"))
        case "gateway.checked":
            body = .gatewayChecked(
                board: try r.string("board"), barrier: try r.string("barrier"), result: .init(rawValue: try r.string("result")))
        case "barrier.checked":
            body = .barrierChecked(
                board: try r.string("board"), barrier: try r.string("barrier"), scope: try r.string("scope"),
                result: .init(rawValue: try r.string("result")))
        case "barrier.started":
            body = .barrierStarted(barrier: try r.string("barrier"), board: try r.string("board"))
        case "barrier.resolved":
            body = .barrierResolved(barrier: try r.string("barrier"), passed: try r.bool("passed"), released: try r.int("released"))
        case "barrier.loop":
            body = .barrierLoop(board: try r.string("board"), cycle: try r.strings("cycle"))
        case "activation.performed":
            body = .activationPerformed(board: try r.string("board"), input: r.raw("input"))
        case "activation.cancelled":
            body = .activationCancelled(board: try r.string("board"), reason: .init(rawValue: try r.string("reason")))
        case "output.sent":
            body = .outputSent(board: try r.string("board"), output: try r.value("output"))
        case "flow.routed":
            body = .flowRouted(
                from: try r.string("from"), output: try r.value("output"), to: try r.optionalString("to"), action: try r.string("action"))
        case "command.sent":
            body = .commandSent(board: try r.string("board"), command: try r.value("command"))
        case "board.completed":
            body = .boardCompleted(board: try r.string("board"), success: try r.optionalBool("success"))
        case "dispatch.queued":
            body = .dispatchQueued(dispatcher: try r.string("dispatcher"), event: try r.value("event"))
        case "dispatch.blocked":
            body = .dispatchBlocked(dispatcher: try r.string("dispatcher"), barriers: try r.strings("barriers"))
        case "dispatch.sent":
            body = .dispatchSent(dispatcher: try r.string("dispatcher"), events: try r.int("events"), flush: try r.bool("flush"))
        case "dispatch.barrier":
            body = .dispatchBarrier(
                barrier: try r.string("barrier"), dispatcher: try r.optionalString("dispatcher"), state: try r.string("state"),
                flushable: try r.bool("flushable"))
        case "stuck":
            if o["dispatcher"] != nil {
                body = .stuckDispatcher(dispatcher: try r.string("dispatcher"), waiting: try r.values("waiting"))
            } else {
                body = .stuckBarrier(barrier: try r.string("barrier"), gate: try r.string("gate"), waiting: try r.strings("waiting"))
            }
        default:
            // Open-ended kinds, typed (dispatch.dropped, runaway, choice) or not.
            let (fields, after) = try Self.splitAtCause(try r.rest(known: []), in: o)
            switch kind {
            case "dispatch.dropped": body = .dispatchDropped(fields: fields)
            case "runaway": body = .runaway(fields: fields)
            case "choice": body = .choice(fields: fields)
            default: body = .unknown(kind: kind, fields: fields)
            }
            r.consumed = o.count
            trailing = after
        }
        let extra: JSONObject
        if let trailing { extra = trailing } else { extra = try r.rest(known: body.fieldKeys) }
        self.init(seq: seq, t: t, mb: mb, cause: cause, body: body, extra: extra)
    }
}

extension TraceEvent {
    /// Splits the unknown members of an open-ended kind at the position of `cause` in `o`.
    fileprivate static func splitAtCause(_ rest: JSONObject, in o: JSONObject) throws(TraceFieldError) -> (JSONObject, JSONObject) {
        guard o["cause"] != nil, !rest.isEmpty else { return (rest, JSONObject()) }
        let restKeys = Set(rest.keys)
        var before: [JSONMember] = []
        var after: [JSONMember] = []
        var pastCause = false
        for m in o.members {
            if m.key == "cause" { pastCause = true }
            guard restKeys.contains(m.key) else { continue }
            if pastCause { after.append(m) } else { before.append(m) }
        }
        return (JSONObject(before), JSONObject(after))
    }

    static let baseKeys: Set<String> = ["seq", "t", "kind", "mb", "cause"]
}

extension TraceEvent.Body {
    /// The names of this body's fields, as written.
    var fieldKeys: [String] {
        var s = ObjectSink()
        emitFields(to: &s)
        return s.object.keys
    }
}

extension TraceTime {
    /// A time read from a JSON number of seconds (rounded to the microsecond); nil if negative or
    /// not a number.
    public init?(jsonValue: JSONValue) {
        switch jsonValue {
        case .int(let s):
            guard s >= 0 else { return nil }
            self.init(exactSeconds: s)
        case .double(let d):
            guard d >= 0 else { return nil }
            self.init(exactSeconds: d)
        default:
            return nil
        }
    }
}
