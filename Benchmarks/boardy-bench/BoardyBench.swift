import ArgumentParser
import Boardy
import Dispatch
import Foundation

/// boardy-bench: the numbers the issues name, measured in a release build. Each subcommand prints
/// its figures last, as `name=value` lines.
@main
struct BoardyBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "boardy-bench",
        abstract: "Measures boardy-viz's engine, recorder, trace codec, simulator and renderer (release build).",
        subcommands: [RecorderBench.self, TraceIOBench.self, SimulateBench.self, RenderBench.self, ReplayBench.self, ImportBench.self, ViewBench.self, FleetBench.self, ExploreBench.self, HostileBench.self, IngestBench.self])
}

/// Monotonic seconds.
func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

func median(_ xs: [Double]) -> Double {
    let s = xs.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

func report(_ pairs: [(String, String)]) {
    for (k, v) in pairs { print("\(k)=\(v)") }
}

func fmt(_ x: Double, _ digits: Int = 3) -> String { String(format: "%.\(digits)f", x) }

/// A trace's size and the part its recorded tie-breaks take (the `choice` lines at point `next`,
/// issue 47): the trace without them is what was written before they were recorded.
func traceSize(_ jsonl: String) -> [(String, String)] {
    var ties = 0
    for line in jsonl.utf8.split(separator: UInt8(ascii: "\n")) where line.count < 200 {
        if String(decoding: line, as: UTF8.self).contains(#""kind":"choice","mb":"main","point":"next""#) { ties += line.count + 1 }
    }
    let total = jsonl.utf8.count
    return [
        ("trace_bytes", "\(total)"), ("trace_tie_bytes", "\(ties)"),
        ("trace_growth_pct", fmt(100 * Double(ties) / Double(max(1, total - ties)), 2)),
    ]
}
