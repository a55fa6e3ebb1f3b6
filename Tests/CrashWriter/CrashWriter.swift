// A process that records a trace to a file and is killed in the middle of it (crash-safety
// test): it records FIRST events, waits a second (the writer flushes every 100 ms), says
// "flushed N", then records until it is killed.
//
// It must never outlive the test: it dies with its parent (Linux: PR_SET_PDEATHSIG) and stops on
// its own after a bounded amount (a crashed test run once left one writing 63 GB).
import BoardyTrace
import Foundation

import CBoardyTrapCatcher

@main
struct CrashWriter {
    static func main() throws {
        let arguments = CommandLine.arguments
        guard arguments.count >= 2 else {
            FileHandle.standardError.write(Data("usage: boardy-crash-writer PATH [FIRST] [BATCHES] [PAUSE_MS]\n".utf8))
            exit(64)
        }
        if boardy_die_with_parent() != 0 { exit(0) }
        let first = arguments.count > 2 ? Int(arguments[2]) ?? 50_000 : 50_000
        // After the flush: at most BATCHES batches of 1,000 events, PAUSE_MS apart.
        let batches = arguments.count > 3 ? Int(arguments[3]) ?? 1_000 : 1_000
        let pause = arguments.count > 4 ? UInt32(arguments[4]) ?? 0 : 0
        let writer = try TraceWriter(path: arguments[1], header: TraceHeader(scenario: "crash"))
        var seq = 0
        func emit(_ n: Int) {
            for _ in 0..<n {
                seq += 1
                writer.record(
                    TraceEvent(
                        seq: seq, t: TraceTime(microseconds: Int64(seq)), mb: "main", cause: seq > 1 ? seq - 1 : nil,
                        body: .outputSent(board: "board-\(seq % 97)", output: .string("payload \(seq) with some text to fill lines"))))
            }
        }
        emit(first)
        usleep(1_000_000)  // well past the 100 ms flush timer, even on a loaded machine
        FileHandle.standardOutput.write(Data("flushed \(seq)\n".utf8))
        // Until killed, as a crashing app would; but never more than BATCHES thousand events.
        for _ in 0..<batches {
            emit(1000)
            if pause > 0 { usleep(pause * 1000) }
        }
        FileHandle.standardError.write(Data("boardy-crash-writer: not killed; stopping at \(seq) events\n".utf8))
        exit(0)
    }
}
