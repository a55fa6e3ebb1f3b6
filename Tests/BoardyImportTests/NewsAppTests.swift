import BoardyImport
import BoardyTestSupport
import BoardyTrace
import Foundation
import Testing

/// The second fixture app, written in the style of Boardy's published apps (CocoaPods modules
/// with IO pods, plugins listed in `bundledPlugins`, `BoardInput` helpers, delegate extensions,
/// inputs a board forwards). Its model was written by hand before the resolver learnt these
/// idioms (NewsApp.model.json): boards, edges, entry points and the lines left unresolved must
/// come out exactly.
@Suite struct NewsAppTests {
    let newsApp = fixtures.appendingPathComponent("NewsApp").path

    struct Model {
        var boards: Set<String>
        var edges: Set<String>
        var entries: Set<String>
        var unresolved: Set<String>
    }

    /// The hand-written model, as comparable strings.
    func expected() throws -> Model {
        let data = try Data(contentsOf: fixtures.appendingPathComponent("NewsApp.model.json"))
        let doc = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "NewsApp.model.json: not a JSON object")
        func str(_ v: Any?) -> String { (v as? String) ?? "-" }
        let boards = try #require(doc["boards"] as? [[String: Any]], "NewsApp.model.json: no boards array").map { "\(str($0["id"])) \(str($0["kind"])) \(str($0["module"])) \(str($0["parent"]))" }
        let edges = try #require(doc["edges"] as? [[String: Any]], "NewsApp.model.json: no edges array").map { "\(str($0["from"])) → \(str($0["to"])) \(str($0["kind"])) \(str($0["on"]))" }
        let entries = (doc["entries"] as? [String]) ?? []
        let unresolved = (doc["unresolved_lines"] as? [String]) ?? []
        return Model(boards: Set(boards), edges: Set(edges), entries: Set(entries), unresolved: Set(unresolved))
    }

    func imported() throws -> Model {
        let app = try AppImporter.importApp([newsApp])
        return Model(
            boards: Set(app.boards.map { "\($0.id) \($0.kind) \($0.module ?? "-") \($0.parent ?? "-")" }),
            edges: Set(app.edges.map { "\($0.from) → \($0.to) \($0.kind.rawValue) \($0.on ?? "-")" }),
            entries: Set(app.entries.map(\.board)),
            unresolved: Set(app.unresolved.map(\.source.description)))
    }

    @Test func boardsAreExactlyTheModels() throws {
        let (want, got) = (try expected(), try imported())
        #expect(got.boards.subtracting(want.boards).sorted() == [], "found but not in the model")
        #expect(want.boards.subtracting(got.boards).sorted() == [], "in the model but not found")
    }

    @Test func edgesAreExactlyTheModels() throws {
        let (want, got) = (try expected(), try imported())
        #expect(got.edges.subtracting(want.edges).sorted() == [], "found but not in the model")
        #expect(want.edges.subtracting(got.edges).sorted() == [], "in the model but not found")
    }

    @Test func entriesAndUnresolvedLinesAreTheModels() throws {
        let (want, got) = (try expected(), try imported())
        #expect(got.entries == want.entries)
        #expect(got.unresolved == want.unresolved)
    }

    @Test func theReportCountsWhatWasUnderstood() throws {
        let app = try AppImporter.importApp([newsApp])
        let total = app.totalResolution
        #expect(total.total == app.resolution.reduce(0) { $0 + $1.total })
        #expect(total.unresolved >= 1, "the activation whose target comes from the server stays unresolved")
        #expect(total.throughCallers >= 1, "the forwarded pending target is resolved through its callers")
        #expect(Set(app.resolution.map(\.module)).count >= 4)
        for u in app.unresolved { #expect(!u.fix.isEmpty) }
    }
}
