import ArgumentParser
import BoardySimulation
import BoardyTrace
import Foundation

/// `explore` on a generated scenario: independent stimuli racing beside dependent ones. How many
/// schedules the reduction runs against the naive count, and how fast.
struct ExploreBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explore",
        abstract: "explore on N independent and M dependent racing stimuli: schedules against the naive count, and schedules/s.",
        discussion: """
            The scenario: each independent stimulus ("at": [0, 4]) activates its own board, which \
            outputs and completes (with an open outcome under --independent-outcomes); each \
            dependent one activates a board behind one gate, which completes after [1, 3] s with \
            an open outcome; a dependent board outputs after [0, 1] s and completes with an open \
            outcome. Expected: the first dependent board runs once (it does not when the gate \
            fails, or when its request comes after the gate resolved and the next run fails). \
            The naive count is computed, not run: every order of the stimuli (all can fire first, \
            at 0) times every outcome (the gate's once, each dependent board's), a lower bound of \
            what naive enumeration runs. On the small \
            instance naive enumeration is run for real and must find the same failures.
            """)

    @Option(help: "Independent racing stimuli.") var independent = 12
    @Option(help: "Dependent racing stimuli.") var dependent = 3
    @Option(help: "Racing stimuli of the small instance (half independent), run naively too.") var small = 6
    @Option(help: "Runs; the median is reported.") var runs = 3
    @Option(help: "Worker threads (default: one per core).") var jobs: Int?
    @Flag(help: "Give the independent boards open outcomes too (2^N more schedules).") var independentOutcomes = false

    static func scenario(independent: Int, dependent: Int, outcomes: Bool) throws -> Scenario {
        var boards: [JSONValue] = [["id": "gate", "onActivate": [["after": [1, 3], "complete": "either"]]]]
        var script: [JSONValue] = []
        for j in 0..<dependent {
            boards.append(["id": .string("dep\(j)"), "activationBarrier": ["board": "gate"], "onActivate": [["after": [0, 1], "output": "done"], ["complete": "either"]]])
            script.append(["at": [0, 4], "activate": .string("dep\(j)")])
        }
        for i in 0..<independent {
            boards.append(["id": .string("ind\(i)"), "onActivate": [["output": "shown"], ["complete": outcomes ? "either" : true]]])
            script.append(["at": [0, 4], "activate": .string("ind\(i)")])
        }
        let o: JSONValue = [
            "scenario": .string("race-\(independent)-\(dependent)"), "boards": .array(boards), "script": .array(script),
            "expect": [["performed": "dep0", "times": 1]],
        ]
        return try ScenarioLoader.load(json: o.jsonText, file: "race.json")
    }

    /// Every order of the stimuli times every outcome (independent boards and the gate).
    static func naiveLowerBound(independent: Int, dependent: Int, outcomes: Bool) -> Double {
        var orders = 1.0
        for k in 1...(independent + dependent) { orders *= Double(k) }
        // The gate's outcome, each dependent board's, and the independent boards' when open.
        return orders * pow(2, Double(dependent + 1 + (outcomes ? independent : 0)))
    }

    func run() throws {
        var options = Explorer.Options()
        if let jobs { options.workers = jobs }
        options.maxSchedules = 10_000_000
        options.timeBudget = 600
        let big = try Self.scenario(independent: independent, dependent: dependent, outcomes: independentOutcomes)
        var times: [Double] = []
        var last: Explorer.Report?
        for _ in 0..<max(1, runs) {
            let start = now()
            let r = Explorer.explore(big, options: options)
            times.append(now() - start)
            last = r
        }
        guard let r = last else { return }
        let seconds = median(times)
        let naive = Self.naiveLowerBound(independent: independent, dependent: dependent, outcomes: independentOutcomes)

        let half = small / 2
        let smallScenario = try Self.scenario(independent: half, dependent: small - half, outcomes: independentOutcomes)
        let reduced = Explorer.explore(smallScenario, options: options)
        var naiveOptions = options
        naiveOptions.reduction = false
        let naiveStart = now()
        let enumerated = Explorer.explore(smallScenario, options: naiveOptions)
        let naiveSeconds = now() - naiveStart
        let same = Set(reduced.failures.map(\.key)) == Set(enumerated.failures.map(\.key))
        let smallBound = Self.naiveLowerBound(independent: half, dependent: small - half, outcomes: independentOutcomes)

        print("big instance: \(independent) independent + \(dependent) dependent racing stimuli; failures: \(r.failures.map(\.key))")
        print("small instance: \(small) racing stimuli; reduced failures \(reduced.failures.map(\.key)), naive \(enumerated.failures.map(\.key))")
        report([
            ("workers", "\(options.workers)"),
            ("explore_schedules", "\(r.schedules)"),
            ("explore_states", "\(r.states)"),
            ("explore_pruned_by_reduction", "\(r.prunedByReduction)"),
            ("explore_merged", "\(r.merged)"),
            ("explore_fixed_ranges", "\(r.fixedRanges)"),
            ("explore_blocked", "\(r.blocked)"),
            ("explore_runs", "\(r.runs)"),
            ("explore_exhausted", "\(r.boundHit == nil)"),
            ("explore_s", fmt(seconds)),
            ("schedules_per_s", fmt(Double(r.schedules) / seconds, 0)),
            ("naive_schedules_lower_bound", String(format: "%.3e", naive)),
            ("reduction_ratio_lower_bound", String(format: "%.3e", naive / Double(max(1, r.schedules)))),
            ("small_reduced_schedules", "\(reduced.schedules)"),
            ("small_naive_schedules_run", "\(enumerated.schedules)"),
            ("small_naive_lower_bound", fmt(smallBound, 0)),
            ("small_naive_s", fmt(naiveSeconds)),
            ("small_naive_exhausted", "\(enumerated.boundHit == nil)"),
            ("small_same_failures", "\(same)"),
        ] + traceSize(Simulator.run(big).jsonl))
    }
}
