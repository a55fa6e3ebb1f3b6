import BoardyTrace
import Histogram

/// Statistics over many traces (`boardy-viz stats` with several traces): per board and per
/// barrier, counts and wait-time percentiles (p50, p90, p99, max), failure and cancellation
/// rates, and each barrier's slowest traces.
///
/// Memory does not grow with the number of traces: waits go into HDR histograms (three
/// significant digits, a few KB each, whatever the number of samples) and only the few slowest
/// traces per barrier are kept. Partial statistics from different threads merge (``merge(_:)``).
public struct FleetStats: Sendable {
    /// One board, over every trace.
    public struct Board: Sendable {
        /// Activations requested and performed.
        public var requested = 0, performed = 0
        /// Activations cancelled, by reason (`busy`, `barrier-failed`, …).
        public var cancelled: [String: Int] = [:]
        /// How long its activations waited on barriers (µs).
        public var waits = Histogram<UInt64>(numberOfSignificantValueDigits: .three)
        /// Traces it was requested in.
        public var traces = 0
    }

    /// One barrier (its identifier, or the gateway's gate), over every trace.
    public struct Barrier: Sendable {
        /// Waits on it, and how they ended.
        public var waits = 0, passed = 0, failed = 0, loops = 0, stuck = 0
        /// How long the waits lasted (µs; stuck waits to the end of their trace).
        public var durations = Histogram<UInt64>(numberOfSignificantValueDigits: .three)
        /// The slowest waits: (µs, trace), longest first.
        public var slowest: [(micros: Int64, trace: String)] = []
    }

    /// How many of the slowest traces each barrier keeps.
    public static let slowestKept = 3

    /// Traces read, and their events.
    public var traces = 0, events = 0
    /// Traces with a barrier loop, or something stuck.
    public var tracesWithLoops = 0, tracesStuck = 0
    /// Per board (`mb/board`; what a gateway run's gate does counts for the gate).
    public var boards: [String: Board] = [:]
    /// Per barrier.
    public var barriers: [String: Barrier] = [:]

    /// Empty statistics.
    public init() {}

    /// Adds one trace (its events in order).
    public mutating func add(_ events: [TraceEvent], name: String) {
        traces += 1
        self.events += events.count
        var seen = Set<String>()
        var loop = false, stuck = false
        // Only activations are counted per board: the other events need no board key (building
        // and hashing one for each of millions of events was most of the time).
        for e in events {
            switch e.body {
            case .activationRequested(let b, _, _):
                let key = Self.boardKey(e.mb, b)
                if seen.insert(key).inserted { boards[key, default: Board()].traces += 1 }
                boards[key, default: Board()].requested += 1
            case .activationPerformed(let b, _): boards[Self.boardKey(e.mb, b), default: Board()].performed += 1
            case .activationCancelled(let b, let reason): boards[Self.boardKey(e.mb, b), default: Board()].cancelled[reason.rawValue, default: 0] += 1
            case .barrierLoop: loop = true
            case .stuckBarrier, .stuckDispatcher: stuck = true
            default: break
            }
        }
        if loop { tracesWithLoops += 1 }
        if stuck { tracesStuck += 1 }
        addWaits(TraceSpans(events), end: events.last?.t.microseconds ?? 0, time: { events[$0].t.microseconds }, name: name)
    }

    /// Adds one trace read with the fast path: counts from the columns (by interned numbers,
    /// each board's key made once per trace), and only the lines of cancellations and barrier
    /// waits decoded. The same statistics as ``add(_:name:)`` on the trace's events.
    public mutating func add(_ table: TraceTable, name: String) {
        traces += 1
        events += table.count
        struct Counts {
            var requested = 0, performed = 0
            var cancelled: [String: Int] = [:]
        }
        var counts: [Int64: Counts] = [:]
        var loop = false, stuck = false
        let requested = TraceTable.id(of: .activationRequested), performed = TraceTable.id(of: .activationPerformed)
        let cancelled = TraceTable.id(of: .activationCancelled), loopKind = TraceTable.id(of: .barrierLoop)
        let stuckKind = TraceTable.id(of: .stuck)
        for i in 0..<table.count {
            let k = table.kinds[i]
            guard (k == requested || k == performed || k == cancelled) && table.boards[i] >= 0 else {
                if k == loopKind { loop = true }
                if k == stuckKind { stuck = true }
                continue
            }
            let key = Int64(table.mbs[i]) << 32 | Int64(UInt32(bitPattern: table.boards[i]))
            if k == requested {
                counts[key, default: Counts()].requested += 1
            } else if k == performed {
                counts[key, default: Counts()].performed += 1
            } else if let e = try? table.event(at: i), case .activationCancelled(_, let reason) = e.body {
                counts[key, default: Counts()].cancelled[reason.rawValue, default: 0] += 1
            }
        }
        var seen = Set<String>()
        // In order of the numbers (first seen): the result does not depend on hashing.
        for (key, c) in counts.sorted(by: { $0.key < $1.key }) {
            let mb = table.strings[Int32(truncatingIfNeeded: key >> 32)]
            let board = table.strings[Int32(truncatingIfNeeded: key & 0xFFFF_FFFF)]
            let k = Self.boardKey(mb, board)
            var b = boards.removeValue(forKey: k) ?? Board()
            if c.requested > 0, seen.insert(k).inserted { b.traces += 1 }
            b.requested += c.requested
            b.performed += c.performed
            for (reason, n) in c.cancelled { b.cancelled[reason, default: 0] += n }
            boards[k] = b
        }
        if loop { tracesWithLoops += 1 }
        if stuck { tracesStuck += 1 }
        addWaits(TraceSpans(table), end: table.times.last?.microseconds ?? 0, time: { table.times[$0].microseconds }, name: name)
    }

    /// A board's key across traces: its motherboard path, gateway runs folded, and its id.
    private static func boardKey(_ mb: String, _ b: String) -> String {
        (mb.utf8.contains(47) ? FlowModel.foldingGatewayRuns(mb) : mb) + "/" + b
    }

    private mutating func addWaits(_ spans: TraceSpans, end: Int64, time: (Int) -> Int64, name: String) {
        for w in spans.waits {
            let micros = max(0, (w.end.map(time) ?? end) - time(w.start))
            _ = boards[Self.boardKey(w.mb, w.board), default: Board()].waits.record(UInt64(micros))
            let barrierKey = w.gateway ? "gateway (\(w.barrier))" : w.barrier
            // Taken out and put back: a copy left in the dictionary would make the histogram's
            // storage copied on every write (copy-on-write).
            var s = barriers.removeValue(forKey: barrierKey) ?? Barrier()
            s.waits += 1
            switch w.outcome {
            case .passed: s.passed += 1
            case .failed: s.failed += 1
            case .loop: s.loops += 1
            case .stuck: s.stuck += 1
            }
            _ = s.durations.record(UInt64(micros))
            Self.keepSlowest(&s.slowest, (Int64(micros), name))
            barriers[barrierKey] = s
        }
    }

    /// Keeps the slowest few, one entry per trace (its longest wait), longest first, ties by name.
    package static func keepSlowest(_ list: inout [(micros: Int64, trace: String)], _ entry: (micros: Int64, trace: String)) {
        if let i = list.firstIndex(where: { $0.trace == entry.trace }) {
            guard entry.micros > list[i].micros else { return }
            list.remove(at: i)
        }
        list.append(entry)
        list.sort { $0.micros != $1.micros ? $0.micros > $1.micros : $0.trace < $1.trace }
        if list.count > slowestKept { list.removeLast(list.count - slowestKept) }
    }

    /// Adds the statistics of other traces.
    public mutating func merge(_ other: FleetStats) {
        traces += other.traces
        events += other.events
        tracesWithLoops += other.tracesWithLoops
        tracesStuck += other.tracesStuck
        for (k, b) in other.boards {
            var mine = boards[k, default: Board()]
            mine.requested += b.requested
            mine.performed += b.performed
            mine.traces += b.traces
            for (r, n) in b.cancelled { mine.cancelled[r, default: 0] += n }
            mine.waits.add(b.waits)
            boards[k] = mine
        }
        for (k, b) in other.barriers {
            var mine = barriers[k, default: Barrier()]
            mine.waits += b.waits
            mine.passed += b.passed
            mine.failed += b.failed
            mine.loops += b.loops
            mine.stuck += b.stuck
            mine.durations.add(b.durations)
            for s in b.slowest { Self.keepSlowest(&mine.slowest, s) }
            barriers[k] = mine
        }
    }

    /// p50, p90, p99 and max of a histogram, as virtual times.
    static func percentiles(_ h: Histogram<UInt64>) -> [(String, TraceTime)] {
        // The histogram keeps three significant digits and answers with the top of a bucket
        // (1 s reads 1.000447 s): shown to those three digits. The max is exact.
        func significant(_ v: UInt64) -> Int64 {
            guard v >= 1000 else { return Int64(v) }
            var scale: UInt64 = 1
            while v / scale >= 1000 { scale *= 10 }
            return Int64((v + scale / 2) / scale * scale)
        }
        return [("p50", 50.0), ("p90", 90.0), ("p99", 99.0)].map { ($0.0, TraceTime(microseconds: significant(h.valueAtPercentile($0.1)))) }
            + [("max", TraceTime(microseconds: Int64(h.maxRecorded)))]
    }

    static func rate(_ n: Int, _ of: Int) -> String {
        guard of > 0 else { return "0%" }
        let p = (Double(n) * 1000 / Double(of)).rounded() / 10
        return (p == p.rounded() ? String(Int(p)) : String(p)) + "%"
    }

    /// The report for people; keys sorted, so the same traces give the same text.
    public var text: String {
        var lines = ["traces: \(traces), events: \(events); with a barrier loop: \(tracesWithLoops), with something stuck: \(tracesStuck)"]
        if !barriers.isEmpty {
            lines.append("barriers (waits; wait time p50 / p90 / p99 / max; failed, loop, stuck):")
            for k in barriers.keys.sorted() {
                guard let b = barriers[k] else { continue }
                let p = Self.percentiles(b.durations).map { "\($0.1)s" }.joined(separator: " / ")
                lines.append("  \(k): \(b.waits) waits; \(p); failed \(Self.rate(b.failed, b.waits)), loop \(Self.rate(b.loops, b.waits)), stuck \(Self.rate(b.stuck, b.waits))")
                lines.append("    slowest: " + b.slowest.map { "\($0.trace) (\(TraceTime(microseconds: $0.micros))s)" }.joined(separator: ", "))
            }
        }
        lines.append("boards (traces; requested, performed, cancelled; waited p50 / p90 / p99 / max):")
        for k in boards.keys.sorted() {
            guard let b = boards[k] else { continue }
            let cancelled = b.cancelled.values.reduce(0, +)
            var line = "  \(k): \(b.traces) traces; \(b.requested) requested, \(b.performed) performed, \(cancelled) cancelled (\(Self.rate(cancelled, b.requested)))"
            if b.waits.totalCount > 0 { line += "; waited " + Self.percentiles(b.waits).map { "\($0.1)s" }.joined(separator: " / ") }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// The report as JSON (keys sorted).
    public var json: JSONValue {
        func times(_ h: Histogram<UInt64>) -> JSONValue {
            .object(JSONObject(Self.percentiles(h).map { JSONMember(key: $0.0, value: $0.1.jsonValue) }))
        }
        var bs = JSONObject()
        for k in barriers.keys.sorted() {
            guard let b = barriers[k] else { continue }
            bs[k] = [
                "waits": .int(Int64(b.waits)), "passed": .int(Int64(b.passed)), "failed": .int(Int64(b.failed)), "loops": .int(Int64(b.loops)),
                "stuck": .int(Int64(b.stuck)), "waitTime": times(b.durations),
                "slowest": .array(b.slowest.map { ["trace": .string($0.trace), "wait": TraceTime(microseconds: $0.micros).jsonValue] }),
            ]
        }
        var bo = JSONObject()
        for k in boards.keys.sorted() {
            guard let b = boards[k] else { continue }
            var o: JSONObject = [
                "traces": .int(Int64(b.traces)), "requested": .int(Int64(b.requested)), "performed": .int(Int64(b.performed)),
                "cancelled": .object(JSONObject(b.cancelled.keys.sorted().map { JSONMember(key: $0, value: .int(Int64(b.cancelled[$0] ?? 0))) })),
            ]
            if b.waits.totalCount > 0 { o["waitTime"] = times(b.waits) }
            bo[k] = .object(o)
        }
        return [
            "traces": .int(Int64(traces)), "events": .int(Int64(events)), "tracesWithLoops": .int(Int64(tracesWithLoops)),
            "tracesStuck": .int(Int64(tracesStuck)), "barriers": .object(bs), "boards": .object(bo),
        ]
    }
}

#if canImport(Foundation)
    import BoardyLock
    import Dispatch
    import Foundation

    extension FleetStats {
        /// A trace that could not be read, and why (file and line).
        public struct Skipped: Sendable {
            /// The file.
            public var path: String
            /// What was wrong, with its location.
            public var error: String
        }

        /// The statistics of the trace files at `paths`, read on every core (a file at a time
        /// per core, so memory is bounded by the largest trace, not by how many there are). A
        /// file that is not a trace is skipped and returned with its error; the order of the
        /// paths, not the threads' timing, decides every result.
        public static func read(_ paths: [String]) -> (stats: FleetStats, skipped: [Skipped], warnings: [String]) {
            struct Work {
                var skipped: [(Int, Skipped)] = []
                var warnings: [(Int, String)] = []
            }
            let work = LockedValue(Work())
            let workers = WorkerThreads.count(for: paths.count)
            let partials = LockedValue([FleetStats](repeating: FleetStats(), count: workers))
            WorkerThreads.run(items: paths.count, workers: workers) { w, next in
                var mine = FleetStats()
                while let i = next() {
                    do {
                        let t = try TraceTable.read(path: paths[i])
                        mine.add(t, name: paths[i])
                        if !t.warnings.isEmpty { work.withLockedValue { $0.warnings += t.warnings.map { (i, $0.description) } } }
                    } catch {
                        work.withLockedValue { $0.skipped.append((i, Skipped(path: paths[i], error: "\(error)"))) }
                    }
                }
                partials.withLockedValue { $0[w] = mine }
            }
            var total = FleetStats()
            for p in partials.withLockedValue({ $0 }) { total.merge(p) }
            let (skipped, warnings) = work.withLockedValue { w in
                (w.skipped.sorted { $0.0 < $1.0 }.map(\.1), w.warnings.sorted { $0.0 < $1.0 }.map(\.1))
            }
            return (total, skipped, warnings)
        }
    }
#endif
