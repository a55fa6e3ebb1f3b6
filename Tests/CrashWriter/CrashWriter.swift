// A process that records a trace to a file and is killed in the middle of it (crash-safety
// test): it records FIRST events, waits a second (the writer flushes every 100 ms), says
// "flushed N", then records until it is killed.
import BoardyTrace
import Foundation

@main
struct CrashWriter {
    static func main() throws {
        let arguments = CommandLine.arguments
        guard arguments.count >= 2 else {
            FileHandle.standardError.write(Data("usage: boardy-crash-writer PATH [FIRST]\n".utf8))
            exit(64)
        }
        let first = arguments.count > 2 ? Int(arguments[2]) ?? 50_000 : 50_000
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
        while true { emit(1000) }
    }
}
