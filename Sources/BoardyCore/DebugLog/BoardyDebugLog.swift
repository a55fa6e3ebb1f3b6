#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Boardy's debug log: the records Boardy prints, in its format, for the same flows.
///
/// As in Boardy, a DEBUG build prints it when the process's environment has
/// `BOARDY_LOG_ENABLED` set to `YES` or `TRUE` (Xcode: the scheme's Run → Arguments →
/// Environment Variables), so a Boardy user reading the console sees what they know:
///
/// ```
/// 🚀 [Activation] Boardy Log:
///     🏝 [Motherboard] ➤ main
///     🎯 [CartBoard] ➤ pub.Cart
///     🌷 [String] ➤ cart-1
/// ```
///
/// `boardy-viz ingest` reads it back into a trace. A runtime can be given a log of its own
/// (``BoardyRuntime/debugLog``), which any build honours: a test captures the lines that way.
public struct BoardyDebugLog: Sendable {
    /// Receives one record at a time: its lines joined by `\n`, without a final line end.
    public let write: @Sendable (String) -> Void

    /// A log that hands each record to `write`.
    public init(write: @escaping @Sendable (String) -> Void) {
        self.write = write
    }

    /// Prints to standard output, as Boardy does.
    public static let standardOutput = BoardyDebugLog { print($0) }

    /// The log a runtime gets by default: ``standardOutput`` in a DEBUG build when
    /// `BOARDY_LOG_ENABLED` is `YES` or `TRUE` (any case), as in Boardy; otherwise none.
    public static var fromEnvironment: BoardyDebugLog? { environmentEnabled ? standardOutput : nil }

    /// Read once: a runtime made per scenario (the explorer makes thousands) must not read the
    /// environment each time.
    private static let environmentEnabled: Bool = {
        #if DEBUG
            guard let value = getenv("BOARDY_LOG_ENABLED") else { return false }
            let upper = String(cString: value).uppercased()
            return upper == "YES" || upper == "TRUE"
        #else
            return false
        #endif
    }()

    // MARK: Records, in Boardy's format (its DebugLog.swift)

    /// A value as Boardy prints it: its type (`String(describing: type(of:))`) and its
    /// description; nil for nil (Boardy prints no line then).
    struct Rendered {
        let type: String
        let value: String
        init(type: String, value: String) {
            self.type = type
            self.value = value
        }
        init?(_ any: Any?) {
            guard let any else { return nil }
            // A scenario's values are JSON: shown as the Swift values an app would hold.
            if let json = any as? JSONValue {
                switch json {
                case .null: return nil
                case .string(let s): (type, value) = ("String", s)
                case .int(let i): (type, value) = ("Int", String(i))
                case .double(let d): (type, value) = ("Double", "\(d)")
                case .bool(let b): (type, value) = ("Bool", b ? "true" : "false")
                case .array, .object: (type, value) = ("JSONValue", json.jsonText)
                }
                return
            }
            type = String(describing: Swift.type(of: any))
            value = "\(any)"
        }
        /// How Boardy's barrier boards print a value they pass on as an `Any?`.
        static func optionalAny(_ value: String) -> Rendered { Rendered(type: "Optional<Any>", value: "Optional(\(value))") }
        /// `CompleteAction(identifier: X, isDone: true)`.
        static func completion(_ id: BoardID, _ isDone: Bool) -> Rendered {
            Rendered(type: "CompleteAction", value: "CompleteAction(identifier: \(id.rawValue), isDone: \(isDone))")
        }
    }

    /// `String(describing: type(of: value))`, as Boardy names a type.
    static func typeName(_ value: Any) -> String { String(describing: Swift.type(of: value)) }

    /// A field line: `    <icon> [Type] ➤ value`.
    static func field(_ icon: String, _ type: String, _ value: String) -> String { "    \(icon) [\(type)] ➤ \(value)" }

    /// `🚀 [Activation]` (or `🚚 [Interaction]`): a motherboard activates (or interacts with) a board.
    func activation(
        icon: String = "🚀 [Activation]", motherboardType: String, motherboard: String, boardType: String, board: String, option: Rendered?
    ) {
        var lines = ["\(icon) Boardy Log:", Self.field("🏝", motherboardType, motherboard)]
        lines.append(Self.field("🎯", boardType, board))
        if let option { lines.append(Self.field("🌷", option.type, option.value)) }
        write(lines.joined(separator: "\n"))
    }

    /// `🍁 [<kind>]`: a board sends its motherboard a message (`Send Out`, `Next To Board`, …).
    /// `motherboard` nil: the sender has none (or is a motherboard relaying).
    func activity(
        _ kind: String, senderType: String, sender: String, motherboard: (type: String, id: String)?, destination: String? = nil, data: Rendered?
    ) {
        var lines = ["🍁 [\(kind)] Boardy Log:", Self.field("🏝", senderType, sender)]
        if let motherboard { lines.append(Self.field("🌏", motherboard.type, motherboard.id)) }
        if let destination { lines.append(Self.field("🎯", "BoardID", destination)) }
        if let data { lines.append(Self.field("💐", data.type, data.value)) }
        write(lines.joined(separator: "\n"))
    }

    /// Any other line Boardy prints (`⚠️ …`, `⏩ …`).
    func line(_ text: String) { write(text) }
}
