import Foundation
import Testing

@testable import BoardyTrace

@Suite("Crash safety")
struct CrashSafetyTests {
    /// The writer the tests start.
    static var writer: URL {
        let bin = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("boardy-crash-writer")
        return FileManager.default.fileExists(atPath: bin.path)
            ? bin
            : URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent(".build/debug/boardy-crash-writer")
    }

    @Test("a recording process killed with SIGKILL mid-stream leaves a file that loads, with everything flushed before the kill")
    func sigkill() throws {
        let exe = Self.writer
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("crash-\(getpid()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        for run in 0..<3 {
            let p = Process()
            p.executableURL = exe
            p.arguments = [path, "\(20_000 + run * 7_919)"]
            let out = Pipe()
            p.standardOutput = out
            try p.run()
            // Wait for "flushed N", then kill it while it keeps writing.
            var said = ""
            while !said.contains("\n") {
                let chunk = out.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                said += String(decoding: chunk, as: UTF8.self)
            }
            usleep(UInt32(run) * 20_000)
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            #expect(p.terminationReason == .uncaughtSignal)
            let flushed = try #require(Int(said.split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""), "said \(said)")

            // The file loads (strictly: seq without gaps), with at most a cut-off last line.
            let trace = try Trace.read(path: path)
            #expect(trace.warnings.count <= 1)
            #expect(trace.events.count >= flushed, "run \(run): \(trace.events.count) events in the file, \(flushed) flushed before the kill")
            // What was lost is at most the writer's unflushed buffer: the partial tail is below 64 KiB.
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            let tail = bytes.count - (bytes.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0)
            #expect(tail < TraceWriter.flushBytes)
        }
    }

    #if os(Linux)
        /// Whether `pid` is a live process: a dead one waiting to be reaped (a zombie, state `Z`
        /// in /proc) is not.
        static func isRunning(_ pid: pid_t) -> Bool {
            guard kill(pid, 0) == 0 else { return false }
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return false }
            return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first != "Z"
        }

        @Test("the writer dies with the process that started it: a killed test run leaves no process and no file growing")
        func writerDiesWithItsParent() throws {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("crash-parent-\(getpid()).jsonl").path
            defer { try? FileManager.default.removeItem(atPath: path) }
            // A shell starts the writer and waits: the writer's parent is the shell, which is then
            // killed as a test run would be. The writer paces itself (1,000 events every 50 ms,
            // for up to 100 s), so only its parent's death stops it within the wait below.
            let shell = Process()
            shell.executableURL = URL(fileURLWithPath: "/bin/sh")
            shell.arguments = ["-c", "\"$0\" \"$1\" 1000 2000 50 > /dev/null & echo $!; wait", Self.writer.path, path]
            let out = Pipe()
            shell.standardOutput = out
            try shell.run()
            var said = ""
            while !said.contains("\n") {
                let chunk = out.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                said += String(decoding: chunk, as: UTF8.self)
            }
            let writerPID = try #require(said.split(separator: "\n").first.flatMap { pid_t($0.trimmingCharacters(in: .whitespaces)) }, "said \(said)")
            // Writing: its file has lines (a generous minute for a loaded machine).
            let started = Date().addingTimeInterval(60)
            while ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) == 0, Date() < started { usleep(10_000) }
            #expect(Self.isRunning(writerPID), "the writer runs")
            kill(shell.processIdentifier, SIGKILL)
            // Gone within a generous minute (it is killed at once; a loaded machine may be slow).
            let deadline = Date().addingTimeInterval(60)
            while Self.isRunning(writerPID), Date() < deadline { usleep(10_000) }
            #expect(!Self.isRunning(writerPID), "the writer outlived its parent")
            shell.waitUntilExit()
            let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            usleep(300_000)
            #expect(((try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) == size, "the file still grows")
        }
    #endif
}
