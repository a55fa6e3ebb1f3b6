import BoardyTrace
import Foundation

/// The recorded events a replay compares with: all in memory, or arriving from a parser on
/// another thread, so reading the trace and re-running it overlap (the engine runs on the
/// calling thread; the two cores of a small machine both work).
///
/// Events are published in fixed-size chunks; once published a chunk never changes, so the one
/// consumer reads published events without taking the lock. It blocks only when it needs an
/// event the parser has not published yet.
final class ExpectedEvents: @unchecked Sendable {
    static let chunkBits = 12
    static let chunkSize = 1 << chunkBits

    private let condition = NSCondition()
    // Shared, guarded by `condition`.
    private var sharedChunks: [[TraceEvent]] = []
    private var sharedCount = 0
    private var sharedDone = false
    private var sharedFailure: TraceReadError?
    private var sharedWarnings: [TraceReadWarning] = []
    /// The index of the first event whose `seq` is not its place or whose `t` goes back.
    private var sharedFirstDisorder: Int?

    // The consumer's snapshot.
    private var chunks: [[TraceEvent]] = []
    private var count = 0
    private var done = false

    /// All of `events`, at once.
    init(_ events: [TraceEvent]) {
        var c: [[TraceEvent]] = []
        var i = 0
        while i < events.count {
            c.append(Array(events[i..<min(i + Self.chunkSize, events.count)]))
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
        var chunk: [TraceEvent] = []
        chunk.reserveCapacity(Self.chunkSize)
        var n = 0
        var lastT = TraceTime.zero
        var disorder: Int?
        func publish(final: Bool, failure: TraceReadError? = nil) {
            condition.lock()
            if !chunk.isEmpty { sharedChunks.append(chunk) }
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
            while let e = try box.reader.next() {
                if disorder == nil, e.seq != n + 1 || e.t < lastT { disorder = n }
                lastT = e.t
                chunk.append(e)
                n += 1
                if chunk.count == Self.chunkSize {
                    publish(final: false)
                    chunk = []
                    chunk.reserveCapacity(Self.chunkSize)
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

    /// The event at `i` (from 0), waiting for the parser; nil past the end.
    @inline(__always) func event(at i: Int) -> TraceEvent? {
        if i >= count {
            guard !done else { return nil }
            refresh(needing: i + 1)
            if i >= count { return nil }
        }
        return chunks[i >> Self.chunkBits][i & (Self.chunkSize - 1)]
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
        for c in chunks { all.append(contentsOf: c) }
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
