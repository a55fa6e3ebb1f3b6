import ArgumentParser
import Boardy
import Foundation

/// Activations with flow routing, bare vs with an in-memory recorder attached.
struct RecorderBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recorder",
        abstract: "Activations with flow routing: bare vs with a TraceRecorder, as interleaved pairs of runs.")

    @Option(help: "Boards in the chain (each activation routes its output to the next).")
    var boards = 1000
    @Option(help: "Pairs of runs (bare, recorded), interleaved.")
    var pairs = 5
    @Option(help: "Minimum seconds per run.")
    var seconds = 1.0
    @Flag(help: "Only run the recorded side (for profiling).")
    var recordedOnly = false
    @Flag(help: "Only run the bare side (for profiling).")
    var bareOnly = false
    @Flag(help: "Also measure an observer that drops every event (the cost of building events alone).")
    var nullObserver = false

    /// A chain b0 ->> b1 ->> ... where each board sends its input on as its output.
    static func chain(_ n: Int, runtime: BoardyRuntime) -> Motherboard {
        var list: [any ActivatableBoard] = []
        list.reserveCapacity(n)
        for i in 0..<n {
            list.append(ClosureBoard<Int>(identifier: BoardID("b\(i)")) { board, value in board.sendOutput(value &+ 1) })
        }
        let mb = Motherboard(boards: list, runtime: runtime)
        for i in 0..<(n - 1) { mb.registerFlowSteps(BoardID("b\(i)") ->> BoardID("b\(i + 1)")) }
        return mb
    }

    /// Runs whole chains for at least `seconds`; returns activations per second.
    func run(recorder: TraceRecorder?, observer: (any TraceObserver)? = nil) -> (rate: Double, events: Int) {
        let runtime = BoardyRuntime(observer: observer ?? recorder)
        let mb = Self.chain(boards, runtime: runtime)
        var activations = 0
        var events = 0
        mb.activate("b0", with: 0)  // warm up
        recorder?.removeAll(keepingCapacity: true)
        // Only the activations are timed. Between chains the recorder is emptied (keeping its
        // storage) with the clock stopped: a long run would otherwise hold millions of events and
        // measure page faults; discarding events is not recording them.
        var elapsed = 0.0
        while elapsed < seconds {
            let start = now()
            mb.activate("b0", with: 0)
            elapsed += now() - start
            activations += boards
            if let recorder {
                events += recorder.count
                recorder.removeAll(keepingCapacity: true)
            }
        }
        return (Double(activations) / elapsed, events)
    }

    func run() throws {
        var bareRates: [Double] = []
        var recordedRates: [Double] = []
        var ratios: [Double] = []
        var eventsPerActivation = 0.0
        if nullObserver {
            let r = run(recorder: nil, observer: NullObserver())
            print("null observer: \(Int(r.rate)) act/s")
            if recordedOnly { return }
        }
        if bareOnly {
            let r = run(recorder: nil)
            report([("bare_activations_per_s", "\(Int(r.rate))")])
            return
        }
        if recordedOnly {
            let r = run(recorder: TraceRecorder(reservingCapacity: boards * 4 + 16))
            report([("recorded_activations_per_s", "\(Int(r.rate))")])
            return
        }
        for pair in 1...pairs {
            let bare = run(recorder: nil)
            let recorder = TraceRecorder(reservingCapacity: boards * 4 + 16)
            let recorded = run(recorder: recorder)
            bareRates.append(bare.rate)
            recordedRates.append(recorded.rate)
            ratios.append(bare.rate / recorded.rate)
            eventsPerActivation = Double(recorded.events) / (recorded.rate * seconds)
            print(
                "pair \(pair): bare \(Int(bare.rate)) act/s, recorded \(Int(recorded.rate)) act/s, ratio \(fmt(bare.rate / recorded.rate))")
        }
        report([
            ("boards", "\(boards)"),
            ("pairs", "\(pairs)"),
            ("events_per_activation", fmt(eventsPerActivation, 2)),
            ("bare_activations_per_s", "\(Int(median(bareRates)))"),
            ("recorded_activations_per_s", "\(Int(median(recordedRates)))"),
            ("overhead_ratio", fmt(median(ratios))),
        ])
    }
}

/// Drops every event: what building the events costs, without storing them.
final class NullObserver: TraceObserver {
    func record(_ event: consuming TraceEvent) {}
}
