// MARK: JSON for people

extension JSONValue {
    /// The JSON text indented two spaces a level, for files people edit (scenario skeletons).
    public var prettyText: String {
        var out = ""
        func write(_ v: JSONValue, _ indent: String) {
            switch v {
            case .array(let a) where !a.isEmpty:
                // Short arrays of scalars on one line.
                if a.allSatisfy({ $0.arrayValue == nil && $0.objectValue == nil }), a.map(\.jsonText).joined(separator: ", ").count < 80 {
                    out += "[" + a.map(\.jsonText).joined(separator: ", ") + "]"
                    return
                }
                out += "[\n"
                for (i, x) in a.enumerated() {
                    out += indent + "  "
                    write(x, indent + "  ")
                    out += i == a.count - 1 ? "\n" : ",\n"
                }
                out += indent + "]"
            case .object(let o) where !o.isEmpty:
                if o.members.allSatisfy({ $0.value.arrayValue == nil && $0.value.objectValue == nil }), v.jsonText.count < 100 {
                    out += o.members.map { JSONValue.string($0.key).jsonText + ": " + $0.value.jsonText }.joined(separator: ", ").wrapped
                    return
                }
                out += "{\n"
                for (i, m) in o.members.enumerated() {
                    out += indent + "  " + JSONValue.string(m.key).jsonText + ": "
                    write(m.value, indent + "  ")
                    out += i == o.members.count - 1 ? "\n" : ",\n"
                }
                out += indent + "}"
            default:
                out += v.jsonText
            }
        }
        write(self, "")
        return out + "\n"
    }
}

extension String {
    fileprivate var wrapped: String { "{ " + self + " }" }
}
