import BoardySimulation
import BoardyTestSupport
import BoardyTrace
import Foundation
import Testing

/// Issue 17: careless and hostile users. Every class of the issue, through the real CLI.
@Suite("Careless and hostile users")
struct HostileInputTests {
    /// A fresh folder for one test, removed afterwards by the caller.
    static func scratch() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    static func write(_ text: String, _ name: String, in dir: URL) throws -> String {
        let url = dir.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    static let checkout = repoRoot.appendingPathComponent("samples/checkout.json").path
    static let checkoutTrace = repoRoot.appendingPathComponent("samples/traces/checkout.jsonl").path

    // MARK: numbers

    @Test("numbers past their bounds: sums of delays are malformed input naming the step; flags out of range are usage errors")
    func numbers() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let steps = Array(repeating: #"{"after":999999999999,"output":1}"#, count: 10).joined(separator: ",")
        let s = try Self.write(
            #"{"scenario":"o","boards":[{"id":"a","onActivate":[\#(steps)]}],"script":[{"at":0,"activate":"a"}]}"#, "o.json", in: dir)
        let r = try runCLI(["simulate", s, "-o", dir.appendingPathComponent("o.jsonl").path])
        #expect(r.code == 65)
        #expect(r.err.contains("o.json:1:") && r.err.contains("boards[0].onActivate[1].after"), "\(r.err)")
        for args in [
            ["simulate", Self.checkout, "--until", "1e13"], ["simulate", Self.checkout, "--until", "nan"],
            ["simulate", Self.checkout, "--horizon", "0"], ["simulate", Self.checkout, "--max-events", "0"],
            ["timeline", Self.checkoutTrace, "--to", "1e300"], ["timeline", Self.checkoutTrace, "--from", "-1"],
            ["replay", Self.checkoutTrace, "--scenario", Self.checkout, "--flip", "0"],
        ] {
            let r = try runCLI(args)
            #expect(r.code == 64, "\(args): \(r.err)")
        }
    }

    @Test("a time of 999999999999 s is recorded exactly, not as the nearest double of its microseconds")
    func exactTime() throws {
        let s = try ScenarioLoader.load(
            json: #"{"scenario":"t","boards":[{"id":"a"}],"script":[{"at":999999999999,"activate":"a"},{"at":0.1,"activate":"a"}]}"#)
        #expect(s.script[0].at == TraceTime(microseconds: 999_999_999_999_000_000))
        #expect(s.script[1].at == TraceTime(microseconds: 100_000))
        let jsonl = Simulator.run(s).jsonl
        #expect(jsonl.contains(#""t":999999999999,"#))
        #expect(!jsonl.contains("999999999999.000064"))
    }

    // MARK: runaways

    @Test("a board that re-activates itself after a delay stops at the horizon; with no delay at the steps bound; both exit 3")
    func runaways() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let delayed = try Self.write(
            #"{"scenario":"r1","boards":[{"id":"a","onActivate":[{"after":1,"output":1}]}],"flows":["a ->> a"],"script":[{"at":0,"activate":"a"}]}"#,
            "r1.json", in: dir)
        let out = dir.appendingPathComponent("r1.jsonl").path
        let r = try runCLI(["simulate", delayed, "-o", out, "--horizon", "100"])
        #expect(r.code == 3)
        let trace = try Trace.read(path: out)
        guard case let .runaway(fields)? = trace.events.last?.body else {
            Issue.record("no runaway event at the end")
            return
        }
        #expect(fields["bound"] == "horizon")
        #expect(trace.events.last?.t == .seconds(100))
        // The same run replays to the same runaway (the header carries the horizon).
        #expect(try runCLI(["replay", out, "--scenario", delayed]).code == 0)

        let budget = try runCLI(["simulate", delayed, "-o", out, "--max-events", "50"])
        #expect(budget.code == 3)
        let capped = try Trace.read(path: out)
        // It stops at the first step boundary past the budget: a step's own events are never split.
        #expect(capped.events.count >= 50 && capped.events.count <= 55)
        #expect(capped.events.last?.kind == "runaway")
        #expect(capped.events.last?.jsonObject["bound"] == "max-events")
        #expect(try runCLI(["replay", out, "--scenario", delayed]).code == 0)

        let check = try runCLI(["check", delayed])
        #expect(check.code == 0)
        #expect(check.out.contains("warning: delayed cycle: a → a") && check.out.contains("flows[0] ("), "\(check.out)")

        let sync = try Self.write(
            #"{"scenario":"r0","boards":[{"id":"a","onActivate":[{"output":1}]},{"id":"b","onActivate":[{"activate":"a"}]}],"flows":["a ->> b"],"script":[{"at":0,"activate":"a"}]}"#,
            "r0.json", in: dir)
        let syncCheck = try runCLI(["check", sync])
        #expect(syncCheck.code == 3)
        #expect(syncCheck.out.contains("error: runaway cycle"), "\(syncCheck.out)")
        #expect(syncCheck.out.contains("boards[1].onActivate[0]"))
    }

    @Test("a gate in the cycle, or a complete step before the output, is no runaway")
    func gatedCycles() throws {
        let gated = try ScenarioLoader.load(
            json: #"""
                {"scenario":"g","boards":[{"id":"a","onActivate":[{"output":1}]},
                 {"id":"b","activationBarrier":{"board":"gate"},"onActivate":[{"activate":"a"}]},
                 {"id":"gate","onActivate":[{"complete":true}]}],
                 "flows":["a ->> b"],"script":[{"at":0,"activate":"a"}]}
                """#)
        #expect(!StaticCheck.check(gated).contains { $0.code.rawValue == "runaway-cycle" })
        let ended = try ScenarioLoader.load(
            json: #"{"scenario":"e","boards":[{"id":"a","onActivate":[{"complete":true},{"output":1}]}],"flows":["a ->> a"],"script":[{"at":0,"activate":"a"}]}"#)
        #expect(!StaticCheck.check(ended).contains { $0.code.rawValue == "runaway-cycle" })
    }

    @Test("check on a 20,000-board ring finds the one barrier loop and the one runaway cycle, each naming every board")
    func largeRings() throws {
        let n = 20_000
        let boards = (0..<n).map { #"{"id":"b\#($0)","activationBarrier":{"board":"b\#(($0 + 1) % n)"},"onActivate":[{"output":1}]}"# }
        let flows = (0..<n).map { #""b\#($0) ->> b\#(($0 + 1) % n)""# }
        let ring = try ScenarioLoader.load(
            json: #"{"scenario":"ring","boards":[\#(boards.joined(separator: ","))],"flows":[\#(flows.joined(separator: ","))],"script":[{"at":0,"activate":"b0"}]}"#)
        let findings = StaticCheck.check(ring)
        let loops = findings.filter { $0.code.rawValue == "barrier-loop" }
        #expect(loops.count == 1)
        #expect(loops.first?.boards.count == n)
        // Every board is behind a gate, so no activation cycle runs ungated.
        #expect(!findings.contains { $0.code.rawValue == "runaway-cycle" })
        let open = try ScenarioLoader.load(
            json: #"{"scenario":"ring","boards":[\#((0..<n).map { #"{"id":"b\#($0)","onActivate":[{"output":1}]}"# }.joined(separator: ","))],"flows":[\#(flows.joined(separator: ","))],"script":[{"at":0,"activate":"b0"}]}"#)
        let cycles = StaticCheck.check(open).filter { $0.code.rawValue == "runaway-cycle" }
        #expect(cycles.count == 1)
        #expect(cycles.first?.severity == .error)
        #expect(cycles.first?.boards.count == n)
    }

    // MARK: parser limits

    @Test("a YAML alias bomb is refused quickly, naming a line; nesting past 500 is refused in YAML and JSON alike")
    func parserLimits() throws {
        var yaml = "a: &a [\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\"]\n"
        for (prev, name) in zip("abcdefgh", "bcdefghi") {
            yaml += "\(name): &\(name) [" + Array(repeating: "*\(prev)", count: 9).joined(separator: ",") + "]\n"
        }
        #expect(yaml.utf8.count < 600)
        do {
            _ = try ScenarioLoader.load(yaml: yaml, file: "bomb.yaml")
            Issue.record("the bomb loaded")
        } catch {
            #expect(error.message.contains("YAML aliases repeat more than"))
            #expect(error.line != nil)
        }
        let deepYAML = "scenario: d\nboards: [{id: a, onActivate: [{output: " + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}]}]\n"
        #expect(throws: ScenarioError.self) { try ScenarioLoader.load(yaml: deepYAML) }
        let deepJSON = #"{"scenario":"d","boards":[{"id":"a","onActivate":[{"output":"# + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}]}]}"
        do {
            _ = try ScenarioLoader.load(json: deepJSON)
            Issue.record("600 levels loaded")
        } catch {
            #expect(error.message.contains("nesting deeper than 500"))
        }
    }

    @Test("every value the writer is given reads back: containers deeper than 500 are cut, and the line parses")
    func writeReadSymmetry() throws {
        var deep = JSONValue.int(1)
        for _ in 0..<700 { deep = .array([deep]) }
        let header = TraceHeader(scenario: "deep", clock: .virtual)
        let event = TraceEvent(seq: 1, t: .zero, mb: "main", cause: nil, body: .outputSent(board: "a", output: deep), extra: JSONObject())
        let text = Trace(header: header, events: [event]).jsonl
        let back = try Trace.read(text: text)
        #expect(back.events.count == 1)
        #expect(text.contains("<cut: nested deeper than 500 levels>"))
        // A scenario value at the limit is recorded whole and reads back through `stats`.
        let ok = #"{"scenario":"d","boards":[{"id":"a","onActivate":[{"output":"# + String(repeating: "[", count: 490) + String(repeating: "]", count: 490)
            + #"}]}],"script":[{"at":0,"activate":"a"}]}"#
        let jsonl = Simulator.run(try ScenarioLoader.load(json: ok)).jsonl
        #expect(!jsonl.contains("<cut"))
        #expect(try Trace.read(text: jsonl).events.count > 0)
    }

    @Test("duplicate JSON keys, non-UTF-8 bytes and UTF-16 files are malformed input with a line")
    func encodings() throws {
        #expect(throws: ScenarioError.self) { try ScenarioLoader.load(json: #"{"scenario":"a","scenario":"b","boards":[]}"#) }
        do {
            _ = try ScenarioLoader.load(bytes: Array("{\"scenario\":\"x\",\n\"boards\":[{\"id\":\"\u{e9}".utf8) + [0xFF] + Array("\"}]}".utf8), file: "bad.json")
            Issue.record("invalid UTF-8 loaded")
        } catch {
            #expect(error.line == 2)
            #expect(error.description.contains("bad.json:2:") && error.message.contains("0xFF is not UTF-8"))
        }
        #expect(throws: ScenarioError.self) { try ScenarioLoader.load(bytes: [0xFF, 0xFE, 0x7B, 0x00], file: "u16.json") }
        // A byte-order mark is skipped.
        let bom = try ScenarioLoader.load(bytes: [0xEF, 0xBB, 0xBF] + Array(#"{"scenario":"b","boards":[{"id":"a"}]}"#.utf8), file: "bom.json")
        #expect(bom.name == "b")
    }

    // MARK: outputs

    @Test("an output that is an input is refused with 73 before anything runs, for every command; the input stays")
    func sameFile() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenario = dir.appendingPathComponent("s.json").path
        try FileManager.default.copyItem(atPath: Self.checkout, toPath: scenario)
        let trace = dir.appendingPathComponent("t.jsonl").path
        try FileManager.default.copyItem(atPath: Self.checkoutTrace, toPath: trace)
        let link = dir.appendingPathComponent("link.jsonl").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: trace)
        let before = (try Data(contentsOf: URL(fileURLWithPath: scenario)), try Data(contentsOf: URL(fileURLWithPath: trace)))
        for args in [
            ["simulate", scenario, "-o", scenario], ["graph", scenario, "-o", scenario], ["timeline", trace, "-o", trace],
            ["export", trace, "-o", trace], ["export", trace, "-o", link], ["graph", trace, "-o", link],
            ["replay", trace, "--scenario", scenario, "--flip", "16", "-o", trace],
            ["replay", trace, "--scenario", scenario, "--flip", "16", "-o", scenario],
        ] {
            let r = try runCLI(args)
            #expect(r.code == 73, "\(args): \(r.err)")
            #expect(r.err.contains("same file as the input"), "\(r.err)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: scenario)) == before.0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: trace)) == before.1)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == trace)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["link.jsonl", "s.json", "t.jsonl"])
    }

    @Test("symlinks are written through; pipes are streamed; missing folders and folders are 73; extensions pick formats")
    func outputs() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("real.svg").path
        let link = dir.appendingPathComponent("link.svg").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real.svg")
        #expect(try runCLI(["graph", Self.checkout, "-o", link]).code == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "real.svg")
        #expect(String(decoding: try Data(contentsOf: URL(fileURLWithPath: target)), as: UTF8.self).contains("<svg"))

        let fifo = dir.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let got = Received()
        let reader = Thread {
            got.data = FileHandle(forReadingAtPath: fifo)?.readDataToEndOfFile() ?? Data()
            got.done.signal()
        }
        reader.start()
        #expect(try runCLI(["simulate", Self.checkout, "-o", fifo]).code == 0)
        got.done.wait()
        #expect(String(decoding: got.data, as: UTF8.self).hasPrefix(#"{"format":"boardy-trace""#))
        var st = stat()
        #expect(lstat(fifo, &st) == 0 && (st.st_mode & S_IFMT) == S_IFIFO)

        let missing = try runCLI(["simulate", Self.checkout, "-o", dir.appendingPathComponent("nope/x.jsonl").path])
        #expect(missing.code == 73)
        #expect(missing.err.contains("does not exist"))
        let folder = try runCLI(["graph", Self.checkout, "-o", dir.path])
        #expect(folder.code == 73)
        #expect(folder.err.contains("is a folder"))

        let loopA = dir.appendingPathComponent("loop-a").path
        try FileManager.default.createSymbolicLink(atPath: loopA, withDestinationPath: "loop-b")
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("loop-b").path, withDestinationPath: "loop-a")
        let loop = try runCLI(["graph", Self.checkout, "-o", loopA])
        #expect(loop.code == 73)
        #expect(loop.err.contains("a loop"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: loopA) == "loop-b")
        try FileManager.default.removeItem(atPath: loopA)
        try FileManager.default.removeItem(atPath: dir.appendingPathComponent("loop-b").path)
        #expect(try runCLI(["graph", Self.checkout, "-o", ""]).code == 64)
        let png = dir.appendingPathComponent("g.png").path
        #expect(try runCLI(["graph", Self.checkout, "-o", png]).code == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: png)).prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
        let dot = dir.appendingPathComponent("t.dot").path
        #expect(try runCLI(["timeline", Self.checkoutTrace, "-o", dot]).code == 0)
        #expect(String(decoding: try Data(contentsOf: URL(fileURLWithPath: dot)), as: UTF8.self).hasPrefix("digraph"))
        let chrome = dir.appendingPathComponent("c.json").path
        #expect(try runCLI(["export", Self.checkoutTrace, "-o", chrome]).code == 0)
        #expect(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: chrome))) is [String: Any])
        for args in [
            ["graph", Self.checkout, "-o", dir.appendingPathComponent("x.png").path, "--format", "svg"],
            ["graph", Self.checkout, "-o", dir.appendingPathComponent("x.json").path],
            ["export", Self.checkoutTrace, "--to", "dot", "-o", dir.appendingPathComponent("x.json").path],
            ["simulate", Self.checkout, "-o", dir.appendingPathComponent("x.svg").path],
        ] {
            let r = try runCLI(args)
            #expect(r.code == 64, "\(args): \(r.err)")
        }
        // Nothing was left behind: no temporary files, no outputs of refused runs.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["c.json", "fifo", "g.png", "link.svg", "real.svg", "t.dot"])
    }

    @Test("a link to /dev/stdout streams to standard output and stays a link; a file in a folder under /dev is an ordinary file")
    func devicePaths() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let link = dir.appendingPathComponent("out.jsonl").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/stdout")
        let streamed = try runCLI(["simulate", Self.checkout, "-o", link])
        #expect(streamed.code == 0, "\(streamed.err)")
        #expect(streamed.out.hasPrefix(#"{"format":"boardy-trace""#))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "/dev/stdout")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["out.jsonl"])

        // /dev/shm, a tmpfs, was once taken for a device (every /dev path was streamed, and a
        // new file there could not be opened). Where the machine has no such folder, a device
        // stands in: /dev/null is still written as a stream.
        var st = stat()
        if stat("/dev/shm", &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR, access("/dev/shm", W_OK) == 0 {
            let shm = "/dev/shm/boardy-viz-test-\(getpid()).jsonl"
            defer { unlink(shm) }
            let r = try runCLI(["simulate", Self.checkout, "-o", shm])
            #expect(r.code == 0, "\(r.err)")
            #expect(String(decoding: try Data(contentsOf: URL(fileURLWithPath: shm)), as: UTF8.self).hasPrefix(#"{"format":"boardy-trace""#))
        }
        #expect(try runCLI(["simulate", Self.checkout, "-o", "/dev/null"]).code == 0)
        // Standard output named with its folder spelled oddly is still standard output.
        for odd in ["/dev//fd/1", "/dev/./stdout", "/dev/../dev/stdout"] {
            let r = try runCLI(["simulate", Self.checkout, "-o", odd])
            #expect(r.code == 0, "\(odd): \(r.err)")
            #expect(r.out.hasPrefix(#"{"format":"boardy-trace""#), "\(odd)")
        }
        // A mistyped device is refused before anything runs, not created in /dev.
        let typo = "/dev/boardy-viz-no-such-device-\(getpid())"
        let refused = try runCLI(["simulate", Self.checkout, "-o", typo])
        #expect(refused.code == 73)
        #expect(refused.err.contains("no such device"), "\(refused.err)")
        #expect(access(typo, F_OK) != 0)
    }

    @Test("Ctrl-C during a long run leaves no temporary file and no output, and the process ends by the signal")
    func interrupted() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let s = try Self.write(
            #"{"scenario":"rus","boards":[{"id":"a","onActivate":[{"after":0.000001,"output":1}]}],"flows":["a ->> a"],"script":[{"at":0,"activate":"a"}]}"#,
            "rus.json", in: dir)
        let bin = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("boardy-viz")
        // The interrupt comes the moment the temporary file appears (polled closely): once, a
        // signal that came before the handlers were registered was lost and the run went on to
        // its end, and one that came between the file's creation and its tracking left it behind.
        for round in 0..<5 {
            let out = dir.appendingPathComponent("out\(round)")
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            let p = Process()
            dieWithParent(
                p, executable: FileManager.default.fileExists(atPath: bin.path) ? bin.path : repoRoot.appendingPathComponent(".build/debug/boardy-viz").path,
                arguments: ["simulate", s, "-o", out.appendingPathComponent("t.jsonl").path])
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            // Wait for the temporary file (up to a minute on a loaded machine), then interrupt.
            // Every millisecond: polling closer than that delayed the file's creation by seconds here.
            for _ in 0..<60_000 where (try FileManager.default.contentsOfDirectory(atPath: out.path)).isEmpty { usleep(1_000) }
            #expect(try !FileManager.default.contentsOfDirectory(atPath: out.path).isEmpty)
            kill(p.processIdentifier, SIGINT)
            p.waitUntilExit()
            #expect(p.terminationReason == .uncaughtSignal && p.terminationStatus == SIGINT, "round \(round)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).isEmpty, "round \(round)")
        }
    }

    @Test("inputs accept - for standard input: scenarios (JSON or YAML) and traces")
    func standardInput() throws {
        let scenario = try Data(contentsOf: URL(fileURLWithPath: Self.checkout))
        let sim = try runCLI(["simulate", "-"], stdin: scenario)
        #expect(sim.code == 0)
        #expect(sim.out.hasPrefix(#"{"format":"boardy-trace""#))
        #expect(try runCLI(["check", "-"], stdin: Data("scenario: y\nboards: [{id: a}]\nscript: [{at: 0, activate: a}]\n".utf8)).code == 0)
        let stats = try runCLI(["stats", "-", "--format", "json"], stdin: Data(sim.out.utf8))
        #expect(stats.code == 0)
        #expect(try runCLI(["graph", "-", "--format", "dot"], stdin: Data(sim.out.utf8)).out.hasPrefix("digraph"))
        #expect(try runCLI(["replay", "-", "--scenario", Self.checkout], stdin: Data(sim.out.utf8)).code == 0)
        #expect(try runCLI(["replay", "-", "--scenario", "-"], stdin: Data(sim.out.utf8)).code == 64)
    }

    // MARK: test over folders

    @Test("test over folders: every file reported with totals; 65 when one is malformed, 66 when none is found")
    func testFolders() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let empty = try runCLI(["test", dir.path])
        #expect(empty.code == 66)
        #expect(empty.err.contains("no scenario"))
        try FileManager.default.copyItem(atPath: Self.checkout, toPath: dir.appendingPathComponent("a.json").path)
        _ = try Self.write("{\"scenario\":\n", "b.json", in: dir)
        try FileManager.default.copyItem(
            atPath: repoRoot.appendingPathComponent("samples/stuck-gate.json").path, toPath: dir.appendingPathComponent("c.json").path)
        let r = try runCLI(["test", dir.path])
        #expect(r.code == 65)
        #expect(r.out.contains("PASS \(dir.path)/a.json"))
        #expect(r.out.contains("MALFORMED \(dir.path)/b.json:2:"))
        #expect(r.out.contains("c.json"))
        #expect(r.out.contains("3 scenarios: 2 passed, 0 failed, 1 malformed"), "\(r.out)")
        let json = try runCLI(["test", dir.path, "--format", "json"])
        #expect(json.code == 65)
        let o = try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any]
        #expect((o?["totals"] as? [String: Any])?["malformed"] as? Int == 1)
        #expect((o?["scenarios"] as? [Any])?.count == 3)
        #expect(try runCLI(["test", dir.appendingPathComponent("none").path]).code == 66)
        // A path that cannot be opened is reported in its place; the others are still tested.
        let mixed = try runCLI(["test", Self.checkout, dir.appendingPathComponent("none.json").path])
        #expect(mixed.code == 66)
        #expect(mixed.out.contains("PASS \(Self.checkout)"))
        #expect(mixed.out.contains("CANNOT OPEN \(dir.path)/none.json"))
    }

    // MARK: nothing vanishes, small lies

    @Test("a complete aimed at a board not installed is recorded; expired dispatches are dropped with an event")
    func nothingVanishes() throws {
        let s = try ScenarioLoader.load(
            json: #"""
                {"scenario":"v","boards":[{"id":"a","onActivate":[{"complete":true}]}],
                 "dispatch":{"dispatchers":[{"id":"collect"}]},
                 "script":[{"at":0,"complete":"a","with":true},{"at":0,"network":"none"},{"at":1,"track":"e1"},{"at":90000,"network":"wifi"}]}
                """#)
        let events = Simulator.run(s).trace.events
        let completion = events.first { $0.kind == "board.completed" }
        #expect(completion?.extra["delivered"] == .bool(false))
        #expect(completion?.extra["reason"] == "not-installed")
        let dropped = events.first { $0.kind == "dispatch.dropped" }
        #expect(dropped?.jsonObject["reason"] == "expired")
        #expect(dropped?.jsonObject["events"] == JSONValue.array(["e1"]))
        #expect(dropped?.t == .seconds(90000))
    }

    @Test("a stuck barrier under --until is stamped when the run went quiet, not at the --until time")
    func stuckStamp() throws {
        let s = try ScenarioLoader.load(path: repoRoot.appendingPathComponent("samples/stuck-gate.json").path)
        let quiet = Simulator.run(s)
        let cut = Simulator.run(s, until: .seconds(1000))
        let stuckQuiet = quiet.trace.events.filter { $0.kind == "stuck" }.map(\.t)
        let stuckCut = cut.trace.events.filter { $0.kind == "stuck" }.map(\.t)
        #expect(!stuckCut.isEmpty)
        #expect(stuckCut == stuckQuiet)
        #expect(stuckCut.allSatisfy { $0 < .seconds(1000) })
    }

    @Test("replay verdicts: --flip is counterfactual (exit 0); swapped lines are a damaged trace; another scenario is named")
    func replayVerdicts() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let flip = try runCLI(["replay", Self.checkoutTrace, "--scenario", Self.checkout, "--flip", "16"])
        #expect(flip.code == 0)
        #expect(flip.out.contains("verdict: counterfactual: the run diverges where the flip takes it"), "\(flip.out)")
        #expect(!flip.out.contains("non-determinism"))

        var lines = try String(contentsOfFile: Self.checkoutTrace, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        lines.swapAt(10, 11)
        let swapped = try Self.write(lines.joined(separator: "\n"), "swapped.jsonl", in: dir)
        let damaged = try runCLI(["replay", swapped, "--scenario", Self.checkout])
        #expect(damaged.code == 1)
        #expect(damaged.out.contains("verdict: damaged trace"), "\(damaged.out)")
        #expect(damaged.out.contains("the first event out of order is seq"))

        let other = try runCLI(["replay", Self.checkoutTrace, "--scenario", repoRoot.appendingPathComponent("samples/stuck-gate.json").path])
        #expect(other.code == 1)
        #expect(other.out.contains(#"recorded from scenario "checkout", replayed on scenario "stuck-gate""#), "\(other.out)")
    }

    @Test("help examples fit in 80 columns: no command breaks in the middle")
    func helpText() throws {
        for command in ["simulate", "test", "check", "stats", "export", "graph", "timeline", "replay", "view", "coverage", "import"] {
            let help = try runCLI([command, "--help"], environment: ["COLUMNS": "80"]).out
            var inExamples = false
            for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("Example") {
                    inExamples = true
                    continue
                }
                if line.isEmpty { inExamples = false }
                if inExamples { #expect(line.hasPrefix("  boardy-viz \(command)"), "\(command): \(line)") }
            }
        }
    }
}

/// What a reader thread got, handed over through its semaphore. `@unchecked Sendable` is safe:
/// the reader thread writes `data` before it signals `done`, and the test reads it only after
/// waiting on `done` (the semaphore orders the two).
final class Received: @unchecked Sendable {
    var data = Data()
    let done = DispatchSemaphore(value: 0)
}
