import BoardyTrace

/// Counts and barrier wait times of a trace (`boardy-viz stats`).
public struct TraceStats: Sendable {
    /// Events per kind, by kind name.
    public var byKind: [String: Int] = [:]
    /// Events per board (`mb/board`).
    public var byBoard: [String: Int] = [:]
    /// Events sent per dispatcher.
    public var sentByDispatcher: [String: Int] = [:]
    /// How long each barrier run waited (from `barrier.started` to `barrier.resolved`), in
    /// microseconds, per barrier.
    public var waits: [String: [Int64]] = [:]
    /// `barrier.loop` events.
    public var loops = 0
    /// `stuck` events.
    public var stuck = 0
    /// All events.
    public var events = 0
    /// Each stuck barrier, in a sentence (`TraceEvent.stuckSentence` in BoardyTrace).
    public var stuckBarriers: [String] = []
    /// The trace's clock (from its header): wait times are seconds on it, or records when the
    /// trace was ingested from a log without times.
    public var clock: TraceHeader.Clock = .virtual

    private var open: [String: [TraceTime]] = [:]

    /// Empty statistics; feed events with ``add(_:)`` (a trace streams through in bounded memory).
    public init() {}

    /// Statistics of `events`.
    public init(_ events: [TraceEvent]) {
        for e in events { add(e) }
    }

    /// Counts one event.
    public mutating func add(_ e: TraceEvent) {
        events += 1
        byKind[e.kind, default: 0] += 1
        if let b = e.body.board { byBoard["\(e.mb)/\(b)", default: 0] += 1 }
        switch e.body {
        case let .dispatchSent(d, n, _): sentByDispatcher[d, default: 0] += n
        case let .barrierStarted(barrier, _): open["\(e.mb)|\(barrier)", default: []].append(e.t)
        case let .barrierResolved(barrier, _, _):
            let key = "\(e.mb)|\(barrier)"
            if var starts = open[key], !starts.isEmpty {
                let start = starts.removeFirst()
                open[key] = starts
                waits[barrier, default: []].append((e.t - start).microseconds)
            }
        case .barrierLoop: loops += 1
        case .stuckBarrier:
            stuck += 1
            if let s = e.stuckSentence { stuckBarriers.append(s) }
        case .stuckDispatcher: stuck += 1
        default: break
        }
    }

    /// min / median / max of a barrier's waits, in seconds.
    public static func summary(_ waits: [Int64]) -> (min: TraceTime, median: TraceTime, max: TraceTime)? {
        guard !waits.isEmpty else { return nil }
        let s = waits.sorted()
        let median = s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
        return (TraceTime(microseconds: s[0]), TraceTime(microseconds: median), TraceTime(microseconds: s[s.count - 1]))
    }

    /// The statistics as JSON (keys sorted for stable output).
    public var json: JSONValue {
        func sorted(_ d: [String: Int]) -> JSONValue { .object(JSONObject(d.keys.sorted().map { JSONMember(key: $0, value: .int(Int64(d[$0]!))) })) }
        var w = JSONObject()
        for b in waits.keys.sorted() {
            if let (mn, md, mx) = Self.summary(waits[b]!) {
                w[b] = ["runs": .int(Int64(waits[b]!.count)), "min": mn.jsonValue, "median": md.jsonValue, "max": mx.jsonValue]
            }
        }
        return [
            "events": .int(Int64(events)), "byKind": sorted(byKind), "byBoard": sorted(byBoard), "sentByDispatcher": sorted(sentByDispatcher),
            "barrierWaits": .object(w), "loops": .int(Int64(loops)), "stuck": .int(Int64(stuck)),
            "stuckBarriers": .array(stuckBarriers.map { .string($0) }), "clock": .string(clock.rawValue),
        ]
    }

    /// The statistics as text.
    public var text: String {
        var lines = ["events: \(events)", "loops: \(loops)", "stuck: \(stuck)"]
        for s in stuckBarriers { lines.append("  " + s) }
        lines += ["", "by kind:"]
        for k in byKind.keys.sorted() { lines.append("  \(k): \(byKind[k]!)") }
        lines.append("by board:")
        for k in byBoard.keys.sorted() { lines.append("  \(k): \(byBoard[k]!)") }
        if !sentByDispatcher.isEmpty {
            lines.append("sent by dispatcher:")
            for k in sentByDispatcher.keys.sorted() { lines.append("  \(k): \(sentByDispatcher[k]!)") }
        }
        if !waits.isEmpty {
            let unit: String
            switch clock {
            case .virtual: unit = "virtual seconds"
            case .live: unit = "seconds"
            case .order: unit = "records of the log, not seconds"
            }
            lines.append("barrier waits (\(unit)): runs, min / median / max")
            for b in waits.keys.sorted() {
                if let (mn, md, mx) = Self.summary(waits[b]!) { lines.append("  \(b): \(waits[b]!.count), \(mn) / \(md) / \(mx)") }
            }
        }
        return lines.joined(separator: "\n")
    }
}
