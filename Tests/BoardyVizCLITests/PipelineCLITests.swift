import BoardyTestSupport
import Foundation
import FuzzTargets
import Testing

/// The CLI side of the whole-pipeline generative tests (FuzzCorpusTests, `PipelineTests`): fixed
/// generated scenarios and their mutations through the real CLI.
@Suite("Whole pipeline, generated, through the CLI")
struct PipelineCLITests {
    @Test("through the real CLI: generated scenarios succeed in every command; mutations exit 64/65 with file:line, never a crash")
    func commandLine() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pipeline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for seed in UInt8(0)..<6 {
            var g = ScenarioGenome((0..<120).map { UInt8(truncatingIfNeeded: Int($0) * 37 + Int(seed) * 101) })
            let text = g.scenarioJSON()
            let s = dir.appendingPathComponent("s\(seed).json").path
            try Data(text.utf8).write(to: URL(fileURLWithPath: s))
            let t = dir.appendingPathComponent("s\(seed).jsonl").path
            let sim = try runCLI(["simulate", s, "-o", t, "--horizon", "120", "--max-events", "2000"])
            #expect(sim.code == 0 || sim.code == 3, "\(sim.err)\n\(text)")
            for args in [
                ["stats", t], ["graph", s, "-o", dir.appendingPathComponent("g\(seed).svg").path], ["graph", t, "--format", "dot"],
                ["timeline", t, "-o", dir.appendingPathComponent("t\(seed).svg").path], ["export", t], ["replay", t, "--scenario", s],
                ["view", t, "--scenario", s, "-o", dir.appendingPathComponent("v\(seed).html").path], ["coverage", s, t],
            ] {
                let r = try runCLI(args)
                #expect(r.code == 0, "\(args): \(r.err)")
            }
            #expect([0, 3].contains(try runCLI(["check", s]).code))
            let sarif = try runCLI(["check", s, "--format", "sarif"])
            #expect([0, 3].contains(sarif.code))
            let log = try JSONSerialization.jsonObject(with: Data(sarif.out.utf8)) as? [String: Any]
            #expect(log?["version"] as? String == "2.1.0", "\(sarif.out)")
            let bad = dir.appendingPathComponent("bad\(seed).json").path
            try Data(Pipeline.mutate(text, seed: UInt64(seed)).utf8).write(to: URL(fileURLWithPath: bad))
            let r = try runCLI(["check", bad])
            #expect([0, 3, 65].contains(r.code), "\(r.code): \(r.err)")
            if r.code == 65 { #expect(r.err.contains("bad\(seed).json:"), "\(r.err)") }
            let badTrace = dir.appendingPathComponent("bad\(seed).jsonl").path
            try Data(Pipeline.mutate(try String(contentsOfFile: t, encoding: .utf8), seed: UInt64(seed) &* 7).utf8).write(to: URL(fileURLWithPath: badTrace))
            let rt = try runCLI(["stats", badTrace])
            #expect([0, 65].contains(rt.code), "\(rt.code): \(rt.err)")
            if rt.code == 65 { #expect(rt.err.contains("bad\(seed).jsonl:"), "\(rt.err)") }
            let rv = try runCLI(["view", badTrace, "-o", dir.appendingPathComponent("bad\(seed).html").path])
            #expect(rv.code == rt.code, "\(rv.code): \(rv.err)")
            let rc = try runCLI(["coverage", s, badTrace])
            #expect(rc.code == rt.code, "\(rc.code): \(rc.err)")
            if rt.code == 65 { #expect(rc.err.contains("bad\(seed).jsonl:"), "\(rc.err)") }
            // The timeline reads the trace as a table: the same verdict, and nothing written when
            // the trace is refused.
            let badSVG = dir.appendingPathComponent("bad\(seed).svg").path
            let rtl = try runCLI(["timeline", badTrace, "-o", badSVG])
            #expect(rtl.code == rt.code, "\(rtl.code): \(rtl.err)")
            if rt.code == 65 {
                #expect(rtl.err.contains("bad\(seed).jsonl:"), "\(rtl.err)")
                #expect(!FileManager.default.fileExists(atPath: badSVG))
            }
        }
    }
}
