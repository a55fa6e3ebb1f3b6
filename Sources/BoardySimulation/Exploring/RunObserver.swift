import BoardyCore
import BoardyLock
import Foundation

/// Watches one run's events: the state hash (each event folded into the running hash of every
/// resource it touches), the failures it shows, the expectations.
final class RunObserver: TraceObserver, @unchecked Sendable {
    // `@unchecked Sendable` because TraceObserver requires it: one run, on one thread (the
    // worker that drives it), reads and writes it; the worker reads the results after the run.
    /// Whether events are folded into the state hash.
    let hashing: Bool
    /// Whether events are passed over (while a run re-makes the part of its prefix whose
    /// snapshot is restored from the run before).
    var skipping = false
    let expectations: ExpectationRecorder
    let loopsExpected: Bool
    let stuckExpected: Bool
    private(set) var events = 0
    /// A failure a run shows: its key (what makes it distinct), kind and message.
    typealias Observed = (key: String, kind: Explorer.Failure.Kind, message: String)
    var failures: [Observed] = []
    /// The folded histories, by resource: each with the hash of the resource's name (taken
    /// once) and of its history so far.
    struct Fold {
        var boards: [String: Slot] = [:]
        var barriers: [String: Slot] = [:]
        var others: [String: Slot] = [:]
        var dispatch = 0
        var global = 0
    }
    struct Slot {
        var name: Int
        var history: Int
    }
    var folded = Fold()

    /// What it made of the events so far: a run that shares a prefix with the run before
    /// starts from the one kept at the choice point where it branches off.
    struct Snapshot {
        var fold: Fold
        var expectations: ExpectationRecorder.State
        var failures: [Observed]
    }

    var snapshot: Snapshot {
        get { Snapshot(fold: folded, expectations: expectations.state, failures: failures) }
        set {
            folded = newValue.fold
            expectations.state = newValue.expectations
            failures = newValue.failures
        }
    }
    var recorder: TraceRecorder?

    init(scenario: Scenario, hashing: Bool) {
        self.hashing = hashing
        expectations = ExpectationRecorder(for: scenario.expectations)
        loopsExpected = scenario.expectations.contains { if case .loop(true) = $0 { return true } else { return false } }
        stuckExpected = scenario.expectations.contains { if case .stuck(true) = $0 { return true } else { return false } }
    }

    func record(_ event: consuming TraceEvent) {
        events += 1
        // Replaying the part of a prefix whose snapshot will be restored: nothing to make of it.
        guard skipping == false else { return }
        inspect(event)
        if let recorder {
            expectations.record(copy event)
            recorder.record(event)
        } else {
            expectations.record(event)
        }
    }

    /// A step's events, read where the batch holds them: the default would copy each one out
    /// of the batch for ``record(_:)`` to consume.
    func record(contentsOf batch: consuming [TraceEvent]) {
        guard recorder == nil else {
            for e in batch { record(e) }
            return
        }
        events += batch.count
        guard skipping == false else { return }
        batch.withUnsafeBufferPointer { b in
            for i in b.indices {
                inspect(b[i])
                expectations.observe(b[i])
            }
        }
    }

    private func inspect(_ e: borrowing TraceEvent) {
        if hashing { fold(e) }
        switch e.body {
        case let .barrierLoop(_, cycle) where !loopsExpected:
            failures.append(("loop:" + Set(cycle).sorted().joined(separator: ","), .loop, "barrier loop: \(cycle.joined(separator: " → "))"))
        case let .stuckBarrier(barrier, gate, waiting) where !stuckExpected && e.extra["until"] == nil:
            failures.append(
                ("stuck:" + barrier, .stuck, "barrier \(barrier) (gate \(gate)) is stuck; waiting: \(waiting.joined(separator: ", "))"))
        case let .runaway(fields):
            let bound = fields["bound"]?.stringValue ?? "?"
            failures.append(("runaway:" + bound, .runaway, "runaway: the run was stopped by its \(bound) bound"))
        default: break
        }
    }

    /// Folds `e` into the resources it touches: its board, the board a routing reaches, its
    /// barrier, the dispatch pipeline, a choice's point. Boards are keyed by id alone (one id in
    /// two motherboards is one resource: more order kept, never less).
    private func fold(_ e: borrowing TraceEvent) {
        var h = Hasher()
        h.combine(e.t.microseconds)
        h.combine(e.mb)
        h.combine(e.body)
        if !e.extra.isEmpty { h.combine(e.extra) }
        let value = h.finalize()
        @inline(__always) func mix(_ h: inout Int) { h = h &* 1_099_511_628_211 &+ value }
        @inline(__always) func mix(_ table: inout [String: Slot], _ key: String, _ kind: Int) {
            if table[key] != nil {
                mix(&table[key]!.history)
            } else {
                table[key] = Slot(name: key.hashValue &+ kind, history: value)
            }
        }
        var touched = false
        if let board = e.body.board {
            mix(&folded.boards, board, 1)
            touched = true
        }
        switch e.body {
        case let .flowRouted(_, _, to?, _):
            mix(&folded.boards, to, 1)
        case let .gatewayChecked(_, b, _), let .barrierChecked(_, b, _, _), let .barrierStarted(b, _), let .barrierResolved(b, _, _),
            let .stuckBarrier(b, _, _):
            mix(&folded.barriers, b, 2)
            touched = true
        case .dispatchQueued, .dispatchBlocked, .dispatchSent, .dispatchBarrier, .stuckDispatcher, .dispatchDropped:
            mix(&folded.dispatch)
            touched = true
        case let .stimulus(_, fields) where fields["board"] == nil:
            mix(&folded.dispatch)
            touched = true
        case let .choice(fields):
            mix(&folded.others, EventKind.choice.rawValue + "\u{0}" + (fields["point"]?.stringValue ?? ""), 3)
            touched = true
        case let .unknown(kind, fields):
            let point = kind + "\u{0}" + (fields["point"]?.stringValue ?? "")
            mix(&folded.others, point, 3)
            touched = true
        default: break
        }
        if !touched { mix(&folded.global) }
    }

    /// The state: the resources' histories (in any order of resources), the pending actions in
    /// the order they will run, the clock.
    func stateHash(pending: [ScheduleCandidate], now: TraceTime) -> Int {
        // Each resource's history, summed so the order of resources does not matter.
        var sum = 0
        // splitmix64's finaliser: a resource's name and history mixed into one word.
        @inline(__always) func add(_ name: Int, _ h: Int) {
            var z = UInt64(bitPattern: Int64(name)) &+ UInt64(bitPattern: Int64(h)) &* 0x9E37_79B9_7F4A_7C15
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            sum = sum &+ Int(bitPattern: UInt(z ^ (z >> 31)))
        }
        for slot in folded.boards.values { add(slot.name, slot.history) }
        for slot in folded.barriers.values { add(slot.name, slot.history) }
        for slot in folded.others.values { add(slot.name, slot.history) }
        add(4, folded.dispatch)
        add(5, folded.global)
        var h = Hasher()
        h.combine(sum)
        h.combine(now.microseconds)
        for p in pending {
            if let tag = p.tag { h.combine(tag.label) } else { h.combine(p.order) }
            h.combine(p.time.microseconds)
            h.combine(p.latest.microseconds)
        }
        return h.finalize()
    }

    /// Every failure the run shows: what the engine recorded, then the expectations that fail.
    func allFailures(_ scenario: Scenario) -> [Observed] {
        var out = failures
        for (i, r) in expectations.results().enumerated() where !r.passed {
            // `loop: false` and `stuck: false` are what is checked above anyway (each loop and
            // stuck barrier on its own); `true` is checked as written.
            switch scenario.expectations[i] {
            case .loop(false), .stuck(false): continue
            default: break
            }
            out.append(("expect[\(i)]", .expect, "expect[\(i)] \(r.expectation): \(r.detail)"))
        }
        return out
    }
}
