import BoardyTestSupport
import Foundation
import Testing

/// `import` and `check` on apps of Boardy's other eras, through the CLI (issue 45).
@Suite struct ImportCLITests {
    static let eraApps = repoRoot.appendingPathComponent("Tests/BoardyImportTests/Fixtures/EraApps")

    @Test("--explain on a missing id points at the line that caused the miss")
    func explainPointsAtTheCause() throws {
        let r = try runCLI(["import", Self.eraApps.appendingPathComponent("GuestBook").path, "--explain", "gb.about"])
        #expect(r.code == 0, "\(r.err)")
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("gb.about: not a board of GuestBook as far as the import could read") == true, "\(r.out)")
        #expect(lines.contains { $0.hasPrefix("  App/Boards/Boards.swift:38: board class AboutBoard fixes its id \"gb.about\" here") })
        #expect(lines.contains { $0.contains("to resolve: install the board") })
        let json = try runCLI(["import", Self.eraApps.appendingPathComponent("GuestBook").path, "--explain", "gb.about", "--format", "json"])
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        #expect(doc["found"] as? Bool == false)
        let items = try #require(doc["unresolved"] as? [[String: Any]])
        #expect(items.map { $0["source"] as? String } == ["App/Boards/Boards.swift:38"])
        #expect(items.first?["cause"] as? String == "notInstalled")
    }

    @Test("--explain on the entry board a launcher activates by hand finds it and says so")
    func explainTheEntryBoard() throws {
        let r = try runCLI(["import", Self.eraApps.appendingPathComponent("GuestBook").path, "--explain", "gb.root"])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out.hasPrefix("gb.root: a board (board) of module App"), "\(r.out)")
        #expect(r.out.contains("an entry point: the app's launch code activates it at App/AppDelegate.swift:12"))
        #expect(r.out.contains("gb.root → gb.welcome  activates"))
    }

    @Test("check over an app it understood well prints no partly-understood warning; the report counts what no registration reaches")
    func checkAndReportOnEraApps() throws {
        let r = try runCLI(["check", Self.eraApps.appendingPathComponent("ParcelApp").path])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out.hasSuffix("ParcelApp: no findings (10 boards, 11 edges)\n"), "\(r.out)")
        let report = try runCLI(["import", Self.eraApps.appendingPathComponent("GuestBook").path])
        #expect(report.out.contains("not reached (activation call sites in code no registration the import resolved reaches):\n  App/Boards/RootBoard.swift:20: in RootBoard.openSettingsDirectly, a function nothing calls"))
        #expect(report.out.contains("total: 9 call sites, 8 resolved where written, 0 through callers, 0 unresolved, 1 in code no registration reaches (88.9% resolved)"))
    }

    @Test("check on an app whose registrations it cannot read says so first, and never prints a bare all-clear")
    func checkSaysItUnderstoodTooLittle() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("era-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("App"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = """
            import Boardy
            extension BoardID { static let pubHome: BoardID = "pub.home" }
            func idFromServer() -> BoardID { BoardID(UserDefaults.standard.string(forKey: "home") ?? "") }
            struct ShopPlugin: ModulePlugin {
                let identifier: BoardID = .pubHome
                func apply(for main: MainComponent) {
                    main.producer.registerBoard(idFromServer()) { id in HomeBoard(identifier: id) }
                }
            }
            final class HomeBoard: ModernContinuableBoard, GuaranteedBoard {
                typealias InputType = Void
                func activate(withGuaranteedInput input: Void) { motherboard.activateBoard(identifier: .pubHome) }
            }
            @main final class AppDelegate {
                func launch() { PluginLauncher.with(options: .default).install(plugin: ShopPlugin()).initialize() }
            }
            """
        try source.write(to: dir.appendingPathComponent("App/App.swift"), atomically: true, encoding: .utf8)
        let r = try runCLI(["check", dir.path])
        #expect(r.code == 0, "a warning keeps the exit code: \(r.err)")
        #expect(!r.out.contains(": no findings"), "\(r.out)")
        #expect(r.out.contains("warning: the import found no board, below the threshold of 80%"), "\(r.out)")
        #expect(r.out.contains("no other findings on the understood part"))
        let sarif = try runCLI(["check", dir.path, "--format", "sarif"])
        #expect(sarif.out.contains("\"partly-understood\""))
    }
}
