import BoardyLock

/// Boardy's console warnings: the lines Boardy `print`s in a DEBUG build whether or not its
/// debug log is enabled (a duplicate registration, a duplicated activation, a board that sends
/// with no motherboard, an unregistered id's `NoBoard`, ...), with Boardy's texts, under
/// Boardy's conditions.
///
/// They go to ``output``: standard output in a debug build of this library, as Boardy's do, and
/// nowhere in a release build. Where a runtime has a debug log (``BoardyRuntime/debugLog``), the
/// warnings of its motherboards go into that log instead, between its records, once, as
/// Boardy's console shows them. The CLI sets ``output`` to nil: its standard output is its own.
public enum BoardyConsole {
    private static let sink = LockedValue<BoardyDebugLog?>(defaultOutput)

    /// Standard output in a debug build; nil in a release build.
    public static var defaultOutput: BoardyDebugLog? {
        #if DEBUG
            return .standardOutput
        #else
            return nil
        #endif
    }

    /// Where the warnings go (nil: nowhere). Set it to capture them in a test or silence them.
    public static var output: BoardyDebugLog? {
        get { sink.withLockedValue { $0 } }
        set { sink.withLockedValue { $0 = newValue } }
    }

    /// A log that passes Boardy's warnings (`⚠️ …`) on to ``output`` and drops its records: what
    /// a motherboard without a debug log writes its messages to, so Boardy's console shows the
    /// warnings alone, as Boardy's does when its log is off.
    static var warningsOnly: BoardyDebugLog? {
        guard let out = output else { return nil }
        return BoardyDebugLog { text in if text.hasPrefix("⚠️") { out.write(text) } }
    }

    /// Prints `text`, one warning (lines joined by `\n`): into `log` when given (a runtime's debug
    /// log), else to ``output``.
    static func warn(_ text: String, log: BoardyDebugLog? = nil) {
        if let log {
            log.line(text)
        } else if let out = output {
            out.write(text)
        }
    }
}
