/// Line 1 of a trace file: `{"format":"boardy-trace","version":1,"scenario":...,"clock":...,"definition":...}`.
public struct TraceHeader: Sendable, Hashable {
    /// The format name every trace carries.
    public static let format = "boardy-trace"
    /// The trace format version this library writes and reads.
    public static let currentVersion = 1

    /// The format version.
    public var version: Int
    /// The scenario's name, when the trace came from one.
    public var scenario: String?
    /// The clock `t` is measured on.
    public var clock: Clock
    /// `sha256:<hex>` of the flow definition (see ``DefinitionFingerprint``).
    public var definition: String?
    /// Header fields this version does not know, kept and written back.
    public var extra: JSONObject

    /// A version-1 header.
    public init(scenario: String? = nil, clock: Clock = .virtual, definition: String? = nil, extra: JSONObject = JSONObject()) {
        self.version = Self.currentVersion
        self.scenario = scenario
        self.clock = clock
        self.definition = definition
        self.extra = extra
    }

    /// The clock of a trace.
    public enum Clock: String, Sendable, Hashable {
        /// Deterministic virtual time.
        case virtual
        /// Wall-clock (monotonic) time of a live run.
        case live
        /// No clock: `t` is the position of what was seen in order (a console log read without
        /// times: `t` counts the log's records). Draw it as order, never as seconds.
        case order
    }

    /// The header as JSON, in the contract's key order.
    public var jsonObject: JSONObject {
        var o = JSONObject([
            JSONMember(key: "format", value: .string(Self.format)), JSONMember(key: "version", value: .int(Int64(version))),
        ])
        if let scenario { o.members.append(.init(key: "scenario", value: .string(scenario))) }
        o.members.append(.init(key: "clock", value: .string(clock.rawValue)))
        if let definition { o.members.append(.init(key: "definition", value: .string(definition))) }
        o.members.append(contentsOf: extra.members)
        return o
    }

    /// The header line without its newline.
    public var jsonLine: String { JSONValue.object(jsonObject).jsonText }

    /// Reads a header from a parsed line 1, checking the format and version.
    public init(jsonObject o: JSONObject) throws(TraceFieldError) {
        var seen = Set<String>()
        for m in o.members where !seen.insert(m.key).inserted { throw TraceFieldError("duplicate key \"\(m.key)\" in the header") }
        guard o["format"] == .string(Self.format) else {
            throw TraceFieldError("not a boardy trace: line 1 must be a header with \"format\":\"boardy-trace\"")
        }
        guard let v = o["version"], let version = v.intValue else { throw TraceFieldError("header has no integer \"version\"") }
        guard version == Int64(Self.currentVersion) else {
            throw TraceFieldError("unsupported trace version \(version) (this boardy-viz reads version \(Self.currentVersion))")
        }
        var clock = Clock.virtual
        if let c = o["clock"] {
            guard let s = c.stringValue, let parsed = Clock(rawValue: s) else {
                throw TraceFieldError("header \"clock\" must be \"virtual\", \"live\" or \"order\", found \(c)")
            }
            clock = parsed
        }
        if let s = o["scenario"], s.stringValue == nil, s != .null { throw TraceFieldError("header \"scenario\" must be a string") }
        if let d = o["definition"], d.stringValue == nil, d != .null { throw TraceFieldError("header \"definition\" must be a string") }
        self.init(
            scenario: o["scenario"]?.stringValue, clock: clock, definition: o["definition"]?.stringValue,
            extra: JSONObject(o.members.filter { !["format", "version", "scenario", "clock", "definition"].contains($0.key) }))
    }
}
