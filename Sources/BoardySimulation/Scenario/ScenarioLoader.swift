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

    // MARK: Roots

    /// `roots`: more root motherboards, each `{"mb", "boards", "flows"}`.
    func rootList(_ value: JSONValue, _ path: String) throws(ScenarioError) -> [RootSpec] {
        var roots: [RootSpec] = []
        for (i, v) in try array(value, path, what: "\"roots\"").enumerated() {
            let p = "\(path)[\(i)]"
            let o = try object(v, p, allowed: Self.rootKeys, what: "a root motherboard")
            let name = try string(o["mb"], join(p, "mb"), what: "a root motherboard's \"mb\" (its name in traces)")
            guard name != MotherboardPath.main.rawValue else { throw fail(join(p, "mb"), "\"main\" is the scenario's own root; name this one otherwise") }
            guard !name.contains("/") else { throw fail(join(p, "mb"), "a root motherboard's name has no \"/\" (that separates inner motherboards)") }
            guard !roots.contains(where: { $0.name == name }) else { throw fail(join(p, "mb"), "duplicate root motherboard \"\(name)\"") }
            guard let boardsValue = o["boards"] else { throw fail(p, "a root motherboard needs \"boards\"") }
            let boards = try boardList(boardsValue, join(p, "boards"))
            try checkTargets(boards)
            let scope = IDScope(boards: boards, reader: self)
            let flows = try o["flows"].map { v throws(ScenarioError) in try flowList(v, join(p, "flows"), scope: scope) } ?? []
            roots.append(RootSpec(name: name, boards: boards, flows: flows, path: p))
        }
        return roots
    }

    // MARK: Boards

    func boardList(_ value: JSONValue, _ path: String) throws(ScenarioError) -> [BoardSpec] {
        var boards: [BoardSpec] = []
        var seen: [BoardID: Int] = [:]
        let values = try array(value, path, what: "\"boards\"")
        boards.reserveCapacity(values.count)
        seen.reserveCapacity(values.count)
        for (i, v) in values.enumerated() {
            let b = try board(v, "\(path)[\(i)]")
            if let first = seen[b.id] {
                throw fail("\(path)[\(i)].id", "duplicate board id \"\(b.id)\" (first declared at \(path)[\(first)]); ids are unique within a motherboard")
            }
            seen[b.id] = i
            boards.append(b)
        }
        return boards
    }

    func board(_ value: JSONValue, _ path: String) throws(ScenarioError) -> BoardSpec {
        let o = try object(
            value, path, allowed: Self.boardKeys,
            what: "a board")
        try sourceKey(o, path)
        let id = BoardID(try string(o["id"], join(path, "id"), what: "a board's \"id\""))
        var kind = BoardKind.board
        if let k = o["kind"] {
            let name = try string(k, join(path, "kind"), what: "\"kind\"")
            guard let parsed = BoardKind(rawValue: name) else {
                throw fail(join(path, "kind"), "unknown kind \"\(name)\"\(didYouMean(name, BoardKind.allCases.map(\.rawValue))); expected one of \(BoardKind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            kind = parsed
        }
        let module = try o["module"].map { v throws(ScenarioError) in try string(v, join(path, "module"), what: "\"module\"") }
        let steps = try o["onActivate"].map { v throws(ScenarioError) in try stepList(v, join(path, "onActivate"), kind: kind) } ?? []
        let bypass = try o["bypassGateway"].map { v throws(ScenarioError) in try bool(v, join(path, "bypassGateway"), what: "\"bypassGateway\"") }
        let barrier = try o["activationBarrier"].map { v throws(ScenarioError) in try barrierSpec(v, join(path, "activationBarrier")) }
        var executing: BlockTaskExecutingType?
        if let e = o["executing"] {
            guard kind == .blockTask else { throw fail(join(path, "executing"), "\"executing\" applies to kind \"blockTask\" only") }
            executing = try executingType(e, join(path, "executing"))
        }
        var inner: [BoardSpec] = []
        var innerFlows: [FlowSpec] = []
        if o["boards"] != nil || o["flows"] != nil {
            guard kind == .continuous || kind == .flow else {
                throw fail(join(path, o["boards"] != nil ? "boards" : "flows"), "nested \"boards\" and \"flows\" need kind \"continuous\" or \"flow\"")
            }
        }
        if let b = o["boards"] { inner = try boardList(b, join(path, "boards")) }
        if let f = o["flows"] { innerFlows = try flowList(f, join(path, "flows"), scope: IDScope(boards: inner, reader: self, inContinuous: true)) }
        return BoardSpec(
            id: id, module: module, kind: kind, onActivate: steps, bypassGateway: bypass, activationBarrier: barrier, executing: executing,
            boards: inner, flows: innerFlows, path: path)
    }

    /// Steps and barriers name boards of the right motherboard: a board's siblings, or, for a
    /// continuous board's own steps, its inner boards.
    func checkTargets(_ siblings: [BoardSpec]) throws(ScenarioError) {
        let siblingScope = IDScope(boards: siblings, reader: self)
        for b in siblings {
            let stepScope = b.kind.hasInnerMotherboard ? IDScope(boards: b.boards, reader: self, inContinuous: true) : siblingScope
            for (i, step) in b.onActivate.enumerated() {
                switch step.action {
                case let .activate(id, _): try stepScope.check(id, "\(b.path).onActivate[\(i)].activate")
                case let .command(_, to): try stepScope.check(to, "\(b.path).onActivate[\(i)].to")
                default: break
                }
            }
            if let gate = b.activationBarrier?.gate { try siblingScope.check(gate, "\(b.path).activationBarrier.board") }
            try checkTargets(b.boards)
        }
    }

    func executingType(_ value: JSONValue, _ path: String) throws(ScenarioError) -> BlockTaskExecutingType {
        let s = try string(value, path, what: "\"executing\"")
        switch s {
        case "default": return .default
        case "latest": return .latest
        case "only": return .only
        case "onlyResult": return .onlyResult
        case "queue": return .queue
        default:
            if s.hasPrefix("concurrent:"), let n = Int(s.dropFirst("concurrent:".count)), n >= 1 { return .concurrent(max: n) }
            throw fail(path, "unknown executing type \"\(s)\"; expected default, latest, only, onlyResult, queue or concurrent:N (N ≥ 1)")
        }
    }

    func barrierSpec(_ value: JSONValue, _ path: String) throws(ScenarioError) -> BarrierSpec {
        let o = try object(value, path, allowed: Self.activationBarrierKeys, what: "an activation barrier")
        try sourceKey(o, path)
        let gate = BoardID(try string(o["board"], join(path, "board"), what: "the barrier's gate \"board\""))
        var scope = ActivationBarrierScope.mainboard
        if let s = o["scope"] {
            let name = try string(s, join(path, "scope"), what: "\"scope\"")
            guard let parsed = ActivationBarrierScope(rawValue: name) else {
                throw fail(join(path, "scope"), "unknown scope \"\(name)\"; expected \"mainboard\" or \"application\"")
            }
            scope = parsed
        }
        var option = BarrierOptionSpec.void
        let expected = "expected \"void\", \"unique:KEY\", \"unidentified:VALUE\" or {\"unidentified\": VALUE}"
        if let op = o["option"] {
            if let members = op.objectValue {
                guard members.count == 1, let value = members[Self.optionKeys[0]] else {
                    throw fail(join(path, "option"), "an option object has the one key \"unidentified\"; \(expected)")
                }
                option = .unidentified(value)
            } else {
                let name = try string(op, join(path, "option"), what: "\"option\"")
                if name == "void" {
                    option = .void
                } else if name.hasPrefix("unique:"), name.count > 7 {
                    option = .unique(String(name.dropFirst(7)))
                } else if name.hasPrefix("unidentified:"), name.count > 13 {
                    option = .unidentified(.string(String(name.dropFirst(13))))
                } else {
                    throw fail(join(path, "option"), "unknown option \"\(name)\"; \(expected)")
                }
            }
        }
        return BarrierSpec(gate: gate, scope: scope, option: option)
    }

    func stepList(_ value: JSONValue, _ path: String, kind: BoardKind) throws(ScenarioError) -> [Step] {
        var steps: [Step] = []
        // The delays add up on the virtual clock: their sum is held to the same limit as one
        // delay, so no activation can schedule past what the clock holds.
        var total = TraceTime.zero
        for (i, v) in try array(value, path, what: "\"onActivate\"").enumerated() {
            let p = "\(path)[\(i)]"
            let o = try object(v, p, allowed: Self.stepKeys, what: "a step")
            let (after, afterUpTo) = try o["after"].map { v throws(ScenarioError) in try secondsOrRange(v, join(p, "after"), what: "\"after\"") } ?? (.zero, nil)
            guard let sum = total.adding(afterUpTo ?? after), sum <= TraceTime.limit else {
                throw fail(
                    join(p, "after"),
                    "the steps' delays add up to more than 1000000000000 seconds here (\(total) s before this step, \(afterUpTo ?? after) s in it); "
                        + "shorten them")
            }
            total = sum
            let actions = ["output", "complete", "activate", "command", "progress", "flowAction"].filter { o[$0] != nil }
            guard actions.count <= 1 else { throw fail(p, "a step does one thing; found \(actions.joined(separator: " and "))") }
            let action: Step.Action
            switch actions.first {
            case "output": action = .output(o["output"]!)
            case "complete":
                if o["complete"] == .string("either") {
                    action = .completeEither
                } else {
                    guard case .bool = o["complete"]! else {
                        throw fail(join(p, "complete"), "\"complete\" must be true, false or \"either\" (an outcome an explorer varies), found \(o["complete"]!.jsonText)")
                    }
                    action = .complete(try bool(o["complete"]!, join(p, "complete"), what: "\"complete\""))
                }
            case "activate": action = .activate(BoardID(try string(o["activate"], join(p, "activate"), what: "\"activate\"")), input: o["input"])
            case "command":
                action = .command(o["command"]!, to: BoardID(try string(o["to"], join(p, "to"), what: "a command's \"to\" (the board it goes to)")))
            case "progress":
                guard kind == .resultTask else { throw fail(join(p, "progress"), "\"progress\" steps belong to kind \"resultTask\"") }
                action = .progress(o["progress"]!)
            case "flowAction": action = .flowAction(o["flowAction"]!)
            default:
                throw fail(p, "a step needs one of output, complete, activate, command, progress or flowAction")
            }
            if o["input"] != nil, actions.first != "activate" { throw fail(join(p, "input"), "\"input\" goes with \"activate\"") }
            if o["to"] != nil, actions.first != "command" { throw fail(join(p, "to"), "\"to\" goes with \"command\"") }
            steps.append(Step(after: after, afterUpTo: afterUpTo, action: action))
        }
        return steps
    }

    // MARK: Flows

    func flowList(_ value: JSONValue, _ path: String, scope: IDScope) throws(ScenarioError) -> [FlowSpec] {
        var flows: [FlowSpec] = []
        for (i, v) in try array(value, path, what: "\"flows\"").enumerated() {
            let p = "\(path)[\(i)]"
            if case let .string(text) = v {
                let ids = text.components(separatedBy: " ->> ").map { $0.trimmingCharacters(in: .whitespaces) }
                guard ids.count >= 2, !ids.contains(where: \.isEmpty) else {
                    throw fail(p, "a flow string is \"A ->> B\" (ids separated by \" ->> \"), found \"\(text)\"")
                }
                for id in ids { try scope.check(BoardID(id), p) }
                flows.append(.steps(ids.map { BoardID($0) }))
                continue
            }
            let o = try object(v, p, allowed: Self.flowKeys, what: "a flow")
            try sourceKey(o, p)
            if let stepsValue = o["steps"] {
                guard o.count == (o["source"] == nil ? 1 : 2) else { throw fail(p, "a \"steps\" flow has no other keys") }
                var ids: [BoardID] = []
                for (j, s) in try array(stepsValue, join(p, "steps"), what: "\"steps\"").enumerated() {
                    let id = BoardID(try string(s, "\(join(p, "steps"))[\(j)]", what: "a step id"))
                    try scope.check(id, "\(join(p, "steps"))[\(j)]")
                    ids.append(id)
                }
                guard ids.count >= 2 else { throw fail(join(p, "steps"), "flow steps need at least two boards") }
                flows.append(.steps(ids))
                continue
            }
            let from = BoardID(try string(o["from"], join(p, "from"), what: "a flow handler's \"from\""))
            try scope.check(from, join(p, "from"))
            let actions = ["activate", "complete", "relay"].filter { o[$0] != nil }
            guard actions.count == 1 else {
                throw fail(p, actions.isEmpty ? "a flow handler needs one of activate, complete or relay" : "a flow handler does one thing; found \(actions.joined(separator: " and "))")
            }
            let action: FlowSpec.HandlerAction
            switch actions[0] {
            case "activate":
                let to = BoardID(try string(o["activate"], join(p, "activate"), what: "\"activate\""))
                try scope.check(to, join(p, "activate"))
                action = .activate(to, input: o["input"])
            case "complete":
                let to = BoardID(try string(o["complete"], join(p, "complete"), what: "\"complete\""))
                try scope.check(to, join(p, "complete"))
                guard let w = o["with"] else { throw fail(p, "a \"complete\" handler needs \"with\" (true or false)") }
                action = .complete(to, with: try bool(w, join(p, "with"), what: "\"with\""))
            default:
                guard scope.inContinuous else { throw fail(join(p, "relay"), "\"relay\" sends an output out of a continuous board: it belongs in a continuous board's flows") }
                action = .relay(o["relay"]!)
            }
            if o["input"] != nil, actions[0] != "activate" { throw fail(join(p, "input"), "\"input\" goes with \"activate\"") }
            if o["with"] != nil, actions[0] != "complete" { throw fail(join(p, "with"), "\"with\" goes with \"complete\"") }
            if let f = o["flowAction"] {
                guard try bool(f, join(p, "flowAction"), what: "\"flowAction\" (true: the handler reacts to flow actions)") else {
                    throw fail(join(p, "flowAction"), "\"flowAction\": false is the default; leave it out")
                }
                flows.append(.flowActionHandler(from: from, on: o["on"], action: action))
            } else {
                flows.append(.handler(from: from, on: o["on"], action: action))
            }
        }
        return flows
    }

    // MARK: Gateway, dispatch

    func gatewaySpec(_ value: JSONValue, _ path: String, scope: IDScope) throws(ScenarioError) -> GatewaySpec {
        let o = try object(value, path, allowed: Self.gatewayKeys, what: "the gateway")
        try sourceKey(o, path)
        let gate = BoardID(try string(o["barrier"], join(path, "barrier"), what: "the gateway's \"barrier\" (its gate board)"))
        try scope.check(gate, join(path, "barrier"))
        var exempt: [BoardID] = []
        if let e = o["exempt"] {
            for (i, v) in try array(e, join(path, "exempt"), what: "\"exempt\"").enumerated() {
                let id = BoardID(try string(v, "\(join(path, "exempt"))[\(i)]", what: "an exempt board id"))
                try scope.check(id, "\(join(path, "exempt"))[\(i)]")
                exempt.append(id)
            }
        }
        var resolveOn: [(String, Bool)] = []
        if let r = o["resolveOn"] {
            guard case let .object(map) = r else { throw fail(join(path, "resolveOn"), "\"resolveOn\" must map gate outputs to true or false") }
            for m in map.members { resolveOn.append((m.key, try bool(m.value, join(join(path, "resolveOn"), m.key), what: "a resolveOn verdict"))) }
        }
        var instances = GatewayBarrier.GateInstances.perRun
        if let g = o["gateInstance"] {
            let name = try string(g, join(path, "gateInstance"), what: "\"gateInstance\"")
            guard let parsed = GatewayBarrier.GateInstances(rawValue: name) else {
                throw fail(join(path, "gateInstance"), "unknown gate instance \"\(name)\"; expected \"perRun\" (the default) or \"shared\"")
            }
            instances = parsed
        }
        return GatewaySpec(gate: gate, exempt: exempt, resolveOn: resolveOn, gateInstance: instances)
    }

    func dispatchSpec(_ value: JSONValue, _ path: String, scope: IDScope) throws(ScenarioError) -> DispatchSpec {
        let o = try object(value, path, allowed: Self.dispatchKeys, what: "\"dispatch\"")
        var dispatchers: [DispatchSpec.Dispatcher] = []
        if let ds = o["dispatchers"] {
            for (i, v) in try array(ds, join(path, "dispatchers"), what: "\"dispatchers\"").enumerated() {
                let p = "\(join(path, "dispatchers"))[\(i)]"
                let d = try object(v, p, allowed: Self.dispatcherKeys, what: "a dispatcher")
                let id = try string(d["id"], join(p, "id"), what: "a dispatcher's \"id\"")
                guard !dispatchers.contains(where: { $0.id == id }) else { throw fail(join(p, "id"), "duplicate dispatcher id \"\(id)\"") }
                let limit = try d["dispatchLimit"].map { v throws(ScenarioError) in try integer(v, join(p, "dispatchLimit"), what: "\"dispatchLimit\"", minimum: 1) } ?? 1
                let delay = try d["delay"].map { v throws(ScenarioError) in try seconds(v, join(p, "delay"), what: "\"delay\"") } ?? .zero
                dispatchers.append(.init(id: id, dispatchLimit: limit, delay: delay))
            }
        }
        var tracked: [BoardID] = []
        if let t = o["trackOutputs"] {
            for (i, v) in try array(t, join(path, "trackOutputs"), what: "\"trackOutputs\"").enumerated() {
                let id = BoardID(try string(v, "\(join(path, "trackOutputs"))[\(i)]", what: "a board id"))
                try scope.check(id, "\(join(path, "trackOutputs"))[\(i)]")
                tracked.append(id)
            }
        }
        return DispatchSpec(dispatchers: dispatchers, barriers: o["barriers"], trackOutputs: tracked)
    }

    // MARK: Script, expect

    func scriptList(_ value: JSONValue, _ path: String, scope mainScope: IDScope, roots: [String: IDScope] = [:]) throws(ScenarioError) -> [ScriptStep] {
        var steps: [ScriptStep] = []
        for (i, v) in try array(value, path, what: "\"script\"").enumerated() {
            let p = "\(path)[\(i)]"
            let o = try object(
                v, p, allowed: Self.stimulusKeys,
                what: "a script step")
            var scope = mainScope
            let mb = try o["mb"].map { v throws(ScenarioError) in try string(v, join(p, "mb"), what: "\"mb\" (a root motherboard)") }
            if let mb, mb != MotherboardPath.main.rawValue {
                guard let rs = roots[mb] else {
                    throw fail(join(p, "mb"), "undeclared root motherboard \"\(mb)\"\(didYouMean(mb, Array(roots.keys).sorted() + ["main"]))")
                }
                scope = rs
            }
            guard let atValue = o["at"] else { throw fail(p, "a script step needs \"at\" (virtual seconds)") }
            let (at, atUpTo) = try secondsOrRange(atValue, join(p, "at"), what: "\"at\"")
            let actions = ["activate", "network", "track", "flush", "configure", "complete"].filter { o[$0] != nil }
            guard actions.count == 1 else {
                throw fail(p, actions.isEmpty ? "a script step needs one of activate, network, track, flush, configure or complete" : "a script step does one thing; found \(actions.joined(separator: " and "))")
            }
            let action: ScriptStep.Action
            switch actions[0] {
            case "activate":
                let id = BoardID(try string(o["activate"], join(p, "activate"), what: "\"activate\""))
                try scope.check(id, join(p, "activate"))
                action = .activate(id, input: o["input"])
            case "network":
                let n = try string(o["network"], join(p, "network"), what: "\"network\"")
                guard let c = NetworkConnection(rawValue: n) else {
                    throw fail(join(p, "network"), "unknown network \"\(n)\"\(didYouMean(n, NetworkConnection.allCases.map(\.rawValue))); expected none, wifi, cellular or ethernet")
                }
                action = .network(c)
            case "track":
                let d = try o["dispatcher"].map { v throws(ScenarioError) in try string(v, join(p, "dispatcher"), what: "\"dispatcher\"") }
                if let d, !scope.dispatchers.contains(d) {
                    throw fail(join(p, "dispatcher"), "undeclared dispatcher \"\(d)\"\(didYouMean(d, scope.dispatchers))")
                }
                action = .track(o["track"]!, dispatcher: d)
            case "flush":
                guard try bool(o["flush"]!, join(p, "flush"), what: "\"flush\"") else { throw fail(join(p, "flush"), "\"flush\" takes true") }
                action = .flush
            case "configure":
                guard case .object = o["configure"]! else { throw fail(join(p, "configure"), "\"configure\" takes Tealium barrier settings (an object)") }
                action = .configure(o["configure"]!)
            default:
                let id = BoardID(try string(o["complete"], join(p, "complete"), what: "\"complete\""))
                try scope.check(id, join(p, "complete"))
                let with = try o["with"].map { v throws(ScenarioError) in try bool(v, join(p, "with"), what: "\"with\"") } ?? true
                action = .complete(id, with: with)
            }
            if o["input"] != nil, actions[0] != "activate" { throw fail(join(p, "input"), "\"input\" goes with \"activate\"") }
            if o["dispatcher"] != nil, actions[0] != "track" { throw fail(join(p, "dispatcher"), "\"dispatcher\" goes with \"track\"") }
            if o["with"] != nil, actions[0] != "complete" { throw fail(join(p, "with"), "\"with\" goes with \"complete\"") }
            if o["mb"] != nil, actions[0] != "activate" && actions[0] != "complete" {
                throw fail(join(p, "mb"), "\"mb\" goes with \"activate\" or \"complete\" (dispatch stimuli are the app's)")
            }
            var step = ScriptStep(at: at, action: action, path: p)
            step.atUpTo = atUpTo
            step.mb = mb == MotherboardPath.main.rawValue ? nil : mb
            steps.append(step)
        }
        return steps
    }

    func expectList(_ value: JSONValue, _ path: String, scope: IDScope) throws(ScenarioError) -> [Expectation] {
        var list: [Expectation] = []
        for (i, v) in try array(value, path, what: "\"expect\"").enumerated() {
            let p = "\(path)[\(i)]"
            let o = try object(v, p, allowed: Self.expectationKeys, what: "an expectation")
            let kinds = ["performed", "never", "stuck", "loop", "sent"].filter { o[$0] != nil }
            guard kinds.count == 1 else {
                throw fail(p, kinds.isEmpty ? "an expectation needs one of performed, never, stuck, loop or sent" : "an expectation checks one thing; found \(kinds.joined(separator: " and "))")
            }
            switch kinds[0] {
            case "performed":
                let id = BoardID(try string(o["performed"], join(p, "performed"), what: "\"performed\""))
                try scope.checkAnywhere(id, join(p, "performed"))
                let times = try o["times"].map { v throws(ScenarioError) in try integer(v, join(p, "times"), what: "\"times\"", minimum: 0) }
                let at = try o["at"].map { v throws(ScenarioError) in try seconds(v, join(p, "at"), what: "\"at\"") }
                list.append(.performed(id, times: times, at: at, input: o["input"]))
            case "never":
                let id = BoardID(try string(o["never"], join(p, "never"), what: "\"never\""))
                try scope.checkAnywhere(id, join(p, "never"))
                let cancelled = try o["cancelled"].map { v throws(ScenarioError) in try bool(v, join(p, "cancelled"), what: "\"cancelled\"") } ?? false
                list.append(.never(id, cancelled: cancelled))
            case "stuck": list.append(.stuck(try bool(o["stuck"]!, join(p, "stuck"), what: "\"stuck\"")))
            case "loop": list.append(.loop(try bool(o["loop"]!, join(p, "loop"), what: "\"loop\"")))
            default:
                let d = try string(o["sent"], join(p, "sent"), what: "\"sent\" (a dispatcher id)")
                guard scope.dispatchers.contains(d) else { throw fail(join(p, "sent"), "undeclared dispatcher \"\(d)\"\(didYouMean(d, scope.dispatchers))") }
                guard let e = o["events"] else { throw fail(p, "a \"sent\" expectation needs \"events\" (the total)") }
                list.append(.sent(dispatcher: d, events: try integer(e, join(p, "events"), what: "\"events\"", minimum: 0)))
            }
            let allowed: [String: [String]] = ["performed": ["times", "at", "input"], "never": ["cancelled"], "sent": ["events"]]
            for key in o.keys where key != kinds[0] && !(allowed[kinds[0]] ?? []).contains(key) {
                throw fail(join(p, key), "\"\(key)\" does not go with \"\(kinds[0])\"", atKey: true)
            }
        }
        return list
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
