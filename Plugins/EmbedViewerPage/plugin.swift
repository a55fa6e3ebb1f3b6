import Foundation
import PackagePlugin

/// Compiles the viewer page's files (BoardyViz's View/Page: view.html, view.css, view.js) into
/// BoardyViz as `ViewerPage.head` and `ViewerPage.tail`, through the `boardy-embed-page` tool.
@main
struct EmbedViewerPage: BuildToolPlugin {
    struct Missing: Error, CustomStringConvertible {
        var names: [String]
        var description: String { "EmbedViewerPage: \(names.joined(separator: ", ")) not found in the target" }
    }

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        // The page's files reach the plugin as the target's files SwiftPM does not compile itself.
        let names = ["view.html", "view.css", "view.js"]
        var inputs: [URL] = []
        if let files = (target as? SourceModuleTarget)?.sourceFiles {
            for name in names {
                if let file = files.first(where: { $0.url.lastPathComponent == name }) { inputs.append(file.url) }
            }
        }
        guard inputs.count == names.count else { throw Missing(names: names.filter { n in !inputs.contains { $0.lastPathComponent == n } }) }
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("ViewerPage+Files.swift")
        return [
            .buildCommand(
                displayName: "Embedding the viewer page (view.html, view.css, view.js)",
                executable: try context.tool(named: "boardy-embed-page").url,
                arguments: inputs.map(\.path) + [output.path],
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }
}
