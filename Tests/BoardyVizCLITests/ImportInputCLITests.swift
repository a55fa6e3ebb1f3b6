import BoardyImport
import BoardyTestSupport
import BoardyTrace
import Foundation
import Testing

/// The fixture app of the import tests (Tests/BoardyImportTests/Fixtures/ShopApp).
private let shopApp = repoRoot.appendingPathComponent("Tests/BoardyImportTests/Fixtures/ShopApp").path

/// The CLI side of the import's input tests (BoardyImportTests, `ImportInputTests`).
@Suite("import inputs through the CLI")
struct ImportInputCLITests {
    static let goodFile = twoBoardAppSource

    @Test func explainAndSarifFlagsRefuseBadUsageAndEscapeHostileIDs() throws {
        let bad = try runCLI(["check", "samples/checkout.json", "--format", "xml"])
        #expect(bad.code == 64 && bad.err.contains("xml"), "\(bad.err)")
        #expect(try runCLI(["import", shopApp, "--explain"]).code == 64)
        // An id with a zero-width space is printed escaped, never as the id it imitates.
        let hidden = try runCLI(["import", shopApp, "--explain", "pub.mod.Payment.Card\u{200B}Entry"])
        #expect(hidden.code == 0)
        #expect(hidden.out.contains("pub.mod.Payment.Card\\u{200B}Entry: not a board"), "\(hidden.out)")
        #expect(hidden.out.contains("did you mean \"pub.mod.Payment.CardEntry\""), "\(hidden.out)")
        let json = try runCLI(["import", shopApp, "--explain", "pub.mod.Payment.CardEntry", "--format", "json"])
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        #expect(doc["found"] as? Bool == true)
        #expect(((doc["chain"] as? [String]) ?? []).first?.hasPrefix("registered at ") == true)
    }

    @Test func noSwiftFileIsNoInput() throws {
        let dir = try temporaryFolder(with: ["README.md": Array("# nothing here\n".utf8)])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(throws: ImportError.self) { try AppImporter.importApp([dir.path]) }
        let r = try runCLI(["import", dir.path])
        #expect(r.code == 66)
        #expect(r.err.contains("no Swift file"))
        let missing = try runCLI(["import", dir.path + "/nope"])
        #expect(missing.code == 66)
    }

    @Test func theCLIWritesTheSkeletonAndRefusesToOverwriteSources() throws {
        let dir = try temporaryFolder(with: ["App/Good.swift": Array(Self.goodFile.utf8)])
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("app.json").path
        let r = try runCLI(["import", dir.path, "-o", out])
        #expect(r.code == 0, "\(r.err)")
        let sim = try runCLI(["simulate", out])
        #expect(sim.code == 0, "\(sim.err)")
        let json = try runCLI(["import", dir.path, "--format", "json"])
        let model = try JSONDocument(parsing: json.out).value
        #expect(model["boards"]?.arrayValue?.count == 2)
        #expect(model["edges"]?.arrayValue?.first?["source"]?.stringValue == "App/Good.swift:4")
        let source = dir.appendingPathComponent("App/Good.swift").path
        let refused = try runCLI(["import", dir.path, "-o", source])
        #expect(refused.code == 64)
        #expect(try String(contentsOfFile: source, encoding: .utf8) == Self.goodFile)
        let check = try runCLI(["check", shopApp])
        #expect(check.code == 3)
        #expect(check.out.contains("Modules/Payment/Sources/Boards/PaymentBoards.swift:33:") && check.out.contains(": error: barrier loop"))
    }
}
