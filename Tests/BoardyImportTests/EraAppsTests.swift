import BoardyImport
import BoardyTestSupport
import BoardyTrace
import Foundation
import Testing

/// Fixture apps written in the idioms of Boardy's other eras (issue 45), each with its model
/// written by hand from its code before the import was run on it: boards (with kind, module and
/// parent), edges, entry points, the lines left unresolved and the call sites no registration
/// reaches must come out exactly.
@Suite struct EraAppsTests {
    struct Model: Equatable {
        var boards: Set<String>
        var edges: Set<String>
        var entries: Set<String>
        var unresolved: Set<String>
        var unreached: Set<String>
    }

    static func path(_ app: String) -> String { fixtures.appendingPathComponent("EraApps/\(app)").path }

    static func expected(_ app: String) throws -> Model {
        let file = fixtures.appendingPathComponent("EraApps/\(app).model.json")
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any], "\(app).model.json: not a JSON object")
        func str(_ v: Any?) -> String { (v as? String) ?? "-" }
        let boards = try #require(doc["boards"] as? [[String: Any]]).map { "\(str($0["id"])) \(str($0["kind"])) \(str($0["module"])) \(str($0["parent"]))" }
        let edges = try #require(doc["edges"] as? [[String: Any]]).map { "\(str($0["from"])) → \(str($0["to"])) \(str($0["kind"])) \(str($0["on"]))" }
        return Model(
            boards: Set(boards), edges: Set(edges), entries: Set((doc["entries"] as? [String]) ?? []),
            unresolved: Set((doc["unresolved_lines"] as? [String]) ?? []), unreached: Set((doc["unreached_lines"] as? [String]) ?? []))
    }

    static func imported(_ app: ImportedApp) -> Model {
        Model(
            boards: Set(app.boards.map { "\($0.id) \($0.kind) \($0.module ?? "-") \($0.parent ?? "-")" }),
            edges: Set(app.edges.map { "\($0.from) → \($0.to) \($0.kind.rawValue) \($0.on ?? "-")" }),
            entries: Set(app.entries.map(\.board)), unresolved: Set(app.unresolved.map(\.source.description)),
            unreached: Set(app.unreached.map(\.source.description)))
    }

    @Test("the import gives the hand-written model exactly", arguments: ["GuestBook", "ParcelApp", "Pantry"])
    func modelIsExact(_ name: String) throws {
        let (want, got) = (try Self.expected(name), Self.imported(try AppImporter.importApp([Self.path(name)])))
        #expect(got.boards.subtracting(want.boards).sorted() == [], "boards found but not in the model")
        #expect(want.boards.subtracting(got.boards).sorted() == [], "boards in the model but not found")
        #expect(got.edges.subtracting(want.edges).sorted() == [], "edges found but not in the model")
        #expect(want.edges.subtracting(got.edges).sorted() == [], "edges in the model but not found")
        #expect(got.entries == want.entries)
        #expect(got.unresolved == want.unresolved)
        #expect(got.unreached == want.unreached)
    }

    @Test("a board class that fixes its id and is installed nowhere is the reason its id is missing; a board given no id is named")
    func missingBoardsHaveTheirCause() throws {
        let app = try AppImporter.importApp([Self.path("GuestBook")])
        let about = try #require(app.unresolved.first { $0.ids.contains("gb.about") })
        #expect(about.cause == .notInstalled)
        #expect(about.source.description == "App/Boards/Boards.swift:38")
        #expect(about.fix.contains("Motherboard(boards:"))
        let banner = try #require(app.unresolved.first { $0.why.contains("BannerBoard") })
        #expect(banner.reason == .noID)
        #expect(banner.fix.contains("super.init(identifier:"))
        // The call site in a function nothing calls is counted, not resolved.
        #expect(app.totalResolution.unreached == 1)
        #expect(app.totalResolution.total == 9)
        #expect(app.unreached.first?.owner == "RootBoard")
    }

    @Test("each module's classes run as that module's boards, even where two modules name a class alike")
    func sameClassNamesInTwoModules() throws {
        let app = try AppImporter.importApp([Self.path("ParcelApp")])
        let fromDetails = app.edges.filter { $0.from.hasSuffix(".Detail") }.map { "\($0.from) → \($0.to)" }.sorted()
        #expect(fromDetails == ["mod.Account.Detail → mod.Account.VerifyCode", "mod.Tracking.Detail → pub.mod.Account"])
    }

    @Test("an id the app lends a plugin reaches the board that keeps it: through the construction, counted as through callers")
    func idsThroughInitializers() throws {
        let app = try AppImporter.importApp([Self.path("Pantry")])
        let edge = try #require(app.edges.first { $0.to == "pub.app.Checkout" })
        #expect(edge.from == "mod.Kitchen.Shelf")
        #expect(edge.note == "through the only construction")
        #expect(app.totalResolution.throughCallers == 1)
    }

    /// An app whose registrations the import cannot read: its boards' code is not reached, and
    /// `check` must not give an all-clear over it.
    static let unreadableApp = """
        import Boardy

        extension BoardID {
            static let pubHome: BoardID = "pub.home"
            static let pubCart: BoardID = "pub.cart"
        }

        func idFromServer() -> BoardID { BoardID(UserDefaults.standard.string(forKey: "home") ?? "") }

        struct ShopPlugin: ModulePlugin {
            let identifier: BoardID = .pubHome
            func apply(for main: MainComponent) {
                main.producer.registerBoard(idFromServer()) { id in HomeBoard(identifier: id) }
                main.producer.registerBoard(idFromServer() + ".cart") { id in CartBoard(identifier: id) }
            }
        }

        final class HomeBoard: ModernContinuableBoard, GuaranteedBoard {
            typealias InputType = Void
            func activate(withGuaranteedInput input: Void) {
                motherboard.activateBoard(identifier: .pubCart)
            }
        }

        final class CartBoard: ModernContinuableBoard, GuaranteedBoard {
            typealias InputType = Void
            func activate(withGuaranteedInput input: Void) {
                motherboard.activateBoard(identifier: .pubHome)
            }
        }

        @main final class AppDelegate {
            func launch() {
                PluginLauncher.with(options: .default).install(plugin: ShopPlugin()).initialize()
            }
        }
        """

    @Test("below the threshold, check says first that it understood too little, and where it could not read")
    func checkIsNoFalseAllClear() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("era-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("App"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.unreadableApp.write(to: dir.appendingPathComponent("App/App.swift"), atomically: true, encoding: .utf8)
        let app = try AppImporter.importApp([dir.path])
        #expect(app.boards.isEmpty)
        #expect(app.totalResolution.unreached == 2, "both boards' activations are in code no registration reaches")
        #expect(app.understoodTooLittle)
        let findings = ImportCheck.check(app)
        #expect(findings.first?.code == .partlyUnderstood)
        #expect(findings.first?.severity == .warning)
        #expect(findings.first?.sources.contains { $0.line == 13 } == true, "the first unresolved registration is one of its places")
        // Sources where nothing Boardy is recognised at all: no board, so no all-clear either.
        let plain = dir.appendingPathComponent("Plain")
        try FileManager.default.createDirectory(at: plain.appendingPathComponent("App"), withIntermediateDirectories: true)
        try "struct Settings { var name = \"x\" }\n".write(to: plain.appendingPathComponent("App/Settings.swift"), atomically: true, encoding: .utf8)
        let nothing = try AppImporter.importApp([plain.path])
        #expect(nothing.totalResolution.total == 0)
        #expect(nothing.understoodTooLittle)
        #expect(ImportCheck.check(nothing).first?.code == .partlyUnderstood)
        // An app understood well enough carries no such finding.
        let good = try AppImporter.importApp([Self.path("ParcelApp")])
        #expect(!good.understoodTooLittle)
        #expect(!ImportCheck.check(good).contains { $0.code == .partlyUnderstood })
    }
}
