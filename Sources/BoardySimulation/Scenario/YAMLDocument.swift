import BoardyCore
import Yams

/// Scenario files in YAML: composed with Yams, turned into the same JSON values (with their line
/// and column) as JSON files, so one reader checks both.
enum YAMLDocument {
    static func parse(_ text: String, file: String) throws(ScenarioError) -> JSONDocument {
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw ScenarioError(file: file, line: error.line, column: error.column, message: "not valid YAML: \(error.summary)")
        } catch {
            throw ScenarioError(file: file, message: "not valid YAML: \(error)")
        }
        guard let node else { throw ScenarioError(file: file, line: 1, column: 1, message: "empty YAML document: a scenario is a mapping") }
        var state = State(file: file)
        let value = try convert(node, path: "", depth: 0, state: &state)
        return JSONDocument(value: value, values: state.values, keys: state.keys)
    }

    /// The most values aliases may repeat in one document: an alias copies its anchor's whole
    /// value, and aliases of aliases multiply (nine levels of nine make 387 million values from
    /// 535 bytes), so the copies are counted and refused past this.
    static let maxAliasedValues = 100_000

    struct Spot: Hashable {
        let line: Int, column: Int, kind: Int
    }

    struct State {
        let file: String
        var values: [String: JSONDocument.Position] = [:]
        var keys: [String: JSONDocument.Position] = [:]
        /// Where the nodes converted so far start: meeting one again is an alias.
        var nodesSeen = Set<Spot>()
        /// The anchored value an alias is copying now (its line and column), and how many
        /// values aliases copied in all.
        var expanding: (line: Int, column: Int)?
        var aliasedValues = 0
    }

    private static func position(_ node: Node) -> JSONDocument.Position? {
        node.mark.map { JSONDocument.Position(line: $0.line, column: $0.column) }
    }

    /// A YAML 1.1 integer read as Yams reads it (`_` separators, a sign, `0x`/`0b`/`0o` and
    /// leading-zero octal, base 60 with `:`), without trapping: Yams's own base-60 reading
    /// multiplies without overflow checks and crashed on `-222311022222223110:55` (found by
    /// `make fuzz`). Nil when the text is no integer or does not fit in 64 bits.
    static func integer(_ text: String) -> Int64? {
        let s = text.replacingOccurrences(of: "_", with: "")
        if s == "0" { return 0 }
        let negative = s.hasPrefix("-")
        let body = s.dropFirst(negative || s.hasPrefix("+") ? 1 : 0)
        for (prefix, radix) in [("0x", 16), ("0b", 2), ("0o", 8), ("0", 8)] where body.hasPrefix(prefix) {
            return Int64((negative ? "-" : "") + body.dropFirst(prefix.count), radix: radix)
        }
        guard body.contains(":") else { return Int64(s) }
        var value: Int64 = 0
        for part in body.split(separator: ":", omittingEmptySubsequences: false) {
            guard let digit = Int64(part), digit >= 0 else { return nil }
            let (shifted, o1) = value.multipliedReportingOverflow(by: 60)
            let (sum, o2) = shifted.addingReportingOverflow(digit)
            if o1 || o2 { return nil }
            value = sum
        }
        return negative ? -value : value
    }

    private static func convert(_ node: Node, path: String, depth: Int, state: inout State) throws(ScenarioError) -> JSONValue {
        let file = state.file
        // Composition resolves an alias to its anchor's node, so an alias shows as a node met a
        // second time at the same place in the text (Yams holds anchors weakly, so the node
        // itself no longer names its anchor).
        var startedExpansion = false
        if let mark = node.mark, state.expanding == nil {
            let kind: Int
            switch node {
            case .scalar: kind = 0
            case .mapping: kind = 1
            default: kind = 2
            }
            if !state.nodesSeen.insert(Spot(line: mark.line, column: mark.column, kind: kind)).inserted {
                state.expanding = (mark.line, mark.column)
                startedExpansion = true
            }
        }
        defer { if startedExpansion { state.expanding = nil } }
        if let expanding = state.expanding {
            state.aliasedValues += 1
            if state.aliasedValues > maxAliasedValues {
                throw ScenarioError(
                    file: file, line: expanding.line, column: expanding.column, path: path,
                    message: "YAML aliases repeat more than \(maxAliasedValues) values (here the anchored value at line \(expanding.line), "
                        + "column \(expanding.column)); write the values out or use fewer aliases")
            }
        }
        if let p = position(node) { state.values[path] = p }
        switch node {
        case let .scalar(scalar):
            switch node.tag.rawValue {
            case Tag.Name.null.rawValue: return .null
            case Tag.Name.bool.rawValue: return node.bool.map(JSONValue.bool) ?? .string(scalar.string)
            case Tag.Name.int.rawValue: return integer(scalar.string).map(JSONValue.int) ?? .string(scalar.string)
            case Tag.Name.float.rawValue:
                guard let d = node.float, d.isFinite else { return .string(scalar.string) }
                return .double(d)
            default: return .string(scalar.string)
            }
        case .mapping, .sequence:
            guard depth < JSONDocument.maxDepth else {
                throw ScenarioError(
                    file: file, line: node.mark?.line, column: node.mark?.column, path: path,
                    message: "nesting deeper than \(JSONDocument.maxDepth) levels (a trace line holds 512, so a scenario's values nest "
                        + "at most \(JSONDocument.maxDepth) deep)")
            }
            if case let .mapping(mapping) = node {
                var members: [JSONMember] = []
                var seen = Set<String>()
                for (k, v) in mapping {
                    guard case let .scalar(keyScalar) = k else {
                        throw ScenarioError(
                            file: file, line: k.mark?.line, column: k.mark?.column, path: path, message: "mapping keys must be plain strings")
                    }
                    let key = keyScalar.string
                    let childPath = path.isEmpty ? key : "\(path).\(key)"
                    if let p = position(k) { state.keys[childPath] = p }
                    guard seen.insert(key).inserted else {
                        throw ScenarioError(file: file, line: k.mark?.line, column: k.mark?.column, path: childPath, message: "duplicate key \"\(key)\"")
                    }
                    members.append(JSONMember(key: key, value: try convert(v, path: childPath, depth: depth + 1, state: &state)))
                }
                return .object(JSONObject(members))
            }
            guard case let .sequence(sequence) = node else { return .null }
            var items: [JSONValue] = []
            for (i, v) in sequence.enumerated() {
                items.append(try convert(v, path: "\(path)[\(i)]", depth: depth + 1, state: &state))
            }
            return .array(items)
        case .alias:
            throw ScenarioError(
                file: file, line: node.mark?.line, column: node.mark?.column, path: path, message: "YAML aliases are not supported in scenarios")
        }
    }
}

extension YamlError {
    var line: Int? {
        switch self {
        case let .scanner(_, _, mark, _), let .parser(_, _, mark, _), let .composer(_, _, mark, _): return mark.line
        default: return nil
        }
    }

    var column: Int? {
        switch self {
        case let .scanner(_, _, mark, _), let .parser(_, _, mark, _), let .composer(_, _, mark, _): return mark.column
        default: return nil
        }
    }

    var summary: String {
        switch self {
        case let .scanner(_, problem, _, _), let .parser(_, problem, _, _), let .composer(_, problem, _, _): return problem
        default: return "\(self)"
        }
    }
}
