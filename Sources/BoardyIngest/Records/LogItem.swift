/// Where something was read: a capture (its index among the files read) and a line (from 1).
struct LogPlace: Sendable, Hashable {
    var file: Int
    var line: Int
}

/// One field of a record: `    🏝 [Type] ➤ value`.
struct LogField: Sendable {
    /// The Swift type Boardy printed (`Motherboard`, `String`, `Optional<Any>`).
    var type: String
    /// The value as printed (a description; it may span lines).
    var value: String
}

/// What Boardy printed, assembled from its lines: a record, a warning or a note.
enum LogItem: Sendable {
    case record(LogRecord)
    case warning(LogText)
    case note(LogText)
}

/// A record of Boardy's `DebugLog`: an activation, an interaction, or a message a board sent its
/// motherboard (`🍁 [Send Out]` and its kin).
struct LogRecord: Sendable {
    enum Kind: Sendable, Equatable {
        /// `🚀 [Activation]`.
        case activation
        /// `🚚 [Interaction]`.
        case interaction
        /// `🍁 [<name>]`: `Next To Board`, `Broadcast Action`, `Send Command`, `Send Out`, or a
        /// UI element action.
        case activity(String)
        /// Another header Boardy's log does not print today (`<icon> [<name>] Boardy Log:`).
        case other(icon: String, name: String)
    }

    var kind: Kind
    var place: LogPlace
    /// Microseconds from the capture's prefix, if it had a time.
    var time: Int64?
    var timeOfDayOnly = false
    var source: LogField?
    var motherboard: LogField?
    var destination: LogField?
    /// `🌷` (an activation's option) or `💐` (a message's data).
    var data: LogField?
    /// The last field line read (fields come in a fixed order).
    var lastField: ConsoleLine.FieldIcon?

    /// Whether the record has the fields it cannot be read without.
    var isComplete: Bool {
        guard source != nil else { return false }
        switch kind {
        case .activation, .interaction: return destination != nil
        case .activity(let name): return (name == "Next To Board" || name == "Send Command") ? destination != nil : true
        case .other: return true
        }
    }

    /// Whether a field with `icon` may come next in this record.
    func accepts(_ icon: ConsoleLine.FieldIcon) -> Bool {
        if let lastField, icon <= lastField { return false }
        switch (kind, icon) {
        case (.activation, .data), (.interaction, .data), (.activity, .option): return false
        default: return true
        }
    }

    mutating func set(_ icon: ConsoleLine.FieldIcon, _ field: LogField) {
        switch icon {
        case .source: source = field
        case .motherboard: motherboard = field
        case .destination: destination = field
        case .option, .data: data = field
        }
        lastField = icon
    }
}

/// A warning or note: its lines, joined by `\n`, where it starts, and its time.
struct LogText: Sendable {
    var text: String
    var place: LogPlace
    var time: Int64?
    var timeOfDayOnly = false
    /// Lines after the first (details).
    var detailLines = 0
}
