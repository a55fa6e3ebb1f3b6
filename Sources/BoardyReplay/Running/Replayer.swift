import BoardyCore
import BoardyDispatch
import BoardyTrace

/// Re-runs a recorded trace's stimuli on a fresh engine and compares what it records with the
/// trace, event by event (Temporal's replayer, with a structured diff).
///
/// The trace's `stimulus` events are the inputs: each is fed at its recorded virtual time, in
/// trace order; everything else is the engine's output, and must come out the same (every
/// field, `t` and `cause` included). The first difference is reported with the events before
/// it, a field-by-field diff, the chain of causes back to the stimulus, and a verdict from the
/// definition fingerprints.
public enum Replayer {
    /// How to replay.
    public struct Options: Sendable {
        /// Invert one recorded verdict before the run: the `seq` of a `barrier.resolved` event
        /// (its gate's verdict is inverted) or of a `complete` stimulus (its `with` is inverted).
        /// The whole counterfactual run is kept.
        public var flip: Int?
        /// Keep every event of the run (``ReplayResult/run``), not just the first few after a
        /// divergence.
        public var keepRun: Bool
        /// Stop at this virtual time, as `simulate --until` did; by default the trace header's
        /// `until`, or the time of its `"until": true` stuck events, else run to quiescence.
        public var until: TraceTime?
        /// A bound on the events a run may record (a counterfactual run may go on where the
        /// recorded one stopped); past it the run stops and says so. By default 1,000,000 or
        /// 1,000 per stimulus, whichever is larger.
        public var maxEvents: Int?

        /// Options: by default a plain replay.
        public init(flip: Int? = nil, keepRun: Bool = false, until: TraceTime? = nil, maxEvents: Int? = nil) {
            self.flip = flip
            self.keepRun = keepRun
            self.until = until
            self.maxEvents = maxEvents
        }
    }

    /// Replays `trace` against a motherboard assembled in Swift: `assemble` gets a runtime on a
    /// fresh virtual clock that reports to the replay, and builds the boards, flows, barriers and
    /// dispatch on it.
    public static func replay(
        _ trace: Trace, traceName: String = "<trace>", targetName: String = "a motherboard assembled in Swift",
        options: Options = Options(), assemble: (BoardyRuntime) throws -> ReplayTarget
    ) throws -> ReplayResult {
        try replay(trace, traceName: traceName, targetName: targetName, options: options) { observer in
            try assemble(BoardyRuntime(scheduler: VirtualScheduler(), observer: observer, misuse: .record))
        }
    }

    /// Replays the trace file at `path` against a motherboard assembled in Swift (see
    /// ``replay(_:traceName:targetName:options:assemble:)``), reading the file while it runs.
    public static func replay(
        tracePath path: String, targetName: String = "a motherboard assembled in Swift", options: Options = Options(),
        assemble: (BoardyRuntime) throws -> ReplayTarget
    ) throws -> ReplayResult {
        try replay(tracePath: path, targetName: targetName, options: options) { observer in
            try assemble(BoardyRuntime(scheduler: VirtualScheduler(), observer: observer, misuse: .record))
        }
    }

    /// Replays `trace` against the target `build` makes; `build` must report to the observer it
    /// is given, on a `VirtualScheduler`.
    public static func replay(
        _ trace: Trace, traceName: String, targetName: String, options: Options, build: (any TraceObserver) throws -> ReplayTarget
    ) throws -> ReplayResult {
        let events = trace.events
        let stimuli = events.enumerated().compactMap { i, e in e.eventKind == .stimulus ? (index: i, event: e) : nil }
        let choices = events.enumerated().compactMap { i, e in e.eventKind == .choice ? (index: i, event: e) : nil }
        return try run(
            header: trace.header, expected: ExpectedEvents(events), warnings: trace.warnings, stimuli: stimuli, choices: choices,
            until: options.until ?? untilTime(of: trace), flip: try flip(options.flip, in: events), traceName: traceName,
            targetName: targetName, options: options, build: build)
    }

    /// Replays the trace file at `path` against the target `build` makes, parsing the file on a
    /// second thread while the engine runs (a counterfactual `flip` reads it first).
    public static func replay(
        tracePath path: String, traceName: String? = nil, targetName: String, options: Options,
        build: (any TraceObserver) throws -> ReplayTarget
    ) throws -> ReplayResult {
        if options.flip != nil {
            return try replay(Trace.read(path: path, order: .lenient), traceName: traceName ?? path, targetName: targetName, options: options, build: build)
        }
        var reader = try TraceReader(path: path)
        reader.order = .lenient
        let header = reader.header
        let scan = try StimulusScan.scan(path: path)
        var until = options.until
        if until == nil, let u = header.extra["until"], let n = u.doubleValue, n >= 0 { until = .seconds(n) }
        return try run(
            header: header, expected: ExpectedEvents(streaming: reader), warnings: nil, stimuli: scan.stimuli, choices: scan.choices,
            until: until ?? scan.until,
            flip: nil, traceName: traceName ?? path, targetName: targetName, options: options, build: build)
    }

    /// The replay itself, over recorded events in memory or arriving from a parser.
    static func run(
        header: TraceHeader, expected: ExpectedEvents, warnings: [TraceReadWarning]?, stimuli: [(index: Int, event: TraceEvent)],
        choices: [(index: Int, event: TraceEvent)] = [], until: TraceTime?, flip: FlipPlan?, traceName: String, targetName: String, options: Options,
        build: (any TraceObserver) throws -> ReplayTarget
    ) throws -> ReplayResult {
        let keepRun = options.keepRun || flip != nil
        let comparator = TraceComparator(expected: expected, keepsRun: keepRun)
        let target = try build(comparator)
        guard let runtime = target.mainboard.runtime, let scheduler = target.scheduler else {
            throw ReplayError("the replay target's motherboard needs a runtime on a VirtualScheduler (the replay runs on virtual time)")
        }
        guard runtime.observer != nil else {
            throw ReplayError("the replay target's runtime has no observer: build it with the observer the replay passes in")
        }

        // Inputs are fed only from the part of the trace that is in order: a gap or a step back
        // in time is itself reported as the divergence at its place. (Checked when each input
        // is due, once the parser got there.)
        var stimulusErrors: [ReplayStimulusError] = []
        var fed = 0
        let start = scheduler.now
        // An explored run's choices are made again at the same places: a stimulus whose time
        // was chosen (its choice is the event right before it) is fed when the run reaches
        // that place, after whatever else was due at that instant before it.
        let chosen = RecordedChoices(
            choices.map(\.event), runtime: runtime, explored: header.extra["explored"] == .bool(true),
            tiesRecorded: header.extra["ties"] == .string("recorded"))
        if !choices.isEmpty { scheduler.chooser = chosen }
        // A trace that records its tie-breaks: the replay writes each back at its place (its own
        // candidates may be fewer: stimuli the run never reached are not in the trace).
        // Weak: the scheduler holds the hook.
        if chosen.tiesRecorded {
            scheduler.onPick = { [weak scheduler] picked, _ in
                guard let scheduler else { return }
                chosen.taking(picked, now: scheduler.now)
            }
        }
        let timedBy = Dictionary(choices.map { ($0.index + 1, $0.event) }, uniquingKeysWith: { a, _ in a })
        for (index, e) in stimuli {
            let delay = max(e.t - start, .zero)
            guard let parsed = ReplayStimulus.from(e) else { continue }  // not a stimulus after all
            switch parsed {
            case .failure(let error):
                _ = scheduler.schedule(after: delay) { if expected.isOrdered(through: index) { stimulusErrors.append(error) } }
            case .success(var stimulus):
                if let flip, flip.seq == e.seq, case let .complete(b, with) = stimulus.action { stimulus.action = .complete(b, with: !with) }
                let target = target
                let feed = {
                    guard expected.isOrdered(through: index) else { return }
                    fed += 1
                    if let error = stimulus.apply(to: target) { stimulusErrors.append(error) }
                }
                if let choice = timedBy[index], case let .choice(fields) = choice.body, let point = fields["point"]?.stringValue,
                    point.hasPrefix("script[")
                {
                    _ = scheduler.schedule(between: delay, and: delay, tag: ScheduleTag(point)) {
                        guard expected.isOrdered(through: index - 1) else { return }
                        runtime.recordEvent(mb: MotherboardPath(choice.mb), cause: choice.cause ?? 0, .choice(fields: fields), extra: choice.extra)
                        feed()
                    }
                } else {
                    _ = scheduler.schedule(after: delay, feed)
                }
            }
        }
        if let flip, flip.isVerdict {
            var resolutions = 0
            runtime.barrierVerdictOverride = { _, passed in
                resolutions += 1
                return resolutions == flip.resolution ? !passed : passed
            }
        }

        let cap = options.maxEvents ?? max(1_000_000, stimuli.count * 1000)
        var capped = false
        var stopped = false
        // The same bounds as the recorded run (its header names any that differ from the
        // defaults), so a runaway is stopped at the same event.
        // The horizon counts from the target's last input where it knows it (a scenario's
        // script): the trace lacks inputs after a cut, and a ranged one may come late.
        let lastStimulus = max(stimuli.map(\.event.t).max() ?? .zero, target.lastStimulus ?? .zero)
        // A run stopped at its event bound with only inputs the trace never recorded left (the
        // replay has none of them): it stops there too, as the record says, once it has run as
        // many events.
        let unrecordedWork = {
            guard let next = expected.event(at: runtime.lastSeq), case let .runaway(fields) = next.body else { return false }
            return fields["bound"] == .string("max-events")
        }
        _ = runtime.drive(
            scheduler, bounds: RunBounds(header: header, until: until), lastStimulus: lastStimulus, notifyingQuiescence: until == nil,
            unrecordedWork: unrecordedWork
        ) {
            if comparator.count >= cap {
                capped = true
            } else if keepRun || !comparator.isSettled {
                return true
            }
            stopped = true
            return false
        }
        let recorded = try expected.total()
        // The recorded events in one array, built at most once (only a cut run or a divergence needs it).
        var flattened: (events: [TraceEvent], warnings: [TraceReadWarning], firstDisorder: Int?)?
        func all() throws -> (events: [TraceEvent], warnings: [TraceReadWarning], firstDisorder: Int?) {
            if let flattened { return flattened }
            let f = try expected.finish()
            flattened = f
            return f
        }
        // (A run a bound halted reports nothing more, cut or not.)
        if until != nil, !stopped, runtime.haltedBy == nil {
            // A cut run: the recorded one had later inputs still scheduled, which the trace does
            // not hold. What it reported at the cut tells how it ended: open waits recorded with
            // "until": true (as `simulate --until` does when work is left), or, with nothing
            // left, the stuck reports of quiescence.
            if try all().events.contains(where: { $0.extra["until"] == .bool(true) }) {
                runtime.reportOpenBarriers(extra: ["until": true])
                target.dispatch?.reportHeld(extra: ["until": true])
            } else if scheduler.pendingCount == 0, expected.event(at: runtime.lastSeq) != nil {
                // Nothing is left here. The recorded run went quiet too if it reported more
                // (quiescence's stuck reports); if not, it had inputs left that the trace
                // does not hold (an explored run cut at `until` reports nothing).
                scheduler.notifyQuiescence()
            }
        }

        // What is still scheduled, or waits on a barrier, would keep the target alive.
        runtime.tearDown()
        var result = ReplayResult(
            traceName: traceName, header: header, targetName: targetName, recordedEvents: recorded.count,
            replayedEvents: comparator.count, stimuliFed: fed, divergence: nil, recordedDefinition: header.definition,
            replayedDefinition: target.definition, stimulusErrors: stimulusErrors, run: keepRun ? comparator.run : nil,
            flip: flip.map { ReplayResult.Flip(seq: $0.seq, what: $0.what) }, readWarnings: warnings ?? recorded.warnings)
        result.replayedScenario = target.scenarioName
        if let index = comparator.difference(recorded: recorded.count) {
            let recordedEvents = try all()
            if let bad = recordedEvents.firstDisorder, bad < recordedEvents.events.count, bad <= index + 1 {
                result.damagedAt = recordedEvents.events[bad].seq
            }
            var d = divergence(
                at: index, in: recordedEvents.events, comparator: comparator,
                ordered: recordedEvents.firstDisorder ?? recordedEvents.events.count, stimulusErrors: stimulusErrors)
            if capped {
                let cut = "the run was stopped after \(cap) events (a bound for runs that keep every event)"
                d.note = d.note.map { $0 + "; " + cut } ?? cut
            }
            result.divergence = d
        }
        return result
    }

    // MARK: Pieces

    /// The number of leading events whose `seq` counts from 1 and whose `t` never decreases.
    static func orderedPrefix(_ events: [TraceEvent]) -> Int {
        var last = TraceTime.zero
        for (i, e) in events.enumerated() {
            if e.seq != i + 1 || e.t < last { return i }
            last = e.t
        }
        return events.count
    }

    /// Where the recorded run was cut: the header's `until`, or its `"until": true` stuck events.
    static func untilTime(of trace: Trace) -> TraceTime? {
        if let u = trace.header.extra["until"], let n = u.doubleValue, n >= 0 { return .seconds(n) }
        return trace.events.last { $0.extra["until"] == .bool(true) }?.t
    }

    struct FlipPlan {
        var seq: Int
        var what: String
        /// The 1-based count of the `barrier.resolved` to invert, for a verdict flip.
        var resolution: Int
        var isVerdict: Bool { resolution > 0 }
    }

    static func flip(_ seq: Int?, in events: [TraceEvent]) throws(ReplayError) -> FlipPlan? {
        guard let seq else { return nil }
        guard seq >= 1, seq <= events.count, events[seq - 1].seq == seq else {
            throw ReplayError("--flip \(seq): the trace has no event with that seq (it has \(events.count) events)")
        }
        let e = events[seq - 1]
        switch e.body {
        case let .barrierResolved(barrier, passed, _):
            let n = events[..<seq].reduce(0) { n, x in
                if case .barrierResolved = x.body { return n + 1 }
                return n
            }
            return FlipPlan(seq: seq, what: "barrier \(barrier) resolved passed=\(passed) → \(!passed)", resolution: n)
        case let .stimulus(action, fields) where StimulusAction(rawValue: action) == .complete:
            guard case let .bool(with)? = fields["with"] else { throw ReplayError("--flip \(seq): that complete stimulus has no boolean \"with\"") }
            return FlipPlan(seq: seq, what: "outside completion of \(fields["board"]?.stringValue ?? "?") with=\(with) → \(!with)", resolution: 0)
        default:
            throw ReplayError(
                "--flip \(seq): event \(seq) is \(e.kind); --flip inverts a barrier verdict (barrier.resolved) or an outside completion (a complete stimulus)"
            )
        }
    }

    static func divergence(
        at index: Int, in recorded: [TraceEvent], comparator c: TraceComparator, ordered: Int, stimulusErrors: [ReplayStimulusError]
    ) -> Divergence {
        let expected = index < recorded.count ? recorded[index] : nil
        // The run's event at this place: the first of the kept tail, or of the kept run.
        let actual: TraceEvent? = {
            if c.keepsRun { return index < c.run.count ? c.run[index] : nil }
            guard let first = c.firstDifference else { return nil }
            let k = index - first
            return k >= 0 && k < c.tail.count ? c.tail[k] : nil
        }()
        let kind: Divergence.Kind = expected == nil ? .extra : (actual == nil ? .missing : .differs)
        let fields = (expected != nil && actual != nil) ? FieldDifference.between(expected!, actual!) : []
        let context = Array(recorded[max(0, index - 3)..<min(index, recorded.count)])

        // Before the divergence both runs agree, so causes below it resolve in the trace.
        var bySeq: [Int: TraceEvent] = [:]
        func lookup(_ seq: Int) -> TraceEvent? {
            if seq >= 1, seq <= index, seq <= recorded.count, recorded[seq - 1].seq == seq { return recorded[seq - 1] }
            if bySeq.isEmpty { for e in recorded where bySeq[e.seq] == nil { bySeq[e.seq] = e } }
            return bySeq[seq]
        }
        func actualLookup(_ seq: Int) -> TraceEvent? {
            if seq >= 1, seq <= index, seq <= recorded.count, recorded[seq - 1].seq == seq { return recorded[seq - 1] }
            if c.keepsRun { return seq >= 1 && seq <= c.run.count ? c.run[seq - 1] : nil }
            return c.tail.first { $0.seq == seq }
        }
        let expectedCauses = expected.map { causes(of: $0, lookup) } ?? []
        let actualCauses = actual.map { causes(of: $0, actualLookup) } ?? []

        var notes: [String] = []
        let seq = index + 1
        if let err = stimulusErrors.first(where: { $0.seq == expected?.seq }) { notes.append(err.description) }
        if index == ordered, let e = expected {
            if e.seq != index + 1 {
                notes.append("the trace is out of order here: seq \(e.seq) stands where seq \(index + 1) belongs (an event missing, repeated or moved)")
            } else if index > 0 {
                notes.append("the trace goes back in time here: t \(e.t) after \(recorded[index - 1].t)")
            }
        }
        return Divergence(
            seq: seq, kind: kind, expected: expected, actual: actual, fields: fields, context: context,
            expectedCauses: expectedCauses, actualCauses: actualCauses, note: notes.isEmpty ? nil : notes.joined(separator: "; "))
    }

    /// The chain of `cause` from `event` back to an event without one (a stimulus), nearest first.
    static func causes(of event: TraceEvent, _ lookup: (Int) -> TraceEvent?) -> [TraceEvent] {
        var out: [TraceEvent] = []
        var next = event.cause
        var seen = Set<Int>()
        while let c = next, out.count < 64, seen.insert(c).inserted, let e = lookup(c) {
            out.append(e)
            next = e.cause
        }
        return out
    }
}

/// A replay that cannot be run as asked (an invalid `--flip`, a target not on virtual time).
public struct ReplayError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public var message: String
    /// An error saying `message`.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Makes a recorded run's choices again (its `choice` events, in order): a ranged action runs
/// when the run reaches the place its choice was recorded at (the next `seq`), at the recorded
/// time; an open outcome takes the recorded value. Anywhere else, what is due at a fixed time
/// runs first. A run that diverged makes the remaining choices as a plain run would, and the
/// comparison reports the divergence.
final class RecordedChoices: ScheduleChooser {
    struct Choice {
        let seq: Int
        let t: TraceTime
        let point: String
        let value: JSONValue
        let event: TraceEvent
    }
    private let choices: [Choice]
    private var next = 0
    private unowned let runtime: BoardyRuntime
    /// Whether the trace is an explored schedule (its header says `"explored": true`).
    private let explored: Bool
    /// Whether the trace records its tie-breaks (`"ties": "recorded"`): then every pick among
    /// several candidates is told, by a ranged action's own choice or by a `next` choice, and
    /// followed exactly; the older rule below is not used.
    let tiesRecorded: Bool
    /// The recorded pick the chooser followed for the action about to run, to be written back.
    private var followed: Choice?
    /// The recorded tie-breaks, in order: where (`seq`) and what was taken (a ranged action's
    /// point, or `fixed`).
    private let picks: [Choice]
    private var nextPick = 0
    /// When each ranged action ran, by its point (points are unique within a run).
    private let ranAt: [String: TraceTime]
    /// What each choice took, by its point.
    private let valueAt: [String: JSONValue]
    /// The choices by `seq` (a ranged action's own choice is its pick among several).
    private let choiceAt: [Int: Choice]

    init(_ events: [TraceEvent], runtime: BoardyRuntime, explored: Bool = false, tiesRecorded: Bool = false) {
        self.explored = explored
        self.tiesRecorded = tiesRecorded
        let all = events.compactMap { e -> Choice? in
            guard case let .choice(fields) = e.body, let point = fields["point"]?.stringValue else { return nil }
            return Choice(seq: e.seq, t: e.t, point: point, value: fields["value"] ?? .null, event: e)
        }
        let pickPoint = "next"
        picks = tiesRecorded ? all.filter { $0.point == pickPoint } : []
        choices = tiesRecorded ? all.filter { $0.point != pickPoint } : all
        ranAt = Dictionary(choices.map { ($0.point, $0.t) }, uniquingKeysWith: { a, _ in a })
        valueAt = Dictionary(choices.map { ($0.point, $0.value) }, uniquingKeysWith: { a, _ in a })
        choiceAt = Dictionary(choices.map { ($0.seq, $0) }, uniquingKeysWith: { a, _ in a })
        self.runtime = runtime
    }

    func chooseNext(among candidates: [ScheduleCandidate], now: TraceTime) -> (index: Int, at: TraceTime) {
        if tiesRecorded { return followRecordedPick(among: candidates) }
        if next < choices.count, choices[next].seq == runtime.lastSeq + 1,
            let i = candidates.firstIndex(where: { $0.isRanged && $0.tag?.label == choices[next].point })
        {
            let t = choices[next].t
            next += 1
            return (i, t)
        }
        // No recorded choice applies (a ranged step whose board had completed makes none, or
        // one still to make its choice). A fixed action first, as the recorded run did where a
        // fixed action and a range fell due at the same time (the scheduling order that broke
        // the tie is not the replay's). A run in time order (`simulate`) never ran a later fixed
        // action before an earlier range: doing so moved the clock past the horizon the
        // recorded run had stopped at (found by the whole-pipeline fuzzer). An explored schedule
        // may have, and says so in its header.
        let earliest = candidates[0].time
        if let i = candidates.firstIndex(where: { !$0.isRanged && (explored || $0.time == earliest) }) { return (i, candidates[i].time) }
        return (0, candidates[0].time)
    }

    /// The pick the recorded run made here (the next event is its `next` choice, or the own
    /// choice of the ranged action it took), or, where it had one candidate only, the first; a
    /// ranged action runs at the time it ran then.
    private func followRecordedPick(among candidates: [ScheduleCandidate]) -> (index: Int, at: TraceTime) {
        // When a candidate runs: a ranged action when it ran in the recorded run.
        func time(_ c: ScheduleCandidate) -> TraceTime {
            if c.isRanged, let label = c.tag?.label, let t = ranAt[label] { return t }
            return c.time
        }
        // The pick recorded at this place (the same `seq`: silent actions between do not move
        // it, so the same time and an action among the candidates too). Elsewhere, the replay
        // has what the recorded run had at a place where it made no pick: the first.
        let seq = runtime.lastSeq + 1
        if nextPick < picks.count, picks[nextPick].seq == seq, case let .string(taken) = picks[nextPick].value,
            let found = taken == "fixed"
                ? candidates.firstIndex(where: { !$0.isRanged }) : candidates.firstIndex(where: { $0.isRanged && $0.tag?.label == taken }),
            time(candidates[found]) == picks[nextPick].t
        {
            followed = picks[nextPick]
            nextPick += 1
            return (found, time(candidates[found]))
        }
        // A ranged action's pick is its own `choice`, the next event: that action, then.
        if let own = choiceAt[seq], let found = candidates.firstIndex(where: { $0.isRanged && $0.tag?.label == own.point }),
            time(candidates[found]) == own.t
        {
            return (found, own.t)
        }
        return (0, time(candidates[0]))
    }

    /// An action is about to run: the recorded pick made here, if any, is written back first, so
    /// the replay's trace has it where the recorded one does.
    func taking(_ picked: ScheduleCandidate, now: TraceTime) {
        var pick = followed
        followed = nil
        // Not followed by the chooser (the replay had one candidate): written back where the run
        // took the same action at the same place. A silent action (one that records nothing)
        // may come first at the same place; the pick waits for the action it names.
        if pick == nil, nextPick < picks.count, picks[nextPick].seq == runtime.lastSeq + 1, picks[nextPick].t == now,
            case let .string(taken) = picks[nextPick].value,
            taken == "fixed" ? !picked.isRanged : (picked.isRanged && picked.tag?.label == taken)
        {
            pick = picks[nextPick]
            nextPick += 1
        }
        guard let pick else { return }
        let e = pick.event
        guard case let .choice(fields) = e.body else { return }
        runtime.recordEvent(mb: MotherboardPath(e.mb), cause: e.cause ?? 0, .choice(fields: fields), extra: e.extra)
    }

    func outcome(at point: String) -> Bool {
        if tiesRecorded {
            if case let .bool(b) = valueAt[point] { return b }
            return true
        }
        guard next < choices.count, choices[next].point == point, case let .bool(b) = choices[next].value else { return true }
        next += 1
        return b
    }
}
