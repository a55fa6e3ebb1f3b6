import BoardyTestSupport
import BoardyTrace
import Foundation
import Testing

/// The CLI side of the viewer page tests (BoardyVizTests, `ViewerPageTests` in PictureDesignTests.swift).
@Suite("The viewer page through the CLI")
struct ViewerPageCLITests {
    @Test("view through the CLI: stdout by default, -o whole or not at all, bad input and names refused with the contract's codes")
    func command() throws {
        let out = try runCLI(["view", "samples/traces/checkout.jsonl"])
        #expect(out.code == 0)
        #expect(out.out.hasPrefix("<!DOCTYPE html>"))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("view-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("v.html").path
        #expect(try runCLI(["view", "samples/traces/checkout.jsonl", "--scenario", "samples/checkout.json", "-o", page]).code == 0)
        let data = try JSONValue(parsing: try viewerData(Array(try Data(contentsOf: URL(fileURLWithPath: page)))))
        // With the scenario, the graph is the whole definition: every declared board is drawn.
        let items = data.objectValue?["graph"]?.objectValue?["items"]?.arrayValue ?? []
        #expect(items.filter { $0.objectValue?["lane"] != nil }.count >= 9)
        #expect(try runCLI(["view", "samples/traces/checkout.jsonl", "-o", dir.appendingPathComponent("v.json").path]).code == 64)
        #expect(try runCLI(["view", dir.appendingPathComponent("missing.jsonl").path]).code == 66)
        let bad = dir.appendingPathComponent("bad.jsonl").path
        try Data("{\"format\":\"boardy-trace\",\"version\":1}\nnot json\n{}\n".utf8).write(to: URL(fileURLWithPath: bad))
        let r = try runCLI(["view", bad, "-o", dir.appendingPathComponent("bad.html").path])
        #expect(r.code == 65)
        #expect(r.err.contains("bad.jsonl:2"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("bad.html").path))
        #expect(try runCLI(["view", "samples/traces/checkout.jsonl", "--scenario", "samples/barrier-loop.json", "-o", page]).err.contains("another definition"))
    }
}
