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

    private static func convert(
        _ node: Node, path: String, file: String, values: inout [String: JSONDocument.Position], keys: inout [String: JSONDocument.Position]
    ) throws(ScenarioError) -> JSONValue {
        if let p = position(node) { values[path] = p }
        switch node {
        case let .scalar(scalar):
            switch node.tag.rawValue {
            case Tag.Name.null.rawValue: return .null
            case Tag.Name.bool.rawValue: return node.bool.map(JSONValue.bool) ?? .string(scalar.string)
            case Tag.Name.int.rawValue: return node.int.map { .int(Int64($0)) } ?? .string(scalar.string)
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
