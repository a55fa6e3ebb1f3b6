import BoardyTrace
import Foundation

/// The recorded events a replay compares with: all in memory, or arriving from a parser on
/// another thread, so reading the trace and re-running it overlap (the engine runs on the
/// calling thread; the two cores of a small machine both work).
///
/// Events are published in fixed-size chunks; once published a chunk never changes, so the one
/// consumer reads published events without taking the lock. It blocks only when it needs an
/// event the parser has not published yet.
///
/// Streaming, the parser runs the reader's fast path (``TraceReader/nextRow(_:)``) and keeps each
/// line's bytes, not an event: the run's event is compared with the line in place
/// (``TraceEvent/matches(line:)``), and a line is decoded only when they differ in bytes (to
/// tell whether they differ in meaning) or when a report needs it.
final class ExpectedEvents: @unchecked Sendable {
    /// Recorded events of one chunk: as events (in memory), or as lines with the events the
    /// full parser already read. A class: the consumer reads one per event, and a reference
    /// costs one retain where four arrays cost four. `@unchecked Sendable`: the parser thread
    /// fills a chunk, then publishes it under `condition`'s lock; nothing writes it afterwards,
    /// and the consumer reads it only after taking the lock that published it.
    final class Chunk: @unchecked Sendable {
        var events: [TraceEvent] = []
        /// The lines, one after another (owned; written by the parser before publishing).
        private(set) var bytes: UnsafeMutablePointer<UInt8>
        private(set) var byteCount = 0
        private var byteCapacity: Int
        var ends: [Int] = []
        /// The events the full parser read (the fast path did not), by line; `slow[j]` says
        /// whether line `j` has one, without hashing on every compare.
        var decoded: [Int: TraceEvent] = [:]
        var slow: [Bool] = []
        var count: Int { events.isEmpty ? ends.count : events.count }

        init(byteCapacity: Int = 0) {
            self.byteCapacity = max(1, byteCapacity)
            bytes = .allocate(capacity: self.byteCapacity)
        }
        convenience init(events: [TraceEvent]) {
            self.init()
            self.events = events
        }
        deinit { bytes.deallocate() }

        /// Appends a line (the parser, before the chunk is published).
        func append(_ line: UnsafeBufferPointer<UInt8>) {
            slow.append(false)
            if byteCount + line.count > byteCapacity {
                let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: max(byteCapacity * 2, byteCount + line.count))
                grown.update(from: bytes, count: byteCount)
                bytes.deallocate()
                bytes = grown
                byteCapacity = max(byteCapacity * 2, byteCount + line.count)
            }
            if let b = line.baseAddress { (bytes + byteCount).update(from: b, count: line.count) }
            byteCount += line.count
            ends.append(byteCount)
        }

        @inline(__always) func line(_ j: Int) -> UnsafeBufferPointer<UInt8> {
            let start = j == 0 ? 0 : ends[j - 1]
            return UnsafeBufferPointer(start: bytes + start, count: ends[j] - start)
        }

        /// Event `j`, decoded when it is a line.
        func event(_ j: Int) -> TraceEvent {
            if !events.isEmpty { return events[j] }
            if slow[j], let e = decoded[j] { return e }
            // The fast path accepted the line, so the full parser reads it.
            guard let e = try? TraceEvent.decodeLine(line(j)) else { preconditionFailure("a line the fast path read does not decode") }
            return e
        }

        /// Whether event `j` is `e`: the same bytes as the writer's, else the same meaning.
        @inline(__always) func matches(_ e: TraceEvent, _ j: Int) -> Bool {
            if !events.isEmpty { return events[j] == e }
            if slow[j], let d = decoded[j] { return d == e }
            if e.matches(line: line(j)) { return true }
            return event(j) == e
        }
    }

    static let chunkBits = 12
    static let chunkSize = 1 << chunkBits

    private let condition = NSCondition()
    // Shared, guarded by `condition`.
    private var sharedChunks: [Chunk] = []
    private var sharedCount = 0
    private var sharedDone = false
    private var sharedFailure: TraceReadError?
    private var sharedWarnings: [TraceReadWarning] = []
    /// The index of the first event whose `seq` is not its place or whose `t` goes back.
    private var sharedFirstDisorder: Int?

    // The consumer's snapshot.
    private var chunks: [Chunk] = []
    private var count = 0
    private var done = false

    /// All of `events`, at once.
    init(_ events: [TraceEvent]) {
        var c: [Chunk] = []
        var i = 0
        while i < events.count {
            c.append(Chunk(events: Array(events[i..<min(i + Self.chunkSize, events.count)])))
            i += Self.chunkSize
        }
        sharedChunks = c
        sharedCount = events.count
        sharedDone = true
        let ordered = Replayer.orderedPrefix(events)
        sharedFirstDisorder = ordered < events.count ? ordered : nil
        chunks = c
        count = events.count
        done = true
    }

    /// Events read from `reader` on a new thread.
    init(streaming reader: consuming TraceReader) {
        let box = ReaderBox(reader)
        let thread = Thread { [self] in self.parse(box) }
        thread.stackSize = 8 << 20  // JSON nests up to 512 deep; debug frames are large
        thread.start()
    }

    private final class ReaderBox: @unchecked Sendable {
        var reader: TraceReader
        init(_ reader: consuming TraceReader) { self.reader = reader }
    }

    private func parse(_ box: ReaderBox) {
        var chunk = Chunk(byteCapacity: Self.chunkSize * 160)
        chunk.ends.reserveCapacity(Self.chunkSize)
        chunk.slow.reserveCapacity(Self.chunkSize)
        var n = 0
        var lastT = TraceTime.zero
        var disorder: Int?
        func publish(final: Bool, failure: TraceReadError? = nil) {
            condition.lock()
            if chunk.count > 0 { sharedChunks.append(chunk) }
            sharedCount = n
            if sharedFirstDisorder == nil { sharedFirstDisorder = disorder }
            if final {
                sharedDone = true
                sharedFailure = failure
                sharedWarnings = box.reader.warnings
            }
            condition.broadcast()
            condition.unlock()
        }
        do throws(TraceReadError) {
            while try box.reader.nextRow({ row, _ in
                if disorder == nil, row.seq != n + 1 || row.t < lastT { disorder = n }
                lastT = row.t
                let j = chunk.ends.count
                chunk.append(row.bytes)
                if let e = row.decodedEvent {
                    chunk.decoded[j] = e
                    chunk.slow[j] = true
                }
                n += 1
            }) {
                if chunk.ends.count == Self.chunkSize {
                    publish(final: false)
                    let size = chunk.byteCount
                    chunk = Chunk(byteCapacity: size + size / 8)
                    chunk.ends.reserveCapacity(Self.chunkSize)
                    chunk.slow.reserveCapacity(Self.chunkSize)
                }
            }
            publish(final: true)
        } catch {
            publish(final: true, failure: error)
        }
    }

    /// Takes what the parser published, waiting until at least `needed` events are there or it
    /// finished.
    private func refresh(needing needed: Int) {
        condition.lock()
        while sharedCount < needed && !sharedDone { condition.wait() }
        chunks = sharedChunks
        count = sharedCount
        done = sharedDone
        condition.unlock()
    }

    /// Waits until event `i` (from 0) is published; false past the end.
    @inline(__always) private func has(_ i: Int) -> Bool {
        if i >= count {
            guard !done else { return false }
            refresh(needing: i + 1)
            if i >= count { return false }
        }
        return true
    }

    /// The event at `i` (from 0), waiting for the parser; nil past the end.
    func event(at i: Int) -> TraceEvent? {
        guard has(i) else { return nil }
        return chunks[i >> Self.chunkBits].event(i & (Self.chunkSize - 1))
    }

    /// Whether the event at `i` is `e` (false past the end), waiting for the parser.
    @inline(__always) func matches(_ e: TraceEvent, at i: Int) -> Bool {
        guard has(i) else { return false }
        return chunks[i >> Self.chunkBits].matches(e, i & (Self.chunkSize - 1))
    }

    /// Whether the events up to and including the one at `i` are in order (`seq` their place,
    /// `t` never going back), waiting for the parser to get there.
    func isOrdered(through i: Int) -> Bool {
        _ = event(at: i)
        condition.lock()
        defer { condition.unlock() }
        return sharedFirstDisorder.map { $0 > i } ?? true
    }

    /// Waits for the parser to finish: every event, in order, with the reader's warnings; the
    /// reader's error if a line was malformed.
    func finish() throws(TraceReadError) -> (events: [TraceEvent], warnings: [TraceReadWarning], firstDisorder: Int?) {
        refresh(needing: Int.max)
        condition.lock()
        let failure = sharedFailure
        let warnings = sharedWarnings
        let disorder = sharedFirstDisorder
        condition.unlock()
        if let failure { throw failure }
        var all: [TraceEvent] = []
        all.reserveCapacity(count)
        for c in chunks {
            for j in 0..<c.count { all.append(c.event(j)) }
        }
        return (all, warnings, disorder)
    }

    /// The number of events and the reader's warnings, once the parser finished; its error if a
    /// line was malformed.
    func total() throws(TraceReadError) -> (count: Int, warnings: [TraceReadWarning]) {
        refresh(needing: Int.max)
        condition.lock()
        defer { condition.unlock() }
        if let f = sharedFailure { throw f }
        return (sharedCount, sharedWarnings)
    }
}
