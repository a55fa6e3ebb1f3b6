import BoardyCore

/// What one run of a scenario leaves open, and how it is decided: ranged delays and stimulus
/// times (`"after": [1, 5]`, `"at": [0, 4]`) are scheduled as ranged actions, whose place among
/// the other events the scheduler's ``ScheduleChooser`` picks, and open outcomes
/// (`"complete": "either"`) are asked of it. Without a chooser each range takes its start and
/// each outcome is `true`. Every choice taken is recorded as a `choice` event (`point`: what
/// varied, `value`: what was taken), right before what it decided, so a replay can make the
/// same one at the same place.
final class Variation {
    let runtime: BoardyRuntime
    let scheduler: VirtualScheduler
    /// A footprint id per declared board (by its scenario path), given by an explorer.
    let footprints: [String: Int]
    /// How often each declared board (by its scenario path, which fixes its motherboard too)
    /// was activated in this run: the activation's number tells apart the steps of two
    /// activations of one board.
    private var activations: [String: Int] = [:]

    init(runtime: BoardyRuntime, scheduler: VirtualScheduler, footprints: [String: Int], recordsTies: Bool) {
        self.runtime = runtime
        self.scheduler = scheduler
        self.footprints = footprints
        // Only a varying scenario has ties to record (and its header says so): the others'
        // schedulers run without the hook.
        guard recordsTies else { return }
        // Where several actions could run next, which one did: a `choice` at point `next`, its
        // value the ranged action's point (its tag) or `fixed` (the earliest fixed-time action).
        // A ranged action's own `choice` (its first event) already names it, so its pick is
        // written only if it runs silent (a step of a board that completed meanwhile).
        scheduler.onPick = { [weak self] picked, among in
            guard let self else { return }
            pickedRange = nil
            guard among > 1 else { return }
            if picked.isRanged {
                pickedRange = picked.tag?.label
            } else {
                record(point: Self.nextPoint, value: .string(Self.fixedPick), mb: .main, board: nil)
            }
        }
    }

    /// The ranged action just picked among several, until it runs: its own `choice` says the
    /// pick, or, if it runs silent, ``runsSilent(_:)`` writes it.
    private var pickedRange: String?

    /// A ranged action that records nothing runs: its pick among several, if it was one, is
    /// written as a `next` choice (a replay has no other sign of it).
    private func runsSilent(_ point: String) {
        if pickedRange == point { record(point: Self.nextPoint, value: .string(point), mb: .main, board: nil) }
        pickedRange = nil
    }

    /// The point of a tie-break's `choice`.
    static let nextPoint = "next"
    /// The value of a tie-break's `choice` that took the earliest fixed-time action.
    static let fixedPick = "fixed"

    /// Whether fixed-time actions are tagged (an explorer is hashing pending work).
    var tagging: Bool { scheduler.chooser?.tagsActions ?? false }

    /// The number of this activation of the board declared at `specPath` (1 for the first):
    /// counted for a board whose steps leave something open, and for every board while an
    /// explorer tags actions (0 otherwise: nothing names it).
    func activationNumber(of specPath: String, varies: Bool) -> Int {
        guard varies || tagging else { return 0 }
        let n = (activations[specPath] ?? 0) + 1
        activations[specPath] = n
        return n
    }

    /// How a step of a board is named in choices and tags: `main/pubOtp.onActivate[1]`, with
    /// `#2` for the steps of the board's second activation.
    static func stepLabel(_ board: Board, index: Int, activation: Int) -> String {
        let base = "\(board.motherboardPath ?? "main")/\(board.identifier.rawValue).onActivate[\(index)]"
        return activation > 1 ? "\(base)#\(activation)" : base
    }

    /// Schedules step `index` of `board` (declared at `specPath`) after its delay, which may be a
    /// range; `run` performs it, while `live` (given for a ranged step) says the board's steps
    /// still run.
    func schedule(step: Step, index: Int, of board: Board, specPath: String, activation: Int, live: (() -> Bool)?, _ run: @escaping () -> Void) {
        guard let upTo = step.afterUpTo, let live else {
            guard tagging else { return board.schedule(after: step.after, run) }
            let tag = ScheduleTag(Self.stepLabel(board, index: index, activation: activation), footprint: footprints[specPath] ?? -1)
            board.boardRuntime?.scheduleTraced(after: step.after, tag: tag, run)
            return
        }
        guard let runtime = board.boardRuntime else { return }
        let point = Self.stepLabel(board, index: index, activation: activation) + ".after"
        let mb = board.motherboardPath ?? .main
        let start = scheduler.now
        let tag = ScheduleTag(point, footprint: footprints[specPath] ?? -1)
        let id = board.identifier.rawValue
        let action = { [self] in
            // A board that completed meanwhile takes no step, and so makes no choice.
            guard live() else { return runsSilent(point) }
            pickedRange = nil
            record(point: point, value: (scheduler.now - start).jsonValue, mb: mb, board: id)
            run()
        }
        if scheduler.chooser?.fixesTime(of: tag) == true {
            // Where it falls changes nothing but timestamps: the start of the range, no choice.
            runtime.scheduleTraced(after: step.after, tag: tag, run)
        } else {
            runtime.scheduleTraced(between: step.after, and: upTo, tag: tag, action)
        }
    }

    /// The outcome of step `index` of `board` when it is `"complete": "either"`.
    func outcome(ofStep index: Int, of board: Board, activation: Int) -> Bool {
        let point = Self.stepLabel(board, index: index, activation: activation) + ".complete"
        let ok = scheduler.chooser?.outcome(at: point) ?? true
        record(point: point, value: .bool(ok), mb: board.motherboardPath ?? .main, board: board.identifier.rawValue)
        return ok
    }

    /// Schedules the script's stimuli: those with a time range as ranged actions (recording the
    /// time taken when they fire), the others at their time.
    func schedule(script: [ScriptStep], footprint: (Int) -> Int, apply: @escaping (ScriptStep) -> Void) {
        for (i, step) in script.enumerated() {
            if let upTo = step.atUpTo {
                let point = "script[\(i)].at"
                let tag = ScheduleTag(point, footprint: footprint(i))
                let target: String?
                switch step.action {
                case let .activate(id, _), let .complete(id, _): target = id.rawValue
                default: target = nil
                }
                let action = { [self] in
                    pickedRange = nil
                    record(point: point, value: scheduler.now.jsonValue, mb: step.mb.map { MotherboardPath($0) } ?? .main, board: target)
                    apply(step)
                }
                if scheduler.chooser?.fixesTime(of: tag) == true {
                    // Where it falls changes nothing but timestamps: the start of the range, no
                    // choice (and no choice event).
                    scheduler.schedule(after: step.at, tag: tag) { apply(step) }
                } else {
                    scheduler.schedule(between: step.at, and: upTo, tag: tag, action)
                }
            } else if tagging {
                scheduler.schedule(after: step.at, tag: ScheduleTag("script[\(i)]", footprint: footprint(i))) { apply(step) }
            } else {
                scheduler.schedule(after: step.at) { apply(step) }
            }
        }
    }

    /// Records a `choice`: what varied, what was taken, and the board it is about (where it
    /// falls on a timeline).
    private func record(point: String, value: JSONValue, mb: MotherboardPath, board: String?) {
        var fields = JSONObject()
        fields["point"] = .string(point)
        fields["value"] = value
        if let board { fields["board"] = .string(board) }
        runtime.recordEvent(mb: mb, .choice(fields: fields))
    }
}

extension BoardSpec {
    /// Whether one of its own steps leaves something open (a ranged delay, an open outcome).
    var varies: Bool {
        onActivate.contains { s in
            if s.afterUpTo != nil { return true }
            if case .completeEither = s.action { return true }
            return false
        }
    }
}

extension Scenario {
    /// Whether anything in the scenario may vary: a ranged delay or stimulus time, or an
    /// outcome left open. Without any, it has exactly one schedule.
    public var hasVariation: Bool {
        func varies(_ boards: [BoardSpec]) -> Bool { boards.contains { $0.varies || varies($0.boards) } }
        return script.contains { $0.atUpTo != nil } || varies(boards) || roots.contains { varies($0.boards) }
    }
}

extension Scenario {
    /// The latest time the script can send a stimulus (a ranged one at the end of its range):
    /// the horizon counts from it, so no input of the script is ever runaway work, and a run
    /// cut at `until` or by a bound counts it as the whole run would.
    public var lastStimulus: TraceTime { script.map { $0.atUpTo ?? $0.at }.max() ?? .zero }
}
