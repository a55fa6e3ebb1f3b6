/// One line of a console capture, cleaned and classified: what Boardy's `DebugLog` printed
/// (a record's header or field, a warning, a note) or anything else (the app's own output, a
/// test runner's, another framework's, or the continuation of a value that spans lines).
///
/// Boardy's records are `print` calls, one per line: a header such as `🚀 [Activation] Boardy
/// Log:`, then fields `    🏝 [Type] ➤ value` indented by four spaces. A capture may put a prefix
/// (a time, a process and thread) before each line; the prefix is what comes before the marker.
struct ConsoleLine {
    /// What the line is.
    enum Kind: Equatable {
        /// `🚀 [Activation] Boardy Log:` and its kin; the name between the brackets.
        case header(icon: Substring, name: Substring)
        /// `    🏝 [Type] ➤ value`.
        case field(FieldIcon, type: Substring, value: Substring)
        /// A field line that is not well formed (no `] ➤ `): a record line that cannot be read.
        case brokenField(FieldIcon)
        /// A board's debug description, which Boardy prints as the first line of some warnings:
        /// `⛵️ [Debug Description]` (a `Board`'s, whose `● …` lines follow), or a protocol
        /// board's on one line (`    🏝 [T] ➤ id    🌏 [T] ➤ id`).
        case boardDescription
        /// `⚠️ …`: a warning's first line.
        case warning
        /// A line that carries on a warning: `🔥 …`, `👉 …`, `💡 …`, `🌸 Data: …`, `🎯 Target: …`,
        /// `    🚦 [T] ➤ …`, `‼️ …`.
        case warningDetail
        /// `⏩ …`, `ℹ️ …`, `🌕 …`, or `🌏 [X] URL opened ➤ …`: a note Boardy prints.
        case note
        /// Anything else.
        case plain
    }

    /// The icons of a record's fields, in the order Boardy prints them.
    enum FieldIcon: Int, Comparable, Sendable {
        /// `🏝` the sender (a board, or the motherboard of an activation).
        case source = 0
        /// `🌏` the sender's motherboard.
        case motherboard = 1
        /// `🎯` the destination.
        case destination = 2
        /// `🌷` an activation's option.
        case option = 3
        /// `💐` a message's data.
        case data = 4

        static func < (a: FieldIcon, b: FieldIcon) -> Bool { a.rawValue < b.rawValue }

        /// The icon as Boardy prints it.
        var icon: String {
            switch self {
            case .source: return "🏝"
            case .motherboard: return "🌏"
            case .destination: return "🎯"
            case .option: return "🌷"
            case .data: return "💐"
            }
        }
    }

    /// The line as read, cleaned (no line end, no ANSI colour codes, invalid UTF-8 replaced).
    let text: String
    /// What it is.
    let kind: Kind
    /// The text before the marker (empty without a prefix); for a plain line, empty.
    let prefix: Substring
    /// The text from the marker on (for a plain line, the whole line).
    let body: Substring

    init(bytes: UnsafeRawBufferPointer) {
        let cleaned = Self.clean(bytes)
        text = cleaned
        (kind, prefix, body) = Self.classify(cleaned)
    }

    init(text: String) {
        self.text = text
        (kind, prefix, body) = Self.classify(text)
    }

    // MARK: Cleaning

    /// UTF-8 text of `bytes` without ANSI escape sequences; bytes that are not UTF-8 become U+FFFD.
    static func clean(_ bytes: UnsafeRawBufferPointer) -> String {
        let b = bytes.bindMemory(to: UInt8.self)
        guard b.contains(0x1B) else { return String(decoding: b, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        var i = 0
        while i < b.count {
            guard b[i] == 0x1B else {
                out.append(b[i])
                i += 1
                continue
            }
            i += 1
            guard i < b.count else { break }
            switch b[i] {
            case UInt8(ascii: "["):
                // CSI: parameters and intermediates, then one final byte in 0x40...0x7E.
                i += 1
                while i < b.count, !(0x40...0x7E).contains(b[i]) { i += 1 }
                i += 1
            case UInt8(ascii: "]"):
                // OSC: up to BEL or ESC \.
                i += 1
                while i < b.count, b[i] != 0x07, !(b[i] == 0x1B && i + 1 < b.count && b[i + 1] == UInt8(ascii: "\\")) { i += 1 }
                i += b.count > i && b[i] == 0x07 ? 1 : 2
            default:
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: Classifying

    private static let headerEnd = "] Boardy Log:"
    private static let arrow = "] ➤ "

    static func classify(_ s: String) -> (Kind, Substring, Substring) {
        let whole = s[...]
        // The first byte of a marker is a lead byte of a 3- or 4-byte UTF-8 sequence; a line of
        // plain ASCII is never Boardy's.
        let u = s.utf8
        guard let lead = u.firstIndex(where: { $0 >= 0xE2 }) else { return (.plain, "", whole) }
        if s.hasSuffix("Boardy Log:") { return classifyHeader(s) }
        // Fields: four spaces, an icon, ` [`.
        var i = lead
        while i < u.endIndex {
            let b = u[i]
            if b == 0xF0 {
                if let icon = fieldIcon(at: i, in: u) {
                    let iconEnd = u.index(i, offsetBy: 4)
                    if spaces(before: i, in: u, atLeast: 4), u[iconEnd...].starts(with: " [".utf8) {
                        var prefixEnd = i
                        // The four spaces of indentation belong to the field, not the prefix.
                        prefixEnd = u.index(prefixEnd, offsetBy: -4)
                        let prefix = trimmedPrefix(whole[..<prefixEnd])
                        let body = whole[prefixEnd...]
                        let rest = whole[u.index(iconEnd, offsetBy: 2)...]  // after " ["
                        guard let arrowRange = rest.range(of: arrow) else { return (.brokenField(icon), prefix, body) }
                        // A board's debug description carries a second field on the same line.
                        if icon == .source, rest[arrowRange.upperBound...].contains("    🌏 [") { return (.boardDescription, prefix, body) }
                        return (.field(icon, type: rest[..<arrowRange.lowerBound], value: rest[arrowRange.upperBound...]), prefix, body)
                    }
                    if icon == .motherboard, whole[i...].contains("URL opened") {
                        return (.note, trimmedPrefix(whole[..<i]), whole[i...])
                    }
                } else if let kind = otherMarker(at: i, in: u) {
                    return (kind, trimmedPrefix(whole[..<i]), whole[i...])
                }
                i = u.index(i, offsetBy: 4, limitedBy: u.endIndex) ?? u.endIndex
                continue
            }
            if b == 0xE2 {
                if let kind = threeByteMarker(at: i, in: u) {
                    return (kind, trimmedPrefix(whole[..<i]), whole[i...])
                }
            }
            i = u.index(after: i)
        }
        return (.plain, "", whole)
    }

    private static func classifyHeader(_ s: String) -> (Kind, Substring, Substring) {
        let whole = s[...]
        guard let end = whole.lastRange(of: headerEnd),
            let open = whole[..<end.lowerBound].lastRange(of: " [")
        else { return (.plain, "", whole) }
        let name = whole[open.upperBound..<end.lowerBound]
        // The icon: from the last space before ` [` (or the line's start) to ` [`.
        let before = whole[..<open.lowerBound]
        let iconStart = before.lastIndex(of: " ").map { before.index(after: $0) } ?? before.startIndex
        let icon = before[iconStart...]
        guard !icon.isEmpty, icon.utf8.first.map({ $0 >= 0xE2 }) == true else { return (.plain, "", whole) }
        return (.header(icon: icon, name: name), trimmedPrefix(whole[..<iconStart]), whole[iconStart...])
    }

    private static func trimmedPrefix(_ p: Substring) -> Substring {
        var e = p.endIndex
        while e > p.startIndex, p[p.index(before: e)] == " " || p[p.index(before: e)] == "\t" { e = p.index(before: e) }
        return p[..<e]
    }

    private static func spaces(before i: String.UTF8View.Index, in u: String.UTF8View, atLeast n: Int) -> Bool {
        var j = i
        for _ in 0..<n {
            guard j > u.startIndex else { return false }
            j = u.index(before: j)
            guard u[j] == 0x20 else { return false }
        }
        return true
    }

    private static func fieldIcon(at i: String.UTF8View.Index, in u: String.UTF8View) -> FieldIcon? {
        guard u.distance(from: i, to: u.endIndex) >= 4 else { return nil }
        let b1 = u[u.index(i, offsetBy: 1)], b2 = u[u.index(i, offsetBy: 2)], b3 = u[u.index(i, offsetBy: 3)]
        guard b1 == 0x9F else { return nil }
        switch (b2, b3) {
        case (0x8F, 0x9D): return .source  // 🏝
        case (0x8C, 0x8F): return .motherboard  // 🌏
        case (0x8E, 0xAF): return .destination  // 🎯
        case (0x8C, 0xB7): return .option  // 🌷
        case (0x92, 0x90): return .data  // 💐
        default: return nil
        }
    }

    /// Four-byte markers other than fields, at the start of what follows the prefix.
    private static func otherMarker(at i: String.UTF8View.Index, in u: String.UTF8View) -> Kind? {
        guard u.distance(from: i, to: u.endIndex) >= 4, u[u.index(i, offsetBy: 1)] == 0x9F else { return nil }
        let b2 = u[u.index(i, offsetBy: 2)], b3 = u[u.index(i, offsetBy: 3)]
        switch (b2, b3) {
        case (0x94, 0xA5), (0x91, 0x89), (0x92, 0xA1), (0x8C, 0xB8), (0x9A, 0xA6):  // 🔥 👉 💡 🌸 🚦
            return .warningDetail
        case (0x8E, 0xAF):  // 🎯 not as a field: `🎯 Target: …` in ChainDataHandler's warnings
            return .warningDetail
        case (0x8C, 0x95):  // 🌕
            return .note
        default:
            return nil
        }
    }

    /// Three-byte markers: ⚠️ (E2 9A A0), ⏩ (E2 8F A9), ℹ️ (E2 84 B9), ‼️ (E2 80 BC), and ⛵️
    /// (E2 9B B5), which starts a `Board`'s multi-line debug description.
    private static func threeByteMarker(at i: String.UTF8View.Index, in u: String.UTF8View) -> Kind? {
        guard u.distance(from: i, to: u.endIndex) >= 3 else { return nil }
        let b1 = u[u.index(i, offsetBy: 1)], b2 = u[u.index(i, offsetBy: 2)]
        switch (b1, b2) {
        case (0x9A, 0xA0): return .warning
        case (0x8F, 0xA9), (0x84, 0xB9): return .note
        case (0x80, 0xBC): return .warningDetail
        case (0x9B, 0xB5): return .boardDescription
        default: return nil
        }
    }
}
