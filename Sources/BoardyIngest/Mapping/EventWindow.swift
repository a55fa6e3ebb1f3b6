import BoardyTrace
import DequeModule

/// The name of a board that waits behind a barrier, when the log names it later (the released
/// activation that closes the wait), or never (a failed gate's waiters vanish without a record).
final class WaiterName {
    /// The board, once known.
    var board: String?
    /// Its input, once known (a gateway run's later waiters are named but not their input).
    var input: JSONValue?
    var inputKnown: Bool
    /// Whether nothing more will be learnt (named, or the wait ended without a name).
    var settled = false

    init(board: String?, input: JSONValue?, inputKnown: Bool) {
        self.board = board
        self.input = input
        self.inputKnown = inputKnown
        settled = board != nil && inputKnown
    }
}

/// Events on their way out: each is written once what it names is known. A waiter's request
/// and barrier check are written with the board the log names when the wait ends (so the trace
/// never guesses and never needs rewriting); everything after them waits in order. The window
/// holds at most ``capacity`` events: past that the oldest wait is written as unknown.
struct EventWindow {
    private struct Slot {
        var event: TraceEvent
        var waiter: WaiterName?
    }

    static let capacity = 100_000
    private var slots: Deque<Slot> = []
    /// Events written as "unknown" because the window was full.
    private(set) var writtenEarly = 0

    var isEmpty: Bool { slots.isEmpty }

    mutating func append(_ event: TraceEvent, waiter: WaiterName? = nil) {
        slots.append(Slot(event: event, waiter: waiter))
    }

    /// Writes every event whose names are known, in order.
    mutating func flush(_ write: (TraceEvent) throws -> Void) rethrows {
        while let front = slots.first {
            if let w = front.waiter, !w.settled {
                guard slots.count > Self.capacity else { return }
                w.settled = true
                writtenEarly += 1
            }
            slots.removeFirst()
            try write(Self.resolved(front))
        }
    }

    /// Writes everything (the end of the log): waits never named are written as unknown.
    mutating func flushAll(_ write: (TraceEvent) throws -> Void) rethrows {
        while let front = slots.first {
            front.waiter?.settled = true
            slots.removeFirst()
            try write(Self.resolved(front))
        }
    }

    private static func resolved(_ slot: Slot) -> TraceEvent {
        guard let w = slot.waiter else { return slot.event }
        var e = slot.event
        let board = w.board ?? ""
        switch e.body {
        case let .activationRequested(_, source, input):
            e.body = .activationRequested(board: board, source: source, input: input ?? (w.inputKnown ? w.input : nil))
        case let .barrierChecked(_, barrier, scope, result):
            e.body = .barrierChecked(board: board, barrier: barrier, scope: scope, result: result)
        case let .gatewayChecked(_, barrier, result):
            e.body = .gatewayChecked(board: board, barrier: barrier, result: result)
        default:
            break
        }
        if w.board == nil { e.extra["waiter"] = "unknown" }
        return e
    }
}
