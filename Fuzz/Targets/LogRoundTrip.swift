import Boardy
import BoardyIngest
import BoardyLock
import BoardySimulation
import BoardyTrace

/// Boardy's debug log of a run, read back by `ingest`, against the run's recorded trace: the
/// same requests, activations, outputs, completions and commands, with the same motherboards,
/// in the same order (``LogRoundTrip``). Used by `make fuzz-log`, the generative tests, and the
/// samples' tests.
public enum LogRoundTripCheck {
    /// What one case read: steps compared, the log's size.
    public struct Outcome: Sendable {
        public var steps: Int
        /// Whether the run has what Boardy's log cannot tell apart (``LogRoundTrip/ambiguities(ofRecorded:)``).
        public var ambiguous: Bool
        /// Whether the steps agree in order (false: only as ``LogRoundTrip/sameSteps(recorded:ingested:)``).
        public var exact: Bool
        public var logLines: Int
        public var log: String
    }

    /// Runs `scenario` with the log on, ingests the log, compares; throws a ``Pipeline/Failure``
    /// naming the first difference, or a line of the log that `ingest` could not read.
    @discardableResult
    public static func check(_ scenario: Scenario, bounds: RunBounds = Pipeline.bounds, text: String = "") throws -> Outcome {
        let lines = LockedValue<[String]>([])
        let log = BoardyDebugLog { line in lines.withLockedValue { $0.append(line) } }
        let result = Simulator.run(scenario, bounds: bounds, debugLog: log)
        let captured = lines.withLockedValue { $0 }.joined(separator: "\n") + "\n"
        let ingested: (header: TraceHeader, events: [TraceEvent], summary: IngestSummary)
        do {
            ingested = try BoardyLogIngester.trace(of: captured, name: "run.log")
        } catch {
            throw Pipeline.Failure(description: "ingest failed on the engine's own log: \(error)\n\(text)\n--- log\n\(captured)")
        }
        if let p = ingested.summary.problems.first {
            throw Pipeline.Failure(description: "ingest could not read the engine's own log: \(p)\n\(text)\n--- log\n\(captured)")
        }
        let recorded = LogRoundTrip.steps(of: result.events)
        let read = LogRoundTrip.steps(of: ingested.events)
        let ambiguities = LogRoundTrip.ambiguities(ofRecorded: result.events)
        if let difference = LogRoundTrip.firstDifference(recorded: recorded, ingested: read) {
            // What the log cannot tell apart is held to the same steps, each as often.
            if ambiguities.isEmpty || !LogRoundTrip.sameSteps(recorded: recorded, ingested: read) {
                throw Pipeline.Failure(
                    description: "the log, ingested, differs from the recorded trace: \(difference)\n"
                        + (ambiguities.isEmpty ? "" : "(the run has what the log cannot tell apart: \(ambiguities.joined(separator: "; ")))\n")
                        + "\(text)\n--- log\n\(captured)")
            }
            return Outcome(steps: recorded.count, ambiguous: true, exact: false, logLines: captured.utf8.filter { $0 == 0x0A }.count, log: captured)
        }
        return Outcome(
            steps: recorded.count, ambiguous: !ambiguities.isEmpty, exact: true, logLines: captured.utf8.filter { $0 == 0x0A }.count, log: captured)
    }
}

extension FuzzTargets {
    /// `ingest` over any bytes, read as a console capture in chunks of every size the bytes
    /// choose: it never fails; what it writes is a valid trace (read back strictly, the same
    /// events); `seq` counts from 1, `cause` points back, `t` never decreases; the same bytes in
    /// one chunk give the same trace.
    public static func ingest(_ bytes: UnsafeRawBufferPointer) {
        let whole = IngestCheck.trace(Array(bytes), chunk: max(1, bytes.count))
        let chunk = 1 + Int(bytes.first ?? 0) % 7
        let chunked = IngestCheck.trace(Array(bytes), chunk: chunk)
        precondition(whole.jsonl == chunked.jsonl, "reading in chunks of \(chunk) bytes gave another trace")
        guard let back = try? Trace.read(text: whole.jsonl, name: "ingested.jsonl") else {
            preconditionFailure("an ingested trace does not read back:\n\(whole.jsonl.prefix(2000))")
        }
        precondition(back.events.count == whole.events, "events lost reading an ingested trace back")
    }
}

/// Ingests bytes through ``BoardyLogIngester`` in chunks of a given size.
public enum IngestCheck {
    /// The trace's JSON Lines, and how many events.
    public static func trace(_ bytes: [UInt8], chunk: Int) -> (jsonl: String, events: Int, summary: IngestSummary?) {
        let sink = BoardyLogIngester.CollectingSink()
        let ingester = BoardyLogIngester(sink: sink)
        do {
            try ingester.beginFile("fuzz.log")
            var i = 0
            while i < bytes.count {
                let n = min(chunk, bytes.count - i)
                try bytes[i..<(i + n)].withUnsafeBytes { try ingester.read($0) }
                i += n
            }
            let summary = try ingester.finish()
            let trace = Trace(header: sink.header!, events: sink.events)
            return (trace.jsonl, sink.events.count, summary)
        } catch {
            preconditionFailure("ingest threw on bytes it should read: \(error)")
        }
    }
}
