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
    @Flag(help: "Only read the trace as a table and as rows, repeatedly (for profiling).")
    var tableOnly = false
    @Flag(help: "With --table-only: rows only.")
    var rowsOnly = false
    @Option(help: "Repetitions of the write and the read; the medians are reported.")
    var repeats = 5
    @Option(
        help:
            "Where to write the trace (deleted afterwards). Defaults to /dev/shm when it exists, so disk writeback does not swamp the codec's figures."
    )
    var path =
        FileManager.default.fileExists(atPath: "/dev/shm")
        ? "/dev/shm/boardy-bench-trace-io.jsonl"
        : FileManager.default.temporaryDirectory.appendingPathComponent("boardy-bench-trace-io.jsonl").path

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

    /// Lines in `path`, counted as `wc -l` does: read 1 MiB at a time, newlines found with memchr.
    static func scanLines(_ path: String) throws -> Int {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw ValidationError("cannot open \(path)") }
        defer { close(fd) }
        let chunk = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunk, alignment: 64)
        defer { buffer.deallocate() }
        var lines = 0
        while true {
            let n = read(fd, buffer, chunk)
            if n <= 0 { break }
            var p = buffer
            var left = n
            while left > 0, let q = memchr(p, 0x0A, left) {
                lines += 1
                left -= p.distance(to: q) + 1
                p = q + 1
            }
        }
        return lines
    }

    /// Reads every event's common fields with the fast path, streaming; returns the count (the
    /// fields are summed so that none is skipped).
    static func readRows(_ path: String) throws -> Int {
        var reader = try TraceReader(path: path)
        var n = 0
        var sum = 0
        while try reader.nextRow({ row, _ in sum &+= row.seq &+ Int(row.t.microseconds) &+ Int(row.kind) &+ Int(row.mb) &+ Int(row.board) &+ row.cause }) {
            n += 1
        }
        if sum == 42 { print("") }
        return n
    }

    func run() throws {
        let list = Self.makeEvents(events)
        defer { try? FileManager.default.removeItem(atPath: path) }
        if tableOnly {
            let writer = try TraceWriter(path: path, header: TraceHeader(scenario: "bench"))
            for e in list { writer.record(e) }
            try writer.close()
            var times: [Double] = []
            var rows: [Double] = []
            for _ in 0..<repeats {
                let c0 = now()
                if !rowsOnly { _ = try TraceTable.read(path: path) }
                times.append(now() - c0)
                let r0 = now()
                _ = try Self.readRows(path)
                rows.append(now() - r0)
            }
            report([
                ("table_read_events_per_s", "\(Int(Double(events) / median(times)))"),
                ("rows_read_events_per_s", "\(Int(Double(events) / median(rows)))"),
            ])
            return
        }

        var writeTimes: [Double] = []
        var readTimes: [Double] = []
        var tableTimes: [Double] = []
        var scanTimes: [Double] = []
        var count = 0
        var tableCount = 0
        var scanLines = 0
        var rowTimes: [Double] = []
        var rowCount = 0
        for _ in 0..<repeats {
            let w0 = now()
            let writer = try TraceWriter(path: path, header: TraceHeader(scenario: "bench"))
            for e in list { writer.record(e) }
            try writer.close()
            writeTimes.append(now() - w0)

            let r0 = now()
            var reader = try TraceReader(path: path)
            count = 0
            while try reader.next() != nil { count += 1 }
            readTimes.append(now() - r0)

            // The floor: one pass over the same bytes, read as the reader reads them (1 MiB at
            // a time) and split into lines (memchr), as `wc -l` does.
            let s0 = now()
            scanLines = try Self.scanLines(path)
            scanTimes.append(now() - s0)

            // The fast path, streaming: every event's seq, t, kind, mb, board and cause.
            let f0 = now()
            rowCount = try Self.readRows(path)
            rowTimes.append(now() - f0)

            // The fast path into columns, keeping every line to decode on request.
            let c0 = now()
            let table = try TraceTable.read(path: path)
            tableCount = table.count
            tableTimes.append(now() - c0)
        }
        let writeSeconds = median(writeTimes)
        let tableSeconds = median(tableTimes)
        let scanSeconds = median(scanTimes)
        let rowSeconds = median(rowTimes)
        let readSeconds = median(readTimes)
        let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        print("write s: \(writeTimes.map { fmt($0) }), read s: \(readTimes.map { fmt($0) })")

        // Verified in a second, untimed pass: every event read equals the one written.
        var mismatches = 0
        let table = try TraceTable.read(path: path)
        for i in 0..<min(table.count, list.count) {
            let e = list[i]
            let row = table[i]
            if row.seq != e.seq || row.t != e.t || row.kind != e.kind || row.mb != e.mb || row.board != e.body.board || row.cause != e.cause {
                mismatches += 1
            }
            if try table.event(at: i) != e { mismatches += 1 }
        }
        if table.count != list.count || rowCount != list.count || scanLines != list.count + 1 { mismatches += 1 }
        var verify = try TraceReader(path: path)
        var index = 0
        while let e = try verify.next() {
            if index >= list.count || e != list[index] { mismatches += 1 }
            index += 1
        }

        // Foundation's JSONDecoder on the first lines of the same file, for comparison (the
        // lines are split before the clock starts: only decoding is timed).
        var sample: [Data] = []
        if foundationEvents > 0 {
            let handle = try String(contentsOfFile: path, encoding: .utf8)
            sample = handle.split(separator: "\n", maxSplits: foundationEvents + 1).dropFirst().prefix(foundationEvents).map {
                Data($0.utf8)
            }
        }
        let decoder = JSONDecoder()
        var fCount = 0
        let f0 = now()
        for line in sample {
            let v = try decoder.decode(JSONValue.self, from: line)
            let e = try TraceEvent(jsonObject: v.objectValue!)
            if e != list[fCount] { mismatches += 1 }
            fCount += 1
        }
        let foundationSeconds = now() - f0

        let writeRate = Double(events) / writeSeconds
        let readRate = Double(count) / readSeconds
        let foundationRate = fCount > 0 ? Double(fCount) / foundationSeconds : 0
        report([
            ("events", "\(events)"),
            ("file_bytes", "\(bytes)"),
            ("events_read", "\(count)"),
            ("mismatches", "\(mismatches)"),
            ("write_events_per_s", "\(Int(writeRate))"),
            ("read_events_per_s", "\(Int(readRate))"),
            ("foundation_read_events_per_s", "\(Int(foundationRate))"),
            ("read_vs_foundation", foundationRate > 0 ? fmt(readRate / foundationRate, 2) : "n/a"),
            ("scan_bytes_per_s", "\(Int(Double(bytes) / scanSeconds))"),
            ("rows_read_events_per_s", "\(Int(Double(rowCount) / rowSeconds))"),
            ("rows_read_bytes_per_s", "\(Int(Double(bytes) / rowSeconds))"),
            ("table_read_events_per_s", "\(Int(Double(tableCount) / tableSeconds))"),
            ("table_read_bytes_per_s", "\(Int(Double(bytes) / tableSeconds))"),
            ("table_vs_scan", fmt(scanSeconds / tableSeconds)),
            ("read_vs_scan", fmt(scanSeconds / rowSeconds)),
        ])
        if count != events || mismatches != 0 { throw ExitCode.failure }
    }
}
