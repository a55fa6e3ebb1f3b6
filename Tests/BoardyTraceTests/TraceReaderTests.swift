import Foundation
import Testing

@testable import BoardyTrace

let header = #"{"format":"boardy-trace","version":1,"scenario":"t","clock":"virtual"}"#

func lines(_ events: [String]) -> String { ([header] + events).joined(separator: "\n") + "\n" }

let e1 = #"{"seq":1,"t":0,"kind":"stimulus","mb":"main","action":"activate","board":"a"}"#
let e2 = #"{"seq":2,"t":0,"kind":"activation.requested","mb":"main","board":"a","cause":1}"#
let e3 = #"{"seq":3,"t":0.5,"kind":"activation.performed","mb":"main","board":"a","cause":2}"#

@Suite("Trace reader")
struct TraceReaderTests {
    @Test("reads the header and every event")
    func readsWholeTrace() throws {
        let trace = try Trace.read(text: lines([e1, e2, e3]))
        #expect(trace.header.scenario == "t")
        #expect(trace.events.map(\.seq) == [1, 2, 3])
        #expect(trace.warnings.isEmpty)
        #expect(trace.jsonl == lines([e1, e2, e3]))
    }

    @Test("a cut-off last line is a truncation: a warning, every whole event before it kept")
    func truncatedLastLine() throws {
        let text = lines([e1, e2]) + String(e3.prefix(30))
        let trace = try Trace.read(text: text, name: "run.jsonl")
        #expect(trace.events.count == 2)
        #expect(
            trace.warnings.map(\.description) == [
                "run.jsonl:4: warning: the last line is cut off (no newline, not valid JSON): a truncated write; the 2 events before it are kept"
            ])
    }

    @Test("a whole last line without its newline is an event, not a truncation")
    func lastLineWithoutNewline() throws {
        let trace = try Trace.read(text: lines([e1, e2]) + e3)
        #expect(trace.events.count == 3)
        #expect(trace.warnings.isEmpty)
    }

    @Test(
        "malformed traces fail at their first bad line with file, line and reason",
        arguments: [
            ("", "t.jsonl:1: empty file: a trace starts with a header line"),
            (
                #"{"format":"other","version":1}"# + "\n",
                #"t.jsonl:1: not a boardy trace: line 1 must be a header with "format":"boardy-trace""#
            ),
            (#"{"format":"boardy-trace","version":2}"# + "\n", "t.jsonl:1: unsupported trace version 2 (this boardy-viz reads version 1)"),
            ("not json\n", "t.jsonl:1:1: header is not valid JSON: expected a JSON object, found 'n'"),
            (
                lines([e1, #"{"seq":2,"t":0,"kind":"x","mb":"main",}"#, e3]),
                "t.jsonl:3:39: not valid JSON: expected a member name, found '}'"
            ),
            (lines([e1, #"{"t":0,"kind":"x","mb":"main"}"#]), "t.jsonl:3: event has no \"seq\""),
            (lines([e1, e3]), "t.jsonl:3: seq gap: expected seq 2, found 3 (events must count from 1 without gaps)"),
            (lines([e1, "", e2]), "t.jsonl:3: empty line: every line after the header is one event"),
            (
                lines([#"{"seq":1,"t":2,"kind":"x","mb":"main"}"#, #"{"seq":2,"t":1,"kind":"x","mb":"main"}"#]),
                "t.jsonl:3: time goes backwards: t 1 after 2"
            ),
            (lines([e1, "[1,2]"]), "t.jsonl:3:1: not valid JSON: expected a JSON object, found '['"),
            (
                lines([e1, #"{"seq":2,"t":0,"kind":"output.sent","mb":"main","board":"a"}"#]),
                "t.jsonl:3: output.sent event has no \"output\""
            ),
        ])
    func malformed(text: String, message: String) {
        #expect {
            try Trace.read(text: text, name: "t.jsonl")
        } throws: { error in
            "\(error)" == message
        }
    }

    @Test("a truncated header is malformed, not a truncation")
    func truncatedHeader() {
        #expect(throws: TraceReadError.self) { try Trace.read(text: String(header.prefix(20))) }
    }

    @Test("a missing file is reported with its path")
    func missingFile() {
        #expect {
            try Trace.read(path: "/nonexistent/x.jsonl")
        } throws: { error in
            "\(error)" == "/nonexistent/x.jsonl: cannot open: No such file or directory"
        }
    }

    @Test("the streaming reader gives what Foundation's JSONDecoder reads from the same file")
    func agreesWithFoundation() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("agree-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Every kind, many times over, with payloads that exercise escapes and numbers.
        var events: [TraceEvent] = []
        for round in 0..<200 {
            for e in everyKind {
                var e = e
                e.seq = events.count + 1
                e.t = TraceTime(microseconds: Int64(events.count) * 7)
                e.cause = e.seq > 1 ? e.seq - 1 : nil
                if round % 3 == 0 { e.extra = ["note": .string("r\(round) \"q\" \\ \u{1} é"), "n": .double(Double(round) / 8)] }
                events.append(e)
            }
        }
        let writer = try TraceWriter(path: path, header: TraceHeader(scenario: "agree"))
        for e in events { writer.record(e) }
        try writer.close()

        let fast = try Trace.read(path: path)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let decoder = JSONDecoder()
        let viaFoundation = try text.split(separator: "\n").dropFirst().map { line -> TraceEvent in
            let value = try decoder.decode(JSONValue.self, from: Data(line.utf8))
            return try TraceEvent(jsonObject: value.objectValue!)
        }
        #expect(fast.events.count == events.count)
        #expect(viaFoundation.count == events.count)
        // Compare event by event so a failure names the first difference, not 4,000 events.
        let firstDifference = zip(fast.events, viaFoundation).first { $0 != $1 }
        #expect(firstDifference == nil, "first event that differs: \(String(describing: firstDifference))")
        let back = fast.jsonl.split(separator: "\n")
        let original = text.split(separator: "\n")
        let firstLine = zip(back, original).first { $0 != $1 }
        #expect(back.count == original.count)
        #expect(
            firstLine == nil, "reading and writing back gives the file byte for byte; first difference: \(String(describing: firstLine))")
    }
}
