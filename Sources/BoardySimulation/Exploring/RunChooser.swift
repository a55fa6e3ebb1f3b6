import BoardyCore
import BoardyLock
import Foundation

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
