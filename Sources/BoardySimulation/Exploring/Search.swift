import BoardyCore
import BoardyLock
import Foundation

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
        var kind: Explorer.Failure.Kind
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
        var failures: [RunObserver.Observed]
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
            let choices = events.filter { $0.eventKind == .choice }.count
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
