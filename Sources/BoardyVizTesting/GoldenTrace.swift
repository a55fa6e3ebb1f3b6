import BoardyTrace
import Foundation
import Testing

/// The environment variable that turns on recording of golden traces: `1` (or `true`, `yes`)
/// records every golden file a test compares with; anything else, or unset, compares.
public let goldenTraceRecordVariable = "BOARDY_RECORD_GOLDEN"

/// Compares `jsonl` (a whole trace as JSON Lines) with the golden file at `path`, byte for byte.
///
/// - Unset ``goldenTraceRecordVariable``: a missing file or a difference is a test issue that
///   names the first differing line, shows both lines and the fields that differ.
/// - `BOARDY_RECORD_GOLDEN=1`: writes the file (whole or not at all) and records an issue saying
///   it did, so a recording run never passes silently; run again without it to compare.
public func expectGoldenTrace(_ jsonl: String, at path: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let recording = ["1", "true", "yes"].contains(ProcessInfo.processInfo.environment[goldenTraceRecordVariable]?.lowercased() ?? "")
    let existing = FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    if recording {
        do {
            try FileManager.default.createDirectory(
                at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(jsonl.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            Issue.record("could not record golden trace \(path): \(error)", sourceLocation: sourceLocation)
            return
        }
        let what = existing == nil ? "recorded" : (existing == jsonl ? "re-recorded (unchanged)" : "re-recorded (changed)")
        Issue.record(
            "\(what) golden trace \(path) because \(goldenTraceRecordVariable) is set; run again without it to compare",
            sourceLocation: sourceLocation)
        return
    }
    guard let existing else {
        Issue.record(
            "golden trace \(path) does not exist; run this test once with \(goldenTraceRecordVariable)=1 to record it",
            sourceLocation: sourceLocation)
        return
    }
    if let difference = goldenDifference(expected: existing, actual: jsonl, path: path) {
        Issue.record(Comment(rawValue: difference), sourceLocation: sourceLocation)
    }
}

/// Compares a trace with the golden file at `path`; see ``expectGoldenTrace(_:at:sourceLocation:)``.
public func expectGoldenTrace(_ trace: Trace, at path: String, sourceLocation: SourceLocation = #_sourceLocation) {
    expectGoldenTrace(trace.jsonl, at: path, sourceLocation: sourceLocation)
}

/// The first difference between two traces as text for people, or nil when they are equal.
func goldenDifference(expected: String, actual: String, path: String) -> String? {
    guard expected != actual else { return nil }
    let a = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let b = actual.split(separator: "\n", omittingEmptySubsequences: false)
    var i = 0
    while i < a.count, i < b.count, a[i] == b[i] { i += 1 }
    var out = ["the trace differs from golden trace \(path) at line \(i + 1) (re-record with \(goldenTraceRecordVariable)=1 if the new trace is right):"]
    out.append("  - golden:  " + (i < a.count ? String(a[i]) : "(end of file)"))
    out.append("  + actual:  " + (i < b.count ? String(b[i]) : "(end of trace)"))
    if i > 0, i < a.count, i < b.count,
        let xo = (try? JSONValue(parsing: String(a[i])))?.objectValue, let x = try? TraceEvent(jsonObject: xo),
        let yo = (try? JSONValue(parsing: String(b[i])))?.objectValue, let y = try? TraceEvent(jsonObject: yo)
    {
        for m in x.jsonObject.members where y.jsonObject[m.key] != m.value {
            out.append("  \(m.key): - \(m.value.jsonText)  + \(y.jsonObject[m.key]?.jsonText ?? "(absent)")")
        }
        for m in y.jsonObject.members where x.jsonObject[m.key] == nil {
            out.append("  \(m.key): - (absent)  + \(m.value.jsonText)")
        }
    }
    out.append("  (golden: \(a.count) lines, actual: \(b.count) lines)")
    return out.joined(separator: "\n")
}
