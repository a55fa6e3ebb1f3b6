import ArgumentParser
import BoardyImport
import BoardySimulation
import BoardyTrace
import BoardyVizSimulation
import Foundation

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Read a Boardy app's Swift sources into its flow model, or a scenario skeleton.",
        discussion: """
            Finds the boards the app registers (producers, BoardRegistration, module plugins and
            their service cases, custom producers) and the edges its code makes (activations,
            flow handlers, flow steps, broadcast actions, activation barriers, the gateway and its
            exemptions), each with its file and line. Only files an app target compiles are read
            (Xcode projects' Sources phases, podspecs' source_files, Package.swift targets; test
            targets are skipped). What cannot be resolved statically is listed, never guessed.
            Exits 0 (with warnings and unresolved items), 66 when the folders hold no Swift file.

            Examples:
              boardy-viz import MyApp/
              boardy-viz import MyApp/ --format json
              boardy-viz import MyApp/ -o myapp.json && boardy-viz simulate myapp.json
              boardy-viz import MyApp/ --explain pub.mod.Login
            """)

    @Argument(help: "The app's folders (or Swift files).") var folders: [String]
    @Option(help: "Report format: text, or json (the model).") var format: OutputFormat = .text
    @Option(name: .shortAndLong, help: "Write a scenario skeleton here (.json; whole or not at all).") var output: String?
    @Option(help: ArgumentHelp("Say why a board was found (its registration chain, each edge's chain from call to target), or why not.", valueName: "id"))
    var explain: String?

    func validate() throws {
        if folders.isEmpty { throw ValidationError("give the app's folder") }
        if let output, output != "-" {
            let ext = URL(fileURLWithPath: output).pathExtension.lowercased()
            if ["swift", "jsonl", "svg", "dot", "png", "html"].contains(ext) {
                throw ValidationError("-o writes a scenario (.json), not .\(ext): \(output)")
            }
        }
    }

    func run() throws {
        let app = try guarded { () throws -> ImportedApp in
            let out = try Output(output, inputs: folders)
            defer { out.discard() }
            let app = try importSources(folders)
            if output != nil {
                let (scenario, notes) = app.scenarioSkeleton()
                for n in notes { warn("note: \(n)") }
                try out.write(Array(scenario.prettyText.utf8))
                try out.commit()
            }
            return app
        }
        for w in app.warnings { warn(w.description) }
        // With -o -, the skeleton is standard output; the summary goes to standard error.
        let report: (String) -> Void = output == "-" ? { warn($0) } : { print($0) }
        if let explain {
            switch format {
            case .json: report(Self.explainJSON(app, explain).jsonText)
            case .text: report(Self.explainText(app, explain))
            }
            return
        }
        switch format {
        case .json: report(app.json.jsonText)
        case .text: report(Self.text(app))
        }
    }

    /// Why `id` is a board (registration chain, each edge's chain) or why not.
    static func explainText(_ app: ImportedApp, _ id: String) -> String {
        let e = Explanation(app, id)
        var lines: [String] = []
        if let b = e.board {
            lines.append("\(escapedForMessage(id)): a board (\(b.kind.rawValue))\(b.module.map { " of module \($0)" } ?? "")\(b.parent.map { ", in \($0)" } ?? "")")
            for step in b.chain { lines.append("  \(step)") }
            for (title, list) in [("edges from it", e.outgoing), ("edges to it", e.incoming)] where !list.isEmpty {
                lines.append("\(title) (\(list.count)):")
                for edge in list {
                    lines.append("  \(edge.from) → \(edge.to)  \(edge.kind.rawValue)\(edge.on.map { " on \($0)" } ?? "")  \(edge.source)")
                    for step in edge.chain { lines.append("    \(step)") }
                }
            }
        } else {
            let causes = e.unresolved.filter { $0.cause == .registration || $0.cause == .notInstalled }
            if causes.isEmpty {
                lines.append("\(escapedForMessage(id)): not a board of \(app.name): no registration the app runs resolves to this id")
            } else {
                lines.append("\(escapedForMessage(id)): not a board of \(app.name) as far as the import could read: it could not resolve \(causes.count == 1 ? "the place" : "the places") that would make it")
                for u in causes { lines.append("  \(u.source): \(u.why)\n    to resolve: \(u.fix)") }
            }
            if !e.nearest.isEmpty { lines.append("  did you mean \(e.nearest.map { "\"\(escapedForMessage($0))\"" }.joined(separator: " or "))?") }
        }
        for entry in e.entries { lines.append("an entry point: the app's launch code activates it at \(entry.source)") }
        let others = e.board == nil ? e.unresolved.filter { $0.cause != .registration && $0.cause != .notInstalled } : e.unresolved
        if !others.isEmpty {
            lines.append("unresolved code that names it (\(others.count)):")
            for u in others { lines.append("  \(u.source): \(u.why)\n    to resolve: \(u.fix)") }
        }
        return lines.joined(separator: "\n")
    }

    static func explainJSON(_ app: ImportedApp, _ id: String) -> JSONValue {
        let e = Explanation(app, id)
        func edge(_ x: ImportedEdge) -> JSONValue {
            ["from": .string(x.from), "to": .string(x.to), "kind": .string(x.kind.rawValue), "source": .string(x.source.description), "chain": .array(x.chain.map(JSONValue.string))]
        }
        return [
            "id": .string(id), "found": .bool(e.board != nil), "chain": .array((e.board?.chain ?? []).map(JSONValue.string)),
            "outgoing": .array(e.outgoing.map(edge)), "incoming": .array(e.incoming.map(edge)),
            "unresolved": .array(e.unresolved.map { ["source": .string($0.source.description), "why": .string($0.why), "cause": .string($0.cause.rawValue), "fix": .string($0.fix)] }),
            "entries": .array(e.entries.map { .string($0.source.description) }),
            "nearest": .array(e.nearest.map(JSONValue.string)),
        ]
    }

    static func text(_ app: ImportedApp) -> String {
        var lines: [String] = []
        let kinds = ImportedEdge.Kind.allCases.map { k in (k, app.edges.filter { $0.kind == k }.count) }.filter { $0.1 > 0 }
        lines.append(
            "\(app.name): \(app.boards.count) boards, \(app.edges.count) edges (\(kinds.map { "\($0.1) \($0.0.rawValue)" }.joined(separator: ", "))), "
                + "\(app.entries.count) entry points, \(app.unresolved.count) unresolved, \(app.warnings.count) warnings; "
                + "\(app.filesRead) files read, \(app.filesSkipped) skipped (tests or no target)")
        lines.append("boards:")
        for b in app.boards {
            lines.append("  \(b.id)  \(b.kind.rawValue)\(b.module.map { "  module \($0)" } ?? "")\(b.parent.map { "  in \($0)" } ?? "")  \(b.source)")
        }
        if !app.entries.isEmpty {
            lines.append("entry points:")
            for e in app.entries { lines.append("  \(e.board)  \(e.source)") }
        }
        lines.append("edges:")
        for e in app.edges {
            lines.append("  \(e.from) → \(e.to)  \(e.kind.rawValue)\(e.on.map { " on \($0)" } ?? "")  \(e.source)\(e.note.map { "  (\($0))" } ?? "")")
        }
        if !app.unresolved.isEmpty {
            lines.append("unresolved:")
            for u in app.unresolved { lines.append("  \(u.source): \(u.why)\n    to resolve: \(u.fix)") }
        }
        if !app.unreached.isEmpty {
            lines.append("not reached (activation call sites in code no registration the import resolved reaches):")
            for u in app.unreached { lines.append("  \(u.source): \(u.why)") }
        }
        lines.append("understood (activation call sites):")
        func row(_ r: ImportResolution, _ name: String) -> String {
            "  \(name): \(r.total) call sites, \(r.direct) resolved where written, \(r.throughCallers) through callers, \(r.unresolved) unresolved, \(r.unreached) in code no registration reaches (\(String(format: "%.1f", r.percentResolved))% resolved)"
        }
        for r in app.resolution { lines.append(row(r, r.module.isEmpty ? "(no module)" : r.module)) }
        lines.append(row(app.totalResolution, "total"))
        return lines.joined(separator: "\n")
    }
}

/// The import's errors: no Swift file is "no input" (66).
extension ImportError: CommandError {
    var exitCode: ExitCode { noInput ? Exit.noInput : Exit.malformed }
    var report: String { message }
}

/// Imports the app under `paths`.
func importSources(_ paths: [String]) throws -> ImportedApp {
    try AppImporter.importApp(paths)
}

/// Whether `path` is a folder (an app's sources) rather than a scenario or trace file.
func isSourceFolder(_ path: String) -> Bool {
    var isDir: ObjCBool = false
    return path != "-" && (FileManager.default.fileExists(atPath: path, isDirectory: &isDir) && isDir.boolValue || path.hasSuffix(".swift"))
}

/// What `import --explain ID` shows: the board, its edges, the unresolved code naming it, and
/// the ids nearest to it when it is not a board.
struct Explanation {
    var board: ImportedBoard?
    var outgoing: [ImportedEdge]
    var incoming: [ImportedEdge]
    var unresolved: [UnresolvedItem]
    var entries: [EntryPoint]
    var nearest: [String]

    init(_ app: ImportedApp, _ id: String) {
        board = app.boards.first { $0.id == id }
        outgoing = app.edges.filter { $0.from == id }
        incoming = app.edges.filter { $0.to == id }
        unresolved = app.unresolved.filter { $0.ids.contains(id) || $0.why.contains(id) }
        entries = app.entries.filter { $0.board == id }
        nearest = board == nil ? closest(to: id, in: app.boards.map(\.id)).map { [$0] } ?? [] : []
    }
}

/// `s` with control, format and other invisible characters written as `\u{…}`, so two ids that
/// differ only by one never print alike.
func escapedForMessage(_ s: String) -> String {
    var out = ""
    for u in s.unicodeScalars {
        switch u.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .unassigned, .surrogate:
            out += "\\u{" + String(u.value, radix: 16, uppercase: true) + "}"
        case .spaceSeparator where u != " ", .nonspacingMark where out.isEmpty, _ where u == "\u{FFFD}":
            // A space that is not U+0020 looks like one; a combining mark with nothing before it
            // draws on whatever the message put there; U+FFFD stands for bytes that were not
            // UTF-8 (a file name), which the message should say rather than draw.
            out += "\\u{" + String(u.value, radix: 16, uppercase: true) + "}"
        default:
            out.unicodeScalars.append(u)
        }
    }
    return out
}
