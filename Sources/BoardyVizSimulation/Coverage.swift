import BoardyCore
import BoardyTrace
import BoardyVizCore

/// What a set of traces exercised of a definition (a scenario's, or an app's sources'): every
/// board, flow, activation barrier, gateway link, gateway exemption and dispatch barrier, with
/// how many traces exercised it and how often; what none exercised comes first.
public struct Coverage: Sendable {
    /// One item of the definition.
    public struct Item: Sendable, Hashable {
        /// `board`, `flow`, `barrier`, `gateway`, `exemption`, `dispatch-barrier`.
        public var kind: String
        /// What it is, in words (`pubCart`, `pubCart → pubPayment on paid`).
        public var name: String
        /// Where the app's code makes it, for a definition read from sources.
        public var source: String?
        /// How many traces exercised it.
        public var traces: Int
        /// How often, over all the traces.
        public var count: Int
    }

    /// A trace left out: recorded from another definition than the scenario's.
    public struct Excluded: Sendable, Hashable {
        /// The trace's name.
        public var name: String
        /// The definition fingerprint it was recorded from (nil: none recorded).
        public var definition: String?
    }

    /// Every item, never exercised first, then in definition order.
    public var items: [Item]
    /// Traces counted.
    public var traces: Int
    /// Traces left out, and why.
    public var excluded: [Excluded]
    /// Board ids the traces name that the definition lacks (sources: matched by id).
    public var unknownBoards: [String]
    /// The definition's name.
    public var name: String

    /// Exercised items over all items, in percent (100 for an empty definition).
    public var percent: Double {
        items.isEmpty ? 100 : Double(items.filter { $0.traces > 0 }.count) * 100 / Double(items.count)
    }

    /// The observation of each trace counted, in order (what `FlowModel.weigh(by:)`
    /// takes to draw the model weighed by them).
    public var observed: [TraceObservation] = []

    /// The coverage of `model` by `traces`. With a `fingerprint` (a scenario's), traces recorded
    /// from another definition are excluded and reported, never mixed in.
    public init(model: FlowModel, fingerprint: String?, traces: [(name: String, trace: Trace)]) {
        self.init(model: model, fingerprint: fingerprint, traces: traces.map { ($0.name, $0.trace.header.definition) }) { i in
            Digest(trace: traces[i].trace, activations: model.source != "scenario")
        }
    }

    /// The coverage of `model` by traces read as tables, the same report as for their events:
    /// only the lines that say more than their board are decoded (and, against a definition read
    /// from sources, each activation request, for its source).
    public init(model: FlowModel, fingerprint: String?, tables: [(name: String, table: TraceTable)]) throws(TraceReadError) {
        try self.init(model: model, fingerprint: fingerprint, traces: tables.map { ($0.name, $0.table.header.definition) }) {
            i throws(TraceReadError) in try Digest(table: tables[i].table, activations: model.source != "scenario")
        }
    }

    /// `digest(i)` reads trace `i`; it is called only for the traces counted.
    private init<E: Error>(
        model: FlowModel, fingerprint: String?, traces: [(name: String, definition: String?)], digest: (Int) throws(E) -> Digest
    ) throws(E) {
        name = model.title
        excluded = []
        var used: [Digest] = []
        for (i, t) in traces.enumerated() {
            if let fingerprint, t.definition != fingerprint {
                excluded.append(Excluded(name: t.name, definition: t.definition))
            } else {
                used.append(try digest(i))
            }
        }
        self.traces = used.count
        // The definition's items, in order, with a key to count them by.
        var slots: [Slot] = []
        let lastID: (String) -> String = { $0.split(separator: "/").last.map(String.init) ?? $0 }
        for b in model.boards {
            slots.append(Slot(item: Item(kind: "board", name: b.key, source: b.source, traces: 0, count: 0), key: "board|" + b.key))
            if b.exempt {
                slots.append(Slot(item: Item(kind: "exemption", name: "\(b.key) exempt from the gateway", source: b.source, traces: 0, count: 0), key: "exempt|" + lastID(b.key)))
            }
        }
        for (i, l) in model.links.enumerated() {
            let kind = l.kind == .flow ? "flow" : l.kind == .barrier ? "barrier" : "gateway"
            let name = l.kind == .flow ? "\(l.from) → \(l.to) on \(l.label)" : "\(l.to) waits for \(l.from)" + (l.kind == .gateway ? " (gateway)" : "")
            slots.append(Slot(item: Item(kind: kind, name: name, source: l.source, traces: 0, count: 0), key: "link|\(i)"))
        }
        for b in model.dispatch?.barriers ?? [] {
            slots.append(Slot(item: Item(kind: "dispatch-barrier", name: b.id, source: nil, traces: 0, count: 0), key: "dispatch|" + b.id))
        }
        var index: [String: Int] = [:]
        for (i, s) in slots.enumerated() where index[s.key] == nil { index[s.key] = i }
        let known = Set(model.boards.map { lastID($0.key) })
        var unknown: [String] = []
        var unknownSeen = Set<String>()
        for t in used {
            var counts = t.counts
            var weighed = model
            weighed.weigh(by: [t.observation])
            for b in weighed.boards { counts["board|" + b.key] = b.count ?? 0 }
            for (i, l) in weighed.links.enumerated() { counts["link|\(i)"] = l.count ?? 0 }
            for b in t.boards where !known.contains(b) && unknownSeen.insert(b).inserted { unknown.append(b) }
            for (k, n) in counts where n > 0 {
                guard let i = index[k] else { continue }
                slots[i].item.traces += 1
                slots[i].item.count += n
            }
        }
        unknownBoards = unknown
        observed = used.map(\.observation)
        items = slots.map(\.item).enumerated().sorted { a, b in
            (a.element.traces == 0) != (b.element.traces == 0) ? a.element.traces == 0 : a.offset < b.offset
        }.map(\.element)
    }

    /// An item of the definition, with the key it is counted by.
    private struct Slot {
        var item: Item
        var key: String
    }

    /// What coverage counts of one trace.
    private struct Digest {
        var observation: TraceObservation
        /// Exemptions used and dispatch barriers met, by item key.
        var counts: [String: Int] = [:]
        /// The boards the trace names outside gateway proxies, in order of first appearance.
        var boards: [String] = []

        init(trace t: Trace, activations: Bool) {
            observation = TraceObservation(trace: t, activations: activations)
            var seen = Set<String>()
            for e in t.events {
                count(e.body)
                if let b = e.body.board, !MotherboardPath(e.mb).isGatewayProxy, seen.insert(b).inserted { boards.append(b) }
            }
        }

        init(table t: TraceTable, activations: Bool) throws(TraceReadError) {
            observation = try TraceObservation(table: t, activations: activations)
            let decoded: Set<Int32> = [TraceTable.id(of: .gatewayChecked), TraceTable.id(of: .dispatchBarrier), TraceTable.id(of: .dispatchBlocked)]
            var seenPairs = Set<Int64>()
            var seen = Set<Int32>()
            for i in 0..<t.count {
                if decoded.contains(t.kinds[i]) { count(try t.event(at: i).body) }
                let b = t.boards[i]
                guard b >= 0, seenPairs.insert(Int64(b) << 32 | Int64(t.mbs[i])).inserted else { continue }
                if !MotherboardPath(t.strings[t.mbs[i]]).isGatewayProxy, seen.insert(b).inserted { boards.append(t.strings[b]) }
            }
        }

        mutating func count(_ body: TraceEvent.Body) {
            switch body {
            case .gatewayChecked(let b, _, let r) where r == .exempt: counts["exempt|" + b, default: 0] += 1
            case .dispatchBarrier(let barrier, _, _, _): counts["dispatch|" + barrier, default: 0] += 1
            case .dispatchBlocked(_, let barriers): for b in barriers { counts["dispatch|" + b, default: 0] += 1 }
            default: break
            }
        }
    }

    /// The report for people.
    public var text: String {
        let exercised = items.filter { $0.traces > 0 }.count
        var lines = ["coverage of \(name): \(exercised) of \(items.count) items (\(Self.format(percent))%) exercised by \(traces) trace\(traces == 1 ? "" : "s")"]
        let never = items.filter { $0.traces == 0 }
        if !never.isEmpty {
            lines.append("never exercised:")
            for i in never { lines.append("  \(i.kind.padding(16)) \(i.name)" + (i.source.map { "  [\($0)]" } ?? "")) }
        }
        let some = items.filter { $0.traces > 0 }
        if !some.isEmpty {
            lines.append("exercised:")
            for i in some { lines.append("  \(i.kind.padding(16)) \(i.name)  \(i.traces) trace\(i.traces == 1 ? "" : "s"), ×\(i.count)") }
        }
        for e in excluded {
            lines.append("excluded: \(e.name) was recorded from \(e.definition.map { "another definition (\($0))" } ?? "no recorded definition")")
        }
        if !unknownBoards.isEmpty { lines.append("boards the traces name that the definition lacks: \(unknownBoards.joined(separator: ", "))") }
        return lines.joined(separator: "\n")
    }

    /// The report as JSON.
    public var json: JSONValue {
        [
            "definition": .string(name), "traces": .int(Int64(traces)), "percent": .double((percent * 10).rounded() / 10),
            "items": .array(items.map { i in
                var o: JSONObject = ["kind": .string(i.kind), "name": .string(i.name), "traces": .int(Int64(i.traces)), "count": .int(Int64(i.count))]
                if let s = i.source { o["source"] = .string(s) }
                return .object(o)
            }),
            "excluded": .array(excluded.map { ["name": .string($0.name), "definition": $0.definition.map(JSONValue.string) ?? .null] }),
            "unknownBoards": .array(unknownBoards.map(JSONValue.string)),
        ]
    }

    static func format(_ p: Double) -> String {
        let r = (p * 10).rounded() / 10
        return r == r.rounded() ? String(Int(r)) : String(r)
    }
}

extension String {
    fileprivate func padding(_ n: Int) -> String { count >= n ? self : self + String(repeating: " ", count: n - count) }
}
