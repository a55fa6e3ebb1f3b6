import BoardyTrace

/// Converts a trace to Chrome's trace event JSON, which Perfetto and chrome://tracing open: a
/// track per board and per dispatcher (grouped per motherboard), each barrier wait as its own async slice (named with its destination),
/// outputs and other events as instants, and causal arrows (flow events) from each `cause`.
public enum ChromeTraceExport {
    /// The latest time, in microseconds, Chrome's trace format (and the viewer, in JavaScript)
    /// holds exactly: 2^53 µs, about 285 years. Its readers parse numbers as doubles, which are
    /// not exact past that.
    public static let maximumMicroseconds: Int64 = 1 << 53

    /// The first event whose time is past ``maximumMicroseconds``, if any: such a trace is not
    /// exported (or viewed), rather than shown at the wrong time.
    public static func firstEventPastMaximum(_ trace: Trace) -> TraceEvent? {
        // Times never decrease in a trace read strictly; the last is checked first as a shortcut.
        guard let last = trace.events.last, last.t.microseconds > maximumMicroseconds else { return nil }
        return trace.events.first { $0.t.microseconds > maximumMicroseconds }
    }

    /// The async begin or end of one wait: id `wait-N` (N its number in the trace), named
    /// `<board> waits for <barrier>` (the gateway's: `<board> waits for the gateway (<gate>)`).
    static func asyncWait(_ w: TraceSpans.Wait, number: Int, phase: String, pid: Int, tid: Int, ts: Int64) -> JSONValue {
        let name = w.gateway ? "\(w.board) waits for the gateway (\(w.barrier))" : "\(w.board) waits for \(w.barrier)"
        var members: [JSONMember] = [
            .init(key: "name", value: .string(name)), .init(key: "cat", value: w.gateway ? "gateway" : "barrier"),
            .init(key: "ph", value: .string(phase)), .init(key: "id", value: .string("wait-\(number + 1)")),
            .init(key: "pid", value: .int(Int64(pid))), .init(key: "tid", value: .int(Int64(tid))), .init(key: "ts", value: .int(ts)),
        ]
        if phase == "e" { members.append(.init(key: "args", value: ["outcome": .string(w.outcome.rawValue)])) }
        return .object(JSONObject(members))
    }

    /// The Chrome trace JSON of `trace`.
    public static func export(_ trace: Trace) -> JSONValue {
        var out: [JSONValue] = []
        var processes: [String: Int] = [:]
        var threads: [String: (pid: Int, tid: Int)] = [:]
        var where_: [Int: (pid: Int, tid: Int, ts: Int64)] = [:]

        func pid(_ mb: String) -> Int {
            if let p = processes[mb] { return p }
            let p = processes.count + 1
            processes[mb] = p
            out.append(["name": "process_name", "ph": "M", "pid": .int(Int64(p)), "args": ["name": .string(mb)]])
            return p
        }
        func track(_ mb: String, _ name: String) -> (Int, Int) {
            let key = "\(mb)|\(name)"
            if let t = threads[key] { return t }
            let p = pid(mb)
            let t = (p, threads.count + 1)
            threads[key] = t
            out.append(["name": "thread_name", "ph": "M", "pid": .int(Int64(p)), "tid": .int(Int64(t.1)), "args": ["name": .string(name)]])
            return t
        }

        let spans = TraceSpans(trace.events)
        var waitsStarting: [Int: [Int]] = [:]
        var waitsEnding: [Int: [Int]] = [:]
        let lastIndex = trace.events.count - 1
        for (w, wait) in spans.waits.enumerated() {
            waitsStarting[wait.start, default: []].append(w)
            waitsEnding[max(wait.end ?? lastIndex, wait.start), default: []].append(w)
        }
        for (i, e) in trace.events.enumerated() {
            let lane: String
            switch e.body {
            case let .dispatchQueued(d, _), let .dispatchBlocked(d, _), let .dispatchSent(d, _, _), let .stuckDispatcher(d, _):
                lane = "dispatcher \(d)"
            case let .dispatchBarrier(_, d, _, _): lane = "dispatcher \(d ?? "all")"
            case let .barrierResolved(b, _, _): lane = "barrier \(b)"
            case .stimulus: lane = "stimuli"
            default: lane = e.body.board.map { "board \($0)" } ?? e.kind
            }
            let (p, t) = track(e.mb, lane)
            let ts = e.t.microseconds
            var args = e.jsonObject
            args["seq"] = nil
            args["t"] = nil
            let common: [JSONMember] = [
                .init(key: "pid", value: .int(Int64(p))), .init(key: "tid", value: .int(Int64(t))), .init(key: "ts", value: .int(ts)),
            ]
            out.append(.object(JSONObject(
                [.init(key: "name", value: .string(e.kind)), .init(key: "cat", value: .string(e.kind.split(separator: ".").first.map(String.init) ?? e.kind)),
                 .init(key: "ph", value: "i"), .init(key: "s", value: "t")] + common + [.init(key: "args", value: .object(args))])))
            // Each wait is its own async slice (its own track in Perfetto), on the waiting
            // board's track, named with its destination: parallel gateway runs on one gate no
            // longer share an id.
            for w in waitsStarting[i] ?? [] {
                let wait = spans.waits[w]
                out.append(asyncWait(wait, number: w, phase: "b", pid: p, tid: t, ts: ts))
            }
            for w in waitsEnding[i] ?? [] {
                let wait = spans.waits[w]
                let (wp, wt) = track(wait.mb, "board \(wait.board)")
                out.append(asyncWait(wait, number: w, phase: "e", pid: wp, tid: wt, ts: ts))
            }
            where_[e.seq] = (p, t, ts)
            // A causal arrow from the cause to this event.
            if let c = e.cause, let from = where_[c] {
                out.append(["name": "cause", "cat": "cause", "ph": "s", "id": .int(Int64(e.seq)), "pid": .int(Int64(from.pid)), "tid": .int(Int64(from.tid)), "ts": .int(from.ts)])
                out.append(["name": "cause", "cat": "cause", "ph": "f", "bp": "e", "id": .int(Int64(e.seq)), "pid": .int(Int64(p)), "tid": .int(Int64(t)), "ts": .int(ts)])
            }
        }
        var meta: JSONObject = ["format": "boardy-trace", "version": .int(Int64(trace.header.version))]
        if let s = trace.header.scenario { meta["scenario"] = .string(s) }
        return ["traceEvents": .array(out), "displayTimeUnit": "ms", "otherData": .object(meta)]
    }
}
