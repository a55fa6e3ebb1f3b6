import BoardyTrace
// CryptoKit where the platform has it; swift-crypto's API-compatible Crypto elsewhere.
#if canImport(CryptoKit)
    import CryptoKit
#else
    import Crypto
#endif

/// A trace as OTLP/JSON (the OpenTelemetry protocol's JSON encoding of an
/// `ExportTraceServiceRequest`), which any OpenTelemetry collector, Jaeger or Tempo accepts:
/// one OpenTelemetry trace per run, spans for activations, barrier waits, gate runs and
/// dispatch pulls, each parented by the span its `cause` belongs to.
///
/// Ids are derived from the trace's content (SHA-256), so the same trace exports the same ids;
/// they are hex, as OTLP/JSON requires (protobuf's own JSON mapping would read base64). Virtual
/// time is offset from `epoch`.
public enum OTLPExport {
    /// A time OTLP cannot hold: OTLP times are unsigned 64-bit nanoseconds since 1970 (until
    /// 2554); the epoch plus the event's virtual time goes past that.
    public struct TimeRangeError: Error, Sendable, CustomStringConvertible {
        /// The event whose time does not fit (its `seq`), or nil for the epoch itself.
        public var seq: Int?
        /// What was wrong.
        public var message: String
        /// The message.
        public var description: String { message }
    }

    /// The OTLP/JSON request for `trace`, its virtual time 0 at `epochNanos` (Unix nanoseconds,
    /// from 0). Throws when the epoch is negative, or when an event's time, added to it, does not
    /// fit OTLP's nanoseconds (the first such event is named): never a wrapped time.
    public static func export(_ trace: Trace, epochNanos: Int64) throws(TimeRangeError) -> JSONValue {
        guard epochNanos >= 0 else {
            throw TimeRangeError(seq: nil, message: "the epoch (\(epochNanos) ns) is before 1970, which OTLP times cannot hold")
        }
        for e in trace.events where unixNanos(epochNanos, e.t.microseconds) == nil {
            throw TimeRangeError(
                seq: e.seq,
                message: "event \(e.seq) (t = \(e.t.microseconds) µs) is past the latest time OTLP holds (2554-07-21) from this epoch; export with an earlier --epoch")
        }
        var spans = Builder(trace: trace, epochNanos: epochNanos)
        spans.build()
        var resource: [JSONValue] = [attribute("service.name", .string("boardy-viz"))]
        if let s = trace.header.scenario { resource.append(attribute("boardy.scenario", .string(s))) }
        if let d = trace.header.definition { resource.append(attribute("boardy.definition", .string(d))) }
        resource.append(attribute("boardy.clock", .string(trace.header.clock.rawValue)))
        return [
            "resourceSpans": [
                [
                    "resource": ["attributes": .array(resource)],
                    "scopeSpans": [["scope": ["name": "boardy-viz"], "spans": .array(spans.spans.map(\.json))]],
                ]
            ]
        ]
    }

    /// `epochNanos` plus `micros` microseconds, in nanoseconds, if OTLP's unsigned 64-bit
    /// nanoseconds hold it.
    static func unixNanos(_ epochNanos: Int64, _ micros: Int64) -> UInt64? {
        guard epochNanos >= 0, micros >= 0 else { return nil }
        let (ns, over) = UInt64(micros).multipliedReportingOverflow(by: 1000)
        guard !over else { return nil }
        let (sum, over2) = UInt64(epochNanos).addingReportingOverflow(ns)
        return over2 ? nil : sum
    }

    /// An OTLP attribute (`{"key", "value": {"stringValue"|"intValue"|"boolValue"}}`).
    static func attribute(_ key: String, _ value: JSONValue) -> JSONValue {
        let v: JSONValue
        switch value {
        case .int(let i): v = ["intValue": .string(String(i))]  // int64 is a string in protobuf's JSON
        case .bool(let b): v = ["boolValue": .bool(b)]
        case .string(let s): v = ["stringValue": .string(s)]
        default: v = ["stringValue": .string(FlowModel.describe(value))]
        }
        return ["key": .string(key), "value": v]
    }

    /// One span being built.
    struct Span {
        var id: String
        var name: String
        var start: Int  // event index
        var end: Int?
        var parent: Int?  // span number
        var attributes: [JSONValue]
        var events: [JSONValue] = []
        var error: String?
        var json: JSONValue = .null
    }

    struct Builder {
        let trace: Trace
        let epochNanos: Int64
        var spans: [Span] = []
        let traceID: String

        init(trace: Trace, epochNanos: Int64) {
            self.trace = trace
            self.epochNanos = epochNanos
            // The run's content: its header and every event's line.
            var h = SHA256()
            h.update(data: Array(trace.header.jsonLine.utf8))
            for e in trace.events { h.update(data: Array(e.jsonLine.utf8)) }
            traceID = Self.hex(Array(h.finalize()).prefix(16))
        }

        static func hex(_ bytes: some Sequence<UInt8>) -> String {
            let digits = Array("0123456789abcdef".utf8)
            var out: [UInt8] = []
            for b in bytes {
                out.append(digits[Int(b >> 4)])
                out.append(digits[Int(b & 15)])
            }
            return String(decoding: out, as: UTF8.self)
        }

        /// A span id from the trace id, the span's kind and its first event: unique in the trace,
        /// the same on every export; never all zeros (invalid in OTLP).
        func spanID(_ kind: String, _ start: Int, _ extra: String = "") -> String {
            var id = Array(SHA256.hash(data: Array("\(traceID)|\(kind)|\(trace.events[start].seq)|\(extra)".utf8))).prefix(8)
            if id.allSatisfy({ $0 == 0 }) { id[id.startIndex] = 1 }
            return Self.hex(id)
        }

        func nanos(_ i: Int?) -> String {
            let t = i.map { trace.events[$0].t.microseconds } ?? (trace.events.last?.t.microseconds ?? 0)
            // Checked by `export` for every event before anything is built.
            return String(OTLPExport.unixNanos(epochNanos, t) ?? 0)
        }

        mutating func build() {
            let events = trace.events
            guard !events.isEmpty else { return }
            var index: [Int: Int] = [:]  // seq → event index
            var owner: [Int: Int] = [:]  // event index → span that holds it
            var requested: [String: [Int]] = [:]  // mb|board → activation spans not yet performed
            var running: [String: [Int]] = [:]  // mb|board → activation spans performed, not completed
            var gateRuns: [String: [Int]] = [:]  // mb|barrier → open gate-run spans
            var pullStart: [String: Int] = [:]  // dispatcher → first queued or blocked event since the last send
            func key(_ mb: String, _ s: String) -> String { mb + "|" + s }
            func open(_ name: String, _ kind: String, at i: Int, _ attrs: [JSONValue]) -> Int {
                spans.append(Span(id: spanID(kind, i), name: name, start: i, end: nil, parent: nil, attributes: attrs))
                owner[i] = spans.count - 1
                return spans.count - 1
            }
            for (i, e) in events.enumerated() {
                index[e.seq] = i
                switch e.body {
                case .activationRequested(let b, let source, _):
                    var attrs = [attribute("boardy.board", .string(b)), attribute("boardy.mb", .string(e.mb))]
                    if let source { attrs.append(attribute("boardy.source", .string(source))) }
                    let s = open("activate \(b)", "activation", at: i, attrs)
                    requested[key(e.mb, b), default: []].append(s)
                case .activationPerformed(let b, _):
                    if var list = requested[key(e.mb, b)], !list.isEmpty {
                        let s = list.removeFirst()
                        requested[key(e.mb, b)] = list
                        spans[s].events.append(["timeUnixNano": .string(nanos(i)), "name": "performed"])
                        spans[s].end = i
                        running[key(e.mb, b), default: []].append(s)
                        owner[i] = s
                    }
                case .activationCancelled(let b, let reason):
                    if var list = requested[key(e.mb, b)], !list.isEmpty {
                        let s = list.removeFirst()
                        requested[key(e.mb, b)] = list
                        spans[s].end = i
                        spans[s].error = "cancelled: \(reason.rawValue)"
                        owner[i] = s
                    }
                case .boardCompleted(let b, let success):
                    // Completes the board's running activations (a board leaves its motherboard).
                    for s in running.removeValue(forKey: key(e.mb, b)) ?? [] {
                        spans[s].end = i
                        spans[s].events.append(["timeUnixNano": .string(nanos(i)), "name": "completed"])
                        if success == false { spans[s].error = "completed with failure" }
                        owner[i] = s
                    }
                case .barrierStarted(let barrier, let gate):
                    let s = open("gate run \(barrier)", "gate", at: i, [attribute("boardy.barrier", .string(barrier)), attribute("boardy.gate", .string(gate))])
                    gateRuns[key(MotherboardPath(e.mb).gatewayHost.rawValue, barrier), default: []].append(s)
                case .barrierResolved(let barrier, let passed, let released):
                    if var list = gateRuns[key(e.mb, barrier)], !list.isEmpty {
                        let s = list.removeFirst()
                        gateRuns[key(e.mb, barrier)] = list
                        spans[s].end = i
                        spans[s].attributes.append(attribute("boardy.passed", .bool(passed)))
                        spans[s].attributes.append(attribute("boardy.released", .int(Int64(released))))
                        if !passed { spans[s].error = "the barrier failed" }
                        owner[i] = s
                    }
                case .dispatchQueued(let d, _), .dispatchBlocked(let d, _):
                    if pullStart[d] == nil { pullStart[d] = i }
                case .dispatchSent(let d, let n, let flush):
                    let start = pullStart.removeValue(forKey: d) ?? i
                    let s = open("dispatch \(d)", "pull", at: start, [
                        attribute("boardy.dispatcher", .string(d)), attribute("boardy.events", .int(Int64(n))), attribute("boardy.flush", .bool(flush)),
                    ])
                    spans[s].id = spanID("pull", start, "\(e.seq)")
                    spans[s].end = i
                    owner[i] = s
                default:
                    // Outputs, commands, routings: held by the board's running activation.
                    if let b = e.body.board, let s = running[key(e.mb, b)]?.last { owner[i] = s }
                }
            }
            // Barrier waits, from the shared analysis.
            for w in TraceSpans(events).waits {
                let name = w.gateway ? "\(w.board) waits for the gateway (\(w.barrier))" : "\(w.board) waits for \(w.barrier)"
                let s = open(name, "wait", at: w.start, [
                    attribute("boardy.board", .string(w.board)), attribute("boardy.barrier", .string(w.barrier)),
                    attribute("boardy.gateway", .bool(w.gateway)), attribute("boardy.outcome", .string(w.outcome.rawValue)),
                ])
                spans[s].end = w.end
                if w.outcome != .passed { spans[s].error = "wait \(w.outcome.rawValue)" }
            }
            // Parents: the span that holds the start event's cause (followed back through events
            // no span holds, such as a routing's output).
            for s in spans.indices {
                var c = events[spans[s].start].cause.flatMap { index[$0] }
                var hops = 0
                while let ci = c, hops < 64 {
                    if let p = owner[ci], p != s {
                        spans[s].parent = p
                        break
                    }
                    c = events[ci].cause.flatMap { index[$0] }
                    hops += 1
                }
            }
            for s in spans.indices {
                var o: JSONObject = [
                    "traceId": .string(traceID), "spanId": .string(spans[s].id), "name": .string(spans[s].name), "kind": 1,
                    "startTimeUnixNano": .string(nanos(spans[s].start)), "endTimeUnixNano": .string(nanos(spans[s].end ?? events.count - 1)),
                    "attributes": .array(spans[s].attributes),
                ]
                if let p = spans[s].parent { o["parentSpanId"] = .string(spans[p].id) }
                if !spans[s].events.isEmpty { o["events"] = .array(spans[s].events) }
                if spans[s].end == nil { o["status"] = ["code": 2, "message": "still open when the trace ends"] }
                else if let error = spans[s].error { o["status"] = ["code": 2, "message": .string(error)] }
                spans[s].json = .object(o)
            }
        }
    }
}
