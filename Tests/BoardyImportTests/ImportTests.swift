import BoardyImport
import BoardySimulation
import BoardyTestSupport
import BoardyTrace
import BoardyViz
import BoardyVizCore
import BoardyVizSimulation
import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The fixture app (three modules and the app, 36 boards, in Boardy's real style): every pattern
/// of issue 19, and the model its import must give, exactly.
let fixtures = repoRoot.appendingPathComponent("Tests/BoardyImportTests/Fixtures")
let shopApp = fixtures.appendingPathComponent("ShopApp").path

@Suite struct ImportFixtureTests {
    @Test func theFixtureAppImportsToExactlyItsExpectedModel() throws {
        let app = try AppImporter.importApp([shopApp])
        let text = app.json.prettyText
        let golden = fixtures.appendingPathComponent("ShopApp.expected.json")
        if ProcessInfo.processInfo.environment["BOARDY_UPDATE_GOLDEN"] == "1" { try text.write(to: golden, atomically: true, encoding: .utf8) }
        #expect(text == (try String(contentsOf: golden, encoding: .utf8)))
        #expect(app.boards.count >= 30)
        #expect(Set(app.boards.compactMap(\.module)).count >= 3)
    }

    @Test func onlyWhatTheAppCompilesIsRead() throws {
        let app = try AppImporter.importApp([shopApp])
        let ids = Set(app.boards.map(\.id))
        // Test targets (Xcode, podspec test_spec, Package.swift testTarget), a file in no target's
        // Sources phase, a folder the target excludes, a function nobody calls.
        for absent in ["pub.test.Other", "pub.test.AuthOnly", "pub.test.CartOnly", "pub.draft.Board", "mod.Shopping.OldCart", "mod.Shopping.Experimental"] {
            #expect(!ids.contains(absent), "\(absent) is not in an app target")
        }
        // Declared, never registered.
        #expect(!ids.contains("pub.mod.Authentication.ForgotPassword"))
        #expect(!ids.contains("pub.app.LegacyHome"))
        #expect(app.filesSkipped == 5)
    }

    @Test func eachPatternMakesItsEdge() throws {
        let app = try AppImporter.importApp([shopApp])
        func edge(_ from: String, _ to: String, _ kind: ImportedEdge.Kind) -> ImportedEdge? {
            app.edges.first { $0.from == from && $0.to == to && $0.kind == kind }
        }
        // A plugin whose id travels in its service case's associated value.
        #expect(app.boards.contains { $0.id == "pub.mod.Authentication.AuthGate" })
        // ServiceMap chains.
        #expect(edge("pub.app.Home", "pub.mod.Shopping.Catalog", .activates) != nil)
        // Inner producer: parent.
        #expect(app.boards.first { $0.id == "mod.Shopping.Coupon" }?.parent == "pub.mod.Shopping.Cart")
        // A closure handed as input runs for the board that holds it.
        #expect(edge("pub.mod.Authentication.Login", "mod.Authentication.OTP", .activates) != nil)
        // A handler on another board's outputs: the activation runs from the handled board.
        #expect(edge("mod.Authentication.OTP", "mod.Authentication.Session", .activates) != nil)
        #expect(edge("mod.Authentication.OTP", "pub.mod.Authentication.Login", .flow) != nil)
        // Output cases.
        #expect(edge("pub.mod.Authentication.Login", "pub.app.Home", .activates)?.on == "loggedIn")
        // Broadcast actions, matched by type and case.
        #expect(edge("pub.app.Home", "pub.app.Profile", .activates)?.on == "openProfile")
        #expect(edge("pub.mod.Authentication.Logout", "pub.mod.Authentication.Login", .activates) != nil)
        #expect(edge("pub.app.Home", "pub.mod.Authentication.Login", .activates) == nil, "Home never broadcasts loggedOut")
        // The only caller's constant.
        #expect(edge("pub.app.Home", "pub.app.Settings", .activates)?.note?.hasPrefix("through the only caller") == true)
        // Two helpers of one name: the module's own wins.
        #expect(edge("pub.mod.Payment.CardEntry", "mod.Payment.ReceiptDetail", .activates) != nil)
        #expect(edge("pub.mod.Payment.Payment", "pub.mod.Payment.Receipt", .activates) != nil)
        // A helper of a non-board type runs for the board that calls it.
        #expect(edge("pub.app.Home", "pub.mod.Payment.History", .activates) != nil)
        // Gateway and exemptions; barriers.
        #expect(edge("pub.mod.Authentication.AuthGate", "pub.app.Home", .gateway) != nil)
        #expect(edge("pub.mod.Authentication.AuthGate", "pub.mod.Authentication.Login", .exempt) != nil)
        #expect(edge("pub.mod.Authentication.AuthGate", "mod.Shopping.CartSync", .gateway) == nil, "inner and task boards are not guarded")
        #expect(edge("pub.mod.Payment.PaymentGate", "pub.mod.Payment.Payment", .barrier) != nil)
        // Commented-out code, #if false and unregistered boards make nothing.
        #expect(edge("pub.app.Home", "pub.mod.Shopping.Wishlist", .activates) == nil)
        #expect(!app.edges.contains { $0.to == "pub.mod.Payment.Payment" && $0.from == "UnusedBoard" })
        // Data-dependent targets are listed, with their place.
        #expect(app.unresolved.map(\.source.description) == ["App/ShopApp/AppBoards.swift:163"])
        #expect(app.entries.map(\.board) == ["pub.app.Root"])
        // Every board and edge has a real place in the sources.
        for b in app.boards { #expect(FileManager.default.fileExists(atPath: shopApp + "/" + b.source.file)) }
    }

    @Test func checkReportsThePlantedLoopWithBothPlaces() throws {
        let app = try AppImporter.importApp([shopApp])
        let findings = ImportCheck.check(app)
        let loop = try #require(findings.first { $0.code.rawValue == "barrier-loop" })
        #expect(loop.severity == .error)
        #expect(Set(loop.sources.map(\.description)) == ["Modules/Payment/Sources/Boards/PaymentBoards.swift:33", "Modules/Payment/Sources/Boards/PaymentBoards.swift:46"])
        #expect(findings.contains { $0.code.rawValue == "gate-never-completes" && $0.message.contains("pub.mod.Payment.FraudCheck") })
        #expect(!findings.contains { $0.code.rawValue == "self-gated" })
    }

    @Test func theSkeletonLoadsAndSimulates() throws {
        let app = try AppImporter.importApp([shopApp])
        let (scenario, _) = app.scenarioSkeleton()
        let s = try ScenarioLoader.load(bytes: Array(scenario.prettyText.utf8), file: "shop.json")
        let r = Simulator.run(s)
        #expect(r.summary.boardsActivated > 1)
        // Sources are carried, and not part of the definition's fingerprint.
        #expect(scenario.prettyText.contains("\"source\": \"App/ShopApp/AppPlugins.swift:"))
        #expect(!s.definition.jsonText.contains("\"source\""))
    }

    @Test func theGraphOfTheSourcesHasEveryBoardAndTooltipsWithPlaces() throws {
        let app = try AppImporter.importApp([shopApp])
        let model = FlowModel(imported: app)
        let svg = String(decoding: try FlowGraph.render(model, format: .svg), as: UTF8.self)
        let doc = try XMLDocument(data: Data(svg.utf8), options: [])
        let nodes = try doc.nodes(forXPath: "//*[local-name()='g'][@class='node'][starts-with(@id, 'board-')]")
        #expect(nodes.count == app.boards.count)
        #expect(svg.contains("registered at Modules/Payment/Sources/Boards/PaymentProducer.swift:"))
        // Loops in red.
        #expect(model.links.filter(\.inLoop).count == 2)
    }
}

@Suite struct ImportInputTests {
    static let goodFile = twoBoardAppSource

    @Test func badSwiftGivesLocatedWarningsAndTheRestImports() throws {
        var huge = Array("// padding\n".utf8)
        huge += [UInt8](repeating: 0x20, count: AppImporter.maximumFileSize)
        let dir = try temporaryFolder(with: [
            "App/Good.swift": Array(Self.goodFile.utf8),
            "App/Broken.swift": Array("import Boardy\n\nfinal class X: Board {\n    func f( {\n}\n".utf8),
            "App/Latin1.swift": Array("// ok\n// caf".utf8) + [0xE9, 0x0A] + Array("let x = 1\n".utf8),
            "App/Huge.swift": huge,
            "App/Deep.swift": Array(("let x = " + String(repeating: "(", count: 5000) + "1" + String(repeating: ")", count: 5000) + "\n").utf8),
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let app = try AppImporter.importApp([dir.path])
        #expect(app.boards.map(\.id).sorted() == ["pub.A", "pub.B"])
        #expect(app.edges.map { "\($0.from)>\($0.to)" } == ["pub.A>pub.B"])
        let warnings = app.warnings.map(\.description)
        #expect(warnings.contains { $0.hasPrefix("App/Broken.swift:4: warning: syntax error") })
        #expect(warnings.contains { $0.hasPrefix("App/Latin1.swift:2: warning: not UTF-8") })
        #expect(warnings.contains { $0.hasPrefix("App/Huge.swift:1: warning: larger than 8 MB") })
        #expect(warnings.contains { $0.hasPrefix("App/Deep.swift:") })
    }

    /// Values that chase themselves: a helper returning itself, a stored property assigned from
    /// itself, a board forwarding its own input to itself, and two helpers calling each other.
    /// The import ends, makes no invented edge, and lists what it could not resolve with a fix.
    @Test func valuesThatChaseThemselvesEndAsUnresolved() throws {
        let cyclic = """
            import Boardy
            extension BoardID { static let pubA: BoardID = "pub.A"; static let pubB: BoardID = "pub.B" }
            extension BoardInput {
                static func loop(_ x: BoardInput<Void>) -> BoardInput<Void> { .loop(x) }
                static func ping(_ x: BoardInput<Void>) -> BoardInput<Void> { .pong(x) }
                static func pong(_ x: BoardInput<Void>) -> BoardInput<Void> { .ping(x) }
                static var again: BoardInput<BoardInput<Void>> { BoardInput<BoardInput<Void>>(target: .pubA, input: .again) }
            }
            final class ABoard: Board, GuaranteedBoard {
                private var pending: BoardInputModel?
                func activate(withGuaranteedInput input: BoardInputModel) {
                    pending = pending
                    nextToBoard(model: input)
                    nextToBoard(.loop(.pubB))
                    nextToBoard(.ping(.pubB))
                    nextToBoard(.again)
                    if let p = pending { nextToBoard(model: p) }
                }
            }
            enum Registrations {
                static func all() -> [BoardRegistration] {
                    [BoardRegistration(.pubA) { ABoard(identifier: $0) }, BoardRegistration(.pubB) { NoBoard(identifier: $0) }]
                }
            }
            let registrations = Registrations.all()
            """
        let dir = try temporaryFolder(with: ["App/Cyclic.swift": Array(cyclic.utf8)])
        defer { try? FileManager.default.removeItem(at: dir) }
        let app = try AppImporter.importApp([dir.path])
        #expect(app.boards.map(\.id).sorted() == ["pub.A", "pub.B"])
        // `.again` targets A itself; nothing targets B through the loops.
        #expect(Set(app.edges.map { "\($0.from)>\($0.to)" }).isSubset(of: ["pub.A>pub.A"]))
        #expect(app.unresolved.count >= 3, "\(app.unresolved)")
        for u in app.unresolved { #expect(!u.fix.isEmpty) }
        #expect(app.totalResolution.unresolved == app.unresolved.count)
    }

    /// Generative: every fixture file, cut at arbitrary points and with bytes flipped, imports
    /// without a crash, and the same input gives the same model.
    @Test(arguments: ["ShopApp", "NewsApp", "EraApps/GuestBook", "EraApps/ParcelApp", "EraApps/Pantry"])
    func mangledSourcesNeverCrashTheImport(_ fixture: String) throws {
        let shopApp = fixtures.appendingPathComponent(fixture).path
        let files = try FileManager.default.subpathsOfDirectory(atPath: shopApp).filter { $0.hasSuffix(".swift") }.sorted()
        var rng = SplitMix(seed: 19)
        for round in 0..<12 {
            var mangled: [String: [UInt8]] = [:]
            for f in files {
                var bytes = [UInt8](FileManager.default.contents(atPath: shopApp + "/" + f) ?? Data())
                if !bytes.isEmpty {
                    bytes = Array(bytes.prefix(Int(rng.next() % UInt64(bytes.count + 1))))
                    for _ in 0..<(round % 4) where !bytes.isEmpty { bytes[Int(rng.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: rng.next()) }
                }
                mangled[f] = bytes
            }
            let dir = try temporaryFolder(with: mangled)
            defer { try? FileManager.default.removeItem(at: dir) }
            try Self.addHostileTreeEntries(to: dir, rng: &rng, files: files)
            let a = try? AppImporter.importApp([dir.path])
            let b = try? AppImporter.importApp([dir.path])
            #expect(a?.json == b?.json)
        }
    }
}

extension ImportInputTests {
    /// What a careless or hostile tree holds besides source files (issue 32), placed beside a
    /// random file: a symlink to a folder named `.swift`, a named pipe `.swift`, a link to a
    /// device, a dangling link, a Package.swift or podspec with a byte that is not UTF-8 or that
    /// does not parse, a broken Xcode project. None may hang, crash or drop the sources silently.
    static func addHostileTreeEntries(to dir: URL, rng: inout SplitMix, files: [String]) throws {
        let fm = FileManager.default
        guard !files.isEmpty else { return }
        for k in 0..<Int(rng.next() % 4 + 1) {
            let beside = dir.appendingPathComponent(files[Int(rng.next() % UInt64(files.count))]).deletingLastPathComponent()
            switch rng.next() % 7 {
            case 0: try? fm.createSymbolicLink(atPath: beside.appendingPathComponent("Folder\(k).swift").path, withDestinationPath: dir.path)
            case 1: _ = mkfifo(beside.appendingPathComponent("Pipe\(k).swift").path, 0o644)
            case 2: try? fm.createSymbolicLink(atPath: beside.appendingPathComponent("Device\(k).swift").path, withDestinationPath: "/dev/zero")
            case 3: try? fm.createSymbolicLink(atPath: beside.appendingPathComponent("Gone\(k).swift").path, withDestinationPath: "/nonexistent/\(k).swift")
            case 4:
                var bytes = Array("// swift-tools-version:5.9\nimport PackageDescription\n// ".utf8) + [0xE9, 0x0A]
                bytes += Array("let package = Package(name: \"X\", targets: [.target(name: \"X\"".utf8)
                if rng.next() % 2 == 0 { bytes += Array(")])\n".utf8) }
                try Data(bytes).write(to: beside.appendingPathComponent("Package.swift"))
            case 5: try Data([0x73, 0x2E, 0x6E, 0x61, 0x6D, 0x65, 0x3D, 0xFF, 0x0A]).write(to: beside.appendingPathComponent("X\(k).podspec"))
            default:
                let project = beside.appendingPathComponent("Broken\(k).xcodeproj")
                try fm.createDirectory(at: project, withIntermediateDirectories: true)
                if rng.next() % 2 == 0 {
                    _ = mkfifo(project.appendingPathComponent("project.pbxproj").path, 0o644)
                } else {
                    try Data("// !$*UTF8*$!\n{ objects = { ".utf8).write(to: project.appendingPathComponent("project.pbxproj"))
                }
            }
        }
    }
}

@Suite("Coverage of an app's sources")
struct SourceCoverageTests {
    @Test("traces are matched by board ids; an activation the code makes counts; ids the sources lack are listed")
    func sources() throws {
        let dir = repoRoot.appendingPathComponent("Tests/BoardyImportTests/Fixtures/ShopApp").path
        let app = try AppImporter.importApp([dir])
        let model = FlowModel(imported: app)
        let events = [
            TraceEvent(seq: 1, t: .zero, mb: "main", body: .activationRequested(board: "pub.app.Root", source: nil, input: nil)),
            TraceEvent(seq: 2, t: .zero, mb: "main", cause: 1, body: .activationPerformed(board: "pub.app.Root", input: nil)),
            TraceEvent(seq: 3, t: .zero, mb: "main", cause: 2, body: .activationRequested(board: "pub.app.Onboarding", source: "pub.app.Root", input: nil)),
            TraceEvent(seq: 4, t: .zero, mb: "main", cause: 3, body: .activationPerformed(board: "pub.app.Onboarding", input: nil)),
            TraceEvent(seq: 5, t: .zero, mb: "main", body: .activationPerformed(board: "not.in.the.app", input: nil)),
        ]
        let trace = Trace(header: TraceHeader(scenario: "device run"), events: events)
        let c = Coverage(model: model, fingerprint: nil, traces: [("device.jsonl", trace)])
        #expect(c.traces == 1 && c.excluded.isEmpty)
        #expect(c.unknownBoards == ["not.in.the.app"])
        let root = try #require(c.items.first { $0.kind == "board" && $0.name.hasSuffix("pub.app.Root") })
        #expect(root.traces == 1 && root.source != nil)
        let edge = try #require(c.items.first { $0.kind == "flow" && $0.name.hasPrefix("pub.app.Root → pub.app.Onboarding") })
        #expect(edge.traces == 1 && edge.count == 1)
        #expect(c.percent > 0 && c.percent < 20)
        #expect(c.items.first?.traces == 0)  // never exercised first
    }
}

extension SourceCoverageTests {
    @Test("traces simulated from the app's own skeleton cover its sources by board ids, with nothing unknown")
    func skeleton() throws {
        let dir = repoRoot.appendingPathComponent("Tests/BoardyImportTests/Fixtures/ShopApp").path
        let app = try AppImporter.importApp([dir])
        let s = try ScenarioLoader.load(json: app.scenarioSkeleton().scenario.jsonText, file: "skeleton.json")
        let trace = Simulator.run(s).trace
        let c = Coverage(model: FlowModel(imported: app), fingerprint: nil, traces: [("skeleton.jsonl", trace)])
        #expect(c.unknownBoards.isEmpty)
        #expect(c.items.contains { $0.kind == "board" && $0.traces > 0 })
        // Every board the run performed is exercised in the sources' model.
        let performed = Set(trace.events.compactMap { e -> String? in
            if case .activationPerformed(let b, _) = e.body { return b }
            return nil
        })
        for i in c.items where i.kind == "board" && performed.contains(String(i.name.split(separator: "/").last ?? "")) { #expect(i.traces > 0, "\(i.name)") }
    }
}
