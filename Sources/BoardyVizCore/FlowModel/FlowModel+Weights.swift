import BoardyTrace

// MARK: Weights from traces

extension FlowModel {
    /// Weights the links of a declared graph (an imported app's, or a scenario's) by how often
    /// `traces` exercised them, and counts each board's activations and each dispatcher's sends: an
    /// `activates` or `flow` link by the routings and activations a trace records from its
    /// source board to its target, a barrier or gateway link by the waits on its gate.
    public mutating func weigh(by traces: [Trace]) {
        weigh(by: traces.map { TraceObservation(trace: $0, activations: source != "scenario") })
    }

    /// `weigh(by:)` for traces read as tables: see ``TraceObservation/init(table:activations:)``
    /// for the lines decoded.
    public mutating func weigh(byTables tables: [TraceTable]) throws(TraceReadError) {
        var observations: [TraceObservation] = []
        for t in tables { observations.append(try TraceObservation(table: t, activations: source != "scenario")) }
        weigh(by: observations)
    }

    /// `weigh(by:)` for traces already observed. A scenario's model does not count
    /// ``TraceObservation/activations`` (its own `activate` steps are not flows).
    public mutating func weigh(by observations: [TraceObservation]) {
        coverage = true
        var counts: [String: Int] = [:]
        var performed: [String: Int] = [:]
        var sent: [String: Int] = [:]
        var tracked: [String: Int] = [:]
        var direct = 0
        for t in observations {
            let observed = t.observed
            for b in observed.boards { performed[b.key, default: 0] += b.count ?? 0 }
            for d in observed.dispatch?.dispatchers ?? [] { sent[d.id, default: 0] += d.sent ?? 0 }
            for tr in observed.dispatch?.tracked ?? [] { tracked[tr.board, default: 0] += tr.count ?? 0 }
            direct += observed.dispatch?.directTracks ?? 0
            var routed = Set<String>()
            for l in observed.links {
                let from = Self.lastID(l.from), to = Self.lastID(l.to)
                let key = "\(from)|\(to)|\(l.kind == .flow ? "flow" : "wait")"
                counts[key, default: 0] += l.count ?? 1
                routed.insert(key)
                // A scenario's flow names its output: counted per output too.
                if l.kind == .flow { counts[key + "|" + Self.output(of: l.label), default: 0] += l.count ?? 1 }
            }
            // An activation made by a board's code: the trace names the board performing when
            // the request is made (its cause). Where a flow routed it, the routing counted it.
            // (A scenario's own `activate` steps are not flows.)
            guard source != "scenario" else { continue }
            for (from, to) in t.activations where !routed.contains("\(from)|\(to)|flow") { counts["\(from)|\(to)|flow", default: 0] += 1 }
        }
        for i in links.indices {
            let from = Self.lastID(links[i].from), to = Self.lastID(links[i].to)
            var key = "\(from)|\(to)|\(links[i].kind == .flow ? "flow" : "wait")"
            // A scenario's handler on one output is exercised by routings of that output only
            // (flow steps and handlers on any output by every routing).
            if source == "scenario", links[i].kind == .flow, !Self.anyOutput(links[i].label) { key += "|" + Self.output(of: links[i].label) }
            links[i].count = counts[key] ?? 0
        }
        for i in boards.indices { boards[i].count = performed[boards[i].key] ?? 0 }
        if var d = dispatch {
            for i in d.dispatchers.indices { d.dispatchers[i].sent = sent[d.dispatchers[i].id] ?? 0 }
            d.tracked = d.tracked.map { ($0.board, tracked[$0.board] ?? 0) }
            d.directTracks = direct
            dispatch = d
        }
    }

    /// The output a flow label names: the part before ` → ` (`paid → complete(true)`: `paid`).
    static func output(of label: String) -> String {
        guard let r = label.range(of: " → ") else { return label }
        return String(label[..<r.lowerBound])
    }

    /// A flow label that matches every output: flow steps' and handlers' without `on`.
    static func anyOutput(_ label: String) -> Bool {
        let o = output(of: label)
        return o == "any output" || o.hasPrefix("flow action")
    }

    private static func lastID(_ key: String) -> String { key.split(separator: "/").last.map(String.init) ?? key }
}

/// What weighing a model needs of one trace: the flow graph it shows, and each activation its
/// boards' code requested.
public struct TraceObservation: Sendable {
    /// The flow graph the trace shows (``FlowModel/init(trace:)``).
    public var observed: FlowModel
    /// (board whose activation caused it, board requested) for every activation request the
    /// trace records with a source or a cause, other than a board's request of itself.
    public var activations: [(from: String, to: String)]

    /// The observation of `trace`. With `activations` false (for a scenario's model, whose
    /// weighing does not count them), ``activations`` is left empty.
    public init(trace t: Trace, activations counted: Bool = true) {
        observed = FlowModel(trace: t)
        activations = []
        guard counted else { return }
        var boardOf: [Int: String] = [:]
        var out: [(from: String, to: String)] = []
        for e in t.events {
            if let b = e.body.board { boardOf[e.seq] = b }
            if case .activationRequested(let target, let source, _) = e.body, let from = source ?? e.cause.flatMap({ boardOf[$0] }), from != target {
                out.append((from, target))
            }
        }
        activations = out
    }

    /// The observation of `table`, the same as of its events. Beside the lines
    /// ``FlowModel/init(table:)`` decodes, each activation request is decoded for its source,
    /// unless `activations` is false (then ``activations`` is left empty).
    public init(table: TraceTable, activations counted: Bool = true) throws(TraceReadError) {
        observed = try FlowModel(table: table)
        activations = []
        guard counted else { return }
        // The board of the latest earlier event numbered `seq` that has one, as the events'
        // version keeps it:
        // found at row `seq - 1` in a trace numbered without gaps, and only rows numbered
        // otherwise (a trace read leniently) are kept aside, instead of a map of every row.
        var elsewhere: [Int: Int] = [:]
        func boardRow(ofSeq seq: Int, before i: Int) -> Int? {
            var row: Int?
            if seq >= 1, seq - 1 < i, table.seqs[seq - 1] == seq, table.boards[seq - 1] >= 0 { row = seq - 1 }
            if let r = elsewhere[seq], r > (row ?? -1) { row = r }
            return row
        }
        var out: [(from: String, to: String)] = []
        let requested = TraceTable.id(of: .activationRequested)
        for i in 0..<table.count {
            if table.boards[i] >= 0, table.seqs[i] != i + 1 { elsewhere[table.seqs[i]] = i }
            guard table.kinds[i] == requested else { continue }
            guard case .activationRequested(let target, let source, _) = try table.event(at: i).body else { continue }
            let cause = table.causes[i]
            if let from = source ?? (cause == 0 ? nil : boardRow(ofSeq: cause, before: i).map { table.strings[table.boards[$0]] }), from != target {
                out.append((from, target))
            }
        }
        activations = out
    }
}
