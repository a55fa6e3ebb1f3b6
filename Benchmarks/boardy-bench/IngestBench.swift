import ArgumentParser
import Boardy
import BoardyLock
import BoardySimulation
import Foundation

/// Issue 44's figures: `ingest` of a large Boardy debug log (1 GB by default) and `stats` of the
/// trace it writes, each through the real `boardy-viz` under GNU time: bytes per second of each,
/// their ratio, and ingest's peak memory.
struct IngestBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest",
        abstract: "ingest of a 1 GB Boardy debug log and stats of its trace: MB/s of each, the ratio, ingest's peak memory.",
        discussion: """
            The log is our engine's Boardy debug log of the samples whose runs end with nothing \
            waiting (checkout, add-to-cart, analytics-dispatch), with the app's own lines between \
            records, repeated up to --megabytes; it is written under /dev/shm when it exists (else \
            the temporary folder), then removed. Timed: `boardy-viz ingest LOG -o TRACE`, then \
            `boardy-viz stats TRACE`, each the median of --runs. Needs GNU time (/usr/bin/time). \
            --cli names the boardy-viz to run (default: the one built beside this program).
            """)

    @Option(help: "The log's size, in MB.") var megabytes = 1024
    @Option(help: "Runs; the median is reported.") var runs = 3
    @Option(help: "The boardy-viz binary to measure.") var cli: String?

    /// One unit of the log: the samples' logs, with lines of the app's own between records.
    static func unit() throws -> String {
        var text = ""
        for name in ["checkout", "add-to-cart", "analytics-dispatch"] {
            let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("samples/\(name).json")
            let s = try ScenarioLoader.load(path: url.path)
            let lines = LockedValue<[String]>([])
            _ = Simulator.run(s, bounds: RunBounds(), keepingEvents: false, debugLog: BoardyDebugLog { r in lines.withLockedValue { $0.append(r) } })
            for (i, record) in lines.withLockedValue({ $0 }).enumerated() {
                if i % 5 == 0 { text += "app: screen \(name) updated (\(i))\n" }
                text += record + "\n"
            }
        }
        return text
    }

    func run() throws {
        let binary = cli ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("boardy-viz").path
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else { throw ValidationError("GNU time (/usr/bin/time) is needed: make deps") }
        let root = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let dir = (root as NSString).appendingPathComponent("boardy-ingest-bench-\(getpid())")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let log = dir + "/app.log", trace = dir + "/app.jsonl"
        // Written in pieces of 16 MB: the bench itself stays small.
        let unit = Array(try Self.unit().utf8)
        var piece: [UInt8] = []
        while piece.count < 16 << 20 { piece += unit }
        let target = megabytes << 20
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        var written = 0
        while written < target {
            try handle.write(contentsOf: piece)
            written += piece.count
        }
        try handle.close()
        var ingests: [HostileBench.Measured] = []
        var statsRuns: [HostileBench.Measured] = []
        for _ in 0..<runs {
            let i = try HostileBench().measure(binary, ["ingest", log, "-o", trace])
            guard i.code == 0 else { throw ValidationError("ingest exited \(i.code)") }
            ingests.append(i)
            let s = try HostileBench().measure(binary, ["stats", trace])
            guard s.code == 0 else { throw ValidationError("stats exited \(s.code)") }
            statsRuns.append(s)
        }
        let traceBytes = (try FileManager.default.attributesOfItem(atPath: trace)[.size] as? Int) ?? 0
        let ingest = ingests.sorted { $0.seconds < $1.seconds }[runs / 2]
        let stats = statsRuns.sorted { $0.seconds < $1.seconds }[runs / 2]
        let ingestRate = Double(written) / 1_048_576 / max(ingest.seconds, 0.001)
        let statsRate = Double(traceBytes) / 1_048_576 / max(stats.seconds, 0.001)
        print("log_mb=\(String(format: "%.0f", Double(written) / 1_048_576))")
        print("trace_mb=\(String(format: "%.0f", Double(traceBytes) / 1_048_576))")
        print("ingest_seconds=\(String(format: "%.2f", ingest.seconds))")
        print("ingest_mb_per_s=\(String(format: "%.1f", ingestRate))")
        print("ingest_peak_rss_mb=\(String(format: "%.1f", ingests.map(\.peakMB).max() ?? 0))")
        print("stats_seconds=\(String(format: "%.2f", stats.seconds))")
        print("stats_mb_per_s=\(String(format: "%.1f", statsRate))")
        print("ingest_vs_stats=\(String(format: "%.3f", ingestRate / max(statsRate, 0.001)))")
    }
}
