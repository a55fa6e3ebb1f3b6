import ArgumentParser
import Boardy
import BoardyGraphviz
import BoardySimulation
import BoardyTrace
import BoardyViz
import BoardyVizCore
import BoardyVizSimulation
import Foundation

struct ExportCommand: ParsableCommand {
    enum Target: String, ExpressibleByArgument, CaseIterable { case chrome, dot, otlp }

    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a trace as Chrome trace JSON (Perfetto), OTLP/JSON spans (OpenTelemetry) or its observed flow graph as DOT.",
        discussion: """
            Without --to, the output's extension picks: .json is Chrome trace JSON, .dot the
            observed graph; otherwise Chrome trace JSON. --to otlp writes an OTLP/JSON
            ExportTraceServiceRequest (one trace per run; spans for activations, barrier waits,
            gate runs and dispatch pulls, parented through `cause`), its virtual time 0 at
            --epoch; ids come from the trace's content, so the same trace exports the same ids.

            Examples:
              boardy-viz export out/checkout.jsonl -o checkout.chrome.json
              boardy-viz export out/checkout.jsonl --to dot
              boardy-viz export run.jsonl --to otlp --epoch 2026-11-24 -o run.otlp.json
            """)

    @Argument(help: "The trace file, or - for standard input.") var trace: String
    @OptionGroup var traceInput: TraceInputOptions
    @Option(help: "chrome, otlp or dot (default: the output's extension, else chrome).") var to: Target?
    @Option(help: "With --to otlp: the wall-clock time of virtual time 0, as an ISO 8601 date (2026-11-24T09:00:00Z), Unix seconds, or now (the default).")
    var epoch: String = "now"
    @Option(name: .shortAndLong, help: "Write here instead of standard output (whole or not at all).") var output: String?

    /// The target: `--to`, else the output's extension; a contradiction is bad usage.
    func target() throws -> Target {
        let ext = output.map(fileExtension) ?? ""
        let byExtension: Target? = ["json": .chrome, "dot": .dot, "gv": .dot][ext]
        if let output, byExtension == nil, knownExtensions.contains(ext) {
            throw UsageError(message: "\(output) names a .\(ext) file, but export writes Chrome trace JSON (.json) or DOT (.dot)")
        }
        // Chrome trace JSON and OTLP/JSON are both .json.
        if let to, let byExtension, to != byExtension, !(to == .otlp && byExtension == .chrome), let output {
            throw UsageError(message: "--to \(to.rawValue) contradicts \(output) (.\(ext)); drop --to or change the extension")
        }
        return to ?? byExtension ?? .chrome
    }

    /// `--epoch` in Unix nanoseconds.
    func epochNanos() throws -> Int64 {
        if epoch == "now" { return try nanos(Date().timeIntervalSince1970) }
        if let seconds = Double(epoch) { return try nanos(seconds) }
        let full = ISO8601DateFormatter()
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let day = ISO8601DateFormatter()
        day.formatOptions = [.withFullDate]
        guard let date = full.date(from: epoch) ?? fractional.date(from: epoch) ?? day.date(from: epoch) else {
            throw UsageError(message: "--epoch \(epoch): not a date (2026-11-24T09:00:00Z or 2026-11-24), Unix seconds, or now")
        }
        return try nanos(date.timeIntervalSince1970)
    }

    /// Unix `seconds` in nanoseconds (whole microseconds), or bad usage when OTLP's times cannot
    /// hold them: from 1970-01-01 to 2262-04-11 (signed 64-bit nanoseconds).
    func nanos(_ seconds: Double) throws -> Int64 {
        let micros = (seconds * 1_000_000).rounded(.down)
        guard seconds.isFinite, micros >= 0, micros < Double(Int64.max / 1000) else {
            throw UsageError(message: "--epoch \(epoch): out of range; OTLP times run from 1970-01-01 to 2262-04-11 (give a date, Unix seconds, or now)")
        }
        return Int64(micros) * 1000
    }

    func run() throws {
        try guarded {
            try checkInput(trace)
            let out = try Output(output, inputs: [trace])
            defer { out.discard() }
            let target = try target()
            if target != .otlp, epoch != "now" { throw UsageError(message: "--epoch is for --to otlp") }
            if target == .otlp { _ = try epochNanos() }  // a bad date is bad usage before anything is read
            let t = try readTrace(trace)
            switch target {
            case .chrome:
                try checkDoubleTimes(t, file: trace, for: "Chrome's trace format")
                try emit(ChromeTraceExport.export(t).jsonText, to: out)
            case .dot:
                try out.write(try FlowGraph.render(FlowModel(trace: t), format: .dot))
            case .otlp:
                try emit(exportOTLP(t, epochNanos: try epochNanos(), file: trace).jsonText, to: out)
            }
        }
    }
}

/// The OTLP export of `trace`, or malformed input (65) naming the event whose time OTLP cannot
/// hold from this epoch.
func exportOTLP(_ trace: Trace, epochNanos: Int64, file: String) throws -> JSONValue {
    do {
        return try OTLPExport.export(trace, epochNanos: epochNanos)
    } catch {
        throw InputError(message: "\(file): \(error.message)")
    }
}

/// Malformed input (65) when an event's time is past what readers that parse numbers as doubles
/// hold exactly (Chrome's trace format, the viewer's JavaScript), naming the event.
func checkDoubleTimes(_ trace: Trace, file: String, for what: String) throws {
    guard let e = ChromeTraceExport.firstEventPastMaximum(trace) else { return }
    throw doubleTimeError(file: file, seq: e.seq, t: e.t, for: what)
}

/// `checkDoubleTimes` for a trace read as a table.
func checkDoubleTimes(_ table: TraceTable, file: String, for what: String) throws {
    guard let i = table.times.firstIndex(where: { $0.microseconds > ChromeTraceExport.maximumMicroseconds }) else { return }
    throw doubleTimeError(file: file, seq: table.seqs[i], t: table.times[i], for: what)
}

private func doubleTimeError(file: String, seq: Int, t: TraceTime, for what: String) -> InputError {
    InputError(message: "\(file): event \(seq) (t = \(t.microseconds) µs) is past the latest time \(what) holds exactly (2^53 µs, about 285 years)")
}
