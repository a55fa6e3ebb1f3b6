import ArgumentParser
import Foundation

/// Issue 32's figures: `check` of a million boards, and `stats` of a file that is one 2 GB line,
/// each through the real `boardy-viz` under GNU time (peak resident memory of that process
/// alone: a child's own rusage would include the memory of the process it was forked from).
struct HostileBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hostile",
        abstract: "check of 100,000 and 1,000,000 boards; stats of one-line files of 256 MB and 2 GB: seconds and peak memory.",
        discussion: """
            The scenarios are a chain of boards, each sending one output, linked by one flow of \
            steps (`b0 ->> b1 ->> …`), activated once: every board is reached and declared once. The \
            one-line files are sparse files of NUL bytes (a corrupt or binary file named .jsonl), \
            so they take no disk. Needs GNU time (/usr/bin/time, which `make deps` installs). \
            --cli names the boardy-viz to run (default: the one built beside this program).
            """)

    @Option(help: "The boardy-viz binary to measure.") var cli: String?

    struct Measured {
        var code: Int32
        var seconds: Double
        var peakMB: Double
    }

    func measure(_ binary: String, _ args: [String]) throws -> Measured {
        let report = NSTemporaryDirectory() + "hostile-bench-\(getpid())-\(UUID().uuidString).txt"
        defer { try? FileManager.default.removeItem(atPath: report) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        p.arguments = ["-f", "%M %e", "-o", report, binary] + args
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        let fields = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n").last?.split(separator: " ") ?? []
        guard fields.count == 2, let kb = Double(fields[0]), let s = Double(fields[1]) else {
            throw ValidationError("GNU time gave no figures for \(args.joined(separator: " "))")
        }
        return Measured(code: p.terminationStatus, seconds: s, peakMB: kb / 1024)
    }

    static func chain(boards: Int) -> String {
        var text = #"{"scenario":"chain","boards":["#
        for i in 0..<boards { text += (i > 0 ? "," : "") + #"{"id":"b\#(i)","onActivate":[{"output":"next"}]}"# }
        text += #"],"flows":[""#
        for i in 0..<boards { text += (i > 0 ? " ->> " : "") + "b\(i)" }
        return text + #""],"script":[{"at":0,"activate":"b0"}]}"#
    }

    func run() throws {
        let binary = cli ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("boardy-viz").path
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else { throw ValidationError("GNU time (/usr/bin/time) is needed: make deps") }
        let dir = NSTemporaryDirectory() + "hostile-bench-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var lines: [String] = []
        for boards in [100_000, 1_000_000] {
            let path = dir + "/chain-\(boards).json"
            try Data(Self.chain(boards: boards).utf8).write(to: URL(fileURLWithPath: path))
            let m = try measure(binary, ["check", path])
            let tag = boards == 1_000_000 ? "1m" : "100k"
            print("check of \(boards) boards: exit \(m.code), \(m.seconds) s, peak \(Int(m.peakMB)) MB")
            lines += ["check_\(tag)_exit=\(m.code)", "check_\(tag)_seconds=\(m.seconds)", "check_\(tag)_peak_mb=\(Int(m.peakMB))"]
            try FileManager.default.removeItem(atPath: path)
        }
        for (size, tag) in [(256 << 20, "256mb"), (2 << 30, "2gb")] {
            let path = dir + "/line-\(tag).jsonl"
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            let fd = open(path, O_WRONLY)
            guard fd >= 0, ftruncate(fd, off_t(size)) == 0 else { throw ValidationError("cannot make a sparse file at \(path)") }
            close(fd)
            let m = try measure(binary, ["stats", path])
            print("stats of one \(tag) line: exit \(m.code), \(m.seconds) s, peak \(Int(m.peakMB)) MB")
            lines += ["stats_line_\(tag)_exit=\(m.code)", "stats_line_\(tag)_seconds=\(m.seconds)", "stats_line_\(tag)_peak_mb=\(Int(m.peakMB))"]
        }
        for l in lines { print(l) }
    }
}
