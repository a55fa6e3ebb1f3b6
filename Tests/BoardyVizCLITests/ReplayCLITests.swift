import BoardyReplay
import BoardyTestSupport
import BoardyTrace
import Foundation
import Testing

// The trace helpers of BoardyReplayTests (Support.swift) these tests use.

private func sampleTracePath(_ name: String) -> String { repoRoot.appendingPathComponent("samples/traces/\(name).jsonl").path }

private func sampleTraceText(_ name: String) throws -> String { try String(contentsOfFile: sampleTracePath(name), encoding: .utf8) }

/// The trace's lines: the header, then one JSON object per event.
private func traceLines(_ text: String) throws -> (header: String, events: [JSONObject]) {
    var lines = text.split(separator: "\n").map(String.init)
    let header = lines.removeFirst()
    return (
        header,
        try lines.map { line in
            guard let o = try JSONValue(parsing: line).objectValue else { throw ReplayError("not an object: \(line)") }
            return o
        }
    )
}

private func traceText(header: String, _ events: [JSONObject]) -> String {
    ([header] + events.map { JSONValue.object($0).jsonText }).joined(separator: "\n") + "\n"
}

/// The CLI side of the replay tests (BoardyReplayTests).
@Suite("boardy-viz replay")
struct ReplayCLITests {
    @Test("exit 0 for every sample, 1 with the first divergence, json for CI")
    func exitCodes() throws {
        for name in sampleNames {
            let r = try runCLI(["replay", "samples/traces/\(name).jsonl", "--scenario", "samples/\(name).json"])
            #expect(r.code == 0, "\(name): \(r.out)\(r.err)")
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("replay-cli-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var (header, events) = try traceLines(try sampleTraceText("checkout"))
        events.remove(at: 20)
        let mutated = dir.appendingPathComponent("dropped.jsonl").path
        try traceText(header: header, events).write(toFile: mutated, atomically: true, encoding: .utf8)
        let diverged = try runCLI(["replay", mutated, "--scenario", "samples/checkout.json"])
        #expect(diverged.code == 1)
        #expect(diverged.out.contains("DIVERGED at seq 21"))
        #expect(diverged.out.contains("seq 22 stands where seq 21 belongs"))
        let json = try runCLI(["replay", mutated, "--scenario", "samples/checkout.json", "--format", "json"])
        #expect(json.code == 1)
        let o = try #require(try JSONValue(parsing: json.out).objectValue)
        #expect(o["divergence"]?.objectValue?["seq"] == 21)
    }

    @Test("--flip writes the counterfactual trace and exits 0; bad flips and flags are usage errors; bad files are 65, missing ones 66")
    func flipAndErrors() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("replay-flip-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("what-if.jsonl").path
        let flip = try runCLI(["replay", "samples/traces/checkout.jsonl", "--scenario", "samples/checkout.json", "--flip", "16", "-o", out])
        #expect(flip.code == 0, "\(flip.err)")
        #expect(flip.out.contains("where the run now goes:"))
        #expect(flip.out.contains("pubReceipt performed: 1 → 0"))
        #expect(try Trace.read(path: out).events.contains { $0.kind == "activation.cancelled" })

        let notAVerdict = try runCLI(["replay", "samples/traces/checkout.jsonl", "--scenario", "samples/checkout.json", "--flip", "17"])
        #expect(notAVerdict.code == 64)
        #expect(notAVerdict.err.contains("event 17 is activation.performed"))
        #expect(try runCLI(["replay", "samples/traces/checkout.jsonl", "--scenario", "samples/checkout.json", "-o", out]).code == 64)
        #expect(try runCLI(["replay", "samples/traces/checkout.jsonl"]).code == 64)

        let bad = dir.appendingPathComponent("bad.jsonl").path
        try "{\"format\":\"boardy-trace\",\"version\":1}\n{\"seq\":1,\"t\":0,\"kind\"\n{}\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let malformed = try runCLI(["replay", bad, "--scenario", "samples/checkout.json"])
        #expect(malformed.code == 65)
        #expect(malformed.err.contains("bad.jsonl:2"))
        #expect(try runCLI(["replay", "samples/traces/checkout.jsonl", "--scenario", "no-such.json"]).code == 66)
        #expect(try runCLI(["replay", "no-such.jsonl", "--scenario", "samples/checkout.json"]).code == 66)
    }
}
