import BoardySimulation
import BoardyTestSupport
import BoardyTrace
import Foundation
import Testing

/// Issue 32: hostile input, second round. Every file a command touches (not only those named on
/// its command line), numbers turned into other units, and names that could be confused, through
/// the real CLI. Each command runs under a watchdog: a hang fails its test (exit 137).
@Suite("Careless and hostile users, round two")
struct HostileInputRound2Tests {
    static func scratch() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hostile2-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @discardableResult
    static func write(_ text: String, _ name: String, in dir: URL) throws -> String {
        let url = dir.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    static func fifo(_ name: String, in dir: URL) -> String {
        let path = dir.appendingPathComponent(name).path
        #expect(mkfifo(path, 0o644) == 0, "mkfifo \(path)")
        return path
    }

    /// A small app in the style the importer reads: board A activates board B.
    static let appSource = twoBoardAppSource

    /// A small app: one board that activates another.
    static func app(in dir: URL) throws {
        try write(appSource, "App/Boards.swift", in: dir)
    }

    static let watchdog: TimeInterval = 120
    static let checkout = repoRoot.appendingPathComponent("samples/checkout.json").path
    static let checkoutTrace = repoRoot.appendingPathComponent("samples/traces/checkout.jsonl").path

    // MARK: files found inside folders

    @Test("import skips a symlink to a folder named .swift, a named pipe, a socket-like node and a device found in the tree, naming each")
    func importSkipsWhatIsNotAFile() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.app(in: dir)
        let folder = dir.appendingPathComponent("Elsewhere")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("App/Linked.swift").path, withDestinationPath: folder.path)
        _ = Self.fifo("App/Pipe.swift", in: dir)
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("App/Null.swift").path, withDestinationPath: "/dev/null")
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("App/Dangling.swift").path, withDestinationPath: "/nonexistent/x.swift")
        let r = try runCLI(["import", dir.appendingPathComponent("App").path, "--format", "json"], timeout: Self.watchdog)
        #expect(r.code == 0, "\(r.err)")
        for name in ["Linked.swift", "Pipe.swift", "Null.swift", "Dangling.swift"] {
            #expect(r.err.contains(name) && r.err.contains("skipped"), "\(name) not named: \(r.err)")
        }
        #expect(r.err.contains("a folder") && r.err.contains("a named pipe") && r.err.contains("a device"), "\(r.err)")
        #expect(r.out.contains("pub.A") && r.out.contains("pub.B"))
    }

    @Test("a folder as standard input is 66 for simulate, stats and graph; never a crash")
    func folderAsStandardInput() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        for args in [["simulate", "-"], ["stats", "-"], ["graph", "-"], ["check", "-"]] {
            let handle = try #require(FileHandle(forReadingAtPath: dir.path))
            let r = try runCLI(args, stdinFile: handle, timeout: Self.watchdog)
            #expect(r.code == 66, "\(args): \(r.code) \(r.err)")
            #expect(r.err.contains("folder"), "\(args): \(r.err)")
        }
    }

    @Test("stats over a folder holding a named pipe, and test over one, skip the pipe with a warning and never block")
    func pipesInFolders() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let traces = dir.appendingPathComponent("traces")
        try FileManager.default.createDirectory(at: traces, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.checkoutTrace, toPath: traces.appendingPathComponent("a.jsonl").path)
        _ = Self.fifo("traces/x.jsonl", in: dir)
        let stats = try runCLI(["stats", traces.path], timeout: Self.watchdog)
        #expect(stats.code == 0, "\(stats.err)")
        #expect(stats.err.contains("x.jsonl") && stats.err.contains("named pipe"), "\(stats.err)")

        let scenarios = dir.appendingPathComponent("scenarios")
        try FileManager.default.createDirectory(at: scenarios, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.checkout, toPath: scenarios.appendingPathComponent("a.json").path)
        _ = Self.fifo("scenarios/x.json", in: dir)
        let test = try runCLI(["test", scenarios.path], timeout: Self.watchdog)
        #expect(test.code != 137, "test blocked on the pipe")
        #expect(test.err.contains("x.json") && test.err.contains("named pipe"), "\(test.err)")
        #expect(!test.out.contains("x.json:"), "the pipe was tested: \(test.out)")
    }

    @Test("import -o onto a link to one of the Swift files it reads (or a hard link to it) is 73, and the source stays")
    func outputOntoAFileReadFromAFolder() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.app(in: dir)
        let source = dir.appendingPathComponent("App/Boards.swift").path
        let before = try Data(contentsOf: URL(fileURLWithPath: source))
        let link = dir.appendingPathComponent("link.json").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: source)
        let hard = dir.appendingPathComponent("hard.json").path
        try FileManager.default.linkItem(atPath: source, toPath: hard)
        for out in [link, hard] {
            for command in ["import", "graph"] {
                let r = try runCLI([command, dir.appendingPathComponent("App").path, "-o", out], timeout: Self.watchdog)
                #expect(r.code == 73, "\(command) -o \(out): \(r.code) \(r.err)")
                #expect(r.err.contains("same file as the input"), "\(r.err)")
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: source)) == before)
        // Writing the skeleton beside the sources, into a new file, is fine.
        let fresh = dir.appendingPathComponent("App/skeleton.json").path
        let ok = try runCLI(["import", dir.appendingPathComponent("App").path, "-o", fresh], timeout: Self.watchdog)
        #expect(ok.code == 0, "\(ok.err)")
    }

    @Test("a Package.swift, podspec or Xcode project that cannot be decoded or parsed is named with its line; its files are still imported")
    func unreadableManifests() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.write(Self.appSource, "Pkg/Sources/App/Boards.swift", in: dir)
        var manifest = Data("// swift-tools-version:5.9\nimport PackageDescription\n// caf".utf8)
        manifest.append(0xE9)  // Latin-1 é
        manifest.append(Data("\nlet package = Package(name: \"App\", targets: [.target(name: \"App\")])\n".utf8))
        try manifest.write(to: dir.appendingPathComponent("Pkg/Package.swift"))
        let r = try runCLI(["import", dir.appendingPathComponent("Pkg").path, "--format", "json"], timeout: Self.watchdog)
        #expect(r.code == 0, "\(r.err)")
        #expect(r.err.contains("Package.swift:3:"), "the manifest and its line are named: \(r.err)")
        #expect(r.err.contains("not UTF-8"), "\(r.err)")
        #expect(r.out.contains("pub.A"), "the files it governed are imported")

        // A manifest that does not parse: the same.
        try Data("let package = Package(name: \"App\", targets: [.target(name: \"App\"\n".utf8).write(
            to: dir.appendingPathComponent("Pkg/Package.swift"))
        let p = try runCLI(["import", dir.appendingPathComponent("Pkg").path, "--format", "json"], timeout: Self.watchdog)
        #expect(p.code == 0, "\(p.err)")
        #expect(p.err.contains("Package.swift:") && p.err.contains("does not parse"), "\(p.err)")
        #expect(p.out.contains("pub.A"))
    }

    // MARK: bounded reading

    @Test("a trace line longer than the cap is 65 naming its line, read in bounded memory; the cap is a flag; a BOM is skipped")
    func longLines() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        // One line of NUL bytes, 8 MiB, sparse: a corrupt or binary file named .jsonl.
        let zeros = dir.appendingPathComponent("zeros.jsonl").path
        #expect(FileManager.default.createFile(atPath: zeros, contents: nil))
        let fd = open(zeros, O_WRONLY)
        #expect(ftruncate(fd, 8 << 20) == 0)
        close(fd)
        let r = try runCLI(["stats", zeros, "--max-line-bytes", "1048576"], timeout: Self.watchdog)
        #expect(r.code == 65, "\(r.err)")
        #expect(r.err.contains("zeros.jsonl:1") && r.err.contains("longer than 1 MiB"), "\(r.err)")
        let small = try runCLI(["stats", zeros, "--max-line-bytes", "12"], timeout: Self.watchdog)
        #expect(small.code == 64, "a cap below 1 KiB is bad usage: \(small.err)")

        // A trace with a byte-order mark reads as without one.
        var bom = Data([0xEF, 0xBB, 0xBF])
        bom.append(try Data(contentsOf: URL(fileURLWithPath: Self.checkoutTrace)))
        let withBOM = dir.appendingPathComponent("bom.jsonl").path
        try bom.write(to: URL(fileURLWithPath: withBOM))
        let plain = try runCLI(["stats", Self.checkoutTrace, "--format", "json"])
        let b = try runCLI(["stats", withBOM, "--format", "json"], timeout: Self.watchdog)
        #expect(b.code == 0, "\(b.err)")
        #expect(b.out == plain.out.replacingOccurrences(of: Self.checkoutTrace, with: withBOM))
    }

    @Test("simulate /dev/zero is 65 at once with a sentence; a binary scenario names the byte's place")
    func binaryScenarios() throws {
        let r = try runCLI(["simulate", "/dev/zero"], timeout: Self.watchdog)
        #expect(r.code == 65, "\(r.err)")
        #expect(r.err.contains("/dev/zero:1:1") && r.err.contains("byte 0x0"), "\(r.err)")
        #expect(!r.err.contains("NSCocoaErrorDomain"))
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.json").path
        try Data("{\n  \"scenario\": \"x\",\u{0}\n}".utf8).write(to: URL(fileURLWithPath: path))
        let b = try runCLI(["check", path], timeout: Self.watchdog)
        #expect(b.code == 65 && b.err.contains("s.json:2:19"), "\(b.err)")
    }

    // MARK: units

    @Test("--epoch past what OTLP holds is 64; a trace whose times do not fit OTLP or Chrome is 65 naming the event; nothing wraps")
    func timeUnits() throws {
        for epoch in ["9999-12-31", "0001-01-01T00:00:00Z", "-5", "1e300", "nan", "2262-04-12"] {
            let r = try runCLI(["export", Self.checkoutTrace, "--to", "otlp", "--epoch", epoch])
            #expect(r.code == 64, "--epoch \(epoch): \(r.code) \(r.err)")
        }
        let ok = try runCLI(["export", Self.checkoutTrace, "--to", "otlp", "--epoch", "2262-04-10"])
        #expect(ok.code == 0, "\(ok.err)")

        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenario = try Self.write(
            #"{"scenario":"late","boards":[{"id":"a"}],"script":[{"at":0,"activate":"a"},{"at":999999999999,"activate":"a"}]}"#, "late.json",
            in: dir)
        let trace = dir.appendingPathComponent("late.jsonl").path
        let sim = try runCLI(["simulate", scenario, "-o", trace])
        #expect(sim.code == 0, "\(sim.err)")
        let otlp = try runCLI(["export", trace, "--to", "otlp", "--epoch", "2026-01-01"])
        #expect(otlp.code == 65, "\(otlp.err)")
        #expect(otlp.err.contains("event ") && otlp.err.contains("OTLP"), "\(otlp.err)")
        #expect(otlp.out.isEmpty)
        let chrome = try runCLI(["export", trace, "--to", "chrome"])
        #expect(chrome.code == 65 && chrome.err.contains("event "), "\(chrome.err)")
        let view = try runCLI(["view", trace])
        #expect(view.code == 65 && view.err.contains("event "), "\(view.err)")
    }

    // MARK: names

    @Test("messages spell out invisible characters; check warns about ids that differ only by them or by case")
    func invisibleCharacters() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let undeclared = try Self.write(
            #"{"scenario":"x","boards":[{"id":"pubAuth"}],"script":[{"at":0,"activate":"pub\u200bAuth"}]}"#, "u.json", in: dir)
        let r = try runCLI(["simulate", undeclared])
        #expect(r.code == 65)
        #expect(r.err.contains(#"pub\u{200B}Auth"#), "\(r.err)")
        #expect(!r.err.contains("\u{200B}"))

        let confusable = try Self.write(
            #"{"scenario":"x","boards":[{"id":"pubAuth"},{"id":"pub\u200bAuth"},{"id":"PUBAUTH"}],"script":[{"at":0,"activate":"pubAuth"}]}"#, "c.json",
            in: dir)
        let c = try runCLI(["check", confusable, "--format", "json"])
        #expect(c.code == 0, "\(c.err)")
        let findings = try JSONValue(parsing: c.out).arrayValue ?? []
        let confusables = findings.filter { $0.objectValue?["code"]?.stringValue == "confusable-ids" }
        #expect(confusables.count == 1)
        #expect(confusables.first?.objectValue?["boards"]?.arrayValue?.count == 3)
        let text = try runCLI(["check", confusable])
        #expect(text.out.contains(#"pub\u{200B}Auth"#) && text.out.contains("[confusable-ids]"), "\(text.out)")
    }

    @Test("derived names percent-encode %, /, # and : inside ids: a continuous board a/b and a gate g#none never share names")
    func derivedNames() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenario = try Self.write(
            """
            {"scenario":"names","boards":[
              {"id":"a/b","kind":"continuous","boards":[{"id":"x","onActivate":[{"output":"o"}]}],"onActivate":[{"activate":"x"}]},
              {"id":"a","kind":"continuous","onActivate":[{"activate":"b"}],"boards":[
                {"id":"b","kind":"continuous","boards":[{"id":"x","onActivate":[{"output":"o"}]}],"onActivate":[{"activate":"x"}]}]},
              {"id":"g#none","onActivate":[{"complete":true}]},
              {"id":"g","onActivate":[{"complete":true}]},
              {"id":"p","activationBarrier":{"board":"g#none"}},
              {"id":"q","activationBarrier":{"board":"g","option":{"unidentified":null}}}
            ],"script":[{"at":0,"activate":"a/b"},{"at":0,"activate":"a"},{"at":1,"activate":"p"},{"at":1,"activate":"q"}]}
            """, "names.json", in: dir)
        let r = try runCLI(["simulate", scenario])
        #expect(r.code == 0, "\(r.err)")
        let trace = try Trace.read(text: r.out)
        let paths = Set(trace.events.map(\.mb))
        #expect(paths.contains("main/a%2Fb"), "\(paths)")
        #expect(paths.contains("main/a/b"), "\(paths)")
        let barriers = Set(
            trace.events.compactMap { e -> String? in
                if case let .barrierStarted(barrier, _) = e.body { return barrier }
                return nil
            })
        #expect(barriers == ["g%23none", "g#none"], "\(barriers)")
        // Board fields keep ids verbatim.
        #expect(trace.events.contains { $0.body.board == "g#none" })
        #expect(trace.events.contains { $0.body.board == "a/b" })
    }

    // MARK: found by the whole-pipeline fuzzer

    @Test("a run stopped at its horizon while a step of a completed board is pending replays the same (fuzzer, seed 11)")
    func replayAtTheHorizonWithADeadRange() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenario = repoRoot.appendingPathComponent("Tests/BoardyVizCLITests/Fixtures/replay-horizon-dead-range.json").path
        let trace = dir.appendingPathComponent("t.jsonl").path
        let sim = try runCLI(["simulate", scenario, "-o", trace, "--horizon", "120", "--max-events", "2000"])
        #expect(sim.code == 3, "it stops at the horizon: \(sim.err)")
        let replay = try runCLI(["replay", trace, "--scenario", scenario])
        #expect(replay.code == 0, "\(replay.out)")
        #expect(replay.out.contains("same"), "\(replay.out)")
    }

    @Test("a Tealium timer interval past the clock's limit is a warning, not an overflow when it becomes microseconds")
    func timerIntervalOverflow() throws {
        let scenario = repoRoot.appendingPathComponent("Tests/BoardyVizCLITests/Fixtures/timer-interval-overflow.json").path
        let r = try runCLI(["simulate", scenario], timeout: Self.watchdog)
        #expect(r.code == 0, "\(r.code) \(r.err)")
        #expect(r.err.contains("configuration.interval must be at most 1000000000000"), "\(r.err)")
    }

    @Test("a fixed action and a range due at the same time replay in the recorded order (fuzzer, seed 11, second find)")
    func replayTieOfFixedAndRange() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenario = repoRoot.appendingPathComponent("Tests/BoardyVizCLITests/Fixtures/replay-tie-fixed-and-range.json").path
        let trace = dir.appendingPathComponent("t.jsonl").path
        let sim = try runCLI(["simulate", scenario, "-o", trace, "--horizon", "120", "--max-events", "2000"])
        #expect(sim.code == 3, "it stops at a bound: \(sim.err)")
        let replay = try runCLI(["replay", trace, "--scenario", scenario])
        #expect(replay.code == 0 && replay.out.contains("same"), "\(replay.out)")
    }

    @Test("file names that are not UTF-8, found in a folder, are named (with \\u{FFFD}) and skipped; never dropped silently")
    func namesThatAreNotUTF8() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        func create(_ folder: String, _ name: [UInt8], _ contents: Data) throws {
            try FileManager.default.createDirectory(at: dir.appendingPathComponent(folder), withIntermediateDirectories: true)
            let path = Array(dir.appendingPathComponent(folder).path.utf8) + [0x2F] + name + [0]
            let fd = path.withUnsafeBufferPointer { buf in
                buf.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buf.count) { open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
            }
            #expect(fd >= 0)
            let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
            handle.write(contents)
        }
        try create("traces", Array("x".utf8) + [0xFF] + Array(".jsonl".utf8), try Data(contentsOf: URL(fileURLWithPath: Self.checkoutTrace)))
        try create("App", Array("caf".utf8) + [0xE9] + Array(".swift".utf8), Data(Self.appSource.utf8))
        let stats = try runCLI(["stats", dir.appendingPathComponent("traces").path], timeout: Self.watchdog)
        #expect(stats.code == 66, "\(stats.err)")
        #expect(stats.err.contains(#"x\u{FFFD}.jsonl"#) && stats.err.contains("not UTF-8"), "\(stats.err)")
        let app = try runCLI(["import", dir.appendingPathComponent("App").path], timeout: Self.watchdog)
        #expect(app.code == 66, "\(app.err)")
        #expect(app.err.contains(#"caf\u{FFFD}.swift"#) && app.err.contains("not UTF-8"), "\(app.err)")
    }

    @Test("a socket named on the command line is 66; one found in a folder is skipped with a warning")
    func sockets() throws {
        // A short path: a socket's path is limited to about 100 bytes.
        let dir = URL(fileURLWithPath: "/tmp/bvz-sock-\(getpid())")
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.jsonl").path
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #expect(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in path.utf8.prefix(raw.count - 1).enumerated() { raw[i] = b }
        }
        let bound = withUnsafePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0, "bind \(path)")
        try FileManager.default.copyItem(atPath: Self.checkoutTrace, toPath: dir.appendingPathComponent("a.jsonl").path)
        let named = try runCLI(["stats", path], timeout: Self.watchdog)
        #expect(named.code == 66 && named.err.contains("socket"), "\(named.code) \(named.err)")
        let found = try runCLI(["stats", dir.path], timeout: Self.watchdog)
        #expect(found.code == 0, "\(found.err)")
        #expect(found.err.contains("s.jsonl") && found.err.contains("a socket"), "\(found.err)")
    }

    /// Found by the whole-pipeline fuzzer (seed 11, third find): where the recorded run sent a
    /// dispatch at t=16 (seq 1366), the replay went on to an output of the continuous board b1
    /// at t=17, because the trace did not say in which order the run broke a tie between the
    /// dispatcher's timer and a ranged step. Traces now record their tie-breaks (issue 47).
    @Test("a dispatch send due beside a ranged step replays at its time")
    func replayDispatchBesideARange() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenario = repoRoot.appendingPathComponent("Tests/BoardyVizCLITests/Fixtures/replay-dispatch-timer-known-divergence.json").path
        let trace = dir.appendingPathComponent("t.jsonl").path
        let sim = try runCLI(["simulate", scenario, "-o", trace, "--horizon", "120", "--max-events", "2000"])
        #expect(sim.code == 0 || sim.code == 3, "\(sim.err)")
        let replay = try runCLI(["replay", trace, "--scenario", scenario])
        #expect(replay.code == 0 && replay.out.contains("same"), "\(replay.out.prefix(300))")
    }
}
