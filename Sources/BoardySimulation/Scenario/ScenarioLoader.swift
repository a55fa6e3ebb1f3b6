import BoardyCore
import BoardyComponentKit
import BoardyFiles
import BoardyDispatch
import Foundation

/// Reads scenario files (docs/contract.md §1): JSON, or YAML (`.yaml`/`.yml`). Strict: unknown keys,
/// values of the wrong type, negative delays, duplicate or undeclared board ids are errors that
/// name the file, the line and column and the JSON path, with a "did you mean" where one is close.
public enum ScenarioLoader {
    /// Scenarios larger than this are refused (a million boards take about 60 MB).
    public static let maximumSize = 1 << 30

    /// Every key a scenario file may hold, by the object it belongs to (as docs/contract.md names
    /// the objects), in the order the contract lists them. Tealium's barrier settings are read
    /// leniently and listed by `BarrierSettings.entryKeys`.
    public static let keysByObject: [(object: String, keys: [String])] = [
        ("top level", ScenarioReader.topLevelKeys), ("root", ScenarioReader.rootKeys), ("board", ScenarioReader.boardKeys),
        ("activationBarrier", ScenarioReader.activationBarrierKeys),
        ("option", ScenarioReader.optionKeys), ("step", ScenarioReader.stepKeys), ("flow", ScenarioReader.flowKeys),
        ("gateway", ScenarioReader.gatewayKeys), ("dispatch", ScenarioReader.dispatchKeys),
        ("dispatcher", ScenarioReader.dispatcherKeys), ("stimulus", ScenarioReader.stimulusKeys), ("expect", ScenarioReader.expectationKeys),
    ]

    /// Loads the scenario at `path`: YAML for `.yaml`/`.yml`, JSON otherwise.
    public static func load(path: String) throws(ScenarioError) -> Scenario {
        // Read to the end: a pipe or a device (`<(…)`, /dev/stdin) has no size to read up to. A
        // folder is refused without being read; a NUL byte ends the read at once (no scenario
        // holds one: `/dev/zero` must not fill memory).
        var bytes: [UInt8]
        switch InputFiles.readNamedInput(path, limit: maximumSize, rejectingNUL: true) {
        case let .success(read): bytes = read
        case let .failure(error):
            if case let .nulByte(_, line, column) = error.reason {
                throw ScenarioError(file: path, line: line, column: column, message: "byte 0x0 is not text; a scenario is UTF-8 text (is this a binary file?)")
            }
            throw ScenarioError(file: path, message: error.description)
        }
        let lower = path.lowercased()
        let yaml: Bool? = lower.hasSuffix(".yaml") || lower.hasSuffix(".yml") ? true : lower.hasSuffix(".json") ? false : nil
        return try load(bytes: consume bytes, file: path, yaml: yaml)
    }

    /// Loads a scenario from the bytes of a file (or standard input), `file` naming it in
    /// messages. The bytes must be UTF-8 (a byte-order mark is skipped); `yaml` nil means JSON
    /// when the first character is `{`, else YAML.
    public static func load(bytes: consuming [UInt8], file: String, yaml: Bool? = nil) throws(ScenarioError) -> Scenario {
        let text = try utf8Text(bytes, file: file)
        _ = consume bytes  // the text holds its own copy: a large scenario must not be held twice
        guard text.contains(where: { !$0.isWhitespace }) else {
            throw ScenarioError(file: file, line: 1, column: 1, message: "the file is empty: a scenario is a JSON object or a YAML mapping (see samples/)")
        }
        let isYAML = yaml ?? (text.first(where: { !$0.isWhitespace }) != "{")
        return isYAML ? try load(yaml: text, file: file) : try load(json: consume text, file: file)
    }

    /// `bytes` as text, or an error naming the line and column of the first byte that is not
    /// UTF-8. Written by hand because Foundation's and the standard library's decoders say only
    /// that the data is invalid, not where.
    static func utf8Text(_ bytes: [UInt8], file: String) throws(ScenarioError) -> String {
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        if body.starts(with: [0xFF, 0xFE]) || body.starts(with: [0xFE, 0xFF]) {
            throw ScenarioError(file: file, line: 1, column: 1, message: "the file is UTF-16; save it as UTF-8")
        }
        if let bad = firstInvalidUTF8(body) {
            var line = 1
            var lineStart = body.startIndex
            for i in body.startIndex..<bad where body[i] == 0x0A {
                line += 1
                lineStart = i + 1
            }
            throw ScenarioError(
                file: file, line: line, column: bad - lineStart + 1,
                message: "byte 0x\(String(body[bad], radix: 16, uppercase: true)) is not UTF-8; scenarios are UTF-8 text (save the file as UTF-8)")
        }
        return String(decoding: body, as: UTF8.self)
    }

    /// The index of the first byte that does not start or continue a valid UTF-8 sequence
    /// (RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF).
    static func firstInvalidUTF8(_ b: ArraySlice<UInt8>) -> Int? { UTF8Position.firstInvalid(b) }

    /// Loads a scenario from JSON text; `file` names it in messages.
    public static func load(json text: consuming String, file: String = "<scenario>") throws(ScenarioError) -> Scenario {
        let doc: JSONDocument
        do {
            // The initializer takes the text: once parsed, it is not held while the scenario is built.
            doc = try JSONDocument(parsing: text)
        } catch {
            throw ScenarioError(file: file, line: error.line, column: error.column, message: "not valid JSON: \(error.message)")
        }
        return try ScenarioReader(doc: doc, file: file).scenario()
    }

    /// Loads a scenario from YAML text; `file` names it in messages.
    public static func load(yaml text: String, file: String = "<scenario>") throws(ScenarioError) -> Scenario {
        let doc = try YAMLDocument.parse(text, file: file)
        return try ScenarioReader(doc: doc, file: file).scenario()
    }
}

/// Walks a parsed scenario with paths, turning every problem into a located ``ScenarioError``.
struct ScenarioReader {
    let doc: JSONDocument
    let file: String

    func fail(_ path: String, _ message: String, atKey: Bool = false) -> ScenarioError {
        let loc = atKey ? (doc.keyLocation(of: path) ?? doc.location(of: path)) : doc.location(of: path)
        return ScenarioError(file: file, line: loc?.line, column: loc?.column, path: path, message: message)
    }

    func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    // MARK: The keys (docs/contract.md §1.1, "Scenario keys": a test compares that table with this one)

    static let topLevelKeys = ["scenario", "boards", "flows", "roots", "gateway", "dispatch", "script", "expect"]
    static let rootKeys = ["mb", "boards", "flows"]
    static let boardKeys = ["id", "module", "kind", "onActivate", "bypassGateway", "activationBarrier", "executing", "boards", "flows", "source"]
    static let activationBarrierKeys = ["board", "scope", "option", "source"]
    static let optionKeys = ["unidentified"]
    static let stepKeys = ["after", "output", "complete", "activate", "input", "command", "to", "progress", "flowAction"]
    static let flowKeys = ["steps", "from", "on", "flowAction", "activate", "input", "complete", "with", "relay", "source"]
    static let gatewayKeys = ["barrier", "exempt", "resolveOn", "gateInstance", "source"]
    static let dispatchKeys = ["dispatchers", "barriers", "trackOutputs"]
    static let dispatcherKeys = ["id", "dispatchLimit", "delay"]
    static let stimulusKeys = ["at", "mb", "activate", "input", "network", "track", "dispatcher", "flush", "configure", "complete", "with"]
    static let expectationKeys = ["performed", "times", "at", "input", "never", "cancelled", "stuck", "loop", "sent", "events"]

    /// `value` as an object whose keys are all in `allowed`.
    func object(_ value: JSONValue, _ path: String, allowed: [String], what: String) throws(ScenarioError) -> JSONObject {
        guard case let .object(o) = value else { throw fail(path, "\(what) must be an object, found \(value.typeName)") }
        for key in o.keys where !allowed.contains(key) {
            throw fail(join(path, key), "unknown key \"\(key)\" in \(what)\(didYouMean(key, allowed))", atKey: true)
        }
        return o
    }

    /// `source`, where present: a string naming where `import` found the thing (`file:line`).
    func sourceKey(_ o: JSONObject, _ path: String) throws(ScenarioError) {
        if let v = o["source"] { _ = try string(v, join(path, "source"), what: "\"source\" (the file and line it was imported from)") }
    }

    /// `value` (the definition's `key`) without the `source` keys of its boards, flows, barriers
    /// and gateway. Values inside (inputs, outputs) keep theirs.
    static func withoutSources(_ value: JSONValue, _ key: String) -> JSONValue {
        func strip(_ v: JSONValue, inner: [String: String]) -> JSONValue {
            guard case .object(var o) = v else { return v }
            o.members.removeAll { $0.key == "source" }
            for m in o.members.indices {
                if let next = inner[o.members[m].key] { o.members[m].value = list(o.members[m].value, next) }
            }
            return .object(o)
        }
        func list(_ v: JSONValue, _ kind: String) -> JSONValue {
            switch kind {
            case "boards": return .array((v.arrayValue ?? []).map { strip($0, inner: ["boards": "boards", "flows": "flows", "activationBarrier": "barrier"]) })
            case "flows": return .array((v.arrayValue ?? []).map { strip($0, inner: [:]) })
            case "roots": return .array((v.arrayValue ?? []).map { strip($0, inner: ["boards": "boards", "flows": "flows"]) })
            case "barrier", "gateway": return strip(v, inner: [:])
            default: return v
            }
        }
        guard value.arrayValue != nil || value.objectValue != nil else { return value }
        // Nothing to strip (scenarios written by hand): the value is shared, not copied.
        guard key != "dispatch", containsSource(value) else { return value }
        return list(value, key)
    }

    /// Whether a `source` member appears anywhere in `value` (without copying anything).
    static func containsSource(_ value: JSONValue) -> Bool {
        switch value {
        case let .object(o): return o.members.contains { $0.key == "source" || containsSource($0.value) }
        case let .array(a): return a.contains { containsSource($0) }
        default: return false
        }
    }

    func string(_ value: JSONValue?, _ path: String, what: String) throws(ScenarioError) -> String {
        guard let value else { throw fail(path, "\(what) is required") }
        guard case let .string(s) = value, !s.isEmpty else { throw fail(path, "\(what) must be a non-empty string, found \(value.typeName)") }
        return s
    }

    func bool(_ value: JSONValue, _ path: String, what: String) throws(ScenarioError) -> Bool {
        guard case let .bool(b) = value else { throw fail(path, "\(what) must be true or false, found \(value.typeName)") }
        return b
    }

    func seconds(_ value: JSONValue, _ path: String, what: String) throws(ScenarioError) -> TraceTime {
        guard let d = value.doubleValue, d.isFinite else { throw fail(path, "\(what) must be a number of seconds, found \(value.typeName)") }
        guard d >= 0 else { throw fail(path, "\(what) cannot be negative (\(value.jsonText))") }
        guard let t = TraceTime(checkedSeconds: value) else {
            throw fail(path, "\(what) is too large (\(value.jsonText)): virtual times and delays go up to 1000000000000 seconds")
        }
        return t
    }

    /// A time or delay that may be a range (`[1, 5]`: any time from 1 to 5 s, which an explorer
    /// varies): the start, and the end when it is a range of more than one instant.
    func secondsOrRange(_ value: JSONValue, _ path: String, what: String) throws(ScenarioError) -> (TraceTime, TraceTime?) {
        guard case let .array(bounds) = value else { return (try seconds(value, path, what: what), nil) }
        guard bounds.count == 2 else {
            throw fail(path, "\(what) as a range is [from, to] (two numbers of seconds), found \(bounds.count) value\(bounds.count == 1 ? "" : "s")")
        }
        let lo = try seconds(bounds[0], "\(path)[0]", what: "the start of \(what)")
        let hi = try seconds(bounds[1], "\(path)[1]", what: "the end of \(what)")
        guard lo <= hi else { throw fail(path, "\(what) runs from \(bounds[0].jsonText) to \(bounds[1].jsonText): the start is after the end") }
        return (lo, lo == hi ? nil : hi)
    }

    func integer(_ value: JSONValue, _ path: String, what: String, minimum: Int) throws(ScenarioError) -> Int {
        guard let i = value.intValue, let n = Int(exactly: i) else { throw fail(path, "\(what) must be a whole number, found \(value.typeName)") }
        guard n >= minimum else { throw fail(path, "\(what) must be at least \(minimum), found \(n)") }
        return n
    }

    func array(_ value: JSONValue, _ path: String, what: String) throws(ScenarioError) -> [JSONValue] {
        guard case let .array(a) = value else { throw fail(path, "\(what) must be an array, found \(value.typeName)") }
        return a
    }

    // MARK: The scenario

    func scenario() throws(ScenarioError) -> Scenario {
        let root = try object(
            doc.value, "", allowed: Self.topLevelKeys, what: "a scenario")
        let name = try string(root["scenario"], "scenario", what: "\"scenario\" (the scenario's name)")
        guard let boardsValue = root["boards"] else { throw fail("", "a scenario needs \"boards\"") }
        let boards = try boardList(boardsValue, "boards")
        try checkTargets(boards)
        var scope = IDScope(boards: boards, reader: self)
        let flows = try root["flows"].map { v throws(ScenarioError) in try flowList(v, "flows", scope: scope) } ?? []
        let gateway = try root["gateway"].map { v throws(ScenarioError) in try gatewaySpec(v, "gateway", scope: scope) }
        let dispatch = try root["dispatch"].map { v throws(ScenarioError) in try dispatchSpec(v, "dispatch", scope: scope) }
        scope.dispatchers = dispatch?.dispatchers.map(\.id) ?? []
        let roots = try root["roots"].map { v throws(ScenarioError) in try rootList(v, "roots") } ?? []
        var rootScopes: [String: IDScope] = [:]
        for r in roots {
            var rs = IDScope(boards: r.boards, reader: self)
            rs.dispatchers = scope.dispatchers
            rootScopes[r.name] = rs
        }
        let script = try root["script"].map { v throws(ScenarioError) in try scriptList(v, "script", scope: scope, roots: rootScopes) } ?? []
        let expectations = try root["expect"].map { v throws(ScenarioError) in try expectList(v, "expect", scope: scope) } ?? []
        var definition = JSONObject()
        // `roots` is part of the definition when there are roots (a scenario without them keeps
        // the fingerprint the contract's four keys give).
        // `source` keys (where `import` found each thing in the app's code) are not part of the
        // definition: moving a line does not change what the scenario is.
        for key in ["boards", "flows", "roots", "gateway", "dispatch"] { if let v = root[key] { definition[key] = Self.withoutSources(v, key) } }
        var s = Scenario(
            name: name, boards: boards, flows: flows, gateway: gateway, dispatch: dispatch, script: script, expectations: expectations,
            definition: .object(definition), file: file)
        s.roots = roots
        // The scenario keeps where each value was written, not the values again (they are in
        // its specs and its definition).
        s.document = doc.positions
        return s
    }
}

/// The board ids a part of a scenario may name.
struct IDScope {
    /// The motherboard's boards (shared with the scenario, not copied).
    private let boards: [BoardSpec]
    // Looked up once per reference: sets, so a scenario of 100,000 boards checks in linear time.
    // Without nested boards, `allSet` is `idSet` (one storage).
    private let idSet: Set<BoardID>
    private let allSet: Set<BoardID>
    let reader: ScenarioReader
    var inContinuous = false
    var dispatchers: [String] = []

    /// The motherboard's own ids (for "did you mean", on errors only).
    var ids: [BoardID] { boards.map(\.id) }

    /// Every id declared in it, nested ones included (for "did you mean", on errors only).
    var all: [BoardID] {
        var all: [BoardID] = []
        func collect(_ bs: [BoardSpec]) {
            for b in bs {
                all.append(b.id)
                collect(b.boards)
            }
        }
        collect(boards)
        return all
    }

    init(boards: [BoardSpec], reader: ScenarioReader, inContinuous: Bool = false) {
        self.boards = boards
        var ids = Set<BoardID>(minimumCapacity: boards.count)
        for b in boards { ids.insert(b.id) }
        idSet = ids
        if boards.contains(where: { !$0.boards.isEmpty }) {
            var all = ids
            func collect(_ bs: [BoardSpec]) {
                for b in bs {
                    all.insert(b.id)
                    collect(b.boards)
                }
            }
            for b in boards { collect(b.boards) }
            allSet = all
        } else {
            allSet = ids
        }
        self.reader = reader
        self.inContinuous = inContinuous
    }

    /// `id` must be declared in this motherboard.
    func check(_ id: BoardID, _ path: String) throws(ScenarioError) {
        guard idSet.contains(id) else {
            let hint = allSet.contains(id) ? " (it is declared inside a continuous board: address it from there)" : didYouMean(id.rawValue, ids.map(\.rawValue))
            throw reader.fail(path, "undeclared board \"\(id)\"\(hint)")
        }
    }

    /// `id` must be declared somewhere in the scenario.
    func checkAnywhere(_ id: BoardID, _ path: String) throws(ScenarioError) {
        guard allSet.contains(id) else { throw reader.fail(path, "undeclared board \"\(id)\"\(didYouMean(id.rawValue, all.map(\.rawValue)))") }
    }
}
