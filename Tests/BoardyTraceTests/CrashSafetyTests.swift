import Foundation
import Testing

@testable import BoardyTrace

@Suite("Crash safety")
struct CrashSafetyTests {
    @Test("a recording process killed with SIGKILL mid-stream leaves a file that loads, with everything flushed before the kill")
    func sigkill() throws {
        let bin = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("boardy-crash-writer")
        let exe =
            FileManager.default.fileExists(atPath: bin.path)
            ? bin
            : URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent(".build/debug/boardy-crash-writer")
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
}
