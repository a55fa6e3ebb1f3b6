import BoardyTrace

/// What a replay found: the same run, or its first divergence, with a verdict.
///
/// Its `description` is the report people read (and test failures print); ``json`` the same for
/// CI. `#expect(result.isSame, "\(result)")` prints the whole report when it fails.
public struct ReplayResult: Sendable, CustomStringConvertible {
    /// The recorded trace's name (its file) and header.
    public var traceName: String
    /// The recorded header.
    public var header: TraceHeader
    /// What was replayed against (a scenario file, or a description of the Swift target).
    public var targetName: String
    /// Events in the recorded trace.
    public var recordedEvents: Int
    /// Events the replay recorded (it stops a few events after a divergence, unless it keeps
    /// the whole run).
    public var replayedEvents: Int
    /// Stimuli fed to the engine.
    public var stimuliFed: Int
    /// The first divergence; nil when the replay is the same as the trace.
    public var divergence: Divergence?
    /// The trace header's definition fingerprint.
    public var recordedDefinition: String?
    /// The replayed target's definition fingerprint.
    public var replayedDefinition: String?
    /// Recorded stimuli that could not be fed (each also shows as a divergence at its place).
    public var stimulusErrors: [ReplayStimulusError]
    /// Every event of the run, when it was kept (a counterfactual run).
    public var run: [TraceEvent]?
    /// The flip that made this a counterfactual run, if any.
    public var flip: Flip?
    /// What reading the trace warned about (a cut-off last line).
    public var readWarnings: [TraceReadWarning] = []
    /// The `seq` of the first event out of order, when the trace's order is damaged.
    public var damagedAt: Int?
    /// The name of the scenario replayed, when the target has one.
    public var replayedScenario: String?

    /// Whether the replay recorded exactly the trace's events.
    public var isSame: Bool { divergence == nil }

    /// Whether the two definitions are the same (nil when either is missing).
    public var definitionMatches: Bool? {
        guard let recordedDefinition, let replayedDefinition else { return nil }
        return recordedDefinition == replayedDefinition
    }

    /// Why: the same, or what kind of change made it diverge.
    public var verdict: ReplayVerdict {
        if flip != nil { return .counterfactual }
        guard divergence != nil else { return .same }
        if damagedAt != nil { return .damagedTrace }
        if definitionMatches == false, let recorded = header.scenario, let replayedScenario, recorded != replayedScenario {
            return .otherScenario
        }
        switch definitionMatches {
        case .some(false): return .definitionChanged
        case .some(true): return .differentBehaviour
        case .none: return .unknownDefinition
        }
    }

    /// The counterfactual run as a trace (its header is the recorded one), when it was kept.
    public var runTrace: Trace? { run.map { Trace(header: header, events: $0) } }

    /// A flipped verdict or completion.
    public struct Flip: Sendable, Hashable {
        /// The recorded event that was inverted.
        public var seq: Int
        /// What was inverted, for people.
        public var what: String
    }
}

// MARK: - Text

extension ReplayResult {
    public var description: String {
        var out: [String] = []
        if let flip {
            out.append("counterfactual replay of \(traceName) against \(targetName): \(flip.what) (seq \(flip.seq)) inverted")
        } else if let d = divergence {
            out.append("replay of \(traceName) against \(targetName): DIVERGED at seq \(d.seq) (\(d.kind.rawValue))")
        } else {
            out.append("replay of \(traceName) against \(targetName): same (\(recordedEvents) events, \(stimuliFed) stimuli fed)")
        }
        out.append("verdict: \(verdict.explanation)")
        if let damagedAt { out.append("  the first event out of order is seq \(damagedAt)") }
        if verdict == .otherScenario, let recorded = header.scenario, let replayedScenario {
            out.append("  recorded from scenario \"\(recorded)\", replayed on scenario \"\(replayedScenario)\" (\(targetName))")
        }
        if verdict == .definitionChanged || (divergence == nil && definitionMatches == false) {
            out.append("  definition: trace \(short(recordedDefinition)), replay \(short(replayedDefinition))")
        }
        guard let d = divergence else { return out.joined(separator: "\n") }
        if !d.context.isEmpty {
            out.append("")
            out.append("before it (the same in both):")
            for e in d.context { out.append("    " + Self.summary(e)) }
        }
        out.append("")
        out.append("at seq \(d.seq):")
        switch d.kind {
        case .differs, .missing:
            out.append("  - expected (trace):  " + (d.expected.map(\.jsonLine) ?? "(nothing)"))
            out.append("  + actual (replay):   " + (d.actual.map(\.jsonLine) ?? "(nothing: the replay ended here)"))
        case .extra:
            out.append("  - expected (trace):  (nothing: the trace ends before this)")
            out.append("  + actual (replay):   " + (d.actual.map(\.jsonLine) ?? "(nothing)"))
        }
        if !d.fields.isEmpty {
            out.append("fields that differ:")
            let width = d.fields.map(\.name.count).max() ?? 0
            for f in d.fields {
                let pad = String(repeating: " ", count: width - f.name.count)
                out.append("  \(f.name)\(pad)  - \(f.expected?.jsonText ?? "(absent)")")
                out.append("  \(String(repeating: " ", count: width))  + \(f.actual?.jsonText ?? "(absent)")")
            }
        }
        if let note = d.note { out.append("note: \(note)") }
        if !d.expectedCauses.isEmpty { out.append("caused by (trace):  " + Self.chain(d.expectedCauses)) }
        if !d.actualCauses.isEmpty, d.actualCauses.map(\.seq) != d.expectedCauses.map(\.seq) || d.expectedCauses.isEmpty {
            out.append("caused by (replay): " + Self.chain(d.actualCauses))
        }
        if flip == nil {
            out.append("")
            out.append(
                "\(recordedEvents) events recorded; the replay stopped after \(replayedEvents) (it stops a few events after the first divergence)."
            )
        }
        return out.joined(separator: "\n")
    }

    private func short(_ fingerprint: String?) -> String {
        guard let f = fingerprint else { return "(none)" }
        return f.count > 19 ? String(f.prefix(19)) + "…" : f
    }

    /// One event in a line: `seq t kind subject (mb)`.
    static func summary(_ e: TraceEvent) -> String {
        var s = "\(e.seq)".leftPadded(6) + "  t=\(e.t)".padded(10) + "  \(e.kind)"
        switch e.body {
        case let .stimulus(action, fields):
            s += " \(action)"
            if let b = fields["board"]?.stringValue { s += " \(b)" }
            for k in ["input", "with", "network", "event"] { if let v = fields[k] { s += " \(k)=\(v.jsonText)" } }
        case let .barrierResolved(barrier, passed, released): s += " \(barrier) passed=\(passed) released=\(released)"
        case let .outputSent(b, o): s += " \(b) \(o.jsonText)"
        case let .flowRouted(from, o, to, action): s += " \(from) \(o.jsonText) → \(action) \(to ?? "")"
        case let .activationCancelled(b, r): s += " \(b) (\(r.rawValue))"
        default:
            if let b = e.body.board { s += " \(b)" }
        }
        if MotherboardPath(e.mb) != .main { s += "  [\(e.mb)]" }
        return s
    }

    static func chain(_ events: [TraceEvent]) -> String {
        events.map { e -> String in
            var s = "\(e.seq) \(e.kind)"
            if case let .stimulus(action, fields) = e.body {
                s += " \(action)"
                if let b = fields["board"]?.stringValue { s += " \(b)" }
            } else if let b = e.body.board {
                s += " \(b)"
            }
            return s
        }.joined(separator: " ← ")
    }
}

// MARK: - JSON

extension ReplayResult {
    /// The report as JSON (`replay --format json`).
    public var json: JSONValue {
        var o: JSONObject = [
            "result": .string(isSame ? "same" : "diverged"), "verdict": .string(verdict.rawValue), "trace": .string(traceName),
            "replayed": .string(targetName), "recordedEvents": .int(Int64(recordedEvents)), "replayedEvents": .int(Int64(replayedEvents)),
            "stimuliFed": .int(Int64(stimuliFed)),
            "definition": .object(["trace": recordedDefinition.map(JSONValue.string) ?? .null, "replay": replayedDefinition.map(JSONValue.string) ?? .null]),
        ]
        if let flip { o["flip"] = .object(["seq": .int(Int64(flip.seq)), "inverted": .string(flip.what)]) }
        if let damagedAt { o["damagedAt"] = .int(Int64(damagedAt)) }
        if let s = header.scenario { o["recordedScenario"] = .string(s) }
        if let replayedScenario { o["replayedScenario"] = .string(replayedScenario) }
        if let d = divergence {
            var dv: JSONObject = ["seq": .int(Int64(d.seq)), "kind": .string(d.kind.rawValue)]
            dv["expected"] = d.expected.map { .object($0.jsonObject) } ?? .null
            dv["actual"] = d.actual.map { .object($0.jsonObject) } ?? .null
            dv["fields"] = .array(
                d.fields.map { f in
                    var x: JSONObject = ["field": .string(f.name)]
                    x["expected"] = f.expected ?? .null
                    x["actual"] = f.actual ?? .null
                    x["expectedPresent"] = .bool(f.expected != nil)
                    x["actualPresent"] = .bool(f.actual != nil)
                    return .object(x)
                })
            dv["context"] = .array(d.context.map { .object($0.jsonObject) })
            dv["expectedCauses"] = .array(d.expectedCauses.map { .int(Int64($0.seq)) })
            dv["actualCauses"] = .array(d.actualCauses.map { .int(Int64($0.seq)) })
            if let note = d.note { dv["note"] = .string(note) }
            o["divergence"] = .object(dv)
        }
        if !stimulusErrors.isEmpty { o["stimulusErrors"] = .array(stimulusErrors.map { .string($0.description) }) }
        return .object(o)
    }
}

extension String {
    fileprivate func leftPadded(_ n: Int) -> String { count >= n ? self : String(repeating: " ", count: n - count) + self }
    fileprivate func padded(_ n: Int) -> String { count >= n ? self : self + String(repeating: " ", count: n - count) }
}
