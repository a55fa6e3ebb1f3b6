import Boardy
import BoardyReplay
import BoardySimulation
import BoardyTestSupport
import BoardyVizSimulation
import Foundation
import Testing

let exploreFixtures = repoRoot.appendingPathComponent("Tests/BoardySimulationTests/Fixtures/explore")

func exploreFixture(_ name: String) throws -> Scenario {
    try ScenarioLoader.load(path: exploreFixtures.appendingPathComponent("\(name).json").path)
}

@Suite("explore: every schedule a scenario's declared variation allows")
struct ExploreTests {
    /// The planted order-dependent bugs: the failure each must show, and its fixed twin.
    static let planted: [(name: String, kind: String, key: String)] = [
        // The gate completes false only when the promotion's request comes second.
        ("gate-order", "expect", "expect[0]"),
        // The flush loses its events only when the network dropped before it.
        ("flush-offline", "expect", "expect[0]"),
        // The barrier loop is reached only when the gateway's failure comes first.
        ("loop-order", "loop", "loop:gA,gB"),
    ]

    @Test("each planted bug is found, its counterexample replays exactly, and the fixed scenario explores clean", arguments: planted.map(\.name))
    func plantedBugs(_ name: String) throws {
        let expected = Self.planted.first { $0.name == name }!
        let s = try exploreFixture(name)
        // Its default run (each range at its start) does not show the bug: only exploring does.
        let report = Explorer.explore(s)
        #expect(report.boundHit == nil)
        #expect(report.failures.map(\.key) == [expected.key], "\(report.failures.map(\.message))")
        let failure = try #require(report.failures.first)
        #expect(failure.kind.rawValue == expected.kind)
        #expect(failure.trace.events.contains { $0.kind == "choice" })
        let replay = try Replayer.replay(failure.trace, scenario: s)
        #expect(replay.divergence == nil, "\(String(describing: replay.divergence))")
        #expect(replay.replayedEvents == failure.trace.events.count)

        let fixed = Explorer.explore(try exploreFixture(name + "-fixed"))
        #expect(fixed.failures.isEmpty, "\(fixed.failures.map(\.message))")
        #expect(fixed.boundHit == nil)
        #expect(fixed.schedules >= 1)
    }

    @Test("naive enumeration finds the same failures as the reduced search, running at least as many schedules", arguments: planted.map(\.name))
    func naiveAgrees(_ name: String) throws {
        let s = try exploreFixture(name)
        var naive = Explorer.Options()
        naive.reduction = false
        let a = Explorer.explore(s)
        let b = Explorer.explore(s, options: naive)
        #expect(Set(a.failures.map(\.key)) == Set(b.failures.map(\.key)))
        #expect(b.schedules >= a.schedules)
        #expect(b.states == 0 && b.prunedByReduction == 0)
    }

    @Test("a scenario that declares nothing varying has exactly one schedule")
    func noVariation() throws {
        for name in ["checkout", "add-to-cart", "analytics-dispatch"] {
            let s = try ScenarioLoader.load(path: samplesDir.appendingPathComponent("\(name).json").path)
            let r = Explorer.explore(s)
            #expect(r.schedules == 1, "\(name)")
            #expect(!r.varies)
            #expect(r.failures.isEmpty)
            #expect(r.boundHit == nil)
        }
        // The plain run of a scenario without variation records no choice.
        let plain = Simulator.run(try ScenarioLoader.load(path: samplesDir.appendingPathComponent("checkout.json").path))
        #expect(!plain.trace.events.contains { $0.kind == "choice" })
    }

    @Test("the same exploration gives the same report and the same counterexample, on one thread or two")
    func deterministic() throws {
        let s = try exploreFixture("gate-order")
        var one = Explorer.Options()
        one.workers = 1
        let a = Explorer.explore(s)
        let b = Explorer.explore(s, options: one)
        #expect(a.schedules == b.schedules)
        #expect(a.states == b.states)
        #expect(a.prunedByReduction == b.prunedByReduction)
        #expect(a.failures.map(\.trace.jsonl) == b.failures.map(\.trace.jsonl))
    }

    @Test("a plain run takes each range at its start and true for an open outcome, recording each choice; replay makes them again")
    func plainRunRecordsChoices() throws {
        let s = try ScenarioLoader.load(
            json: """
                {"scenario":"r","boards":[
                  {"id":"gate","onActivate":[{"after":[1,5],"complete":"either"}]},
                  {"id":"pay","activationBarrier":{"board":"gate"}},
                  {"id":"home"}],
                 "script":[{"at":[0,4],"activate":"pay"},{"at":2,"activate":"home"}]}
                """)
        let run = Simulator.run(s)
        // Three choices of what varied. The ranged stimulus and the gate's step were each taken
        // among several actions that could run; their own choices say so, so no `next`.
        let points = run.trace.events.compactMap { e -> String? in
            guard case let .choice(fields) = e.body else { return nil }
            return fields["point"]?.stringValue
        }
        #expect(points.filter { $0 != "next" }.count == 3)
        #expect(points.filter { $0 == "next" }.count == 0)
        #expect(run.trace.header.extra["ties"] == "recorded")
        let replay = try Replayer.replay(run.trace, scenario: s)
        #expect(replay.divergence == nil)
        #expect(run.trace.events.contains { $0.kind == "activation.performed" && $0.body.board == "pay" && $0.t == .seconds(1) })
    }

    @Test("a tie-break is written where nothing else tells it: a fixed action taken beside a range, a ranged step that runs silent")
    func tieBreaksWrittenWhereNeeded() throws {
        // Found by `make fuzz-replay` (seed 101): b0's second activation's ranged step runs after
        // b0 completed (silent), taken among several.
        let s = try ScenarioLoader.load(
            json: """
                {"scenario":"gen43","boards":[{"id":"b0","kind":"board","module":"m0","onActivate":[{"after":1,"activate":"b0","input":4},{"after":[2,4],"complete":true}]}],
                 "flows":[{"from":"b0","flowAction":true,"on":"a0","activate":"b0"},{"from":"b0","complete":"b0","with":true},{"from":"b0","activate":"b0"}],
                 "script":[{"at":0,"activate":"b0","input":1},{"at":[8,12],"activate":"b0"},{"at":1,"activate":"b0"},{"at":11,"complete":"b0","with":true},{"at":3,"complete":"b0","with":true}]}
                """)
        let run = Simulator.run(s, bounds: RunBounds(horizon: .seconds(120), maxEvents: 100))
        let picks = run.trace.events.compactMap { e -> String? in
            guard case let .choice(fields) = e.body, fields["point"] == "next" else { return nil }
            return fields["value"]?.stringValue
        }
        #expect(picks.contains("fixed"))
        #expect(picks.contains("main/b0.onActivate[1]#2.after"))
        // Every ranged pick written is one that made no choice of its own.
        let own = Set(run.trace.events.compactMap { e -> String? in
            guard case let .choice(fields) = e.body, fields["point"] != "next" else { return nil }
            return fields["point"]?.stringValue
        })
        #expect(picks.allSatisfy { $0 == "fixed" || !own.contains($0) })
        #expect(try Replayer.replay(run.trace, scenario: s).divergence == nil)
    }

    @Test("every counterexample of a randomised search replays, and every schedule count is bounded by the naive one")
    func explorationsReplay() throws {
        // Two boards behind one gate whose outcome and delay vary, requested at ranged times.
        for seed in 0..<6 {
            let a = seed % 3, b = (seed + 1) % 4
            let s = try ScenarioLoader.load(
                json: """
                    {"scenario":"g\(seed)","boards":[
                      {"id":"gate","onActivate":[{"after":[1,\(2 + a)],"complete":"either"}]},
                      {"id":"x","activationBarrier":{"board":"gate"},"onActivate":[{"after":[0,\(1 + b)],"output":"done"}]},
                      {"id":"y","activationBarrier":{"board":"gate"}},
                      {"id":"z"}],
                     "flows":[{"from":"x","on":"done","activate":"z"}],
                     "script":[{"at":[0,\(a + 1)],"activate":"x"},{"at":[0,\(b + 1)],"activate":"y"},{"at":\(a + b),"activate":"z"}],
                     "expect":[{"performed":"z","times":2}]}
                    """)
            var naive = Explorer.Options()
            naive.reduction = false
            let r = Explorer.explore(s)
            let n = Explorer.explore(s, options: naive)
            #expect(Set(r.failures.map(\.key)) == Set(n.failures.map(\.key)), "seed \(seed)")
            #expect(r.schedules <= n.schedules)
            for f in r.failures {
                let replay = try Replayer.replay(f.trace, scenario: s)
                #expect(replay.divergence == nil, "seed \(seed) \(f.key): \(String(describing: replay.divergence))")
            }
        }
    }

    @Test("bounds: a search stopped by --max-schedules says so; --max-depth too")
    func bounds() throws {
        let s = try exploreFixture("flush-offline-fixed")
        var o = Explorer.Options()
        o.maxSchedules = 1
        o.workers = 1
        let r = Explorer.explore(s, options: o)
        #expect(r.boundHit == "max-schedules")
        var d = Explorer.Options()
        d.maxDepth = 1
        let q = Explorer.explore(try exploreFixture("gate-order"), options: d)
        #expect(q.boundHit == "max-depth" || !q.failures.isEmpty)
    }

    @Test("a space too large to cover stops at its time budget, says so, and keeps memory bounded")
    func hugeSpace() throws {
        // Forty requests racing for one gate whose delay and outcome vary: far more schedules
        // than any budget.
        var script: [String] = []
        for i in 0..<40 { script.append(#"{"at":[0,30],"activate":"p\#(i % 4)","input":\#(i)}"#) }
        let boards = (0..<4).map { #"{"id":"p\#($0)","activationBarrier":{"board":"gate"},"onActivate":[{"after":[0,2],"output":"x"}]}"# }
        let s = try ScenarioLoader.load(
            json: #"{"scenario":"huge","boards":[{"id":"gate","onActivate":[{"after":[1,9],"complete":"either"}]},"#
                + boards.joined(separator: ",") + #"],"script":["# + script.joined(separator: ",") + "]}")
        final class Seen: @unchecked Sendable {
            // Written by the explorer's progress thread, read after `explore` returns (which
            // waits for that thread): the lock orders them.
            let lock = NSLock()
            var reports: [Explorer.Progress] = []
        }
        let seen = Seen()
        var o = Explorer.Options()
        o.timeBudget = 1.5
        o.progress = { p in
            seen.lock.lock()
            seen.reports.append(p)
            seen.lock.unlock()
        }
        let start = Date()
        let r = Explorer.explore(s, options: o)
        #expect(Date().timeIntervalSince(start) < 20)
        #expect(r.boundHit == "time-budget" || r.boundHit == "max-schedules")
        #expect(r.schedules > 0)
        seen.lock.lock()
        let reports = seen.reports
        seen.lock.unlock()
        #expect(!reports.isEmpty)
        #expect(reports.map(\.schedules) == reports.map(\.schedules).sorted())
        #expect((reports.last?.schedules ?? .max) <= r.schedules)
    }

    @Test("malformed ranges and outcomes are errors naming the path")
    func malformed() throws {
        let cases: [(String, String)] = [
            (#"{"scenario":"m","boards":[{"id":"a","onActivate":[{"after":[5,1],"output":1}]}]}"#, "boards[0].onActivate[0].after"),
            (#"{"scenario":"m","boards":[{"id":"a","onActivate":[{"after":[1],"output":1}]}]}"#, "[from, to]"),
            (#"{"scenario":"m","boards":[{"id":"a","onActivate":[{"after":["x",2],"output":1}]}]}"#, "after[0]"),
            (#"{"scenario":"m","boards":[{"id":"a","onActivate":[{"after":[1,-2],"output":1}]}]}"#, "negative"),
            (#"{"scenario":"m","boards":[{"id":"a","onActivate":[{"complete":"maybe"}]}]}"#, "either"),
            (#"{"scenario":"m","boards":[{"id":"a"}],"script":[{"at":[0,1,2],"activate":"a"}]}"#, "script[0].at"),
            (#"{"scenario":"m","boards":[{"id":"a"}],"script":[{"at":[0,1e300],"activate":"a"}]}"#, "too large"),
        ]
        for (json, needle) in cases {
            do {
                _ = try ScenarioLoader.load(json: json)
                Issue.record("accepted \(json)")
            } catch {
                #expect(error.description.contains(needle), "\(error.description)")
            }
        }
    }
}
