import BoardyGraphviz
import BoardyTrace
import BoardyVizCore

/// A trace drawn on its time axis: a lane per board (grouped by motherboard) and per dispatcher,
/// events as marks, spans for barrier waits (to what ended them), runs (queued behind an earlier
/// run where they overlap) and dispatchers holding events, labelled stimuli, causal arrows between
/// lanes, failures in vermillion; a legend of exactly the encodings drawn.
///
/// The layout is ours and pinned (every node has a `pos`; Graphviz's `nop2` engine only draws
/// it), so the cost grows linearly with the events. x is time, on one scale, with evenly spaced
/// ticks; a long idle stretch is cut and drawn as a labelled break. Events at one instant stack
/// in a narrow band from that instant's x, in `seq` order per lane, marked under the axis.
public struct Timeline {
    /// What to draw.
    public struct Options: Sendable {
        /// Only events at or after this time.
        public var from: TraceTime?
        /// Only events at or before this time.
        public var to: TraceTime?
        /// Only these boards' lanes (ids, or `path/id` inside continuous boards); empty: all.
        public var boards: Set<String>
        /// Draw causal arrows between lanes.
        public var causes: Bool

        /// Everything.
        public init(from: TraceTime? = nil, to: TraceTime? = nil, boards: Set<String> = [], causes: Bool = true) {
            self.from = from
            self.to = to
            self.boards = boards
            self.causes = causes
        }
    }

    /// One lane (laid out by ``LaneLayout``).
    typealias Lane = LaneLayout.Lane

    static let step = 12.0
    static let rowGap = 36.0
    static let laneLabelX = -24.0
    /// The widest a band of same-instant events may be.
    static let maxBand = 36.0
    /// A gap between instants drawn wider than this is a break.
    static let breakAbove = 480.0
    /// How wide a break is drawn.
    static let breakWidth = 56.0

    /// An invisible point at (x, y): the end of a line.
    static func point(_ name: String, _ x: Double, _ y: Double) -> Node {
        Node(name, attributes: ["label": "", "shape": "point", "width": "0.01", "height": "0.01", "pos": "\(x),\(y)"])
    }

    /// The time axis: each instant's x, the bands, the breaks and the ticks. x is time: one scale
    /// (points per second) throughout, except across a long idle stretch, which is drawn as an
    /// explicit break of fixed width. Events at one instant stack in a narrow band starting at
    /// that instant's x.
    struct Axis {
        /// Instants (microseconds), ascending, and their x.
        var instants: [Int64] = []
        var xs: [Double] = []
        /// Per instant: the band's width (how far same-instant events may spread).
        var bands: [Double] = []
        /// Points per second.
        var scale = 60.0
        /// Breaks: after instant i (x from, x to, idle seconds).
        var breaks: [(after: Int, from: Double, to: Double, idle: Int64)] = []
        /// Ticks: (x, label).
        var ticks: [(x: Double, t: Int64)] = []
        var endX = 0.0

        init(_ times: [Int64]) {
            instants = Array(Set(times)).sorted()
            guard !instants.isEmpty else { return }
            let gaps = zip(instants.dropFirst(), instants).map { $0 - $1 }
            // The scale: the closest instants at least 48 pt apart, within 40 to 4,000 pt/s.
            if let minGap = gaps.min(), minGap > 0 {
                scale = min(4_000, max(40, 48 / (Double(minGap) / 1_000_000)))
            }
            // A short trace spreads over at least 520 pt (where no gap would be cut).
            if let first = instants.first, let last = instants.last, last > first {
                let span = Double(last - first) / 1_000_000
                let widest = Double(gaps.max() ?? 0) / 1_000_000
                if span * scale < 520 { scale = max(scale, min(4_000, 520 / span, Timeline.breakAbove / widest)) }
            }
            xs = [0]
            func r(_ v: Double) -> Double { (v * 2).rounded() / 2 }
            for (i, g) in gaps.enumerated() {
                let w = Double(g) / 1_000_000 * scale
                if w > Timeline.breakAbove {
                    breaks.append((i, xs[i] + Timeline.maxBand + 8, xs[i] + Timeline.maxBand + 8 + Timeline.breakWidth, g))
                    xs.append(r(xs[i] + Timeline.maxBand + 16 + Timeline.breakWidth))
                } else {
                    xs.append(r(xs[i] + w))
                }
            }
            bands = instants.indices.map { i in
                i + 1 < xs.count ? min(Timeline.maxBand, max(0, (xs[i + 1] - xs[i]) * 0.4)) : Timeline.maxBand
            }
            endX = (xs.last ?? 0) + Timeline.maxBand + 24
            // Ticks: a round step (1, 2 or 5 × 10^k µs) at least 56 pt apart, within each stretch
            // between breaks; each stretch's first instant is ticked too.
            let minStep = 56 / scale * 1_000_000
            var step: Int64 = 1
            while Double(step) < minStep {
                let m = step
                if Double(2 * m) >= minStep { step = 2 * m } else if Double(5 * m) >= minStep { step = 5 * m } else { step = 10 * m }
            }
            var segmentStart = 0
            let ends = breaks.map(\.after) + [instants.count - 1]
            for end in ends {
                let t0 = instants[segmentStart], t1 = instants[end]
                let x0 = xs[segmentStart]
                ticks.append((x0, t0))
                var t = (t0 / step + 1) * step
                while t <= t1 + (end == instants.count - 1 ? step : 0) {
                    let x = ((x0 + Double(t - t0) / 1_000_000 * scale) * 100).rounded() / 100
                    if x - (ticks.last?.x ?? -.infinity) >= 40, end != instants.count - 1 || x <= endX { ticks.append((x, t)) }
                    t += step
                }
                segmentStart = end + 1
            }
        }

        /// The x of instant `t` (an instant of the trace).
        func x(_ t: Int64) -> Double {
            var lo = 0, hi = instants.count - 1
            while lo < hi {
                let mid = (lo + hi) / 2
                if instants[mid] < t { lo = mid + 1 } else { hi = mid }
            }
            return xs.isEmpty ? 0 : xs[lo]
        }

        func index(_ t: Int64) -> Int {
            var lo = 0, hi = instants.count - 1
            while lo < hi {
                let mid = (lo + hi) / 2
                if instants[mid] < t { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }
    }

    /// The timeline of `trace` as a graph to render with the `nop2` engine.
    public static func graph(_ trace: Trace, options: Options = Options()) -> Graph {
        TimelineDrawing(EventsSource(trace: trace), options: options).draw()
    }

    /// The timeline of a trace read as a table, the same graph as of its events: the window, the
    /// axis and the lanes of kinds drawn on their board's lane come from the columns. Lines are
    /// decoded for the events drawn, for the lanes of other kinds in the window, for gates
    /// (`barrier.started`), and for the checks, resolutions, cancellations and holds that make
    /// spans: outside a window, little of a large trace.
    public static func graph(table: TraceTable, options: Options = Options()) throws(TraceReadError) -> Graph {
        try TimelineDrawing(TableSource(table: table), options: options).draw()
    }

    /// A choice in a few words: what was taken (`after 3`, `at 2`, `complete: false`).
    static func choiceLabel(_ fields: JSONObject) -> String {
        let point = fields["point"]?.stringValue ?? ""
        let value = fields["value"].map(FlowModel.describe) ?? "?"
        for what in ["after", "at", "complete"] where point.hasSuffix("." + what) {
            return what == "complete" ? "complete: \(value)" : "\(what) \(value)"
        }
        return "choice: \(value)"
    }

    /// A stimulus in a few words: `network: cellular`, `flush`, `track: purchase`, `activate`.
    static func stimulusLabel(_ action: String, _ fields: JSONObject) -> String {
        switch StimulusAction(rawValue: action) {
        case .network: return "network: " + (fields["network"].map(FlowModel.describe) ?? "?")
        case .track: return "track: " + (fields["event"].map(FlowModel.describe) ?? "?")
        case .complete: return "complete: " + (fields["with"].map(FlowModel.describe) ?? fields["success"].map(FlowModel.describe) ?? "")
        default: return action
        }
    }

    /// Renders the timeline of `trace` (`dot`: the graph before layout, with pinned positions).
    public static func render(_ trace: Trace, format: RenderFormat, options: Options = Options()) throws(GraphvizError) -> [UInt8] {
        try GraphvizRenderer.render(graph(trace, options: options), engine: "nop2", format: format)
    }

    // MARK: Lanes and marks

    static func isFailure(_ e: TraceEvent) -> Bool {
        switch e.body {
        case .activationCancelled, .barrierLoop, .stuckBarrier: return true
        case .barrierResolved(_, let passed, _): return !passed
        default: return false
        }
    }

    /// Every encoding a timeline uses, defined once: marks, spans and lines in the picture and
    /// their samples in the legend take their attributes from here. Colours from the Okabe–Ito
    /// palette (told apart with colour-blindness too), and shapes differ where colours are close.
    enum Mark: Int, CaseIterable, Hashable {
        case stimulus, requested, performed, cancelled, gatewayWait, gatewayPass, barrierWait, barrierPass, gateStarted
        case resolvedPassed, resolvedFailed, loop, output, routed, command, completed, failedCompletion
        case queued, blocked, sent, flushSent, dispatchOpen, dispatchClosed, stuck, choice, other
        case waitPassed, waitFailed, waitLoop, waitStuck, running, queuedRun, held, heldToEnd
        case cause, failureCause, instantBand, axisBreak

        var attributes: Attributes {
            switch self {
            case .stimulus: return ["shape": "star", "fillcolor": "#cc79a7", "width": "0.22", "height": "0.22"]
            case .requested: return ["fillcolor": "#ffffff"]
            case .performed: return ["fillcolor": "#009e73"]
            case .cancelled: return ["shape": "Msquare", "fillcolor": "#d55e00", "color": "#d55e00"]
            case .gatewayWait: return ["shape": "square", "fillcolor": "#0072b2"]
            case .gatewayPass: return ["shape": "square", "fillcolor": "#cfe3f1"]
            case .barrierWait: return ["shape": "diamond", "fillcolor": "#e69f00", "width": "0.2", "height": "0.2"]
            case .barrierPass: return ["shape": "diamond", "fillcolor": "#f6dfa8", "width": "0.2", "height": "0.2"]
            case .gateStarted: return ["shape": "invtriangle", "fillcolor": "#f0e442"]
            case .resolvedPassed: return ["shape": "triangle", "fillcolor": "#009e73"]
            case .resolvedFailed: return ["shape": "triangle", "fillcolor": "#d55e00"]
            case .loop: return ["shape": "doubleoctagon", "fillcolor": "#d55e00", "width": "0.24", "height": "0.24"]
            case .output: return ["shape": "diamond", "fillcolor": "#333333"]
            case .routed: return ["shape": "triangle", "orientation": "-90", "fillcolor": "#bbbbbb"]  // pointing right; rarrow costs a corner pass per mark
            case .command: return ["shape": "house", "fillcolor": "#56b4e9"]
            case .completed: return ["shape": "doublecircle", "fillcolor": "#7f7f7f"]
            case .failedCompletion: return ["shape": "doublecircle", "fillcolor": "#d55e00"]
            case .queued: return ["shape": "box", "fillcolor": "#dddddd"]
            case .blocked: return ["shape": "invtrapezium", "fillcolor": "#cc79a7"]
            case .sent: return ["shape": "box", "fillcolor": "#009e73"]
            case .flushSent: return ["shape": "box", "fillcolor": "#f0e442", "peripheries": "2"]
            case .dispatchOpen: return ["shape": "hexagon", "fillcolor": "#c7e9c0"]
            case .dispatchClosed: return ["shape": "hexagon", "fillcolor": "#d55e00"]
            case .stuck: return ["shape": "octagon", "fillcolor": "#d55e00", "width": "0.22", "height": "0.22"]
            case .choice: return ["shape": "Mdiamond", "fillcolor": "#56b4e9", "width": "0.2", "height": "0.2"]
            case .other: return ["fillcolor": "#eeeeee", "style": "filled,dashed"]
            case .waitPassed: return ["shape": "box", "style": "filled", "height": "0.1", "color": "#009e7366", "fillcolor": "#009e7366"]
            case .waitFailed: return ["shape": "box", "style": "filled", "height": "0.1", "color": "#d55e0088", "fillcolor": "#d55e0066"]
            case .waitLoop: return ["shape": "box", "style": "filled", "height": "0.1", "color": "#d55e00", "fillcolor": "#d55e00aa"]
            case .waitStuck: return ["shape": "box", "style": "filled,dashed", "height": "0.1", "color": "#d55e00", "fillcolor": "#d55e0033"]
            case .running: return ["shape": "box", "style": "filled", "height": "0.05", "color": "#555555", "fillcolor": "#555555"]
            case .queuedRun: return ["shape": "box", "style": "dotted", "height": "0.05", "color": "#555555"]
            case .held: return ["shape": "box", "style": "filled", "height": "0.1", "color": "#cc79a799", "fillcolor": "#cc79a766"]
            case .heldToEnd: return ["shape": "box", "style": "filled,dashed", "height": "0.1", "color": "#cc79a7", "fillcolor": "#cc79a733"]
            case .cause: return [:]
            case .failureCause: return ["color": "#d55e00"]
            case .instantBand: return ["shape": "box", "style": "filled", "height": "0.04", "color": "#777777", "fillcolor": "#777777", "label": ""]
            case .axisBreak: return ["shape": "plaintext", "style": "", "fontsize": "9"]
            }
        }

        /// Lines (drawn as edges between two points in the legend).
        var isLine: Bool { self == .cause || self == .failureCause }

        var text: String {
            switch self {
            case .stimulus: return "stimulus (labelled)"
            case .requested: return "requested"
            case .performed: return "performed"
            case .cancelled: return "cancelled"
            case .gatewayWait: return "gateway: wait"
            case .gatewayPass: return "gateway: pass / exempt"
            case .barrierWait: return "barrier: wait"
            case .barrierPass: return "barrier: pass"
            case .gateStarted: return "gate started"
            case .resolvedPassed: return "barrier passed"
            case .resolvedFailed: return "barrier failed"
            case .loop: return "barrier loop"
            case .output: return "output"
            case .routed: return "flow routed"
            case .command: return "command"
            case .completed: return "completed"
            case .failedCompletion: return "completed (failure)"
            case .queued: return "dispatch queued"
            case .blocked: return "dispatch blocked"
            case .sent: return "dispatch sent"
            case .flushSent: return "sent by a flush"
            case .dispatchOpen: return "dispatch barrier open"
            case .dispatchClosed: return "dispatch barrier closed"
            case .stuck: return "stuck at the end"
            case .choice: return "choice (explored schedule)"
            case .other: return "other / unknown"
            case .waitPassed: return "waiting, then passed"
            case .waitFailed: return "waiting, then failed"
            case .waitLoop: return "waiting, cancelled (loop)"
            case .waitStuck: return "waiting to the end"
            case .running: return "running"
            case .queuedRun: return "queued behind an earlier run"
            case .held: return "dispatcher holding"
            case .heldToEnd: return "holding to the end"
            case .cause: return "cause"
            case .failureCause: return "cause of a failure"
            case .instantBand: return "same instant, in order"
            case .axisBreak: return "idle stretch cut"
            }
        }
    }

    /// `mark`'s attributes laid over `base`.
    /// Which marks a picture uses: a flag per mark (set for each of 100k events; a Set hashed).
    struct Marks {
        var flags = [Bool](repeating: false, count: Mark.allCases.count)
        mutating func insert(_ m: Mark) { flags[m.rawValue] = true }
        func contains(_ m: Mark) -> Bool { flags[m.rawValue] }
    }

    static func apply(_ mark: Mark, to base: inout Attributes, used: inout Marks) {
        for (k, v) in mark.attributes { base[k] = v }
        used.insert(mark)
    }

    /// The marks that depend on an event's kind alone: ``mark(_:)`` gives these for every event
    /// of the kind, whatever its fields (the viewer marks such a line without decoding it).
    static let marksByKind: [EventKind: Mark] = [
        .activationRequested: .requested, .activationPerformed: .performed, .activationCancelled: .cancelled,
        .barrierStarted: .gateStarted, .barrierLoop: .loop, .outputSent: .output, .flowRouted: .routed, .commandSent: .command,
    ]

    /// The mark of an event.
    static func mark(_ e: TraceEvent) -> Mark {
        switch e.body {
        case .stimulus: return .stimulus
        case .activationRequested: return .requested
        case .activationPerformed: return .performed
        case .activationCancelled: return .cancelled
        case .gatewayChecked(_, _, let r): return r == .wait ? .gatewayWait : .gatewayPass
        case .barrierChecked(_, _, _, let r): return r == .wait ? .barrierWait : .barrierPass
        case .barrierStarted: return .gateStarted
        case .barrierResolved(_, let passed, _): return passed ? .resolvedPassed : .resolvedFailed
        case .barrierLoop: return .loop
        case .outputSent: return .output
        case .flowRouted: return .routed
        case .commandSent: return .command
        case .boardCompleted(_, let ok): return ok == false ? .failedCompletion : .completed
        case .dispatchQueued: return .queued
        case .dispatchBlocked: return .blocked
        case .dispatchSent(_, _, let flush): return flush ? .flushSent : .sent
        case .dispatchBarrier(_, _, let state, _): return state == "open" ? .dispatchOpen : .dispatchClosed
        case .stuckBarrier, .stuckDispatcher: return .stuck
        case .choice: return .choice
        case .unknown, .dispatchDropped, .runaway: return .other
        }
    }

    /// The legend: exactly the marks drawn, packed in rows as wide as the timeline, above it.
    static func legend(_ marks: [Mark], into g: inout Graph, at origin: (x: Double, y: Double), width: Double) {
        guard !marks.isEmpty else { return }
        let rowHeight = 16.0, sample = 24.0
        // Helvetica at 8 pt: under 4.4 pt a character on average.
        func textWidth(_ m: Mark) -> Double { Double(m.text.count) * 4.4 + 6 }
        var rows: [[Int]] = [[]]
        var used = 0.0
        for (i, m) in marks.enumerated() {
            let w = sample + textWidth(m) + 8
            if used + w > width, !(rows.last ?? []).isEmpty {
                rows.append([])
                used = 0
            }
            rows[rows.count - 1].append(i)
            used += w
        }
        var sub = Subgraph(name: "cluster_legend", attributes: ["label": "", "style": "rounded", "color": "#cccccc", "id": "legend"])
        var unused = Marks()
        var maxX = origin.x
        for (r, row) in rows.enumerated() {
            var x = origin.x + 8
            let py = origin.y + 6 + Double(rows.count - 1 - r) * rowHeight + rowHeight / 2
            for i in row {
                let m = marks[i]
                let px = x + sample / 2
                if m.isLine {
                    // No `pos`: an edge attribute is declared for every edge of the graph.
                    var a: Attributes = ["id": "legend-\(i + 1)"]
                    apply(m, to: &a, used: &unused)
                    sub.nodes.append(point("lga:\(i)", px - 12, py))
                    sub.nodes.append(point("lgb:\(i)", px + 12, py))
                    g.edges.append(Edge(from: "lga:\(i)", to: "lgb:\(i)", attributes: a))
                } else {
                    var a: Attributes = ["id": "legend-\(i + 1)", "label": "", "pos": "\(px),\(py)"]
                    apply(m, to: &a, used: &unused)
                    let isSpan = m.rawValue >= Mark.waitPassed.rawValue && m != .axisBreak
                    if isSpan {
                        a["width"] = "0.33"  // a span's sample
                    } else {
                        // Samples a little smaller than the marks, so rows stay thin.
                        for k in ["width", "height"] { a[k] = String(min(Double(a[k] ?? "0.16") ?? 0.16, 0.18)) }
                    }
                    if m == .axisBreak { a["label"] = "≈" }
                    sub.nodes.append(Node("lg:\(i)", attributes: a))
                }
                let w = textWidth(m)
                sub.nodes.append(
                    Node(
                        "lgt:\(i)",
                        attributes: [
                            "shape": "plaintext", "style": "", "label": m.text, "pos": "\(x + sample + w / 2),\(py)", "fontsize": "8",
                            "id": "legend-text-\(i + 1)", "height": "0.18",
                        ]))
                x += sample + w + 8
            }
            maxX = max(maxX, x)
        }
        sub.attributes["bb"] = "\(origin.x),\(origin.y),\(maxX + 4),\(origin.y + Double(rows.count) * rowHeight + 12)"
        g.subgraphs.append(sub)
    }
}

extension Timeline {
    /// A time on the axis: seconds, or, on an `order` clock (a log read without times), the
    /// record's number.
    static func timeLabel(_ t: TraceTime, _ clock: TraceHeader.Clock) -> String {
        clock == .order ? "#\(t)" : "\(t)s"
    }

    /// A stretch of the axis: seconds, or records on an `order` clock.
    static func spanLabel(_ t: TraceTime, _ clock: TraceHeader.Clock) -> String {
        clock == .order ? "\(t) records" : "\(t)s"
    }
}
