import BoardyFiles
import BoardyLock
import BoardyTrace
import Foundation

/// Why an import could not start.
public struct ImportError: Error, Sendable, CustomStringConvertible {
    /// What was wrong.
    public var message: String
    /// The folders hold no Swift file an app target compiles (exit 66).
    public var noInput: Bool
    /// The message.
    public var description: String { message }
}

/// Reads a Boardy app's Swift sources into its flow model (``ImportedApp``).
///
/// Files are parsed on every core, each into a small set of facts (its syntax tree is dropped at
/// once), then the facts are resolved together: ids through constants and interpolations, IO
/// helpers through their defaults, plugins through their service cases, targets through callers.
public enum AppImporter {
    /// Files larger than this are skipped with a warning: no Swift file an app compiles is this
    /// large, and parsing one would hold its whole tree.
    public static let maximumFileSize = 8 << 20

    /// Every file an import of `roots` reads: the Swift files it finds and the manifests
    /// (Package.swift, podspecs, Xcode projects) that decide which of them it parses. A command that
    /// writes an output checks it against these (docs/contract.md §3.3: an output is never an input).
    public static func filesRead(_ roots: [String]) -> [String] {
        // Every Swift file found counts, compiled by an app target or not: an output must never
        // replace a source, whatever the manifests say of it.
        let set = SourceSet.discover(roots)
        return set.found + set.manifests
    }

    /// Imports the app whose sources are under `roots` (folders or files).
    public static func importApp(_ roots: [String], name: String? = nil) throws(ImportError) -> ImportedApp {
        for r in roots where !FileManager.default.fileExists(atPath: r) {
            throw ImportError(message: "\(r): no such file or folder", noInput: true)
        }
        let set = SourceSet.discover(roots)
        guard !set.files.isEmpty else {
            let what = set.skipped > 0 ? "no Swift file in an app target (\(set.skipped) in test targets or in no target)" : "no Swift file"
            // What was skipped on the way says why, when something was.
            let skipped = set.warnings.prefix(5).map { "\n  \($0)" }.joined()
            throw ImportError(message: "\(roots.joined(separator: ", ")): \(what)\(skipped)", noInput: true)
        }
        let facts = extractAll(set.files)
        var resolver = Resolver(files: facts)
        resolver.resolveBoards()
        resolver.resolveEdges()
        let appName = name ?? roots.first.map { URL(fileURLWithPath: $0).standardizedFileURL.lastPathComponent } ?? "app"
        return ImportedApp(
            name: appName, boards: resolver.sortedBoards, edges: resolver.edges, entries: resolver.entries, unresolved: resolver.unresolved,
            warnings: set.warnings + facts.flatMap(\.warnings) + resolver.warnings, filesRead: set.files.count, filesSkipped: set.skipped,
            gatesWithoutCompletion: resolver.gatesWithoutCompletion, resolution: resolver.resolution.values.sorted { $0.module < $1.module },
            unreached: resolver.unreached.sorted { $0.source < $1.source })
    }

    /// Parses every file on every core. Threads get a large stack: the parser and the visitor
    /// recurse as deep as the code nests (the parser stops at its own nesting limit).
    static func extractAll(_ files: [SourceFile]) -> [FileFacts] {
        let slots = LockedValue([FileFacts?](repeating: nil, count: files.count))
        WorkerThreads.run(items: files.count, workers: WorkerThreads.count(for: files.count), stackSize: 64 << 20) { _, next in
            while let i = next() {
                let f = extract(files[i])
                slots.withLockedValue { $0[i] = f }
            }
        }
        return slots.withLockedValue { $0.map { $0! } }
    }

    /// One file's facts, or a warning when it cannot be read as Swift text.
    static func extract(_ file: SourceFile) -> FileFacts {
        func skipped(_ message: String, line: Int = 1) -> FileFacts {
            var f = FileFacts(path: file.shown, module: file.module)
            f.warnings.append(ImportWarning(source: CodeLocation(file: file.shown, line: line), message: message))
            return f
        }
        // Only a regular file is read, never blocking on the open (a pipe found in a folder would
        // block forever); a file named on the command line may be a stream.
        let read =
            file.explicit
            ? InputFiles.readNamedInput(file.path, limit: maximumFileSize) : InputFiles.readRegularFile(file.path, limit: maximumFileSize)
        let bytes: [UInt8]
        switch read {
        case let .success(b): bytes = b
        case let .failure(error):
            switch error.reason {
            case .tooLarge: return skipped("larger than \(maximumFileSize >> 20) MB; skipped")
            case let .notRegular(kind): return skipped("it is \(kind.described), not a file; skipped")
            case let .system(message): return skipped("cannot be read (\(message)); skipped")
            case .nulByte: return skipped("not text; skipped")
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            // The first line that is not UTF-8 (a multi-byte sequence never holds a newline byte).
            var line = 1
            for chunk in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
                if String(validating: chunk, as: UTF8.self) == nil { break }
                line += 1
            }
            return skipped("not UTF-8 text; skipped", line: line)
        }
        return Extractor.extract(path: file.shown, module: file.module, source: text)
    }
}

/// The workers' shared queue of file indices, and their results.

