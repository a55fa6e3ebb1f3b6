import ArgumentParser
import BoardyImport
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
            """)

    @Argument(help: "The app's folders (or Swift files).") var folders: [String]
    @Option(help: "Report format: text, or json (the model).") var format: OutputFormat = .text
    @Option(name: .shortAndLong, help: "Write a scenario skeleton here (.json; whole or not at all).") var output: String?

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
        switch format {
        case .json: report(app.json.jsonText)
        case .text: report(Self.text(app))
        }
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
            lines.append("  \(b.id)  \(b.kind)\(b.module.map { "  module \($0)" } ?? "")\(b.parent.map { "  in \($0)" } ?? "")  \(b.source)")
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
            for u in app.unresolved { lines.append("  \(u.source): \(u.why)") }
        }
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
