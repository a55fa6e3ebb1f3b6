import BoardyTestSupport
import Foundation
import Testing

/// `boardy-viz ingest` end to end: a real Boardy log in, a trace out, the exit codes of the
/// contract, standard input, several logs as one capture, a JSON summary; and every view takes
/// the trace it writes.
@Suite("CLI: ingest")
struct IngestCLITests {
    static let fixtures = repoRoot.appendingPathComponent("Tests/BoardyIngestTests/Fixtures/boardy-1.63.1")
    static func log(_ name: String) -> String { fixtures.appendingPathComponent(name).path }

    func temp() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ingest-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test("a log that ends well: the trace, a summary, exit 0")
    func ok() throws {
        let dir = try temp()
        let out = dir.appendingPathComponent("run.jsonl").path
        let r = try runCLI(["ingest", Self.log("barrier-release.log"), "-o", out])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out.contains("10 Boardy records"))
        #expect(r.out.contains("clock: order"))
        let trace = try String(contentsOfFile: out, encoding: .utf8)
        #expect(trace.hasPrefix("{\"format\":\"boardy-trace\",\"version\":1,\"clock\":\"order\",\"ingested\":\"boardy-log\""))
    }

    @Test("a hang: exit 3, the chain named with its lines")
    func hang() throws {
        let dir = try temp()
        let r = try runCLI(["ingest", Self.log("gateway-hang.log"), "-o", dir.appendingPathComponent("run.jsonl").path])
        #expect(r.code == 3)
        #expect(r.out.contains("stuck: `pub.Dashboard` waits, with 2 activations held, behind the gateway for `pub.Dashboard`"))
        #expect(r.out.contains("inside it `mod.Auth.Login` was activated at line 37 and never completed"))
        // stats names the same chain.
        let s = try runCLI(["stats", dir.appendingPathComponent("run.jsonl").path])
        #expect(s.code == 0)
        #expect(s.out.contains("inside it `mod.Auth.Login` was activated at line 37 and never completed"))
        #expect(s.out.contains("barrier waits (records of the log, not seconds)"))
    }

    @Test("a barrier loop: exit 3, the loop named")
    func loop() throws {
        let dir = try temp()
        let r = try runCLI(["ingest", Self.log("gateway-loop.log"), "-o", dir.appendingPathComponent("run.jsonl").path, "--format", "json"])
        #expect(r.code == 3)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        let loops = try #require(json["loops"] as? [[String: Any]])
        #expect(loops.first?["board"] as? String == "mod.Auth.Gate")
        #expect((json["stuck"] as? [Any])?.isEmpty == false)
    }

    @Test("standard input, trace on standard output, summary on standard error")
    func standardStreams() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.log("commands.log")))
        let r = try runCLI(["ingest", "-"], stdin: data)
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out.hasPrefix("{\"format\":\"boardy-trace\""))
        #expect(r.out.contains("\"kind\":\"command.sent\""))
        #expect(r.err.contains("<stdin>: 7 Boardy records"))
    }

    @Test("several logs are one capture, read in order; events say which file")
    func severalLogs() throws {
        let dir = try temp()
        let out = dir.appendingPathComponent("run.jsonl").path
        let r = try runCLI(["ingest", Self.log("commands.log"), Self.log("barrier-release.log"), "-o", out])
        #expect(r.code == 0, "\(r.err)")
        let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
        #expect(lines.first?.contains("\"logs\":[") == true)
        #expect(lines.last?.contains("\"file\":1") == true)
    }

    @Test("malformed input and bad usage get the contract's exit codes")
    func errors() throws {
        let dir = try temp()
        let notALog = dir.appendingPathComponent("notes.txt")
        try "just text\n".write(to: notALog, atomically: true, encoding: .utf8)
        var r = try runCLI(["ingest", notALog.path, "-o", dir.appendingPathComponent("x.jsonl").path])
        #expect(r.code == 65)
        #expect(r.err.contains("no Boardy records in 1 line"))
        #expect(r.err.contains("BOARDY_LOG_ENABLED=YES"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("x.jsonl").path), "nothing written")
        r = try runCLI(["ingest", dir.appendingPathComponent("missing.log").path])
        #expect(r.code == 66)
        r = try runCLI(["ingest", Self.log("commands.log"), "-o", Self.log("commands.log")])
        #expect(r.code == 73, "the input is never replaced")
        r = try runCLI(["ingest", Self.log("commands.log"), "-o", dir.appendingPathComponent("x.svg").path])
        #expect(r.code == 64)
        r = try runCLI(["ingest", Self.log("commands.log"), "--max-line-bytes", "10"])
        #expect(r.code == 64)
        r = try runCLI(["ingest", "-", "-"])
        #expect(r.code == 64)
    }

    @Test("every view takes an ingested trace: timeline, graph, view, stats (one, and a folder), export (Chrome, OTLP)")
    func views() throws {
        let dir = try temp()
        for name in ["gateway.log", "barrier-hang.log", "application-barrier.log"] {
            let trace = dir.appendingPathComponent(name.replacingOccurrences(of: ".log", with: ".jsonl")).path
            let r = try runCLI(["ingest", Self.log(name), "-o", trace])
            #expect(r.code == 0 || r.code == 3, "\(r.err)")
            for args in [
                ["timeline", trace, "-o", dir.appendingPathComponent("t.svg").path], ["graph", trace, "-o", dir.appendingPathComponent("g.svg").path],
                ["view", trace, "-o", dir.appendingPathComponent("v.html").path], ["stats", trace, "--format", "json"],
                ["export", trace, "--to", "chrome", "-o", dir.appendingPathComponent("c.json").path],
                ["export", trace, "--to", "otlp", "-o", dir.appendingPathComponent("o.json").path],
            ] {
                let v = try runCLI(args)
                #expect(v.code == 0, "\(args[0]) on \(name): \(v.err)")
            }
            let svg = try String(contentsOf: dir.appendingPathComponent("t.svg"), encoding: .utf8)
            #expect(svg.contains("in the order of the log"))
        }
        let fleet = try runCLI(["stats", dir.path])
        #expect(fleet.code == 0, "\(fleet.err)")
    }

    @Test("coverage of an app's imported graph by a real session: boards matched by id, whatever the motherboards are named")
    func coverage() throws {
        let dir = try temp()
        let log = """
            🚀 [Activation] Boardy Log:
                🏝 [Motherboard] ➤ 94F00694-18EF-4651-A798-C4DCB323F6CF
                🎯 [ProfileBoard] ➤ pub.mod.Account.Profile
            🍁 [Next To Board] Boardy Log:
                🏝 [ProfileBoard] ➤ pub.mod.Account.Profile
                🌏 [Motherboard] ➤ 94F00694-18EF-4651-A798-C4DCB323F6CF
                🎯 [BoardID] ➤ pub.mod.Account.Login
            🚀 [Activation] Boardy Log:
                🏝 [Motherboard] ➤ 94F00694-18EF-4651-A798-C4DCB323F6CF
                🎯 [LoginBoard] ➤ pub.mod.Account.Login
            🚀 [Activation] Boardy Log:
                🏝 [Motherboard] ➤ pub.mod.Account.Login.continuous-main
                🎯 [SignInBoard] ➤ mod.Account.SignIn

            """
        let logURL = dir.appendingPathComponent("session.log")
        try log.write(to: logURL, atomically: true, encoding: .utf8)
        let trace = dir.appendingPathComponent("session.jsonl").path
        #expect(try runCLI(["ingest", logURL.path, "-o", trace]).code == 0)
        let app = repoRoot.appendingPathComponent("Tests/BoardyImportTests/Fixtures/NewsApp").path
        let c = try runCLI(["coverage", app, trace, "--format", "json"])
        #expect(c.code == 0, "\(c.err)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(c.out.utf8)) as? [String: Any])
        let items = try #require(json["items"] as? [[String: Any]])
        let used = items.filter { ($0["traces"] as? Int ?? 0) > 0 }.compactMap { $0["name"] as? String }
        #expect(used.contains("pub.mod.Account.Login"))
        // SignIn lives in Login's own motherboard (`<random id>/pub.mod.Account.Login` in the
        // trace, `pub.mod.Account.Login/mod.Account.SignIn` in the app's model).
        #expect(used.contains("pub.mod.Account.Login/mod.Account.SignIn"), "\(used)")
        // The request Profile printed is the edge Profile → Login; Login's own activation of
        // SignIn prints no requester (Boardy logs a motherboard's activation without one), so
        // that edge is not counted: the log does not say who asked.
        #expect(used.contains { $0.hasPrefix("pub.mod.Account.Profile → pub.mod.Account.Login") }, "\(used)")
        #expect(!used.contains { $0.hasPrefix("pub.mod.Account.Login → pub.mod.Account.Login/mod.Account.SignIn") }, "\(used)")
        let g = try runCLI(["graph", app, "--traces", trace, "-o", dir.appendingPathComponent("app.svg").path])
        #expect(g.code == 0, "\(g.err)")
    }
}
