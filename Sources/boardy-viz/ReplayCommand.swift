import ArgumentParser
import Boardy
import BoardyReplay
import BoardyVizSimulation
import BoardySimulation
import Foundation

/// `boardy-viz replay`: re-run a trace's stimuli on a scenario and report the first divergence.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Re-run a trace's stimuli on a scenario and compare, event by event.",
        discussion: """
            Feeds the trace's stimulus events, at their recorded virtual times, to a fresh engine built from the scenario, \
            and compares every event it records with the trace (every field, t and cause included). Exits 0 when they are \
            the same, 1 at the first divergence, printing the events before it, expected vs actual, the fields that differ, \
            the chain of causes back to the stimulus, and a verdict: the flow definition changed (the header's fingerprint \
            differs), the trace was recorded from another scenario (both are named), the trace is damaged (its events are \
            out of order: the first bad seq is named), or same definition, different behaviour.

            --flip SEQ inverts one barrier verdict (a barrier.resolved) or one outside completion (a complete stimulus), \
            runs to the end, and shows where the run now goes: the first divergence and the outcomes that changed; -o \
            writes the new trace. Its verdict is "counterfactual", and it exits 0 (its divergence is what was asked for).

            Examples:
              boardy-viz replay run.jsonl --scenario checkout.json
              boardy-viz replay run.jsonl --scenario checkout.json --format json
              boardy-viz replay run.jsonl --scenario checkout.json --flip 16 -o flip.jsonl
            """)

    @Argument(help: "The recorded trace, or - for standard input.") var trace: String
    @OptionGroup var traceInput: TraceInputOptions
    @Option(help: "The scenario to replay it on.") var scenario: String
    @Option(help: "Report format.") var format: OutputFormat = .text
    @Option(help: "Invert the barrier verdict or outside completion recorded as this seq.") var flip: Int?
    @Option(name: .shortAndLong, help: "With --flip: write the counterfactual trace here (.jsonl; whole or not at all).") var output: String?

    func validate() throws {
        if output != nil, flip == nil { throw ValidationError("-o writes the counterfactual trace: use it with --flip") }
        if let flip, flip < 1 { throw ValidationError("--flip takes the seq of an event (1 or more)") }
    }

    func run() throws {
        let (result, delta, out) = try guarded { () throws -> (ReplayResult, OutcomeDelta?, Output?) in
            try checkOneStandardInput([trace, scenario])
            try checkInput(trace)
            try checkInput(scenario)
            let out = output == nil ? nil : try Output(output, inputs: [trace, scenario])
            defer { out?.discard() }
            try checkTraceOutput(output)
            let s = try loadScenario(scenario)
            let result: ReplayResult
            var recorded: Trace?
            do {
                if trace == "-" || flip != nil {
                    // In memory: standard input is read once, and a flip reads the trace first.
                    let t = try readTrace(trace, order: .lenient)
                    recorded = t
                    result = try Replayer.replay(t, scenario: s, traceName: trace == "-" ? "<stdin>" : trace, options: .init(flip: flip))
                } else {
                    // The trace is read on a second thread while the engine re-runs it; order is
                    // not checked while reading: a gap or reordering is what replay reports.
                    result = try Replayer.replay(tracePath: trace, scenario: s, options: .init(flip: flip))
                    for w in result.readWarnings { warn(w.description) }
                }
            } catch let e as ReplayError {
                // An invalid --flip is bad usage of the flag.
                throw UsageError(message: e.message)
            }
            var delta: OutcomeDelta?
            if flip != nil, let run = result.run {
                delta = OutcomeDelta(recorded: try (recorded ?? readTrace(trace, order: .lenient)).events, run: run)
                if let out, let newTrace = result.runTrace { try out.write(Array(newTrace.jsonl.utf8)) }
            }
            return (result, delta, out)
        }
        _ = out
        switch format {
        case .text:
            print(result.description)
            if let delta {
                print("")
                print(delta.changes.isEmpty ? "where the run now goes: no outcome changed" : "where the run now goes:")
                for c in delta.changes { print("  \(c)") }
                if let output { print("counterfactual trace: \(output)") }
            }
        case .json:
            var o = result.json.objectValue ?? [:]
            if let delta {
                o["outcomes"] = .array(
                    delta.changes.map { ["what": .string($0.what), "before": .int(Int64($0.before)), "after": .int(Int64($0.after))] })
                if let output { o["counterfactualTrace"] = .string(output) }
            }
            print(JSONValue.object(o).jsonText)
        }
        if flip == nil, !result.isSame { throw Exit.failed }
    }
}
