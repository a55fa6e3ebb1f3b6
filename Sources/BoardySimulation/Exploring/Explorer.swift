import BoardyCore
import BoardyLock
import Foundation

/// Explores every schedule a scenario's declared variation allows (ranged times and delays,
/// outcomes left open) on the real engine, and checks each: no barrier loop, no stuck barrier,
/// no runaway, and the scenario's `expect` list. The search is stateless model checking in the
/// manner of Microsoft Coyote, AWS Shuttle and loom: each schedule is a fresh run that follows a
/// prefix of choices and then takes the first option, depth first, with
///
/// - **partial-order reduction** (sleep sets, Godefroid 1996): two actions whose footprints
///   (what each can reach, worked out from the declaration) are disjoint commute when due at the
///   same instant, or when the earlier one is timeless, so once one order was tried the other is
///   not; an action that commutes with everything the scenario can do runs at once, its range
///   taken at its start (a persistent set of one);
/// - **state hashing**: at each choice point the engine's observable state is hashed (every
///   event so far, projected onto the boards, barriers and dispatch it touches, so orders of
///   independent events hash alike; the pending actions with their times; the clock); a state
///   already explored with no more actions asleep is not explored again. A run that shares
///   its prefix with the run before starts from what that run made of the prefix's events.
///
/// The tree is cut into subtrees explored on every core, each with its own state table, so the
/// result does not depend on thread timing (unless a bound stops the search).
public enum Explorer {
    /// How far to search.
    public struct Options: Sendable {
        /// The most choice points along one schedule; past it a schedule takes first options.
        public var maxDepth: Int = 10_000
        /// The most schedules to run.
        public var maxSchedules: Int = 100_000
        /// The most wall-clock seconds to search.
        public var timeBudget: Double = 60
        /// Threads (by default one per core).
        public var workers: Int = ProcessInfo.processInfo.activeProcessorCount
        /// Partial-order reduction and state hashing; off, every schedule is enumerated (naive).
        public var reduction: Bool = true
        /// The bounds of each run (runaway detection); a smaller event budget than a plain run.
        public var bounds = RunBounds(maxEvents: 100_000)
        /// Called about five times a second from another thread while the search runs.
        public var progress: (@Sendable (Progress) -> Void)?

        /// The defaults: 10,000 choice points, 100,000 schedules, 60 s, every core.
        public init() {}
    }

    /// How far a search has got.
    public struct Progress: Sendable {
        /// Schedules run to their end.
        public var schedules: Int
        /// Distinct states seen at choice points.
        public var states: Int
        /// Seconds since the search started.
        public var elapsed: Double
        /// Failures found so far (distinct).
        public var failures: Int
    }

    /// One distinct failure and the shortest schedule found that shows it.
    public struct Failure: Sendable {
        /// What it is, stable across schedules: `loop:a,b`, `stuck:pubAuth`, `runaway:horizon`,
        /// `expect[2]`.
        public var key: String
        /// `loop`, `stuck`, `runaway` or `expect`.
        public var kind: String
        /// What happened, in words.
        public var message: String
        /// The events of the schedule that shows it (the shortest found).
        public var events: Int
        /// The choices the schedule made (replay makes them again from its `choice` events).
        public var choices: Int
        /// The schedule's trace: replayable with `boardy-viz replay` against the scenario.
        public var trace: Trace
        /// Indices of the options taken at each choice point (internal identity of the schedule).
        var path: [Int]
    }

    /// What a search found.
    public struct Report: Sendable {
        /// Schedules run to their end and checked.
        public var schedules: Int
        /// Distinct states seen at choice points.
        public var states: Int
        /// Branches not taken because partial-order reduction showed them equivalent.
        public var prunedByReduction: Int
        /// Runs cut short on reaching a state already explored.
        public var merged: Int
        /// Ranged times and delays the reduction took at the start of their range, never as a
        /// choice: what they set off commutes with everything else the scenario can do, so
        /// where they fall changes nothing but timestamps.
        public var fixedRanges: Int
        /// Runs cut short because every action that could run next was asleep (explored from
        /// an equivalent state).
        public var blocked: Int
        /// Every run, whole or cut short.
        public var runs: Int
        /// The bound that stopped the search before it covered everything, if any:
        /// `max-schedules`, `time-budget` or `max-depth`.
        public var boundHit: String?
        /// How far the search got: the subtrees the tree was cut into (for the cores) that were
        /// explored to their end, of how many. All of them unless a bound stopped the search.
        public var subtrees: (explored: Int, of: Int)
        /// Failures, each once, with its shortest schedule found.
        public var failures: [Failure]
        /// Wall-clock seconds.
        public var elapsed: Double
        /// Choice points on the longest schedule.
        public var deepest: Int
        /// Whether the scenario declares anything that varies (else it has one schedule).
        public var varies: Bool
    }

    /// Explores `scenario` within `options`.
    public static func explore(_ scenario: Scenario, options: Options = Options()) -> Report {
        let search = Search(scenario: scenario, options: options)
        return search.run()
    }
}

// MARK: - One run

/// The choices of one run, on the scheduler's thread: follows `prefix`, then takes the first
/// option at each new point; keeps the sleep set and consults the state table.
final class RunChooser: ScheduleChooser {
    struct Sleeper {
        let label: String
        let time: Int64
        let footprint: Int
    }

    let prefix: [Int]
    let reduction: Bool
    let maxDepth: Int
    let footprints: Footprints
    /// The state table of the subtree being explored (nil: no state hashing).
    let table: StateTable?
    let hasher: RunObserver
    /// The scheduler it chooses for, set once the run is built. Unowned: the scheduler holds
    /// its chooser, and only calls it (so the chooser only reads this) while it is alive; a
    /// strong reference would make a cycle that outlives the run.
    unowned var scheduler: VirtualScheduler!

    private(set) var points: [(options: Int, chosen: Int)] = []
    /// The folded state at each choice point: the first ones inherited from the run before
    /// (whose prefix this run shares), so the events before them need not be folded again.
    private(set) var folds: [RunObserver.Snapshot] = []
    /// The choice point at which the inherited fold is restored and folding resumes.
    private let restoreAt: Int?
    private let inheritedFold: RunObserver.Snapshot?
    private var sleep: [Sleeper] = []
    /// Set once the run is known redundant: the caller stops it before the next action.
    private(set) var stop: Stop?
    private(set) var depthHit = false
    private(set) var pruned = 0
    private(set) var newStates = 0

    enum Stop { case reduced, merged }

    init(
        prefix: [Int], reduction: Bool, maxDepth: Int, footprints: Footprints, table: StateTable?, hasher: RunObserver,
        inherited: [RunObserver.Snapshot] = []
    ) {
        self.prefix = prefix
        self.reduction = reduction
        self.maxDepth = maxDepth
        self.footprints = footprints
        self.table = table
        self.hasher = hasher
        if table != nil, !prefix.isEmpty, inherited.count >= prefix.count {
            restoreAt = prefix.count - 1
            inheritedFold = inherited[prefix.count - 1]
            folds = Array(inherited[0..<(prefix.count - 1)])
            hasher.skipping = true
        } else {
            restoreAt = nil
            inheritedFold = nil
        }
    }

    /// Called at each choice point, before it is recorded: restores the inherited fold where
    /// folding resumes, and keeps the fold of this point for the next run.
    private func atPoint(_ index: Int) {
        guard table != nil else { return }
        if index == restoreAt {
            hasher.snapshot = inheritedFold!
            hasher.skipping = false
        }
        if !hasher.skipping { folds.append(hasher.snapshot) }
    }

    var tagsActions: Bool { reduction }

    private func key(_ c: ScheduleCandidate) -> Sleeper {
        Sleeper(label: c.tag?.label ?? "#\(c.order)", time: c.time.microseconds, footprint: c.tag?.footprint ?? -1)
    }

    /// Whether `a` and `b` commute: they touch nothing in common, and running the second one
    /// later (after the first moved the clock) changes nothing but its timestamps, which holds
    /// when both are due at the same instant or the earlier one is timeless.
    private func commute(_ a: Sleeper, _ b: Sleeper) -> Bool {
        guard footprints.commute(a.footprint, b.footprint) else { return false }
        return a.time == b.time || footprints.isTimeless(a.time < b.time ? a.footprint : b.footprint)
    }

    /// Whether sleeping `s` is the candidate `k`: the same action, at the same time unless its
    /// time does not matter.
    private func same(_ s: Sleeper, _ k: Sleeper) -> Bool {
        s.label == k.label && (s.time == k.time || footprints.isTimeless(s.footprint))
    }

    func fixesTime(of tag: ScheduleTag) -> Bool {
        guard reduction, footprints.isAlone(tag.footprint) else { return false }
        fixed.insert(tag.label)
        return true
    }

    /// The ranged actions this run took at the start of their range because they commute with
    /// everything (their place was never a choice).
    private(set) var fixed = Set<String>()

    func runsAtOnce(_ tag: ScheduleTag, at time: TraceTime) -> Bool {
        guard reduction, stop == nil, footprints.isAlone(tag.footprint) else { return false }
        let k = Sleeper(label: tag.label, time: time.microseconds, footprint: tag.footprint)
        return !sleep.contains { same($0, k) }
    }

    func willRun(_ action: ScheduleCandidate) {
        guard reduction, stop == nil, !sleep.isEmpty else { return }
        let k = key(action)
        if sleep.contains(where: { same($0, k) }) {
            // The only action that can run was explored from an equivalent state.
            stop = .reduced
            return
        }
        sleep.removeAll { !commute($0, k) }
    }

    func chooseNext(among candidates: [ScheduleCandidate], now: TraceTime) -> (index: Int, at: TraceTime) {
        if stop != nil {
            return (0, candidates[0].time)
        }
        let fresh = points.count >= prefix.count
        if reduction {
            for (i, c) in candidates.enumerated() where footprints.isAlone(c.tag?.footprint ?? -1) {
                // It commutes with everything the scenario can do, whenever it runs: running it
                // now stands for every place it could take (a persistent set of one), so no
                // choice, and what sleeps stays asleep.
                let k = key(c)
                guard !sleep.contains(where: { same($0, k) }) else { continue }
                if fresh { pruned += candidates.count - 1 }
                return (i, c.time)
            }
        }
        let keys = candidates.map(key)
        var awake: [Int] = []
        for (i, k) in keys.enumerated() where !(reduction && sleep.contains { same($0, k) }) { awake.append(i) }
        if fresh { pruned += candidates.count - awake.count }
        if awake.isEmpty {
            // Every action that could run next was explored from an equivalent state.
            stop = .reduced
            return (0, candidates[0].time)
        }
        var choice = 0
        if awake.count > 1 {
            if points.count >= maxDepth {
                depthHit = true
            } else {
                if points.count < prefix.count {
                    choice = min(prefix[points.count], awake.count - 1)
                } else if let table {
                    let h = hasher.stateHash(pending: scheduler.pendingActions, now: now)
                    switch table.visit(h, asleep: Set(sleep.map { footprints.isTimeless($0.footprint) ? $0.label : "\($0.label)@\($0.time)" })) {
                    case .seen:
                        stop = .merged
                        return (awake[0], candidates[awake[0]].time)
                    case .new: newStates += 1
                    case .revisited: break
                    }
                }
                atPoint(points.count)
                points.append((awake.count, choice))
            }
        }
        let taken = keys[awake[choice]]
        if reduction {
            // Asleep after it: what was asleep or explored before it at this point, and commutes with it.
            var next: [Sleeper] = []
            for s in sleep where commute(s, taken) { next.append(s) }
            for j in 0..<choice where commute(keys[awake[j]], taken) { next.append(keys[awake[j]]) }
            sleep = next
        }
        return (awake[choice], candidates[awake[choice]].time)
    }

    func outcome(at point: String) -> Bool {
        guard stop == nil else { return true }
        guard points.count < maxDepth else {
            depthHit = true
            return true
        }
        let choice = points.count < prefix.count ? min(prefix[points.count], 1) : 0
        atPoint(points.count)
        points.append((2, choice))
        return choice == 0
    }
}

/// The states explored in one subtree, each with the actions that were asleep when it was: a
/// state seen before with no more asleep is not explored again (sleep sets and state caching
/// combined soundly, as in Godefroid's thesis).
final class StateTable {
    private var seen: [Int: Set<String>] = [:]
    enum Visit { case new, seen, revisited }
    /// The most states kept (a few hundred bytes each): past it, new states are still explored
    /// but no longer remembered, so a long search's memory stays bounded.
    static let capacity = 400_000

    func visit(_ h: Int, asleep: Set<String>) -> Visit {
        guard let before = seen[h] else {
            if seen.count < Self.capacity { seen[h] = asleep }
            return .new
        }
        if before.isSubset(of: asleep) { return .seen }
        seen[h] = before.intersection(asleep)
        return .revisited
    }
}

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
    typealias Finding = (key: String, kind: String, message: String)
    var failures: [Finding] = []
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
        var failures: [Finding]
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

    private func inspect(_ e: borrowing TraceEvent) {
        if hashing { fold(e) }
        switch e.body {
        case let .barrierLoop(_, cycle) where !loopsExpected:
            failures.append(("loop:" + Set(cycle).sorted().joined(separator: ","), "loop", "barrier loop: \(cycle.joined(separator: " → "))"))
        case let .stuckBarrier(barrier, gate, waiting) where !stuckExpected && e.extra["until"] == nil:
            failures.append(
                ("stuck:" + barrier, "stuck", "barrier \(barrier) (gate \(gate)) is stuck; waiting: \(waiting.joined(separator: ", "))"))
        case let .runaway(fields):
            let bound = fields["bound"]?.stringValue ?? "?"
            failures.append(("runaway:" + bound, "runaway", "runaway: the run was stopped by its \(bound) bound"))
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
    func allFailures(_ scenario: Scenario) -> [Finding] {
        var out = failures
        for (i, r) in expectations.results().enumerated() where !r.passed {
            // `loop: false` and `stuck: false` are what is checked above anyway (each loop and
            // stuck barrier on its own); `true` is checked as written.
            switch scenario.expectations[i] {
            case .loop(false), .stuck(false): continue
            default: break
            }
            out.append(("expect[\(i)]", "expect", "expect[\(i)] \(r.expectation): \(r.detail)"))
        }
        return out
    }
}

// MARK: - The search

final class Search: @unchecked Sendable {
    // `@unchecked Sendable`: the scenario and options are immutable; everything the workers
    // share is behind `shared`'s lock.
    let scenario: Scenario
    let options: Explorer.Options
    let footprints: Footprints
    let start = Date()

    struct Found {
        var key: String
        var kind: String
        var message: String
        var events: Int
        var path: [Int]

        /// Shorter (fewer events) wins; between equals, the one first in depth-first order.
        func better(than o: Found) -> Bool { events < o.events || (events == o.events && path.lexicographicallyPrecedes(o.path)) }
    }

    struct Totals {
        var schedules = 0
        var states = 0
        var pruned = 0
        var merged = 0
        var blocked = 0
        var runs = 0
        var deepest = 0
        var fixed = Set<String>()
        var depthHit = false
        var boundHit: String?
        var found: [String: Found] = [:]
    }
    let shared = LockedValue(Totals())

    init(scenario: Scenario, options: Explorer.Options) {
        self.scenario = scenario
        self.options = options
        footprints = Footprints(scenario)
    }

    struct Outcome {
        var points: [(options: Int, chosen: Int)]
        var completed: Bool
        var stop: RunChooser.Stop?
        var depthHit: Bool
        var pruned: Int
        var newStates: Int
        var events: Int
        var failures: [RunObserver.Finding]
        var folds: [RunObserver.Snapshot]
        var fixed: Set<String>
    }

    /// Runs the scenario once, following `prefix`.
    func execute(prefix: [Int], table: StateTable?, inherited: [RunObserver.Snapshot] = [], recorder: TraceRecorder? = nil) -> Outcome {
        let observer = RunObserver(scenario: scenario, hashing: table != nil)
        observer.recorder = recorder
        let chooser = RunChooser(
            prefix: prefix, reduction: options.reduction, maxDepth: options.maxDepth, footprints: footprints, table: table, hasher: observer,
            inherited: inherited)
        let built = ScenarioBuilder.build(scenario, observer: observer, footprints: footprints.boardIDs, chooser: chooser)
        chooser.scheduler = built.scheduler
        Simulator.schedule(scenario.script, on: built, footprint: { self.footprints.scriptIDs[$0] })
        let end = built.runtime.drive(built.scheduler, bounds: options.bounds, lastStimulus: scenario.lastStimulus) { chooser.stop == nil }
        built.runtime.tearDown()
        let completed = end != .stopped && chooser.stop == nil
        return Outcome(
            points: chooser.points, completed: completed, stop: chooser.stop, depthHit: chooser.depthHit, pruned: chooser.pruned,
            newStates: chooser.newStates, events: observer.events, failures: completed ? observer.allFailures(scenario) : [],
            folds: chooser.folds, fixed: chooser.fixed)
    }

    /// Whether a bound says stop (and which).
    func bounded() -> Bool {
        shared.withLockedValue { t in
            if t.boundHit != nil { return true }
            if t.schedules >= options.maxSchedules {
                t.boundHit = "max-schedules"
                return true
            }
            if Date().timeIntervalSince(start) >= options.timeBudget {
                t.boundHit = "time-budget"
                return true
            }
            return false
        }
    }

    /// Adds one run's outcome to the totals.
    func account(_ o: Outcome, path: [Int]) {
        shared.withLockedValue { t in
            if o.completed { t.schedules += 1 }
            if o.stop == .merged { t.merged += 1 }
            if o.stop == .reduced { t.blocked += 1 }
            t.runs += 1
            t.pruned += o.pruned
            t.states += o.newStates
            t.deepest = max(t.deepest, o.points.count)
            if t.fixed.count < o.fixed.count || !o.fixed.isSubset(of: t.fixed) { t.fixed.formUnion(o.fixed) }
            if o.depthHit { t.depthHit = true }
            for f in o.failures {
                let found = Found(key: f.key, kind: f.kind, message: f.message, events: o.events, path: path)
                if let old = t.found[f.key], !found.better(than: old) { continue }
                t.found[f.key] = found
            }
        }
    }

    /// Explores the subtree below `root` (its choices fixed), depth first, with its own state
    /// table.
    /// Explores the subtree below `root`; whether it got to the end of it (no bound stopped it).
    @discardableResult
    func explore(root: [Int]) -> Bool {
        let table = options.reduction ? StateTable() : nil
        var prefix = root
        // The folded state at each choice point of the run before: the next run shares its
        // prefix, and resumes folding where it branches off.
        var folds: [RunObserver.Snapshot] = []
        while !bounded() {
            let o = execute(prefix: prefix, table: table, inherited: folds)
            folds = o.folds
            let path = o.points.map(\.chosen)
            account(o, path: path)
            var i = o.points.count - 1
            while i >= root.count, o.points[i].chosen + 1 >= o.points[i].options { i -= 1 }
            if i < root.count { return true }
            prefix = Array(path[0..<i]) + [o.points[i].chosen + 1]
        }
        return false
    }

    func run() -> Explorer.Report {
        // The top of the tree, on this thread: the first schedule, then the subtrees hanging
        // off it, the shallowest split further until there are enough to share out.
        var subtrees: [[Int]] = []
        func children(of root: [Int], _ o: Outcome) -> [[Int]] {
            var out: [[Int]] = []
            for i in root.count..<o.points.count {
                for j in (o.points[i].chosen + 1)..<max(o.points[i].chosen + 1, o.points[i].options) {
                    out.append(o.points[0..<i].map(\.chosen) + [j])
                }
            }
            return out
        }
        // One state table for the top: a state met again there has its subtrees in the list.
        let top = options.reduction ? StateTable() : nil
        let first = execute(prefix: [], table: top)
        account(first, path: first.points.map(\.chosen))
        subtrees = children(of: [], first)
        let wanted = max(1, options.workers) * 4
        var expansions = 0
        while subtrees.count < wanted, expansions < 256, !subtrees.isEmpty, !bounded() {
            // Split the shallowest subtree: run its first schedule, keep what hangs off it.
            let k = subtrees.indices.min { subtrees[$0].count < subtrees[$1].count }!
            let root = subtrees.remove(at: k)
            let o = execute(prefix: root, table: top)
            account(o, path: o.points.map(\.chosen))
            subtrees.insert(contentsOf: children(of: root, o), at: k)
            expansions += 1
        }

        // Progress from its own thread, which is waited for before the report (nothing is
        // printed after it).
        let progressDone = LockedValue(false)
        let reporterExited = DispatchSemaphore(value: 0)
        if let progress = options.progress {
            Thread { [self] in
                defer { reporterExited.signal() }
                while !progressDone.withLockedValue({ $0 }) {
                    Thread.sleep(forTimeInterval: 0.2)
                    guard !progressDone.withLockedValue({ $0 }) else { return }
                    let p = shared.withLockedValue { t in
                        Explorer.Progress(schedules: t.schedules, states: t.states, elapsed: Date().timeIntervalSince(start), failures: t.found.count)
                    }
                    progress(p)
                }
            }.start()
        } else {
            reporterExited.signal()
        }
        let next = LockedValue(0)
        let finished = LockedValue(0)
        let list = subtrees
        DispatchQueue.concurrentPerform(iterations: max(1, min(options.workers, list.count))) { _ in
            while true {
                let i = next.withLockedValue { n -> Int in
                    defer { n += 1 }
                    return n
                }
                guard i < list.count, !bounded() else { return }
                if explore(root: list[i]) { finished.withLockedValue { $0 += 1 } }
            }
        }
        progressDone.withLockedValue { $0 = true }
        reporterExited.wait()

        let totals = shared.withLockedValue { $0 }
        // The shortest schedule of each failure, run once more to record its trace.
        let failures = totals.found.values.sorted { ($0.kind, $0.key) < ($1.kind, $1.key) }.map { f -> Explorer.Failure in
            let recorder = TraceRecorder()
            _ = execute(prefix: f.path, table: nil, recorder: recorder)
            var header = Simulator.header(of: scenario, bounds: options.bounds)
            // A replay makes the choices it finds in the trace again; where an explored schedule
            // made none it can see (an interleaving of actions), it needs to know the schedule was
            // explored rather than run in time order.
            header.extra["explored"] = true
            let events = recorder.takeRecording().array()
            let choices = events.filter { $0.kind == "choice" }.count
            return Explorer.Failure(
                key: f.key, kind: f.kind, message: f.message, events: events.count, choices: choices, trace: Trace(header: header, events: events),
                path: f.path)
        }
        var bound = totals.boundHit
        if bound == nil, totals.depthHit { bound = "max-depth" }
        return Explorer.Report(
            schedules: totals.schedules, states: totals.states, prunedByReduction: totals.pruned, merged: totals.merged,
            fixedRanges: totals.fixed.count, blocked: totals.blocked, runs: totals.runs, boundHit: bound,
            subtrees: (finished.withLockedValue { $0 }, list.count), failures: failures,
            elapsed: Date().timeIntervalSince(start), deepest: totals.deepest, varies: scenario.hasVariation)
    }
}
