import Boardy
import BoardyGraphviz
import BoardyReplay
import BoardySimulation
import BoardyTrace
import BoardyViz
import BoardyVizCore
import BoardyVizSimulation

/// The whole pipeline on one scenario, in process: simulate → read back → stats, graph (declared
/// and observed), timeline, Chrome export, replay, check. Used by `make fuzz-cli`, by the
/// `fuzz-pipeline` and `fuzz-views` libFuzzer targets, and by the generative tests.
public enum Pipeline {
    /// Something the pipeline got wrong (a valid scenario that failed a step).
    public struct Failure: Error, CustomStringConvertible {
        /// The step and what went wrong.
        public var description: String
    }

    /// Bounds small enough for many runs a second; a generated runaway stops at them.
    public static let bounds = RunBounds(horizon: .seconds(120), maxEvents: 2_000)

    /// Runs every step on `text` (a scenario that must load) and throws the first failure.
    /// Returns the trace's JSON Lines.
    @discardableResult
    public static func run(scenarioJSON text: String, name: String = "gen.json") throws -> String {
        let s: Scenario
        do {
            s = try ScenarioLoader.load(json: text, file: name)
        } catch {
            throw Failure(description: "a generated scenario did not load: \(error)\n\(text)")
        }
        let first = Simulator.run(s, bounds: bounds)
        let jsonl = first.jsonl
        guard Simulator.run(s, bounds: bounds).jsonl == jsonl else { throw Failure(description: "two runs gave different traces\n\(text)") }
        let trace: Trace
        do {
            trace = try Trace.read(text: jsonl, name: "gen.jsonl")
        } catch {
            throw Failure(description: "a trace we wrote does not read back: \(error)\n\(text)")
        }
        guard trace.events.count == first.events.count else { throw Failure(description: "events lost reading back\n\(text)") }
        try views(trace)
        do {
            _ = try FlowGraph.render(FlowModel(scenario: s), format: .dot)
        } catch {
            throw Failure(description: "graph of the scenario: \(error)\n\(text)")
        }
        // Coverage of the scenario by its own run: its fingerprint matches, nothing is excluded.
        let coverage = Coverage(model: FlowModel(scenario: s), fingerprint: s.fingerprint, traces: [("gen.jsonl", trace)])
        guard coverage.excluded.isEmpty else { throw Failure(description: "coverage excluded the scenario's own trace\n\(text)") }
        let replay = try Replayer.replay(trace, scenario: s, traceName: "gen.jsonl", options: .init())
        guard replay.isSame else { throw Failure(description: "the replay diverged: \(replay)\n\(text)") }
        _ = StaticCheck.check(s)
        try explore(s, text)
        return jsonl
    }

    /// `explore` on the scenario, small: every failure's trace replays exactly; a scenario
    /// with nothing varying has one schedule; and where both cover everything, naive
    /// enumeration finds the same failures as the reduced search (the reduction loses none).
    static func explore(_ s: Scenario, _ text: String) throws {
        var o = Explorer.Options()
        o.maxSchedules = 300
        o.timeBudget = 5
        o.workers = 1
        o.bounds = bounds
        let r = Explorer.explore(s, options: o)
        if !s.hasVariation, r.schedules != 1 { throw Failure(description: "explore ran \(r.schedules) schedules of a scenario that declares no variation\n\(text)") }
        for f in r.failures {
            let replay = try Replayer.replay(f.trace, scenario: s, traceName: "failure.jsonl", options: .init())
            guard replay.isSame else { throw Failure(description: "explore's \(f.key) trace does not replay: \(replay)\n\(text)") }
        }
        guard r.boundHit == nil, s.hasVariation else { return }
        var naive = o
        naive.reduction = false
        naive.maxSchedules = 600
        naive.timeBudget = 3
        let n = Explorer.explore(s, options: naive)
        guard n.boundHit == nil else { return }
        // Fresh barriers are numbered in the order runs start, which differs between schedules.
        func keys(_ r: Explorer.Report) -> Set<String> {
            Set(r.failures.map { failure in
                // `#` and the digits after it become `#` (no Regex: it needs macOS 13).
                var out = ""
                var afterHash = false
                for c in failure.key {
                    if afterHash, c.isASCII, c.isNumber { continue }
                    afterHash = c == "#"
                    out.append(c)
                }
                return out
            })
        }
        guard keys(n) == keys(r) else {
            throw Failure(description: "naive enumeration found \(keys(n).sorted()), the reduced search \(keys(r).sorted())\n\(text)")
        }
    }

    /// What every command that reads a trace makes of it: stats, the observed graph, the
    /// timeline (before layout) and the Chrome export.
    public static func views(_ trace: Trace) throws {
        var stats = TraceStats()
        for e in trace.events { stats.add(e) }
        _ = stats.json.jsonText
        _ = stats.text
        do {
            _ = try FlowGraph.render(FlowModel(trace: trace), format: .dot)
            _ = try GraphvizRenderer.render(Timeline.graph(trace), engine: "nop2", format: .dot)
        } catch {
            throw Failure(description: "rendering a trace: \(error)")
        }
        _ = ChromeTraceExport.export(trace).jsonText
        // OTLP's nanoseconds hold 584 years: a later virtual time is refused, naming its event,
        // never wrapped.
        do {
            _ = try OTLPExport.export(trace, epochNanos: 0).jsonText
        } catch {
            guard let seq = error.seq, let e = trace.events.first(where: { $0.seq == seq }), e.t.microseconds > Int64(UInt64.max / 1000 / 1000) else {
                throw Failure(description: "OTLP refused a trace whose times fit: \(error)")
            }
        }
        var fleet = FleetStats()
        fleet.add(trace.events, name: "gen.jsonl")
        _ = fleet.text
        // The fast path (columns, few lines decoded) gives the same spans and statistics.
        let table: TraceTable
        do {
            table = try TraceTable.read(bytes: Array(trace.jsonl.utf8), name: "gen.jsonl", order: .lenient)
        } catch {
            throw Failure(description: "the fast path refused a trace the reader read: \(error)")
        }
        var fast = FleetStats()
        fast.add(table, name: "gen.jsonl")
        if fast.json.jsonText != fleet.json.jsonText || fast.text != fleet.text {
            throw Failure(description: "stats from the fast path differ:\n\(fast.text)\nfrom the events:\n\(fleet.text)")
        }
        let spans = TraceSpans(trace.events), fastSpans = TraceSpans(table)
        if spans.waits != fastSpans.waits || spans.runs != fastSpans.runs || spans.holds != fastSpans.holds {
            throw Failure(description: "spans from the fast path differ from the events'")
        }
        // The viewer: its embedded data holds no `<` (nothing can close its script element) and
        // reads back as JSON.
        let page: [UInt8]
        do {
            page = try TraceView.html(trace, model: FlowModel(trace: trace))
        } catch {
            throw Failure(description: "the viewer of a trace: \(error)")
        }
        // The viewer and the observed model from the table (lines in the writer's form copied
        // into the page, not decoded): the same, byte for byte.
        do {
            let observed = try FlowModel(table: table)
            guard observed == FlowModel(trace: trace) else { throw Failure(description: "the observed model from the fast path differs") }
            guard try TraceView.html(table: table, model: observed) == page else {
                throw Failure(description: "the viewer page from the fast path differs from the events'")
            }
        } catch let f as Failure {
            throw f
        } catch {
            throw Failure(description: "the viewer from the fast path: \(error)")
        }
        // The timeline from the table (few lines decoded): the same graph, whole, for
        // a window of the middle of the run, and for one board's lane.
        var timelines = [Timeline.Options()]
        if let first = trace.events.first?.t.microseconds, let last = trace.events.last?.t.microseconds {
            let third = (last - first) / 3
            timelines.append(Timeline.Options(from: TraceTime(microseconds: first + third), to: TraceTime(microseconds: last - third)))
        }
        if let board = trace.events.lazy.compactMap(\.body.board).first { timelines.append(Timeline.Options(boards: [board])) }
        for options in timelines {
            let fast: Graph
            do {
                fast = try Timeline.graph(table: table, options: options)
            } catch {
                throw Failure(description: "the timeline from the fast path: \(error)")
            }
            guard fast == Timeline.graph(trace, options: options) else {
                throw Failure(description: "the timeline from the fast path differs from the events' (\(options))")
            }
        }
        let open = Array("<script id=\"data\" type=\"application/json\">".utf8)
        func find(_ needle: [UInt8], from: Int) -> Int? {
            guard page.count >= needle.count, from <= page.count - needle.count else { return nil }
            return (from...(page.count - needle.count)).first { page[$0..<($0 + needle.count)].elementsEqual(needle) }
        }
        guard let at = find(open, from: 0), let end = find(Array("</script>".utf8), from: at + open.count) else {
            throw Failure(description: "the viewer page has no data element")
        }
        let start = at + open.count
        let data = page[start..<end]
        if data.contains(UInt8(ascii: "<")) { throw Failure(description: "the viewer's data holds a '<'") }
        if (try? JSONValue(parsing: String(decoding: data, as: UTF8.self))) == nil {
            throw Failure(description: "the viewer's data is not JSON")
        }
    }

    /// `text` with one small edit chosen by `seed`: a byte changed, removed or repeated, or a
    /// line removed, repeated or swapped with the next: the mistakes of hands and of disks.
    public static func mutate(_ text: String, seed: UInt64) -> String {
        var bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return text }
        var g = seed
        func next(_ n: Int) -> Int {
            // SplitMix64: a generator needs a seed we choose (the library's is for test inputs).
            g &+= 0x9E37_79B9_7F4A_7C15
            var z = g
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(max(n, 1)))
        }
        let at = next(bytes.count)
        switch next(6) {
        case 0: bytes[at] = UInt8(truncatingIfNeeded: next(256))
        case 1: bytes.remove(at: at)
        case 2: bytes.insert(bytes[at], at: at)
        default:
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let i = next(lines.count)
            switch next(3) {
            case 0: lines.remove(at: i)
            case 1: lines.insert(lines[i], at: i)
            default: if i + 1 < lines.count { lines.swapAt(i, i + 1) }
            }
            return lines.joined(separator: "\n")
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A mutated scenario either loads (and then goes through the pipeline's reading steps) or
    /// is refused with an error that names where.
    public static func checkMutatedScenario(_ text: String) throws {
        do {
            let s = try ScenarioLoader.load(json: text, file: "mutated.json")
            let r = Simulator.run(s, bounds: bounds)
            try views(try Trace.read(text: r.jsonl))
        } catch let e as ScenarioError {
            guard e.line != nil || !(e.path ?? "").isEmpty else { throw Failure(description: "an error with no location: \(e)\n\(text)") }
        }
    }

    /// A mutated trace either reads (and renders) or is refused naming its line.
    public static func checkMutatedTrace(_ text: String) throws {
        do {
            try views(try Trace.read(text: text, name: "mutated.jsonl", order: .lenient))
            _ = try Trace.read(text: text, name: "mutated.jsonl")
        } catch let e as TraceReadError {
            guard e.line > 0 || e.message.contains("empty") else { throw Failure(description: "an error with no line: \(e)") }
        }
    }
}
