import BoardyDispatch
import BoardySimulation
import BoardyTestSupport
import BoardyTrace
import Foundation
import Testing

@testable import boardy_viz

/// docs/contract.md is the project's public contract: its normative tables (exit codes, event
/// kinds, scenario keys, board kinds, stimulus actions, commands) must say exactly what the code
/// does, and every "docs/contract.md §N" a source cites must exist.
@Suite("docs/contract.md says what the code does")
struct ContractDocTests {
    static let contract = (try? String(contentsOf: repoRoot.appendingPathComponent("docs/contract.md"), encoding: .utf8)) ?? ""

    /// The rows of the table under the heading `### name` (cells trimmed, backticks removed; the
    /// header and the rule left out).
    static func table(_ name: String) throws -> [[String]] {
        let lines = contract.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex(of: "### \(name)"), "docs/contract.md has no heading ### \(name)")
        #expect(lines.filter { $0 == "### \(name)" }.count == 1, "### \(name) is not unique")
        let body = lines[(start + 1)...].drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }
        return body.dropFirst(2).map { row in
            row.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "`", with: "") }
        }
    }

    static func firstColumn(_ name: String) throws -> [String] { try table(name).map { $0[0] } }

    @Test("exit codes: the table, the CLI's own list and its --help say the same codes")
    func exitCodes() throws {
        let documented = try Self.firstColumn("Exit codes").map { try #require(Int32($0), "not a code: \($0)") }
        #expect(Set(documented) == Set(Exit.all.map(\.rawValue)))
        #expect(documented.count == Exit.all.count)
        // The root command's help lists them too ("Exit codes: 0 ok; 1 …").
        let help = try JSONValue(parsing: try runCLI(["--experimental-dump-help"]).out)
        let discussion = try #require(help.objectValue?["command"]?.objectValue?["discussion"]?.stringValue)
        let listed = discussion.components(separatedBy: "Exit codes:").last?.components(separatedBy: "\n\n").first ?? ""
        let codes = listed.split(whereSeparator: { $0 == ";" || $0 == ":" }).compactMap { Int32($0.split(whereSeparator: \.isWhitespace).first ?? "") }
        #expect(Set(codes) == Set(documented), "--help lists \(codes.sorted())")
    }

    @Test("event kinds: one row per EventKind, in order")
    func eventKinds() throws {
        #expect(try Self.firstColumn("Event kinds") == EventKind.allCases.map(\.rawValue))
    }

    @Test("board kinds and stimulus actions: one row per case, in order")
    func vocabulary() throws {
        #expect(try Self.firstColumn("Board kinds") == BoardKind.allCases.map(\.rawValue))
        #expect(try Self.firstColumn("Stimulus actions") == StimulusAction.allCases.map(\.rawValue))
    }

    @Test("scenario keys: exactly the keys the loader accepts, by the object they belong to")
    func scenarioKeys() throws {
        let rows = try Self.table("Scenario keys")
        let documented = Set(rows.map { "\($0[1]): \($0[0])" })
        var accepted = Set(ScenarioLoader.keysByObject.flatMap { object, keys in keys.map { "\(object): \($0)" } })
        accepted.formUnion(BarrierSettings.entryKeys.map { "barrier setting: \($0)" })
        #expect(documented.subtracting(accepted).isEmpty, "documented, not accepted: \(documented.subtracting(accepted).sorted())")
        #expect(accepted.subtracting(documented).isEmpty, "accepted, not documented: \(accepted.subtracting(documented).sorted())")
    }

    @Test("commands: one row per subcommand of the CLI")
    func commands() throws {
        let help = try JSONValue(parsing: try runCLI(["--experimental-dump-help"]).out)
        let names = (help.objectValue?["command"]?.objectValue?["subcommands"]?.arrayValue ?? []).compactMap { $0.objectValue?["commandName"]?.stringValue }
        #expect(try Self.firstColumn("Commands") == names.filter { $0 != "help" })
    }

    @Test("every section a source, a doc or a schema cites exists")
    func citations() throws {
        let headings = Self.contract.split(separator: "\n").filter { $0.hasPrefix("## ") }.compactMap { $0.dropFirst(3).split(separator: " ").first }
            .map { String($0).trimmingCharacters(in: CharacterSet(charactersIn: ".")) }
        var cited: [(String, String)] = []
        let roots = ["Sources", "docs", "schemas", "README.md"]
        for root in roots {
            let url = repoRoot.appendingPathComponent(root)
            let files = root.hasSuffix(".md") ? [""] : (FileManager.default.enumerator(atPath: url.path)?.compactMap { $0 as? String } ?? [])
            for file in files where file.isEmpty || file.hasSuffix(".swift") || file.hasSuffix(".md") || file.hasSuffix(".json") {
                let path = file.isEmpty ? url : url.appendingPathComponent(file)
                let text = try String(contentsOf: path, encoding: .utf8)
                for marker in ["contract.md §", "[contract](contract.md) §", "[contract](docs/contract.md) §"] {
                    for part in text.components(separatedBy: marker).dropFirst() where !part.hasPrefix("N") {  // "§N": the page's own wording
                        let section = String(part.prefix { $0.isNumber || $0 == "." }).trimmingCharacters(in: CharacterSet(charactersIn: "."))
                        cited.append((root + "/" + file, section))
                    }
                }
            }
        }
        #expect(cited.count >= 20, "found only \(cited.count) citations")
        for (file, section) in cited {
            #expect(headings.contains(section), "\(file) cites §\(section), which docs/contract.md does not have")
        }
    }
}
