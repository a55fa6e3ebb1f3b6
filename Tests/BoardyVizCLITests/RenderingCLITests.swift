import BoardyTestSupport
import BoardyTrace
import BoardyViz
import BoardyVizCore
import BoardyVizSimulation
import Foundation
import Testing

/// Where these tests came from: their golden files stay in the Fixtures folder beside it
/// (Tests/BoardyVizTests/Fixtures), where `expectGolden` looks.
private let renderingTestsFile = repoRoot.appendingPathComponent("Tests/BoardyVizTests/RenderingTests.swift").path

/// The CLI side of the flow graph tests (BoardyVizTests, `FlowGraphTests` in RenderingTests.swift).
@Suite("Flow graphs through the CLI")
struct FlowGraphCLITests {
    @Test("two renders of the same scenario give the same SVG bytes; DOT before layout is golden")
    func deterministic() throws {
        let model = FlowModel(scenario: try scenario("checkout"))
        let svg = try FlowGraph.render(model, format: .svg)
        // Other renders in between must not change the bytes (cgraph IDs follow creation order).
        _ = try Timeline.render(try sampleTrace("barrier-loop"), format: .svg)
        _ = try FlowGraph.render(FlowModel(scenario: try scenario("analytics-dispatch")), format: .svg)
        #expect(try FlowGraph.render(model, format: .svg) == svg)
        let dot = String(decoding: try FlowGraph.render(model, format: .dot), as: UTF8.self)
        #expect(!dot.contains("pos="))
        // In this process and in a fresh one (the CLI), the same golden text.
        #expect(try runCLI(["graph", "samples/checkout.json", "--format", "dot"]).out == dot)
        try expectGolden(dot, "checkout.graph.dot", filePath: renderingTestsFile)
    }
}

/// The CLI side of the timeline tests (BoardyVizTests, `TimelineTests` in RenderingTests.swift).
@Suite("Timelines through the CLI")
struct TimelineCLITests {
    @Test("two renders give the same SVG bytes; the pinned DOT is golden")
    func deterministic() throws {
        let trace = try sampleTrace("checkout")
        let svg = try Timeline.render(trace, format: .svg)
        _ = try FlowGraph.render(FlowModel(scenario: try scenario("checkout")), format: .svg)
        _ = try Timeline.render(try sampleTrace("analytics-dispatch"), format: .svg)
        #expect(try Timeline.render(trace, format: .svg) == svg)
        let dot = String(decoding: try Timeline.render(trace, format: .dot), as: UTF8.self)
        #expect(try runCLI(["timeline", "samples/traces/checkout.jsonl", "--format", "dot"]).out == dot)
        try expectGolden(dot, "checkout.timeline.dot", filePath: renderingTestsFile)
    }
}

@Suite("Pictures from the CLI")
struct CLIRenderingTests {
    /// The exit code of the built `boardy-viz`.
    func run(_ args: [String]) throws -> Int32 { try runCLI(args).code }

    @Test("graph and timeline write SVG, DOT and PNG; two runs give the same bytes; bad input and usage get 65 and 64")
    func cliDeterministic() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("render-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        func path(_ n: String) -> String { dir.appendingPathComponent(n).path }
        for (i, args) in [["graph", "samples/checkout.json"], ["graph", "samples/traces/checkout.jsonl"], ["timeline", "samples/traces/checkout.jsonl"]].enumerated() {
            #expect(try run(args + ["-o", path("a\(i).svg")]) == 0)
            #expect(try run(args + ["-o", path("b\(i).svg")]) == 0)
            let a = try Data(contentsOf: URL(fileURLWithPath: path("a\(i).svg")))
            #expect(a == (try Data(contentsOf: URL(fileURLWithPath: path("b\(i).svg")))), "\(args)")
            _ = try SVG(Array(a))
            #expect(try run(args + ["--format", "png", "-o", path("c\(i).png")]) == 0)
            #expect(try run(args + ["--format", "dot", "-o", path("d\(i).dot")]) == 0)
        }
        #expect(try run(["graph", "samples/checkout.json", "--format", "gif"]) == 64)
        #expect(try run(["timeline", "samples/traces/checkout.jsonl", "--from", "5", "--to", "2"]) == 64)
        #expect(try run(["timeline", "samples/checkout.json", "-o", path("never.svg")]) == 65)
        #expect(!FileManager.default.fileExists(atPath: path("never.svg")))
    }
}

@Suite("Traces whose root motherboard has any name")
struct AnyRootNameTests {
    /// A sample trace with its root motherboard renamed (`main` → `name`, `main/x` → `name/x`).
    func renamed(_ sample: String, root name: (Int) -> String) throws -> String {
        let text = try String(contentsOfFile: "samples/traces/\(sample).jsonl", encoding: .utf8)
        var lines: [String] = []
        for (i, line) in text.split(separator: "\n").enumerated() {
            let root = name(i)
            lines.append(line.replacingOccurrences(of: #""mb":"main""#, with: #""mb":"\#(root)""#)
                .replacingOccurrences(of: #""mb":"main/"#, with: #""mb":"\#(root)/"#))
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("roots-\(UUID().uuidString).jsonl").path
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test(
        "graph, export, timeline and stats work on a trace whose root is not named main, or with several roots",
        arguments: [("checkout", "app"), ("checkout", "dispatch"), ("analytics-dispatch", "Ünïcode root"), ("barrier-loop", "two roots")])
    func anyRoot(sample: String, root: String) throws {
        let path = try renamed(sample) { i in root == "two roots" ? (i % 2 == 0 ? "left" : "right") : root }
        defer { try? FileManager.default.removeItem(atPath: path) }
        for args in [["graph", path], ["graph", path, "--format", "dot"], ["export", path, "--to", "dot"], ["export", path, "--to", "chrome"],
                     ["timeline", path], ["stats", path]] {
            let r = try runCLI(args)
            #expect(r.code == 0, "\(args): \(r.err)")
            #expect(!r.out.isEmpty, "\(args)")
        }
        // The observed graph keeps the boards, and a continuous board still owns its inner ones.
        let trace = try Trace.read(path: path)
        let model = FlowModel(trace: trace)
        #expect(Set(model.boards.map(\.id)).isSuperset(of: Set(trace.events.compactMap(\.body.board))))
        if sample == "checkout" {
            #expect(model.boards.contains { $0.id == "pubPayment" && $0.inner?.rawValue == "\(root)/pubPayment" })
        }
    }
}

@Suite("A Graphviz without a PNG renderer")
struct MissingPluginTests {
    /// The folder of the Graphviz plugins this process would load: `<libdir of libgvc>/graphviz`.
    static func pluginFolder() throws -> URL {
        let p = Process()
        dieWithParent(p, executable: "/usr/bin/env", arguments: ["pkg-config", "--variable=libdir", "libgvc"])
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let libdir = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        p.waitUntilExit()
        return URL(fileURLWithPath: libdir).appendingPathComponent("graphviz")
    }

    @Test("--format png names the missing plugin, exits 69 and writes nothing; SVG still works")
    func noPNG() throws {
        // A plugin folder (GVBINDIR) with Graphviz's own plugin configuration cut down to the core
        // renderers and the layouts: what a Graphviz built without cairo has.
        let real = try Self.pluginFolder()
        let files = try FileManager.default.contentsOfDirectory(atPath: real.path)
        let config = try #require(files.filter { $0.hasPrefix("config") }.sorted().last, "no plugin configuration in \(real.path)")
        let text = try String(contentsOf: real.appendingPathComponent(config), encoding: .utf8)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gvbin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var kept: [String] = []
        var keeping = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if let first = line.first, first != "\t", first != " ", first != "}", first != "#" {
                let library = String(line.split(separator: " ")[0])
                keeping = ["core", "dot_layout", "neato_layout"].contains { library.hasPrefix("libgvplugin_\($0).") }
                if keeping {
                    try FileManager.default.createSymbolicLink(
                        at: dir.appendingPathComponent(library), withDestinationURL: real.appendingPathComponent(library))
                }
            }
            if keeping { kept.append(String(line)) }
        }
        #expect(kept.contains { $0.contains("svg:svg") })
        #expect(!kept.contains { $0.contains("png:cairo") })
        try (kept.joined(separator: "\n") + "\n").write(to: dir.appendingPathComponent(config), atomically: true, encoding: .utf8)

        let out = dir.appendingPathComponent("checkout.png").path
        let env = ["GVBINDIR": dir.path]
        for args in [["graph", "samples/checkout.json"], ["timeline", "samples/traces/checkout.jsonl"]] {
            let r = try runCLI(args + ["--format", "png", "-o", out], environment: env)
            #expect(r.code == 69, "\(args): \(r.err)")
            #expect(r.err.contains("no plugin for format png"), "\(r.err)")
            #expect(!FileManager.default.fileExists(atPath: out))
            #expect(try runCLI(args + ["--format", "svg"], environment: env).code == 0)
        }
    }
}
