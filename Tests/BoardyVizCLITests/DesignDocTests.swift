import BoardySimulation
import BoardyTestSupport
import BoardyTrace
import Foundation
import Testing

/// docs/design.md is the map a new maintainer reads: these keep its module table and graph true to
/// the sources' imports and Package.swift (products starred), its dependency table true to
/// Package.swift's package dependencies, and its "where things live" tables complete (every
/// command, event kind and check) and pointing at files that exist.
@Suite("docs/design.md stays true to the code")
struct DesignDocTests {
    static let design = (try? String(contentsOf: repoRoot.appendingPathComponent("docs/design.md"), encoding: .utf8)) ?? ""

    /// The rows of the Markdown table between `<!-- name:begin -->` and `<!-- name:end -->`, cells
    /// trimmed, header and rule left out.
    static func table(_ name: String) throws -> [[String]] {
        let begin = try #require(design.range(of: "<!-- \(name):begin -->"), "design.md has no \(name) table")
        let end = try #require(design.range(of: "<!-- \(name):end -->", range: begin.upperBound..<design.endIndex))
        let rows = design[begin.upperBound..<end.lowerBound].split(separator: "\n").filter { $0.hasPrefix("|") }
        return rows.dropFirst(2).map { row in
            row.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast().map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    /// `a, b` or `—` as a set of names; backticks and stars dropped.
    static func names(_ cell: String) -> Set<String> {
        cell == "—" ? [] : Set(cell.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "`", with: "") })
    }

    /// The `Sources/...` paths a cell names.
    static func paths(_ cell: String) -> [String] {
        cell.split(whereSeparator: { $0 == "," || $0 == " " || $0 == ";" || $0 == "(" || $0 == ")" }).map(String.init).filter { $0.hasPrefix("Sources/") }
    }

    static let modules = (try? FileManager.default.contentsOfDirectory(atPath: repoRoot.appendingPathComponent("Sources").path))?.sorted() ?? []

    /// Our modules each module's sources import (`import X`, `@_exported import X`, `import struct X.Y`).
    static func imports(of module: String) throws -> Set<String> {
        let ours = Set(modules)
        var found = Set<String>()
        let dir = repoRoot.appendingPathComponent("Sources/\(module)")
        let files = FileManager.default.enumerator(atPath: dir.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        for file in files {
            let text = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                var words = line.split(separator: " ").map(String.init)
                if words.first == "@_exported" { words.removeFirst() }
                guard words.first == "import", let last = words.last, words.count >= 2, let first = last.split(separator: ".").first else { continue }
                let name = String(first)
                if ours.contains(name), name != module { found.insert(name) }
            }
        }
        return found
    }

    static func manifest() throws -> String {
        try String(contentsOf: repoRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
    }

    /// Package.swift's target declarations (`.target(`, `.executableTarget(`, `.testTarget(`, …),
    /// each as its name and its text, which ends where the next declaration starts.
    static func targetDeclarations() throws -> [(name: String, text: String)] {
        var marked = try manifest()
        for kind in [".target(", ".executableTarget(", ".testTarget(", ".systemLibrary(", ".plugin("] {
            marked = marked.replacingOccurrences(of: kind, with: "\u{0}")
        }
        var out: [(name: String, text: String)] = []
        for chunk in marked.split(separator: "\u{0}").dropFirst() {
            guard let nameRange = chunk.range(of: #"name: "([^"]+)""#, options: .regularExpression) else { continue }
            out.append((String(chunk[nameRange].dropFirst(7).dropLast()), String(chunk)))
        }
        return out
    }

    /// Package.swift's package dependencies (`.package(url: "…", <requirement>)`): each one's
    /// identity (its URL's last component, as `.product(name:package:)` names it), its URL, and
    /// the versions its requirement names (`from: "1.5.0"`, `"3.0.0"..<"5.0.0"`).
    static func packageDependencies() throws -> [(identity: String, url: String, versions: [String])] {
        var out: [(identity: String, url: String, versions: [String])] = []
        for rest in try manifest().components(separatedBy: ".package(").dropFirst() {
            // The declaration, up to its closing parenthesis.
            var depth = 1
            var end = rest.startIndex
            while end < rest.endIndex, depth > 0 {
                if rest[end] == "(" { depth += 1 } else if rest[end] == ")" { depth -= 1 }
                end = rest.index(after: end)
            }
            let declaration = rest[..<end]
            // Its string literals: every other piece between quotes.
            let quoted = declaration.split(separator: "\"", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
            let found = quoted.first(where: { $0.contains("://") })
            let url = try #require(found, "Package.swift: a package without a URL: .package(\(declaration)")
            var identity = String(url.split(separator: "/").last ?? "")
            if identity.hasSuffix(".git") { identity = String(identity.dropLast(4)) }
            let versions = quoted.filter { literal in literal.contains(".") && literal.allSatisfy { $0.isNumber || $0 == "." } }
            out.append((identity, url, versions))
        }
        return out
    }

    /// Each target's dependencies among our modules, as Package.swift declares them.
    static func declaredDependencies() throws -> [String: Set<String>] {
        var out: [String: Set<String>] = [:]
        for (name, chunk) in try targetDeclarations() where modules.contains(name) {
            var deps = Set<String>()
            if let d = chunk.range(of: "dependencies: [") {
                var depth = 1
                var i = d.upperBound
                while i < chunk.endIndex, depth > 0 {
                    if chunk[i] == "[" { depth += 1 } else if chunk[i] == "]" { depth -= 1 }
                    i = chunk.index(after: i)
                }
                let list = chunk[d.upperBound..<i]
                for m in modules where list.contains("\"\(m)\"") { deps.insert(m) }
            }
            out[name] = deps
        }
        return out
    }

    @Test("the module table lists every module of Sources with exactly the modules its sources import")
    func moduleTable() throws {
        let rows = try Self.table("modules")
        let documented = Dictionary(rows.map { (String($0[0].split(separator: " ").first ?? ""), Self.names($0[2])) }, uniquingKeysWith: { a, _ in a })
        #expect(Set(documented.keys) == Set(Self.modules), "modules missing or extra in design.md")
        for module in Self.modules {
            let imported = try Self.imports(of: module)
            #expect(documented[module] == imported, "\(module): design.md says \(documented[module]?.sorted() ?? []), its sources import \(imported.sorted())")
        }
    }

    @Test("every module imports only what Package.swift declares for it")
    func packageDeclaresImports() throws {
        let declared = try Self.declaredDependencies()
        for module in Self.modules where module != "CBoardyGraphviz" {
            let deps = try #require(declared[module], "Package.swift has no target \(module)")
            let missing = try Self.imports(of: module).subtracting(deps)
            #expect(missing.isEmpty, "\(module) imports \(missing.sorted()) without declaring it")
        }
    }

    @Test("the module table stars exactly Package.swift's library products")
    func products() throws {
        let libraries = try Set(Self.manifest().components(separatedBy: ".library(name: \"").dropFirst().map { String($0.prefix { $0 != "\"" }) })
        #expect(!libraries.isEmpty, "found no .library(name: in Package.swift")
        let starred = try Set(Self.table("modules").filter { $0[0].hasSuffix("★") }.map { String($0[0].split(separator: " ").first ?? "") })
        #expect(starred == libraries, "starred, not a library product: \(starred.subtracting(libraries).sorted()); a library product, not starred: \(libraries.subtracting(starred).sorted())")
    }

    @Test("the dependency table lists exactly Package.swift's package dependencies, their URLs, versions and the targets that use them")
    func dependencyTable() throws {
        let packages = try Self.packageDependencies()
        #expect(!packages.isEmpty, "found no .package( in Package.swift")
        let rows = try Self.table("dependencies")
        for row in rows { try #require(row.count == 4, "design.md's dependency table: a row without its 4 cells: \(row)") }
        let documented = Dictionary(rows.map { ($0[0].replacingOccurrences(of: "`", with: ""), $0) }, uniquingKeysWith: { a, _ in a })
        #expect(documented.count == rows.count, "design.md's dependency table lists a package twice")
        let declared = Set(packages.map { $0.identity })
        let listed = Set(documented.keys)
        #expect(declared.subtracting(listed).isEmpty, "in Package.swift, not in design.md: \(declared.subtracting(listed).sorted())")
        #expect(listed.subtracting(declared).isEmpty, "in design.md, not in Package.swift: \(listed.subtracting(declared).sorted())")
        let targets = try Self.targetDeclarations()
        for dependency in packages {
            guard let row = documented[dependency.identity] else { continue }
            #expect(row[1].contains(dependency.url), "\(dependency.identity): design.md does not give its URL \(dependency.url)")
            for version in dependency.versions {
                #expect(row[1].contains("\"\(version)\""), "\(dependency.identity): design.md does not give \"\(version)\", as Package.swift requires it")
            }
            let needle = "package: \"\(dependency.identity)\""
            let users = Set(targets.filter { $0.text.contains(needle) }.map { $0.name })
            let said = Self.names(row[2])
            #expect(said == users, "\(dependency.identity): design.md says \(said.sorted()) use it, Package.swift \(users.sorted())")
        }
    }

    @Test("the graph has one edge per import of each library (the CLI and the demo left out)")
    func graph() throws {
        let begin = try #require(Self.design.range(of: "<!-- graph:begin -->"))
        let end = try #require(Self.design.range(of: "<!-- graph:end -->"))
        let edges = Set(Self.design[begin.upperBound..<end.lowerBound].split(separator: "\n").compactMap { line -> String? in
            let parts = line.split(separator: " ").map(String.init)
            return parts.count == 3 && parts[1] == "-->" ? parts[0] + "->" + parts[2] : nil
        })
        var expected = Set<String>()
        for module in Self.modules where module != "boardy-viz" && module != "boardy-demo" {
            for dep in try Self.imports(of: module) { expected.insert(module + "->" + dep) }
        }
        #expect(edges == expected, "missing: \(expected.subtracting(edges).sorted()); extra: \(edges.subtracting(expected).sorted())")
    }

    @Test("every CLI command is mapped to files that exist")
    func commands() throws {
        let help = try runCLI(["--experimental-dump-help"])
        let json = try JSONValue(parsing: help.out)
        let subcommands = json.objectValue?["command"]?.objectValue?["subcommands"]?.arrayValue ?? []
        let names = Set(subcommands.compactMap { $0.objectValue?["commandName"]?.stringValue }).subtracting(["help"])
        #expect(names.count >= 12)
        let rows = try Self.table("commands")
        #expect(Set(rows.map { $0[0].replacingOccurrences(of: "`", with: "") }) == names)
        for row in rows {
            let files = Self.paths(row[1]) + Self.paths(row[2])
            #expect(files.count >= 2, "\(row[0]) names no files")
            for f in files { #expect(FileManager.default.fileExists(atPath: repoRoot.appendingPathComponent(f).path), "\(row[0]): \(f) does not exist") }
        }
    }

    @Test("every event kind is mapped to the files that record it, and each file records it")
    func events() throws {
        let rows = try Self.table("events")
        #expect(rows.map { $0[0].replacingOccurrences(of: "`", with: "") } == EventKind.allCases.map(\.rawValue))
        for row in rows {
            let kind = try #require(EventKind(rawValue: row[0].replacingOccurrences(of: "`", with: "")))
            let needle: String
            switch kind {
            case .stimulus: needle = "recordStimulus("
            case .stuck: needle = ".stuckBarrier(|.stuckDispatcher("
            case .runaway: needle = ".runaway(fields"
            case .gatewayInstalled, .logWarning, .logNote, .misuse: needle = "EventKind." + String(describing: kind) + ".rawValue"
            default: needle = "." + String(describing: kind) + "("
            }
            for f in Self.paths(row[1]) {
                let text = try String(contentsOf: repoRoot.appendingPathComponent(f), encoding: .utf8)
                let any = needle.split(separator: "|").contains { text.contains($0) }
                #expect(any, "\(f) does not record \(kind.rawValue) (no \(needle))")
            }
        }
    }

    @Test("every check's code is mapped to a file that finds it")
    func checks() throws {
        let rows = try Self.table("checks")
        let codes = rows.map { $0[0].replacingOccurrences(of: "`", with: "") }
        for code in Finding.Code.allCases {
            #expect(codes.contains(code.rawValue), "design.md does not say where \(code.rawValue) is found")
        }
        for row in rows {
            let files = Self.paths(row[1])
            #expect(!files.isEmpty)
            for f in files { #expect(FileManager.default.fileExists(atPath: repoRoot.appendingPathComponent(f).path), "\(row[0]): \(f) does not exist") }
            if let code = Finding.Code(rawValue: row[0].replacingOccurrences(of: "`", with: "")) {
                let finds = try files.contains { try String(contentsOf: repoRoot.appendingPathComponent($0), encoding: .utf8).contains("." + String(describing: code)) }
                #expect(finds, "none of \(files) finds \(code.rawValue)")
            }
        }
    }
}
