/// What a recorder keeps of payloads (`input`, `output`, `command`, `event`, and a stimulus's
/// `input`), so traces from real apps need not carry personal data or megabytes of state.
///
/// `redact` sees each payload first and maps it or drops it (returns nil): a dropped optional
/// field (`input`) is left out, a dropped required one becomes the string `"<redacted>"`. Then
/// values whose JSON text exceeds `maxBytes` are cut: they become a string holding the start of
/// their JSON text followed by `…[cut N bytes]`.
public struct PayloadPolicy: Sendable {
    /// Which payload field a value sits in.
    public enum Field: String, Sendable, Hashable {
        case input, output, command, event
    }

    /// Maps or drops (nil) a payload; `kind` is the event kind.
    public var redact: (@Sendable (_ field: Field, _ kind: String, _ value: JSONValue) -> JSONValue?)?
    /// The largest JSON text, in UTF-8 bytes, a payload may keep.
    public var maxBytes: Int?

    /// A policy; the default keeps everything.
    public init(
        maxBytes: Int? = nil,
        redact: (@Sendable (_ field: Field, _ kind: String, _ value: JSONValue) -> JSONValue?)? = nil
    ) {
        self.maxBytes = maxBytes
        self.redact = redact
    }

    /// Keeps every payload whole.
    public static let keepAll = PayloadPolicy()

    /// The marker that replaces a dropped required payload.
    public static let redactedMarker: JSONValue = .string("<redacted>")

    var isKeepAll: Bool { redact == nil && maxBytes == nil }

    func apply(_ field: Field, _ kind: String, _ value: JSONValue) -> JSONValue? {
        var v = value
        if let redact {
            guard let mapped = redact(field, kind, value) else { return nil }
            v = mapped
        }
        if let maxBytes { v = Self.cut(v, maxBytes: maxBytes) }
        return v
    }

    static func cut(_ v: JSONValue, maxBytes: Int) -> JSONValue {
        if case .string(let s) = v, s.utf8.count + 2 <= maxBytes { return v }
        var w = JSONWriter()
        w.writeValue(v)
        guard w.bytes.count > maxBytes else { return v }
        var keep = max(0, maxBytes)
        // Cut on a UTF-8 character boundary.
        while keep > 0 && keep < w.bytes.count && (w.bytes[keep] & 0xC0) == 0x80 { keep -= 1 }
        let prefix = String(decoding: w.bytes[0..<keep], as: UTF8.self)
        return .string("\(prefix)…[cut \(w.bytes.count - keep) bytes]")
    }

    /// The event with its payloads passed through the policy.
    public func apply(to event: TraceEvent) -> TraceEvent {
        guard !isKeepAll else { return event }
        var e = event
        let kind = event.kind
        func required(_ f: Field, _ v: JSONValue) -> JSONValue { apply(f, kind, v) ?? Self.redactedMarker }
        switch event.body {
        case .activationRequested(let board, let source, let input):
            e.body = .activationRequested(board: board, source: source, input: input.flatMap { apply(.input, kind, $0) })
        case .activationPerformed(let board, let input):
            e.body = .activationPerformed(board: board, input: input.flatMap { apply(.input, kind, $0) })
        case .outputSent(let board, let output):
            e.body = .outputSent(board: board, output: required(.output, output))
        case .flowRouted(let from, let output, let to, let action):
            e.body = .flowRouted(from: from, output: required(.output, output), to: to, action: action)
        case .commandSent(let board, let command):
            e.body = .commandSent(board: board, command: required(.command, command))
        case .dispatchQueued(let dispatcher, let event):
            e.body = .dispatchQueued(dispatcher: dispatcher, event: required(.event, event))
        case .stuckDispatcher(let dispatcher, let waiting):
            e.body = .stuckDispatcher(dispatcher: dispatcher, waiting: waiting.map { required(.event, $0) })
        case .stimulus(let action, var fields):
            if let input = fields["input"] { fields["input"] = apply(.input, kind, input) }
            if let event = fields["event"] { fields["event"] = required(.event, event) }
            e.body = .stimulus(action: action, fields: fields)
        default:
            break
        }
        return e
    }
}
