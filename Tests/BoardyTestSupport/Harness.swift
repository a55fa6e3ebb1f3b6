import Boardy
import Foundation
import Testing

/// A motherboard on a virtual clock with a recorder attached (shared by the test targets).
public struct Harness {
    public let recorder = TraceRecorder()
    public let scheduler = VirtualScheduler()
    public let runtime: BoardyRuntime

    public init() {
        runtime = BoardyRuntime(scheduler: scheduler, observer: recorder)
    }

    public func motherboard(_ boards: [any ActivatableBoard] = [], producer: BoardProducer? = nil) -> Motherboard {
        Motherboard(boards: boards, boardProducer: producer, runtime: runtime)
    }

    /// The events, one short line each: `kind board detail`.
    public var lines: [String] { recorder.events.map(\.short) }
}

extension TraceEvent {
    /// A compact one-line summary for assertions.
    public var short: String {
        var s = kind
        switch body {
        case .activationRequested(let b, let source, let input):
            s += " \(b)"
            if let source { s += " from \(source)" }
            if let input { s += " \(input)" }
        case .activationPerformed(let b, let input):
            s += " \(b)"
            if let input { s += " \(input)" }
        case .outputSent(let b, let o): s += " \(b) \(o)"
        case .flowRouted(let from, let o, let to, let action): s += " \(from) \(o) \(action)" + (to.map { " \($0)" } ?? "")
        case .boardCompleted(let b, let success): s += " \(b) \(success.map(String.init) ?? "-")"
        case .activationCancelled(let b, let reason): s += " \(b) \(reason)"
        case .commandSent(let b, let c): s += " \(b) \(c)"
        case .stimulus(let action, let fields): s += " \(action) \(JSONValue.object(fields))"
        default: s += " " + (body.board ?? "")
        }
        if !extra.isEmpty { s += " " + JSONValue.object(extra).jsonText }
        if mb != "main" { s = "[\(mb)] " + s }
        return s
    }
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
