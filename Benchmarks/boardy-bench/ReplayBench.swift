import ArgumentParser
import Boardy
import BoardyReplay
import BoardyVizSimulation
import BoardySimulation
import Foundation

/// Replays a generated million-event trace end to end.
struct ReplayBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Records a generated chain scenario (about 1,000,000 events) to a file, then replays it end to end: read the trace, re-run its stimuli, compare every event.",
        discussion: """
            Timed: Replayer.replay(tracePath:scenario:) — it reads the file on a second thread while the engine re-runs \
            the stimuli on the calling thread — and, for the split, a plain Trace.read(path:) of the same file. Not timed: \
            recording the trace and writing the file.
            """)

    @Option(help: "Boards in the chain.") var boards = 1000
    @Option(help: "Times the script activates the head of the chain (4 events per activation).") var starts = 250
    @Option(help: "Runs; the median is reported.") var runs = 3
    @Option(help: "Where to write the trace (deleted afterwards); /dev/shm by default when it exists.")
    var path =
        FileManager.default.fileExists(atPath: "/dev/shm")
        ? "/dev/shm/boardy-bench-replay.jsonl" : FileManager.default.temporaryDirectory.appendingPathComponent("boardy-bench-replay.jsonl").path

    func run() throws {
        let scenario = try SimulateBench.scenario(boards: boards, starts: starts)
        let recorded = Simulator.run(scenario).jsonl
        try Data(recorded.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var rates: [Double] = []
        var reads: [Double] = []
        var events = 0
        for _ in 0..<runs {
            let t0 = now()
            let result = try Replayer.replay(tracePath: path, scenario: scenario)
            let t1 = now()
            guard result.isSame else { throw ValidationError("the replay diverged:\n\(result)") }
            events = result.recordedEvents
            rates.append(Double(events) / (t1 - t0))
            // The read alone, for comparison: what the overlap hides.
            let r0 = now()
            _ = try Trace.read(path: path, order: .lenient)
            reads.append(now() - r0)
        }
        report(traceSize(recorded) + [
            ("events", "\(events)"), ("read_alone_s", fmt(median(reads))), ("replay_s", fmt(Double(events) / median(rates))),
            ("replay_events_per_s", "\(Int(median(rates)))"),
        ])
    }
}
