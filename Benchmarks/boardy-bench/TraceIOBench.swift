import ArgumentParser
import Boardy
import Foundation

/// Writes and reads back a large trace file.
struct TraceIOBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trace-io",
        abstract: "Writes N events with TraceWriter and reads them back with TraceReader; compares with Foundation's JSONDecoder.")

    @Option(help: "Events to write and read.")
    var events = 1_000_000
    @Option(help: "Events Foundation's JSONDecoder reads, for the comparison (it is slow).")
    var foundationEvents = 100_000
    @Option(help: "Where to write the trace (deleted afterwards).")
    var path = FileManager.default.temporaryDirectory.appendingPathComponent("boardy-bench-trace-io.jsonl").path

    /// A realistic mix: the four events of a routed activation, cycling over 1,000 boards.
    static func makeEvents(_ n: Int) -> [TraceEvent] {
        var out: [TraceEvent] = []
        out.reserveCapacity(n)
        var t: Int64 = 0
        for seq in 1...n {
            let board = "pubBoard\(seq / 4 % 1000)"
            let body: TraceEvent.Body
            switch seq % 4 {
            case 1: body = .activationRequested(board: board, source: "pubSource", input: .string("cart-\(seq)"))
            case 2: body = .activationPerformed(board: board, input: .string("cart-\(seq)"))
            case 3: body = .outputSent(board: board, output: .object(["order": .int(Int64(seq)), "ok": true]))
            default: body = .flowRouted(from: board, output: .string("checkout"), to: "pubNext", action: "activate")
            }
            if seq % 16 == 0 { t += 1500 }
            out.append(TraceEvent(seq: seq, t: TraceTime(microseconds: t), mb: "main", cause: seq > 1 ? seq - 1 : nil, body: body))
        }
        return out
    }

    func run() throws {
        let list = Self.makeEvents(events)
        defer { try? FileManager.default.removeItem(atPath: path) }

        let w0 = now()
        let writer = try TraceWriter(path: path, header: TraceHeader(scenario: "bench"))
        for e in list { writer.record(e) }
        try writer.close()
        let writeSeconds = now() - w0
        let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0

        let r0 = now()
        var reader = try TraceReader(path: path)
        var count = 0
        var mismatches = 0
        while let e = try reader.next() {
            if e != list[count] { mismatches += 1 }
            count += 1
        }
        let readSeconds = now() - r0

        // Foundation's JSONDecoder on the first lines of the same file, for comparison.
        let f0 = now()
        var fCount = 0
        let decoder = JSONDecoder()
        let handle = try String(contentsOfFile: path, encoding: .utf8)
        for line in handle.split(separator: "\n").dropFirst().prefix(foundationEvents) {
            let v = try decoder.decode(JSONValue.self, from: Data(line.utf8))
            let e = try TraceEvent(jsonObject: v.objectValue!)
            if e != list[fCount] { mismatches += 1 }
            fCount += 1
        }
        let foundationSeconds = now() - f0

        let writeRate = Double(events) / writeSeconds
        let readRate = Double(count) / readSeconds
        let foundationRate = Double(fCount) / foundationSeconds
        report([
            ("events", "\(events)"),
            ("file_bytes", "\(bytes)"),
            ("events_read", "\(count)"),
            ("mismatches", "\(mismatches)"),
            ("write_events_per_s", "\(Int(writeRate))"),
            ("read_events_per_s", "\(Int(readRate))"),
            ("foundation_read_events_per_s", "\(Int(foundationRate))"),
            ("read_vs_foundation", fmt(readRate / foundationRate, 2)),
        ])
        if count != events || mismatches != 0 { throw ExitCode.failure }
    }
}
