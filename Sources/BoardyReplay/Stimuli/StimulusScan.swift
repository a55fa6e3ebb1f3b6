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

    /// Each needle with the index of its anchor, a byte rare in traces. Needles sharing an
    /// anchor are looked for in one pass: memchr for the anchor, then a compare around each hit
    /// (searching by the first byte stopped at every `s` and `c` of a trace: `seq`, `source`,
    /// `cause`, a fifth of a replay's time).
    static let passes: [(anchor: UInt8, needles: [(bytes: [UInt8], at: Int)])] = [
        (UInt8(ascii: "l"), [(Array("stimulus".utf8), 5), (Array("until".utf8), 4)]),
        (UInt8(ascii: "h"), [(Array("choice".utf8), 1)]),
        (UInt8(ascii: "\\"), [(Array("\\u".utf8), 0)]),
    ]

    /// Calls `found` with every place in `base..<end` where one of the pass's needles starts.
    private static func search(
        _ pass: (anchor: UInt8, needles: [(bytes: [UInt8], at: Int)]), in base: UnsafePointer<UInt8>, to end: UnsafePointer<UInt8>,
        _ found: (UnsafePointer<UInt8>) -> UnsafePointer<UInt8>
    ) {
        var p = base
        while p < end, let hit = memchr(p, Int32(pass.anchor), end - p) {
            let h = UnsafePointer(hit.assumingMemoryBound(to: UInt8.self))
            p = h + 1
            for (needle, at) in pass.needles {
                let start = h - at
                guard start >= base, end - start >= needle.count else { continue }
                var k = 0
                while k < needle.count, start[k] == needle[k] { k += 1 }
                if k == needle.count {
                    // The rest of the line holds nothing more to find.
                    p = found(start)
                    break
                }
            }
        }
    }

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
            #if os(Linux)
                // The mapping's pages in one call (MADV_POPULATE_READ), not a fault per page.
                let page = Int(sysconf(Int32(_SC_PAGESIZE)))
                let first = Int(bitPattern: base) & ~(page - 1)
                if let p = UnsafeMutableRawPointer(bitPattern: first) { _ = madvise(p, Int(bitPattern: end) - first, 22) }
            #endif
            // Start offsets of candidate lines.
            var starts = Set<Int>()
            for pass in passes {
                search(pass, in: base, to: end) { hit in
                    var s = hit
                    while s > base, s[-1] != 0x0A { s -= 1 }
                    starts.insert(s - base)
                    guard let nl = memchr(hit, 0x0A, end - hit) else { return end }
                    return UnsafePointer(nl.assumingMemoryBound(to: UInt8.self)) + 1
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
