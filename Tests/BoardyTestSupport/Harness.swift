import Boardy
import BoardyVizTesting
import Foundation
import Testing

/// The harness our tests share is the one users get: ``TraceHarness`` (BoardyVizTesting).
public typealias Harness = TraceHarness

extension TraceEvent {
    /// A compact one-line summary for assertions (``TraceEvent/testLine``).
    public var short: String { testLine }
}

/// Compares `actual` with the golden file `name` in Fixtures, byte for byte. With
/// `BOARDY_RECORD_GOLDEN=1` in the environment it (re)writes the file instead, and says so.
public func expectGolden(_ actual: String, _ name: String, filePath: String = #filePath, sourceLocation: SourceLocation = #_sourceLocation) throws {
    // Fixtures sit beside the calling test file.
    let fixtures = URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    let url = fixtures.appendingPathComponent(name)
    if ProcessInfo.processInfo.environment["BOARDY_RECORD_GOLDEN"] == "1" {
        try actual.write(to: url, atomically: true, encoding: .utf8)
        Issue.record("recorded golden file \(name); run again without BOARDY_RECORD_GOLDEN", sourceLocation: sourceLocation)
        return
    }
    guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
        Issue.record("missing golden file \(name): run with BOARDY_RECORD_GOLDEN=1 to record it", sourceLocation: sourceLocation)
        return
    }
    if expected != actual {
        let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let first = Array(zip(e, a)).firstIndex { $0 != $1 } ?? min(e.count, a.count)
        Issue.record(
            """
            \(name) differs at line \(first + 1):
            - \(first < e.count ? String(e[first]) : "<end>")
            + \(first < a.count ? String(a[first]) : "<end>")
            """, sourceLocation: sourceLocation)
    }
}
