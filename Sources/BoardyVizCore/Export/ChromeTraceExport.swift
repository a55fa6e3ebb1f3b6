import BoardyTrace

/// Converts a trace to Chrome's trace event JSON, which Perfetto and chrome://tracing open: a
/// track per board and per dispatcher (grouped per motherboard), barrier waits as async slices,
/// outputs and other events as instants, and causal arrows (flow events) from each `cause`.
public enum ChromeTraceExport {
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

        for e in trace.events {
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
            switch e.body {
            case let .barrierStarted(barrier, _):
                // A barrier wait: an async slice from the gate's start to the resolution.
                out.append(.object(JSONObject(
                    [.init(key: "name", value: .string("wait \(barrier)")), .init(key: "cat", value: "barrier"), .init(key: "ph", value: "b"),
                     .init(key: "id", value: .string("\(e.mb)|\(barrier)"))] + common + [.init(key: "args", value: .object(args))])))
            case let .barrierResolved(barrier, passed, released):
                out.append(.object(JSONObject(
                    [.init(key: "name", value: .string("wait \(barrier)")), .init(key: "cat", value: "barrier"), .init(key: "ph", value: "e"),
                     .init(key: "id", value: .string("\(e.mb)|\(barrier)"))] + common
                        + [.init(key: "args", value: ["passed": .bool(passed), "released": .int(Int64(released))])])))
            default:
                out.append(.object(JSONObject(
                    [.init(key: "name", value: .string(e.kind)), .init(key: "cat", value: .string(e.kind.split(separator: ".").first.map(String.init) ?? e.kind)),
                     .init(key: "ph", value: "i"), .init(key: "s", value: "t")] + common + [.init(key: "args", value: .object(args))])))
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
