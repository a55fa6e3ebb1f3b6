import BoardyTrace
import BoardyFiles
import Foundation
import SwiftParser
import SwiftSyntax

/// A Swift file the app compiles, with the target (module) that compiles it.
struct SourceFile: Sendable {
    /// The path to read.
    var path: String
    /// The path shown (relative to the folder imported).
    var shown: String
    /// The target, or the top folder when no manifest names one.
    var module: String?
    /// Named on the command line (then a pipe or a device is read as a stream), not found in a
    /// folder (then only a regular file is read).
    var explicit = false
}

/// The Swift files of the folders imported that an app target compiles: target membership from
/// the Xcode projects' Sources phases (and Xcode 16's synchronized folders), podspecs'
/// `source_files` and Package.swift targets. Test targets, and files no app target compiles when a
/// manifest governs their folder, are skipped. Folders of dependencies (Pods, Carthage, .build,
/// DerivedData) are not the app.
struct SourceSet: Sendable {
    var files: [SourceFile] = []
    var skipped = 0
    var warnings: [ImportWarning] = []
    /// The manifests read (Package.swift, podspecs, Xcode projects).
    var manifests: [String] = []
    /// Every Swift file found, whether an app target compiles it or not.
    var found: [String] = []

    static let ignoredFolders: Set<String> = ["Pods", "Carthage", "DerivedData", "node_modules", "SourcePackages", "checkouts", "vendor", "fastlane"]

    /// An app target's claim on files: exact paths, or every file under a folder (minus some).
    private struct Claim {
        var module: String
        var test: Bool
        var files: Set<String> = []
        var folders: [String] = []
        var excluded: [String] = []
        var patterns: [NSRegularExpression] = []

        func claims(_ path: String) -> Bool {
            if files.contains(path) { return true }
            if excluded.contains(where: { path == $0 || path.hasPrefix($0 + "/") }) { return false }
            if folders.contains(where: { path.hasPrefix($0 + "/") }) { return true }
            let range = NSRange(path.startIndex..., in: path)
            return patterns.contains { $0.firstMatch(in: path, range: range) != nil }
        }
    }

    /// Finds the app's Swift files under `roots` (folders or files).
    static func discover(_ roots: [String]) -> SourceSet {
        var set = SourceSet()
        var swift: [(path: String, root: String)] = []
        var manifests: [(path: String, kind: String)] = []
        let fm = FileManager.default
        var explicit = Set<String>()
        /// Whether a file found in a folder can be read: only regular files are (a pipe would
        /// block, a folder cannot be read as a file); the others are named in a warning.
        func readable(_ url: URL) -> Bool {
            let kind = FileKind.of(url.path)
            if kind == .regular { return true }
            set.warnings.append(
                ImportWarning(
                    source: CodeLocation(file: url.path, line: 1),
                    message: "skipped: \(FileKind.reasonSkipped(url.path))\(kind == .directory ? " (a symlink to a folder, which is not followed)" : "")"))
            return false
        }
        for root in roots {
            let rootURL = URL(fileURLWithPath: root).standardizedFileURL
            let kind = FileKind.of(rootURL.path)
            guard kind != .missing else { continue }
            if kind != .directory {
                // Named on the command line: a pipe or device is read as a stream.
                if rootURL.pathExtension == "swift" {
                    swift.append((rootURL.path, rootURL.deletingLastPathComponent().path))
                    explicit.insert(rootURL.path)
                }
                continue
            }
            guard let e = fm.enumerator(at: rootURL, includingPropertiesForKeys: [.isDirectoryKey, .isSymbolicLinkKey], options: [.skipsHiddenFiles]) else { continue }
            for case let url as URL in e {
                let name = url.lastPathComponent
                let values = try? url.resourceValues(forKeys: [.isDirectoryKey, .isSymbolicLinkKey])
                if values?.isDirectory == true {
                    if ignoredFolders.contains(name) || name.hasPrefix(".build") || name.hasSuffix(".xcworkspace") { e.skipDescendants() }
                    if name.hasSuffix(".xcodeproj") {
                        let pbx = url.appendingPathComponent("project.pbxproj")
                        if FileKind.of(pbx.path) != .missing, readable(pbx) { manifests.append((pbx.path, "xcode")) }
                        e.skipDescendants()
                    }
                    continue
                }
                // A symlinked folder is not followed (it may loop); a symlinked file is read.
                // Only regular files are read: a link to a folder, a pipe, a socket or a device
                // found here is named in a warning and skipped.
                let wanted = name == "Package.swift" || name.hasSuffix(".podspec") || url.pathExtension == "swift"
                guard wanted, readable(url) else { continue }
                if name == "Package.swift" { manifests.append((url.path, "package")); continue }
                if name.hasSuffix(".podspec") { manifests.append((url.path, "podspec")); continue }
                swift.append((url.standardizedFileURL.path, rootURL.path))
            }
        }
        var claims: [(base: String, claims: [Claim])] = []
        set.manifests = manifests.map(\.path).sorted()
        set.found = swift.map(\.path)
        for m in manifests.sorted(by: { $0.path < $1.path }) {
            switch m.kind {
            case "package": claims.append(packageClaims(m.path, warnings: &set.warnings))
            case "xcode": claims.append(xcodeClaims(m.path, warnings: &set.warnings))
            default: claims.append(podspecClaims(m.path, warnings: &set.warnings))
            }
        }
        var seen = Set<String>()
        for (path, root) in swift.sorted(by: { $0.path < $1.path }) where seen.insert(path).inserted {
            let rel = path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : URL(fileURLWithPath: path).lastPathComponent
            let shown = roots.count > 1 ? URL(fileURLWithPath: root).lastPathComponent + "/" + rel : rel
            let governing = claims.filter { path.hasPrefix($0.base + "/") }
            if governing.isEmpty {
                let comps = rel.split(separator: "/").dropLast()
                if comps.contains(where: { $0 == "Tests" || $0.hasSuffix("Tests") || $0.hasSuffix("Test") }) { set.skipped += 1; continue }
                set.files.append(
                    SourceFile(
                        path: path, shown: shown, module: comps.first.map(String.init) ?? URL(fileURLWithPath: root).lastPathComponent,
                        explicit: explicit.contains(path)))
                continue
            }
            let all = governing.flatMap(\.claims).filter { $0.claims(path) }
            if let app = all.first(where: { !$0.test }) {
                set.files.append(SourceFile(path: path, shown: shown, module: app.module, explicit: explicit.contains(path)))
            } else {
                set.skipped += 1
            }
        }
        return set
    }

    // MARK: Package.swift

    /// A Package.swift target's kind (`.target(…)`, `.testTarget(…)`, …).
    enum TargetKind: String {
        case target, executableTarget, testTarget, macro, plugin, binaryTarget, systemLibrary
        /// Compiled into the app (tests and macros are not).
        var isApp: Bool { self == .target || self == .executableTarget }
        /// Holds no Swift sources of its own.
        var hasNoSources: Bool { self == .binaryTarget || self == .systemLibrary || self == .plugin }
    }

    private static func packageClaims(_ path: String, warnings: inout [ImportWarning]) -> (base: String, claims: [Claim]) {
        let base = URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL.path
        guard let text = manifestText(path, what: "Package.swift", warnings: &warnings) else { return (ungoverned(path), []) }
        final class Targets: SyntaxVisitor {
            var found: [(kind: TargetKind, name: String, path: String?, exclude: [String], sources: [String])] = []
            override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
                guard let m = node.calledExpression.as(MemberAccessExprSyntax.self), m.base == nil else { return .visitChildren }
                guard let kind = TargetKind(rawValue: m.declName.baseName.text) else { return .visitChildren }
                func str(_ e: ExprSyntax) -> String? {
                    guard let s = e.as(StringLiteralExprSyntax.self), s.segments.count == 1 else { return nil }
                    return s.segments.first?.as(StringSegmentSyntax.self)?.content.text
                }
                func list(_ label: String) -> [String] {
                    node.arguments.first(where: { $0.label?.text == label })?.expression.as(ArrayExprSyntax.self)?.elements.compactMap { str($0.expression) } ?? []
                }
                guard let name = node.arguments.first(where: { $0.label?.text == "name" }).flatMap({ str($0.expression) }) else { return .visitChildren }
                let p = node.arguments.first(where: { $0.label?.text == "path" }).flatMap { str($0.expression) }
                found.append((kind, name, p, list("exclude"), list("sources")))
                return .visitChildren
            }
        }
        let tree = Parser.parse(source: text)
        if tree.hasError {
            let line = firstErrorLine(tree, in: text)
            warnings.append(
                ImportWarning(
                    source: CodeLocation(file: path, line: line),
                    message: "Package.swift does not parse as Swift here; it is ignored, and the files under \(base) are imported as if no manifest named them"))
            return (ungoverned(path), [])
        }
        let v = Targets(viewMode: .sourceAccurate)
        v.walk(tree)
        var out: [Claim] = []
        for t in v.found where !t.kind.hasNoSources {
            let test = t.kind == .testTarget
            let dir: String
            if let p = t.path {
                dir = base + "/" + p
            } else {
                let candidates = (test ? ["Tests", "Sources", "Source", "src", "srcs"] : ["Sources", "Source", "src", "srcs"]).map { "\(base)/\($0)/\(t.name)" }
                dir = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) ?? candidates[0]
            }
            let folder = URL(fileURLWithPath: dir).standardizedFileURL.path
            var c = Claim(module: t.name, test: !t.kind.isApp)
            if t.sources.isEmpty { c.folders = [folder] } else { c.folders = t.sources.map { URL(fileURLWithPath: folder + "/" + $0).standardizedFileURL.path } }
            c.excluded = t.exclude.map { URL(fileURLWithPath: folder + "/" + $0).standardizedFileURL.path }
            // A file given in `sources` is claimed as a file.
            for f in c.folders where f.hasSuffix(".swift") { c.files.insert(f) }
            out.append(c)
        }
        return (base, out)
    }

    // MARK: Xcode projects

    private static func xcodeClaims(_ path: String, warnings: inout [ImportWarning]) -> (base: String, claims: [Claim]) {
        let projectDir = URL(fileURLWithPath: path).deletingLastPathComponent().deletingLastPathComponent().standardizedFileURL.path
        guard case let .success(bytes) = InputFiles.readRegularFile(path, limit: manifestLimit),
              case let data = Data(bytes),
              let plist = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil) as? [String: Any],
              let objects = plist["objects"] as? [String: [String: Any]]
        else {
            warnings.append(
                ImportWarning(
                    source: CodeLocation(file: path, line: 1),
                    message: "not a readable Xcode project; it is ignored, and its files are imported as if no project named them"))
            return (ungoverned(path), [])
        }
        // Each group's and file's parent, to build paths relative to the project.
        var parent: [String: String] = [:]
        for (id, o) in objects {
            for child in o["children"] as? [String] ?? [] { parent[child] = id }
        }
        var memo: [String: String] = [:]
        func fullPath(_ id: String, depth: Int = 0) -> String {
            if let p = memo[id] { return p }
            guard depth < 64, let o = objects[id] else { return projectDir }
            let p = o["path"] as? String
            let tree = o["sourceTree"] as? String ?? "<group>"
            var result: String
            switch tree {
            case "<absolute>": result = p ?? "/"
            case "SOURCE_ROOT": result = projectDir + (p.map { "/" + $0 } ?? "")
            default:
                let up = parent[id].map { fullPath($0, depth: depth + 1) } ?? projectDir
                result = p.map { up + "/" + $0 } ?? up
            }
            result = URL(fileURLWithPath: result).standardizedFileURL.path
            memo[id] = result
            return result
        }
        var out: [Claim] = []
        for (_, o) in objects.sorted(by: { $0.key < $1.key }) where o["isa"] as? String == "PBXNativeTarget" {
            let name = o["name"] as? String ?? "App"
            let type = o["productType"] as? String ?? ""
            var c = Claim(module: (o["productName"] as? String) ?? name, test: type.contains("test"))
            for phase in o["buildPhases"] as? [String] ?? [] {
                guard let ph = objects[phase], ph["isa"] as? String == "PBXSourcesBuildPhase" else { continue }
                for bf in ph["files"] as? [String] ?? [] {
                    if let ref = objects[bf]?["fileRef"] as? String { c.files.insert(fullPath(ref)) }
                }
            }
            for g in o["fileSystemSynchronizedGroups"] as? [String] ?? [] {
                let folder = fullPath(g)
                c.folders.append(folder)
                for ex in objects[g]?["exceptions"] as? [String] ?? [] {
                    guard let set = objects[ex], (set["target"] as? String).map({ objects[$0]?["name"] as? String == name }) ?? true else { continue }
                    c.excluded += (set["membershipExceptions"] as? [String] ?? []).map { folder + "/" + $0 }
                }
            }
            out.append(c)
        }
        return (projectDir, out)
    }

    // MARK: Podspecs

    private static func podspecClaims(_ path: String, warnings: inout [ImportWarning]) -> (base: String, claims: [Claim]) {
        let base = URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL.path
        guard let text = manifestText(path, what: "podspec", warnings: &warnings) else { return (ungoverned(path), []) }
        let podName = firstMatch(#"\.name\s*=\s*['"]([^'"]+)['"]"#, in: text) ?? URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        // Block variables of test specs (`s.test_spec 'Tests' do |t|`): their files are tests.
        var testVars = Set<String>()
        for m in allMatches(#"test_spec[^\n]*do\s*\|\s*(\w+)\s*\|"#, in: text) { testVars.insert(m) }
        var app = Claim(module: podName, test: false)
        var test = Claim(module: podName, test: true)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for line in lines {
            guard let r = line.range(of: #"(\w+)\.source_files\s*=\s*(.+)$"#, options: .regularExpression) else { continue }
            let assignment = String(line[r])
            let variable = String(assignment.prefix(while: { $0.isLetter || $0.isNumber || $0 == "_" }))
            let globs = allMatches(#"['"]([^'"]+)['"]"#, in: assignment)
            for g in globs {
                guard let re = globRegex(base + "/" + g) else { continue }
                if testVars.contains(variable) { test.patterns.append(re) } else { app.patterns.append(re) }
            }
        }
        return (base, [test, app])
    }

    /// Manifests larger than this are not manifests.
    static let manifestLimit = 16 << 20

    /// A base no file is under: a manifest that cannot be read governs nothing, so the files it
    /// would have governed are imported as if it were not there.
    private static func ungoverned(_ path: String) -> String { "/nonexistent-manifest\(path)" }

    /// The manifest's text, or nil with a warning naming the line of the first byte that is not
    /// UTF-8 (or why it could not be read).
    private static func manifestText(_ path: String, what: String, warnings: inout [ImportWarning]) -> String? {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let ignored = "it is ignored, and the files under \(folder) are imported as if no manifest named them"
        switch InputFiles.readRegularFile(path, limit: manifestLimit) {
        case let .failure(error):
            warnings.append(ImportWarning(source: CodeLocation(file: path, line: 1), message: "\(error); \(ignored)"))
            return nil
        case let .success(bytes):
            var body = bytes[...]
            if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
            guard let bad = UTF8Position.firstInvalid(body) else { return String(decoding: body, as: UTF8.self) }
            let (line, column) = UTF8Position.lineAndColumn(of: bad, in: bytes[...])
            var place = CodeLocation(file: path, line: line)
            place.column = column
            warnings.append(
                ImportWarning(
                    source: place,
                    message: "this \(what) is not UTF-8 text (byte 0x\(String(body[bad], radix: 16, uppercase: true))); \(ignored)"))
            return nil
        }
    }

    /// The line of the first syntax error in `tree`.
    private static func firstErrorLine(_ tree: SourceFileSyntax, in text: String) -> Int {
        final class FirstError: SyntaxAnyVisitor {
            var offset: Int?
            override func visitAny(_ node: Syntax) -> SyntaxVisitorContinueKind {
                guard offset == nil, node.hasError else { return .skipChildren }
                if node.is(UnexpectedNodesSyntax.self) || node.as(TokenSyntax.self)?.presence == .missing {
                    offset = node.positionAfterSkippingLeadingTrivia.utf8Offset
                    return .skipChildren
                }
                return .visitChildren
            }
        }
        let v = FirstError(viewMode: .all)
        v.walk(tree)
        guard let offset = v.offset else { return 1 }
        return text.utf8.prefix(offset).reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
    }

    private static func firstMatch(_ pattern: String, in text: String) -> String? { allMatches(pattern, in: text).first }

    private static func allMatches(_ pattern: String, in text: String) -> [String] {
        guard let re = try? NSRegularExpression(pattern: pattern) else { return [] }
        return re.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { m in
            Range(m.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    /// A CocoaPods glob (`**`, `*`, `?`, `{a,b}`) as a regular expression. Written by hand:
    /// Foundation's and POSIX's fnmatch know neither `**` nor braces.
    static func globRegex(_ glob: String) -> NSRegularExpression? {
        var re = "^"
        var chars = Array(URL(fileURLWithPath: glob).standardizedFileURL.path)
        if glob.hasSuffix("/") { chars.append("*") }
        var i = 0
        var inBraces = false
        while i < chars.count {
            let c = chars[i]
            switch c {
            case "*":
                if i + 1 < chars.count, chars[i + 1] == "*" {
                    re += i + 2 < chars.count && chars[i + 2] == "/" ? "(?:.*/)?" : ".*"
                    i += i + 2 < chars.count && chars[i + 2] == "/" ? 3 : 2
                    continue
                }
                re += "[^/]*"
            case "?": re += "[^/]"
            case "{": re += "(?:"; inBraces = true
            case "}" where inBraces: re += ")"; inBraces = false
            case "," where inBraces: re += "|"
            default: re += NSRegularExpression.escapedPattern(for: String(c))
            }
            i += 1
        }
        // A glob naming a folder claims what is under it.
        return try? NSRegularExpression(pattern: re + "(?:/.*)?$")
    }
}
