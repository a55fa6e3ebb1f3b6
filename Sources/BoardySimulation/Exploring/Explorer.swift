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
        /// What kind of failure a schedule shows (the `kind` of `explore --json`, and the
        /// `failure-N-<kind>.jsonl` file name).
        public enum Kind: String, Sendable, CaseIterable, Comparable {
            /// A barrier loop (`loop:<boards>`) the scenario does not expect.
            case loop
            /// A barrier stuck at the end of the run (`stuck:<barrier>`).
            case stuck
            /// The run stopped by a bound (`runaway:<bound>`).
            case runaway
            /// An expectation that does not hold (`expect[<index>]`).
            case expect

            /// By name, as failures are listed.
            public static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }
        }

        /// What it is, stable across schedules: `loop:a,b`, `stuck:pubAuth`, `runaway:horizon`,
        /// `expect[2]`.
        public var key: String
        /// What kind of failure it is.
        public var kind: Kind
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
