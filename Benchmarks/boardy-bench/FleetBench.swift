import ArgumentParser
import BoardySimulation
import BoardyTrace
import BoardyVizCore
import Foundation

/// `stats` over a fleet: 1,000 traces of about 10,000 events (10 million events), read on every
/// core; events per second and the process's peak memory.
struct FleetBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fleet",
        abstract: "Fleet statistics over 1,000 traces of 10,000 events: events/s on every core and peak memory.",
        discussion: """
            The traces are simulated from 10 seeded scenarios (a 20-board chain behind the gateway, an \
            activation barrier in the middle, delays from the seed) and written 100 times each under \
            /dev/shm when it exists (else the temporary folder), then removed. Timed: FleetStats.read \
            over all of them, median of --runs.
            """)

    @Option(help: "Traces.") var traces = 1_000
    @Option(help: "Events per trace (about).") var events = 10_000
    @Option(help: "Runs; the median is reported.") var runs = 3

    static func scenario(seed: Int, starts: Int) throws -> Scenario {
        var boards: [JSONValue] = [
            ["id": "auth", "onActivate": [["after": .int(Int64(1 + seed % 3)), "complete": true]]],
            ["id": "otp", "onActivate": [["after": .int(Int64(1 + seed % 2)), "complete": true]]],
        ]
        for i in 0..<20 {
            var b: JSONObject = ["id": .string("b\(i)"), "onActivate": [["output": "next"]]]
            if i == 10 { b["activationBarrier"] = ["board": "otp"] }
            boards.append(.object(b))
        }
        let o: JSONValue = [
            "scenario": .string("fleet-\(seed)"), "boards": .array(boards),
            "flows": [.string((0..<20).map { "b\($0)" }.joined(separator: " ->> "))],
            "gateway": ["barrier": "auth", "exempt": ["auth", "otp"]],
            "script": .array((0..<starts).map { ["at": .int(Int64($0 * 5)), "activate": "b0"] }),
        ]
        return try ScenarioLoader.load(json: o.jsonText, file: "fleet-\(seed).json")
    }

    func run() throws {
        let root = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let dir = (root as NSString).appendingPathComponent("boardy-fleet-\(getpid())")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Events per start, measured on one run, then enough starts for the target.
        let probe = Simulator.run(try Self.scenario(seed: 0, starts: 10)).events.count
        let starts = max(1, events * 10 / max(probe, 1))
        var paths: [String] = []
        var total = 0
        for seed in 0..<10 {
            let text = Simulator.run(try Self.scenario(seed: seed, starts: starts)).jsonl
            let count = text.utf8.reduce(0) { $0 + ($1 == 10 ? 1 : 0) } - 1
            for copy in 0..<(traces / 10) {
                let p = (dir as NSString).appendingPathComponent("run-\(seed)-\(copy).jsonl")
                try Data(text.utf8).write(to: URL(fileURLWithPath: p))
                paths.append(p)
                total += count
            }
        }
        var times: [Double] = []
        var stats = FleetStats()
        for _ in 0..<runs {
            let t0 = now()
            let r = FleetStats.read(paths)
            times.append(now() - t0)
            stats = r.stats
            if !r.skipped.isEmpty { throw ValidationError("skipped: \(r.skipped.count)") }
        }
        let median = times.sorted()[times.count / 2]
        var usage = rusage()
        getrusage(rusageSelf, &usage)
        print("traces=\(paths.count)")
        print("events=\(total)")
        print("events_per_trace=\(total / max(paths.count, 1))")
        print("barriers=\(stats.barriers.count)")
        print("fleet_seconds=\(String(format: "%.2f", median))")
        print("cores_available=\(ProcessInfo.processInfo.activeProcessorCount)")
        print("peak_rss_mb=\(String(format: "%.1f", Double(usage.ru_maxrss) / 1024))")
        print("events_per_second=\(Int(Double(total) / median))")
    }
}
