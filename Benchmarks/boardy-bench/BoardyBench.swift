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
