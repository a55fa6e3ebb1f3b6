import BoardyTestSupport
import Foundation
import Testing

/// The CLI side of the schema tests (BoardySimulationTests, `SchemaTests`): what the CLI writes
/// is valid, and what the schemas reject the CLI refuses.
@Suite("JSON Schemas through the CLI")
struct SchemaCLITests {
    @Test("a trace cut with --until (stuck with until: true) is valid")
    func untilTrace() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("until-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: out) }
        #expect(try runCLI(["simulate", "samples/stuck-gate.json", "--until", "2", "-o", out.path]).code == 0)
        let r = try validateSchemas([out.path])
        #expect(r.code == 0, "\(r.out)")
    }

    @Test(
        "the schemas reject what the loader and reader reject",
        arguments: [
            #"{"scenario":"s","boards":[{"id":"a","knd":"task"}]}"#,
            #"{"scenario":"s","boards":[{"id":"a","kind":"tusk"}]}"#,
            #"{"scenario":"s","boards":[{"id":"a","onActivate":[{"after":-1,"output":"x"}]}]}"#,
            #"{"scenario":"s","boards":[{"id":"a","onActivate":[{"output":"x","complete":true}]}]}"#,
            #"{"scenario":"s","boards":[{"id":"a"}],"script":[{"activate":"a"}]}"#,
            #"{"scenario":"s","boards":[{"id":"a"}],"script":[{"at":0,"network":"5g"}]}"#,
            #"{"scenario":"s","boards":[{"id":"a"}],"expect":[{"performed":"a","events":2}]}"#,
            #"{"scenario":"s","boards":[{"id":"a","boards":[{"id":"b"}]}]}"#,
            #"{"boards":[]}"#,
        ])
    func rejectsScenario(_ text: String) throws {
        let f = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString).json")
        try text.write(to: f, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: f) }
        let r = try validateSchemas([f.path])
        #expect(r.code == 1, "\(r.out)")
        #expect(try runCLI(["check", f.path]).code == 65)
    }
}
