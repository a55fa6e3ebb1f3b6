import BoardyTestSupport
import Foundation
import Testing

private func files(in folder: String, ending suffix: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: repoRoot.appendingPathComponent(folder).path)
        .filter { $0.hasSuffix(suffix) }.sorted().map { "\(folder)/\($0)" }
}

@Suite("JSON Schemas")
struct SchemaTests {
    @Test("every sample scenario and every checked-in trace (samples and golden fixtures) is valid")
    func samplesAndGoldens() throws {
        var all = try files(in: "samples", ending: ".json") + files(in: "samples/traces", ending: ".jsonl")
        for suite in ["BoardyTests", "BoardyComponentKitTests", "BoardyDispatchTests"] {
            all += try files(in: "Tests/\(suite)/Fixtures", ending: ".jsonl")
        }
        #expect(all.count >= 15)
        let r = try validateSchemas(all)
        #expect(r.code == 0, "\(r.out)")
        #expect(r.out.contains("invalid=0"))
    }

    @Test(
        "the event schema rejects events missing their kind's fields or with wrong types",
        arguments: [
            #"{"format":"boardy-trace","version":2}"#,
            #"{"seq":0,"t":0,"kind":"stimulus","mb":"main","action":"activate"}"#,
            #"{"seq":1,"t":-1,"kind":"stimulus","mb":"main","action":"activate"}"#,
            #"{"seq":1,"t":0,"kind":"gateway.checked","mb":"main","board":"a","barrier":"g","result":"maybe"}"#,
            #"{"seq":1,"t":0,"kind":"barrier.resolved","mb":"main","barrier":"g","passed":true}"#,
            #"{"seq":1,"t":0,"kind":"stuck","mb":"main","waiting":[]}"#,
            #"{"seq":1,"t":0,"kind":"dispatch.sent","mb":"main","dispatcher":"d","events":"2","flush":false}"#,
            #"{"seq":1,"t":0,"mb":"main","board":"a"}"#,
        ])
    func rejectsEvent(_ line: String) throws {
        let f = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString).jsonl")
        try (line + "\n").write(to: f, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: f) }
        let r = try validateSchemas([f.path])
        #expect(r.code == 1, "\(r.out)")
    }

    @Test("unknown kinds and unknown fields stay valid (readers pass them through)")
    func openForNewKinds() throws {
        let f = FileManager.default.temporaryDirectory.appendingPathComponent("open-\(UUID().uuidString).jsonl")
        try #"""
        {"format":"boardy-trace","version":1,"scenario":"s","clock":"virtual","future":1}
        {"seq":1,"t":0,"kind":"board.paused","mb":"main","board":"a","why":{"x":1}}
        {"seq":2,"t":0.5,"kind":"output.sent","mb":"main","board":"a","output":null,"note":"kept"}

        """#.write(to: f, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: f) }
        let r = try validateSchemas([f.path])
        #expect(r.code == 0, "\(r.out)")
    }
}
