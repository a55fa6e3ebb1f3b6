import BoardyTestSupport
import Foundation
import Testing

@Suite("boardy-viz CLI exit codes")
struct CLITests {
    @Test("test samples/* exits 0; a false expectation exits 1 with what the trace shows")
    func testCommand() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: samplesDir.path).map { "samples/\($0)" }
        #expect(try runCLI(["test"] + names).code == 0)
        let bad = FileManager.default.temporaryDirectory.appendingPathComponent("false-\(UUID().uuidString).json")
        try #"{"scenario":"f","boards":[{"id":"a"}],"expect":[{"performed":"a"}]}"#.write(to: bad, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: bad) }
        let r = try runCLI(["test", bad.path])
        #expect(r.code == 1)
        #expect(r.out.contains("✗ performed a"))
        #expect(r.out.contains("the trace never mentions a"))
    }

    @Test("check exits 3 on barrier-loop naming the cycle, 0 on checkout")
    func checkCommand() throws {
        let loop = try runCLI(["check", "samples/barrier-loop.json"])
        #expect(loop.code == 3)
        #expect(loop.out.contains("pubAuth → pubAuth"))
        #expect(try runCLI(["check", "samples/checkout.json"]).code == 0)
    }

    @Test("simulate exits 3 on loops and stuck barriers, 0 otherwise; malformed input 65; a missing input 66; bad usage 64")
    func simulateCommand() throws {
        #expect(try runCLI(["simulate", "samples/checkout.json", "--format", "json"]).code == 0)
        #expect(try runCLI(["simulate", "samples/barrier-loop.json"]).code == 3)
        #expect(try runCLI(["simulate", "samples/stuck-gate.json"]).code == 3)
        #expect(try runCLI(["simulate", "samples/stuck-gate.json", "--until", "2"]).code == 0)
        let missing = try runCLI(["simulate", "no-such-file.json"])
        #expect(missing.code == 66)
        #expect(missing.err.contains("no-such-file.json"))
        #expect(try runCLI(["simulate"]).code == 64)
        #expect(try runCLI(["simulate", "samples/checkout.json", "--until", "-1"]).code == 64)
        #expect(try runCLI(["frobnicate"]).code == 64)
    }

    @Test("stats and export read traces; a malformed trace exits 65 naming the line; nothing half-written")
    func traceCommands() throws {
        #expect(try runCLI(["stats", "samples/traces/checkout.jsonl", "--format", "json"]).code == 0)
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: out) }
        #expect(try runCLI(["export", "samples/traces/checkout.jsonl", "--to", "chrome", "-o", out.path]).code == 0)
        #expect(FileManager.default.fileExists(atPath: out.path))
        let bad = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString).jsonl")
        try "{\"format\":\"boardy-trace\",\"version\":1}\n{\"seq\":2,\"t\":0,\"kind\":\"x\",\"mb\":\"main\"}\n".write(to: bad, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: bad) }
        let target = FileManager.default.temporaryDirectory.appendingPathComponent("never-\(UUID().uuidString).dot")
        let r = try runCLI(["export", bad.path, "--to", "dot", "-o", target.path])
        #expect(r.code == 65)
        #expect(r.err.contains(":2: seq gap"))
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }

    @Test("timeline, view and coverage read traces as tables: a malformed trace exits 65 naming the file, the line and what was wrong; nothing written")
    func tableCommandsRefuseMalformedTraces() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("malformed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let header = #"{"format":"boardy-trace","version":1}"#
        let good = #"{"seq":1,"t":0,"kind":"stimulus","mb":"main","action":"activate","board":"a"}"#
        let cases: [(name: String, text: String, message: String)] = [
            ("gap", header + "\n" + good + "\n" + #"{"seq":3,"t":0,"kind":"x","mb":"main"}"# + "\n", ":3: seq gap"),
            // A line cut off inside the trace (a cut last line is a truncated write: kept, with a warning).
            ("cut", header + "\n" + good + "\n" + #"{"seq":2,"t":0,"kind":"output.sent","mb":"ma"# + "\n" + good + "\n", ":3:"),
            ("garbage", header + "\n" + good + "\n\u{1}\u{2}not json\n", ":3:"),
            ("time backwards", header + "\n" + #"{"seq":1,"t":5,"kind":"x","mb":"main"}"# + "\n" + #"{"seq":2,"t":1,"kind":"x","mb":"main"}"# + "\n", ":3:"),
        ]
        for c in cases {
            let trace = dir.appendingPathComponent("\(c.name).jsonl")
            try c.text.write(to: trace, atomically: true, encoding: .utf8)
            let svg = dir.appendingPathComponent("\(c.name).svg").path, html = dir.appendingPathComponent("\(c.name).html").path
            for args in [["timeline", trace.path, "-o", svg], ["view", trace.path, "-o", html], ["coverage", "samples/checkout.json", trace.path]] {
                let r = try runCLI(args)
                #expect(r.code == 65, "\(c.name) \(args[0]): \(r.code) \(r.err)")
                #expect(r.err.contains("\(c.name).jsonl" + c.message), "\(c.name) \(args[0]): \(r.err)")
            }
            #expect(!FileManager.default.fileExists(atPath: svg) && !FileManager.default.fileExists(atPath: html))
        }
    }
}
