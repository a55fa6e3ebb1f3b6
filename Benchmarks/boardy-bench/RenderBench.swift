import ArgumentParser
import Boardy
import BoardyGraphviz
import BoardySimulation
import BoardyViz
import BoardyVizCore
import BoardyVizSimulation
import Foundation

/// Flow graphs and timelines rendered to SVG in-process.
struct RenderBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Renders generated flow graphs (1,000 and 3,000 boards) and timelines (10k and 100k events) to SVG in-process.",
        discussion: """
            Flow graphs: n boards, n/10 modules, each board with 2 seeded-random edges to later
            boards, 5% of boards with one edge back to an earlier board. The baseline renders the
            3,000-board graph with plain dot (default attributes, clusters and labels as for a
            small graph), capped: after --cap seconds it is reported as the cap and the process
            exits (an in-process layout cannot be cancelled). Timelines: a simulated chain
            scenario's trace. Each figure is the median of --runs renders (timelines: at least 7,
            interleaved by size; the baseline: one).
            """)

    @Option(help: "Runs per figure; the median is reported.") var runs = 3
    @Option(help: "Seconds after which the plain-dot baseline is given up.") var cap = 300.0
    @Flag(help: "Skip the plain-dot baseline (it takes minutes).") var skipBaseline = false
    @Option(help: "Only `graph` (flow graphs and the baseline) or `timeline` figures.") var only: Part?

    @Option(help: "Only render one timeline of about this many events, --runs times (for profiling).") var profileEvents: Int?

    enum Part: String, ExpressibleByArgument { case graph, timeline }

    /// SplitMix64: a fixed sequence for a seed, the same on every machine.
    struct SeededRandom {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    }

    static func flowModel(boards n: Int, seed: UInt64 = 42) -> FlowModel {
        var rng = SeededRandom(state: seed)
        var m = FlowModel(title: "generated-\(n)", source: "scenario")
        let modules = max(1, n / 10)
        for i in 0..<n { m.boards.append(.init(id: "b\(i)", module: "M\(i * modules / n)")) }
        for i in 0..<n {
            if i < n - 1 {
                for _ in 0..<2 {
                    let to = i + 1 + rng.below(n - 1 - i)
                    m.links.append(.init(from: "b\(i)", to: "b\(to)", kind: .flow, label: "out\(rng.below(5))"))
                }
            }
            if i > 0 && rng.below(100) < 5 { m.links.append(.init(from: "b\(i)", to: "b\(rng.below(i))", kind: .flow, label: "back")) }
        }
        return m
    }

    static func trace(events target: Int) throws -> Trace {
        // A chain of 50 boards (4 events per activation), restarted by the script.
        let boards = 50
        let starts = max(1, target / (boards * 4))
        let s = try SimulateBench.scenario(boards: boards, starts: starts)
        return Simulator.run(s).trace
    }

    func time(_ body: () throws -> [UInt8]) rethrows -> (seconds: Double, bytes: Int) {
        var times: [Double] = []
        var bytes = 0
        for _ in 0..<runs {
            let t0 = now()
            bytes = try body().count
            times.append(now() - t0)
        }
        return (median(times), bytes)
    }

    func run() throws {
        if let n = profileEvents {
            let trace = try Self.trace(events: n)
            let r = try time { try Timeline.render(trace, format: .svg) }
            report([("profile_events", "\(trace.events.count)"), ("profile_s", fmt(r.seconds)), ("profile_us_per_event", fmt(r.seconds * 1e6 / Double(trace.events.count), 2))])
            return
        }
        var figures: [(String, String)] = []
        for n in [1000, 3000] where only != .timeline {
            let model = Self.flowModel(boards: n)
            let r = try time { try FlowGraph.render(model, format: .svg) }
            figures.append(("graph_\(n)_strategy", FlowGraph.strategy(for: model).rawValue))
            figures.append(("graph_\(n)_svg_bytes", "\(r.bytes)"))
            figures.append(("graph_\(n)_s", fmt(r.seconds)))
        }
        if only != .graph {
            let small = try Self.trace(events: 10_000)
            let large = try Self.trace(events: 100_000)
            // Interleaved (10k, 100k, 10k, 100k, ...) so both sizes see the same machine; the
            // growth is the median of each pair's ratio, which drifts in load cancel out of.
            var small10: [Double] = [], large100: [Double] = [], ratios: [Double] = []
            var bytes100 = 0
            for _ in 0..<max(runs, 7) {
                var t0 = now()
                _ = try Timeline.render(small, format: .svg)
                small10.append(now() - t0)
                t0 = now()
                bytes100 = try Timeline.render(large, format: .svg).count
                large100.append(now() - t0)
                ratios.append(large100.last! / small10.last!)
            }
            let build100 = time { _ = Timeline.graph(large); return [] }
            figures += [
                ("timeline_10k_events", "\(small.events.count)"), ("timeline_100k_events", "\(large.events.count)"),
                ("timeline_10k_s", fmt(median(small10))), ("timeline_100k_s", fmt(median(large100))),
                ("timeline_100k_svg_bytes", "\(bytes100)"), ("timeline_100k_graph_model_s", fmt(build100.seconds)),
                ("timeline_growth", fmt(median(ratios), 2)),
                ("timeline_growth_range", "\(fmt(ratios.min()!, 2))-\(fmt(ratios.max()!, 2))"),
            ]
        }
        guard !skipBaseline, only != .timeline else {
            report(figures)
            return
        }
        // The baseline last: if it runs past the cap, the figures are printed and the process exits.
        let model = Self.flowModel(boards: 3000)
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var seconds = 0.0
        Thread.detachNewThread {
            let t0 = now()
            _ = try? FlowGraph.render(model, format: .svg, strategy: .dot)
            seconds = now() - t0
            done.signal()
        }
        if done.wait(timeout: .now() + cap) == .timedOut {
            figures.append(("dot_plain_3000_capped", "true"))
            figures.append(("dot_plain_3000_s", fmt(cap, 0)))
        } else {
            figures.append(("dot_plain_3000_capped", "false"))
            figures.append(("dot_plain_3000_s", fmt(seconds, 1)))
        }
        if let g = figures.first(where: { $0.0 == "graph_3000_s" }).flatMap({ Double($0.1) }) {
            figures.append(("dot_plain_vs_ours_3000", fmt((figures.last.flatMap { Double($0.1) } ?? 0) / g, 0)))
        }
        report(figures)
        if seconds == 0 { Foundation.exit(0) }
    }
}
