import Boardy
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
        var values: [String: JSONDocument.Position] = [:]
        var keys: [String: JSONDocument.Position] = [:]
        let value = try convert(node, path: "", file: file, values: &values, keys: &keys)
        return JSONDocument(value: value, values: values, keys: keys)
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

    private static func convert(
        _ node: Node, path: String, file: String, values: inout [String: JSONDocument.Position], keys: inout [String: JSONDocument.Position]
    ) throws(ScenarioError) -> JSONValue {
        if let p = position(node) { values[path] = p }
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
        case let .mapping(mapping):
            var members: [JSONMember] = []
            for (k, v) in mapping {
                guard case let .scalar(keyScalar) = k else {
                    throw ScenarioError(
                        file: file, line: k.mark?.line, column: k.mark?.column, path: path, message: "mapping keys must be plain strings")
                }
                let key = keyScalar.string
                let childPath = path.isEmpty ? key : "\(path).\(key)"
                if let p = position(k) { keys[childPath] = p }
                guard !members.contains(where: { $0.key == key }) else {
                    throw ScenarioError(file: file, line: k.mark?.line, column: k.mark?.column, path: childPath, message: "duplicate key \"\(key)\"")
                }
                members.append(JSONMember(key: key, value: try convert(v, path: childPath, file: file, values: &values, keys: &keys)))
            }
            return .object(JSONObject(members))
        case let .sequence(sequence):
            var items: [JSONValue] = []
            for (i, v) in sequence.enumerated() {
                items.append(try convert(v, path: "\(path)[\(i)]", file: file, values: &values, keys: &keys))
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
