/// Splits a console capture, handed over in chunks of any size, into lines: `\n`, `\r\n` and a
/// lone `\r` end a line. A line longer than ``maximumLineLength`` keeps its first bytes (the
/// rest is skipped up to its end, and the line is marked), so a capture that is one huge line
/// is read in bounded memory.
///
/// Written by hand: Foundation's line readers want a whole file or a `FileHandle`, and neither
/// caps a line nor tells a cut line from a whole one.
struct LogLineSplitter {
    /// The longest line kept whole, in bytes.
    let maximumLineLength: Int
    private var pending: [UInt8] = []
    private var skippingRest = false
    private var lastWasCR = false
    /// Lines ended so far (the number of the next line is this plus one).
    private(set) var lineCount = 0

    init(maximumLineLength: Int) {
        self.maximumLineLength = maximumLineLength
        pending.reserveCapacity(4096)
    }

    /// Feeds `chunk`; calls `line` for each line it ends, with the line's bytes (no line end),
    /// its number (from 1) and whether it was cut at ``maximumLineLength``.
    mutating func feed(_ chunk: UnsafeRawBufferPointer, _ line: (UnsafeRawBufferPointer, Int, Bool) throws -> Void) rethrows {
        let bytes = chunk.bindMemory(to: UInt8.self)
        var start = 0
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b == 0x0A || b == 0x0D {
                // `\r\n`: the `\n` of a line the `\r` already ended.
                if b == 0x0A && lastWasCR && i == start && pending.isEmpty && !skippingRest {
                    lastWasCR = false
                    i += 1
                    start = i
                    continue
                }
                lastWasCR = b == 0x0D
                try endLine(UnsafeRawBufferPointer(rebasing: chunk[start..<i]), line)
                i += 1
                start = i
                continue
            }
            lastWasCR = false
            i += 1
        }
        if start < n { append(UnsafeRawBufferPointer(rebasing: chunk[start..<n])) }
    }

    /// Ends the capture: a last line without its line end is handed over (`unterminated` true).
    mutating func finish(_ line: (UnsafeRawBufferPointer, Int, Bool) throws -> Void) rethrows -> Bool {
        guard !pending.isEmpty || skippingRest else { return false }
        try endLine(UnsafeRawBufferPointer(start: nil, count: 0), line)
        return true
    }

    private mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard !skippingRest else { return }
        let room = maximumLineLength - pending.count
        if bytes.count <= room {
            pending.append(contentsOf: bytes)
        } else {
            pending.append(contentsOf: bytes.prefix(room))
            skippingRest = true
        }
    }

    private mutating func endLine(_ tail: UnsafeRawBufferPointer, _ line: (UnsafeRawBufferPointer, Int, Bool) throws -> Void) rethrows {
        lineCount += 1
        if pending.isEmpty && !skippingRest {
            if tail.count <= maximumLineLength {
                try line(tail, lineCount, false)
            } else {
                try line(UnsafeRawBufferPointer(rebasing: tail.prefix(maximumLineLength)), lineCount, true)
            }
            return
        }
        append(tail)
        let cut = skippingRest
        try pending.withUnsafeBytes { try line($0, lineCount, cut) }
        pending.removeAll(keepingCapacity: pending.capacity <= 1 << 20)
        skippingRest = false
    }
}
