import ArgumentParser
import BoardySimulation
import BoardyTrace
import BoardyViz
import BoardyVizCore
import Foundation

/// `view` on a 1,000,000-event trace: the page's size, the time to write it, and the time headless
/// Chromium takes from navigation start to the page's ready mark (its table answering), measured
/// by Benchmarks/view_load.py through Selenium.
struct ViewBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "view",
        abstract: "Writes the HTML viewer of a simulated 1,000,000-event trace and loads it in headless Chromium.",
        discussion: "Needs /usr/bin/chromium, /usr/bin/chromedriver and Selenium (make browser-deps). Median of --runs loads.")

    @Option(help: "Events in the trace.") var events = 1_000_000
    @Option(help: "Browser loads; the median is reported.") var runs = 3
    @Option(help: "Where to keep the page (default: a temporary file, removed after).") var keep: String?

    func run() throws {
        let trace = try RenderBench.trace(events: events)
        let model = FlowModel(trace: trace)
        let t0 = now()
        let page = try TraceView.html(trace, model: model)
        let writeSeconds = now() - t0
        let path = keep ?? FileManager.default.temporaryDirectory.appendingPathComponent("boardy-view-bench-\(getpid()).html").path
        try Data(page).write(to: URL(fileURLWithPath: path))
        defer { if keep == nil { try? FileManager.default.removeItem(atPath: path) } }
        print("events=\(trace.events.count)")
        print("view_write_s=\(String(format: "%.2f", writeSeconds))")
        print("view_file_mb=\(String(format: "%.1f", Double(page.count) / 1_000_000))")
        fflush(nil)  // our lines first, then the loader's
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("view_load.py").path
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", script, path, String(runs)]
        try p.run()
        p.waitUntilExit()
        if p.terminationStatus != 0 { throw ExitCode(p.terminationStatus) }
    }
}
