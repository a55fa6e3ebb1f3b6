import BoardyTrace
import Foundation

/// Finds a trace file's stimuli (and a cut run's `"until": true` events) without parsing every
/// line, so a replay can schedule its inputs before the full parse is done.
///
/// A stimulus line holds the bytes `stimulus` (its kind's value), unless that value is written
/// with `\u` escapes; an `until` field holds `until`. Only lines with one of those three byte
/// strings are parsed, so none is missed. Malformed lines are skipped here: the full parse
/// reports them.
enum StimulusScan {
    struct Result {
        /// The stimuli with their index among the events (from 0), in file order.
        var stimuli: [(index: Int, event: TraceEvent)] = []
        /// The `choice` events with their index among the events, in file order.
        var choices: [(index: Int, event: TraceEvent)] = []
        /// The latest time of an event marked `"until": true`.
        var until: TraceTime?
    }

    /// The first place of `needle` in `start..<end`: memchr for one of its bytes, `anchor` (at
    /// that index in the needle), then a compare around the hit. The anchor is a byte rare in
    /// traces: searching by the first byte stopped at every `s` and `c` (`seq`, `source`,
    /// `cause`), a fifth of a replay's time.
    private static func find(_ needle: [UInt8], anchor: Int, from start: UnsafePointer<UInt8>, to end: UnsafePointer<UInt8>) -> UnsafePointer<UInt8>? {
        var p = start + anchor
        let byte = Int32(needle[anchor])
        while end - p >= needle.count - anchor, let hit = memchr(p, byte, end - p) {
            let h = UnsafePointer(hit.assumingMemoryBound(to: UInt8.self)) - anchor
            if end - h < needle.count { return nil }
            var k = 0
            while k < needle.count, h[k] == needle[k] { k += 1 }
            if k == needle.count { return h }
            p = h + anchor + 1
        }
        return nil
    }

    /// The needles, with the index of their rarest byte in a trace.
    static let needles: [(bytes: [UInt8], anchor: Int)] = [
        (Array("stimulus".utf8), 5),  // the `l`
        (Array("until".utf8), 4),  // the `l`
        (Array("choice".utf8), 1),  // the `h`
        (Array("\\u".utf8), 0),  // the backslash
    ]

    static func scan(path: String) throws(TraceReadError) -> Result {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        } catch {
            throw TraceReadError(file: path, line: 0, message: "cannot open: \(error.localizedDescription)")
        }
        return data.withUnsafeBytes { raw -> Result in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return Result() }
            let end = base + bytes.count
            // Start offsets of candidate lines.
            var starts = Set<Int>()
            for (n, anchor) in needles {
                var p = base
                while p < end, let hit = find(n, anchor: anchor, from: p, to: end) {
                    var s = hit
                    while s > base, s[-1] != 0x0A { s -= 1 }
                    starts.insert(s - base)
                    guard let nl = memchr(s, 0x0A, end - s) else { break }
                    p = UnsafePointer(nl.assumingMemoryBound(to: UInt8.self)) + 1
                }
            }
            var result = Result()
            var line = 0
            var cursor = base
            for offset in starts.sorted() {
                // Count the lines between the previous candidate and this one.
                let target = base + offset
                while cursor < target, let nl = memchr(cursor, 0x0A, target - cursor) {
                    line += 1
                    cursor = UnsafePointer(nl.assumingMemoryBound(to: UInt8.self)) + 1
                }
                cursor = target
                guard line >= 1 else { continue }  // the header
                let lineEnd = memchr(target, 0x0A, end - target).map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) } ?? end
                let text = String(decoding: UnsafeBufferPointer(start: target, count: lineEnd - target), as: UTF8.self)
                guard let o = (try? JSONValue(parsing: text))?.objectValue, let e = try? TraceEvent(jsonObject: o) else { continue }
                if e.eventKind == .stimulus { result.stimuli.append((line - 1, e)) }
                if e.eventKind == .choice { result.choices.append((line - 1, e)) }
                if e.extra["until"] == .bool(true) { result.until = max(result.until ?? e.t, e.t) }
            }
            return result
        }
    }
}
