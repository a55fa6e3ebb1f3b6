import Foundation
import Testing

// Helpers that a module's tests and their CLI side (BoardyVizCLITests) both use.

/// Runs `schemas/validate.py` (Python's `jsonschema`, the reference validator) on `files`.
public func validateSchemas(_ files: [String]) throws -> (code: Int32, out: String) {
    let p = Process()
    dieWithParent(p, executable: "/usr/bin/env", arguments: ["python3", "schemas/validate.py"] + files)
    p.currentDirectoryURL = repoRoot
    let out = Pipe()
    p.standardOutput = out
    p.standardError = out
    try p.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// A new temporary folder holding `files` (paths relative to it, their bytes).
public func temporaryFolder(with files: [String: [UInt8]]) throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("import-\(UUID().uuidString)")
    for (name, bytes) in files {
        let url = dir.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }
    return dir
}

/// The text of a viewer page's data element.
public func viewerData(_ page: [UInt8]) throws -> String {
    let html = String(decoding: page, as: UTF8.self)
    let open = "<script id=\"data\" type=\"application/json\">"
    let start = try #require(html.range(of: open)).upperBound
    let end = try #require(html.range(of: "</script>", range: start..<html.endIndex)).lowerBound
    return String(html[start..<end])
}

/// A scenario with a flow no run takes (`a` on `cancel` to `c`) and a barrier never used (`d`'s
/// gate): what coverage must find.
public let plantedCoverageScenario = """
    {"scenario": "planted", "boards": [
       {"id": "a", "onActivate": [{"output": "ok"}]}, {"id": "b"}, {"id": "c"}, {"id": "gate", "onActivate": [{"complete": true}]},
       {"id": "d", "activationBarrier": {"board": "gate"}}],
     "flows": [{"from": "a", "on": "ok", "activate": "b"}, {"from": "a", "on": "cancel", "activate": "c"}],
     "script": [{"at": 0, "activate": "a"}]}
    """
