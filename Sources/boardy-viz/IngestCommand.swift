import ArgumentParser
import BoardyFiles
import BoardyIngest
import BoardyTrace
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

struct IngestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest",
        abstract: "Read a Boardy app's debug log (its console, as captured) into a trace.",
        discussion: """
            Boardy prints a record for every activation, message and interaction in DEBUG builds
            when the scheme's environment has BOARDY_LOG_ENABLED=YES. Save that console (Xcode's,
            a test run's, or a capture with a time and process on every line) and ingest it:
            every record becomes an event; barrier waits, gate runs and releases are read back.
            What still waits at the end of the log is a stuck event, and the exit code is then 3.
            Several logs are read as one capture, in order. The app's own lines are counted and
            skipped; a line that looks like Boardy's but cannot be read is a warning with its
            line. With a time on every record, t is seconds on a live clock; without, the
            header's clock is "order" and t counts records.

            Examples:
              boardy-viz ingest console.log -o run.jsonl
              pbpaste | boardy-viz ingest - -o run.jsonl
              boardy-viz ingest run.log --format json -o run.jsonl
            """)

    @Argument(help: "The captured console (or - for standard input); several are read as one capture.") var logs: [String]
    @Option(name: .shortAndLong, help: "Write the trace here (.jsonl; whole or not at all). Standard output when omitted.") var output: String?
    @Option(help: "The scenario name written in the trace's header.") var scenario: String?
    @Option(
        name: .customLong("max-line-bytes"),
        help: ArgumentHelp("The longest log line read whole, in bytes (a longer one keeps its first bytes, with a warning).", valueName: "bytes"))
    var maximumLineLength: Int = 1 << 20
    @Option(help: "Summary format.") var format: OutputFormat = .text

    func validate() throws {
        if logs.isEmpty { throw ValidationError("give a log file (or - for standard input)") }
        guard maximumLineLength >= 1024 else { throw ValidationError("--max-line-bytes must be at least 1024 (got \(maximumLineLength))") }
    }

    func run() throws {
        let summary = try guarded { () throws -> IngestSummary in
            try checkOneStandardInput(logs)
            for log in logs { try checkInput(log) }
            let out = try Output(output, inputs: logs)
            defer { out.discard() }
            try checkTraceOutput(output)
            let (fd, owned) = try out.openStream()
            defer { if owned { close(fd) } }
            let sink = WriterSink(fd: fd, path: output ?? "standard output")
            let ingester = BoardyLogIngester(options: .init(maximumLineLength: maximumLineLength, scenario: scenario), sink: sink)
            var buffer = [UInt8](repeating: 0, count: 1 << 20)
            for log in logs {
                let name = log == "-" ? "<stdin>" : log
                try ingester.beginFile(name)
                let input: Int32
                if log == "-" {
                    if InputFiles.standardInputIsFolder { throw NoInputError(message: "cannot read standard input: it is a folder; give a file") }
                    input = 0
                } else {
                    switch InputFiles.openNamedInput(log) {
                    case let .failure(error): throw NoInputError(message: "cannot open \(log): \(error.description)")
                    case let .success((descriptor, _)): input = descriptor
                    }
                }
                defer { if input != 0 { close(input) } }
                while true {
                    let n = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
                    if n < 0 {
                        if errno == EINTR { continue }
                        throw NoInputError(message: "cannot read \(name): \(String(cString: strerror(errno)))")
                    }
                    if n == 0 { break }
                    try buffer.withUnsafeBytes { try ingester.read(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
                }
            }
            let summary = try ingester.finish()
            guard summary.records + summary.warnings + summary.notes > 0 else {
                throw InputError(
                    message: "\(logs.joined(separator: ", ")): no Boardy records in \(summary.lines) line\(summary.lines == 1 ? "" : "s"); "
                        + "Boardy prints them in DEBUG builds when the scheme's environment has BOARDY_LOG_ENABLED=YES")
            }
            try sink.close()
            try out.commit()
            return summary
        }
        for p in summary.problems { warn("\(p.file):\(p.line): warning: \(p.message)") }
        for o in summary.observations { warn("\(o.file):\(o.line): note: \(o.message)") }
        let text = format == .json ? Self.json(summary, output: output).jsonText : Self.text(summary, output: output)
        if output == nil { warn(text) } else { print(text) }
        if !summary.stuck.isEmpty || !summary.loops.isEmpty { throw Exit.problems }
    }

    static func text(_ s: IngestSummary, output: String?) -> String {
        var lines: [String] = []
        let names = s.files.joined(separator: ", ")
        lines.append(
            "\(names): \(s.records) Boardy record\(s.records == 1 ? "" : "s"), \(s.warnings) warning\(s.warnings == 1 ? "" : "s"), \(s.notes) note\(s.notes == 1 ? "" : "s") in \(s.lines) lines; "
                + "\(s.foreignLines) line\(s.foreignLines == 1 ? " was" : "s were") not Boardy's"
                + (s.problems.isEmpty ? "" : "; \(s.problems.count) could not be read (warnings above)"))
        switch s.clock {
        case .live: lines.append("clock: live (the capture's times)" + (s.untimedRecords > 0 ? "; \(s.untimedRecords) records had no time" : ""))
        default: lines.append("clock: order (the capture has no times: t counts records)")
        }
        lines.append("trace: \(output ?? "standard output") (\(s.events) events)")
        for l in s.loops {
            lines.append(
                "loop: `\(l.board)` waits on its own barrier"
                    + (l.waits > 1 ? ", \(l.waits) times, each inside the one before (Boardy recursed until the log ends)" : " (Boardy hangs there without a word)"))
        }
        for r in s.stuck.prefix(20) { lines.append("stuck: " + r.sentence) }
        if s.stuck.count > 20 { lines.append("stuck: \(s.stuck.count - 20) more (the trace has them all)") }
        return lines.joined(separator: "\n")
    }

    static func json(_ s: IngestSummary, output: String?) -> JSONValue {
        var o: JSONObject = [
            "logs": .array(s.files.map { .string($0) }), "lines": .int(Int64(s.lines)), "records": .int(Int64(s.records)),
            "warnings": .int(Int64(s.warnings)), "notes": .int(Int64(s.notes)), "foreignLines": .int(Int64(s.foreignLines)),
            "continuationLines": .int(Int64(s.continuationLines)),
            "problems": .array(s.problems.map { ["file": .string($0.file), "line": .int(Int64($0.line)), "message": .string($0.message)] }),
            "observations": .array(s.observations.map { ["file": .string($0.file), "line": .int(Int64($0.line)), "message": .string($0.message)] }),
            "events": .int(Int64(s.events)), "clock": .string(s.clock.rawValue), "untimedRecords": .int(Int64(s.untimedRecords)),
        ]
        o["stuck"] = .array(
            s.stuck.map { r in
                var x: JSONObject = [
                    "barrier": .string(r.barrier), "gate": .string(r.gate), "mb": .string(r.path), "gateway": .bool(r.gateway),
                    "line": .int(Int64(r.openedLine)), "gateActivated": .bool(r.gateActivated),
                    "waiting": .array(
                        r.waiting.map { w in
                            var wo: JSONObject = ["board": w.board.map { .string($0) } ?? .null, "line": .int(Int64(w.line))]
                            if let i = w.input { wo["input"] = .string(i) }
                            return .object(wo)
                        }),
                    "message": .string(r.sentence),
                ]
                if let g = r.gateLine { x["gateLine"] = .int(Int64(g)) }
                return .object(x)
            })
        o["loops"] = .array(s.loops.map { ["board": .string($0.board), "waits": .int(Int64($0.waits))] })
        if let output { o["trace"] = .string(output) }
        return .object(o)
    }
}

/// Streams the ingested trace through a ``TraceWriter`` once its header is known.
private final class WriterSink: IngestSink {
    let fd: Int32
    let path: String
    var writer: TraceWriter?
    init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }
    func begin(_ header: TraceHeader) throws { writer = try TraceWriter(fileDescriptor: fd, path: path, header: header, closesDescriptor: false) }
    func record(_ event: TraceEvent) { writer?.record(event) }
    func close() throws { try writer?.close() }
}
