import ArgumentParser
import Boardy
import BoardyGraphviz
import BoardyImport
import BoardySimulation
import BoardyTrace
import BoardyViz
import BoardyVizCore
import BoardyVizSimulation
import Foundation

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Find barrier loops, gates that never complete and unreachable boards, without running.",
        discussion: """
            Errors (exit 3): barrier loops, gates that can never complete. Warnings (exit unchanged):
            boards never reached, dispatch barriers scoped to unknown dispatchers.

            Given an app's source folder, reads its code (as `import` does) and reports barrier
            loops and self-gated boards (errors), and gates whose code has no reachable
            completion (warnings), each with the file and line of the code that makes it.

            Examples:
              boardy-viz check samples/barrier-loop.json
              boardy-viz check MyApp/
            """)

    @Argument(help: "The scenario file, an app's source folder, or - for standard input.") var scenario: String
    @Option(help: "Report format: text (file:line:column: error|warning: message [rule], as compilers print), json, or sarif (SARIF 2.1.0).")
    var format: CheckFormat = .text

    /// `check`'s formats: the compiler-style text, our JSON, SARIF for code-scanning services.
    enum CheckFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json, sarif
    }

    func run() throws {
        if isSourceFolder(scenario) { return try checkSources() }
        var loaded = try guarded { try loadScenario(scenario) }
        // The check reads the specs: the definition's values (a second copy of every board, for
        // the fingerprint) can go before it runs, which matters at a million boards.
        loaded.definition = .null
        let findings = StaticCheck.check(loaded)
        let file = scenario == "-" ? "<stdin>" : scenario
        switch format {
        case .text:
            if findings.isEmpty { print("\(scenario): no findings") }
            let index = Self.boardIndex(loaded)
            for f in findings { print(escapedLines(Self.diagnostic(f, in: loaded, file: file, index: index).text)) }
        case .json:
            // The same text as one JSON array, written a finding at a time: a million findings
            // are not built into one value first.
            var text = "["
            for (i, f) in findings.enumerated() {
                if i > 0 { text += "," }
                text += JSONValue.object([
                    "severity": .string(f.severity.rawValue), "code": .string(f.code.rawValue), "message": .string(f.message),
                    "suggestion": .string(f.suggestion), "boards": .array(f.boards.map { .string($0.rawValue) }),
                ]).jsonText
                if text.utf8.count >= 1 << 16 {
                    FileHandle.standardOutput.write(Data(text.utf8))
                    text = ""
                }
            }
            FileHandle.standardOutput.write(Data((text + "]\n").utf8))
        case .sarif:
            let index = Self.boardIndex(loaded)
            print(Diagnostic.sarif(findings.map { Self.diagnostic($0, in: loaded, file: file, index: index) }).jsonText)
        }
        if findings.contains(where: { $0.severity == .error }) { throw Exit.problems }
    }

    /// A scenario finding placed at its first board's entry in the file (its line and column),
    /// each further board a note at its own.
    static func diagnostic(_ f: Finding, in scenario: Scenario, file: String) -> Diagnostic {
        diagnostic(f, in: scenario, file: file, index: boardIndex(scenario))
    }

    /// Each board id's place in the scenario's `boards` list (built once for all findings: a
    /// million boards with a warning each must not cost a million scans).
    static func boardIndex(_ scenario: Scenario) -> [String: Int] {
        var indexOf: [String: Int] = [:]
        indexOf.reserveCapacity(scenario.boards.count)
        for (i, b) in scenario.boards.enumerated() where indexOf[b.id.rawValue] == nil { indexOf[b.id.rawValue] = i }
        return indexOf
    }

    static func diagnostic(_ f: Finding, in scenario: Scenario, file: String, index indexOf: [String: Int]) -> Diagnostic {
        func place(_ board: BoardID) -> Diagnostic.Place {
            let at = indexOf[board.rawValue].flatMap { scenario.document?.location(of: "boards[\($0)]") }
            return Diagnostic.Place(file: file, line: at?.line ?? 1, column: at?.column ?? 1)
        }
        let first = f.boards.first.map(place) ?? Diagnostic.Place(file: file, line: 1, column: 1)
        var notes = [Diagnostic.Note(place: first, message: "fix: \(f.suggestion)")]
        var seen = Set([f.boards.first?.rawValue ?? ""])
        for b in f.boards.dropFirst() where seen.insert(b.rawValue).inserted {
            notes.append(Diagnostic.Note(place: place(b), message: "board \(b.rawValue) is declared here"))
        }
        return Diagnostic(place: first, severity: f.severity.rawValue, message: f.message, rule: f.code.rawValue, notes: notes)
    }

    /// `check DIR`: the code's loops, self-gated boards and silent gates.
    func checkSources() throws {
        let app = try guarded { try importSources([scenario]) }
        for w in app.warnings { warn(w.description) }
        let findings = ImportCheck.check(app)
        let diagnostics = findings.map { Self.diagnostic($0, root: scenario) }
        switch format {
        case .text:
            if findings.isEmpty { print("\(scenario): no findings (\(app.boards.count) boards, \(app.edges.count) edges)") }
            for d in diagnostics { print(escapedLines(d.text)) }
            if findings.count == 1, findings[0].code == .partlyUnderstood {
                print("\(scenario): no other findings on the understood part (\(app.boards.count) boards, \(app.edges.count) edges)")
            }
        case .json:
            print(JSONValue.array(findings.map {
                ["severity": .string($0.severity.rawValue), "code": .string($0.code.rawValue), "message": .string($0.message),
                 "suggestion": .string($0.suggestion), "sources": .array($0.sources.map { .string($0.description) })]
            }).jsonText)
        case .sarif:
            print(Diagnostic.sarif(diagnostics).jsonText)
        }
        if findings.contains(where: { $0.severity == .error }) { throw Exit.problems }
    }

    /// A finding in an app's code: at its first place, every other place (each edge of a loop) a note.
    static func diagnostic(_ f: Finding, root: String) -> Diagnostic {
        let base = root.hasSuffix(".swift") ? URL(fileURLWithPath: root).deletingLastPathComponent().path : root
        func place(_ s: CodeLocation) -> Diagnostic.Place {
            Diagnostic.Place(file: base.hasSuffix("/") ? base + s.file : base + "/" + s.file, line: s.line, column: s.column)
        }
        let first = f.sources.first.map(place) ?? Diagnostic.Place(file: root, line: 1, column: 1)
        var notes = [Diagnostic.Note(place: first, message: "fix: \(f.suggestion)")]
        let also = f.code == .partlyUnderstood ? "not understood here either" : "this edge is part of it"
        for s in f.sources.dropFirst() { notes.append(Diagnostic.Note(place: place(s), message: also)) }
        return Diagnostic(place: first, severity: f.severity.rawValue, message: f.message, rule: f.code.rawValue, notes: notes)
    }
}

/// A finding as compilers and code-scanning services take it: a place, a severity, a message, a
/// rule, and notes at places of their own.
struct Diagnostic {
    /// A file, line and column (1-based).
    struct Place {
        var file: String
        var line: Int
        var column: Int
        var text: String { "\(file):\(line):\(column)" }
    }
    /// A note (a fix, another place of the same finding).
    struct Note {
        var place: Place
        var message: String
    }
    var place: Place
    var severity: String
    var message: String
    var rule: String
    var notes: [Note]

    /// `file:line:column: error: message [rule]`, then each note as `file:line:column: note: …`,
    /// as swiftc prints them (Xcode, editors and CI parse this form).
    var text: String {
        ([ "\(place.text): \(severity): \(oneLine(message)) [\(rule)]" ] + notes.map { "\($0.place.text): note: \(oneLine($0.message))" }).joined(separator: "\n")
    }

    private func oneLine(_ s: String) -> String { s.replacingOccurrences(of: "\n", with: " ") }

    /// SARIF 2.1.0: one run of boardy-viz, its rules, each diagnostic a result located at its
    /// place with every note's place as a related location.
    static func sarif(_ diagnostics: [Diagnostic]) -> JSONValue {
        func location(_ p: Place, id: Int? = nil, message: String? = nil) -> JSONValue {
            var o: JSONObject = [
                "physicalLocation": [
                    "artifactLocation": ["uri": .string(uri(p.file))],
                    "region": ["startLine": .int(Int64(max(1, p.line))), "startColumn": .int(Int64(max(1, p.column)))],
                ]
            ]
            if let id { o["id"] = .int(Int64(id)) }
            if let message { o["message"] = ["text": .string(message)] }
            return .object(o)
        }
        var ruleIDs: [String] = []
        for d in diagnostics where !ruleIDs.contains(d.rule) { ruleIDs.append(d.rule) }
        let rules: [JSONValue] = ruleIDs.map { id in
            ["id": .string(id), "shortDescription": ["text": .string(ruleDescriptions[id] ?? id)]]
        }
        let results: [JSONValue] = diagnostics.map { d in
            var related: [JSONValue] = []
            for (i, n) in d.notes.enumerated() { related.append(location(n.place, id: i + 1, message: n.message)) }
            return [
                "ruleId": .string(d.rule), "ruleIndex": .int(Int64(ruleIDs.firstIndex(of: d.rule) ?? 0)),
                "level": .string(d.severity == "error" ? "error" : d.severity == "warning" ? "warning" : "note"),
                "message": ["text": .string(d.message)],
                "locations": .array([location(d.place)]),
                "relatedLocations": .array(related),
            ]
        }
        return [
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": .array([[
                "tool": ["driver": ["name": "boardy-viz", "rules": .array(rules)]],
                "results": .array(results),
            ]]),
        ]
    }

    /// A relative path as a URI reference (percent-encoded; `/` kept).
    private static func uri(_ path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#[]@!$&'()*+,;=%")
        return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
    }

    static let ruleDescriptions: [String: String] = [
        "barrier-loop": "Boards wait on each other's barriers in a cycle: none can activate (Boardy deadlocks silently).",
        "self-gated": "A board is gated by its own barrier or gateway: it can never activate.",
        "gate-never-completes": "A gate's code never completes it: boards behind it wait for ever.",
        "runaway-cycle": "Flows activate boards in a cycle that never ends.",
        "unreachable-board": "A board nothing activates.",
        "unknown-dispatcher": "A dispatch barrier scoped to a dispatcher the scenario does not declare.",
        "confusable-ids": "Board ids that differ only by invisible characters or letter case: a reader cannot tell them apart.",
    ]
}
