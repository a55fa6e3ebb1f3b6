import BoardyCore

/// The verdict on one `expect` entry.
public struct ExpectationResult: Sendable {
    /// The entry, as written in the scenario (`performed pubReceipt times 1`).
    public var expectation: String
    /// Whether it holds.
    public var passed: Bool
    /// What the trace shows, when it does not.
    public var detail: String
}

extension Expectation {
    /// A short spelling of the entry.
    public var summary: String {
        switch self {
        case let .performed(b, times, at, input):
            var s = "performed \(b)"
            if let times { s += " times \(times)" }
            if let at { s += " at \(at)" }
            if let input { s += " input \(input.jsonText)" }
            return s
        case let .never(b, cancelled): return "never \(b)" + (cancelled ? " (cancelled)" : "")
        case let .stuck(v): return "stuck \(v)"
        case let .loop(v): return "loop \(v)"
        case let .sent(d, n): return "sent \(d) events \(n)"
        }
    }

    /// Checks the entry against a run's events; a failure says what was expected and what the
    /// trace shows instead.
    public func check(_ events: [TraceEvent]) -> ExpectationResult {
        let tally = ExpectationRecorder(for: [self])
        for e in events { tally.record(e) }
        return tally.results()[0]
    }
}

extension TraceEvent.Body {
    var cancelReason: String? {
        if case let .activationCancelled(_, r) = self { return r.rawValue }
        return nil
    }
}

/// Checks an `expect` list while a run records its events: it keeps counts and the few events
/// a message quotes, never the trace, so `test` checks a run of any length (a runaway stopped at
/// ten million events) in bounded memory. ``Expectation/check(_:)`` uses it too, so both give
/// the same verdicts and messages.
public final class ExpectationRecorder: TraceObserver, @unchecked Sendable {
    // `@unchecked Sendable` because TraceObserver requires Sendable: it is safe as the engine's
    // own state is, by confinement. Only the thread that drives the run calls `record`, and
    // `results()` is read after the run returns, on the same thread.
    private let expectations: [Expectation]
    /// The first few lifecycle events of each board an expectation names, formatted only when
    /// a message quotes them.
    private var lifecycle: [String: [(seq: Int, t: TraceTime, kind: String, reason: String?)]] = [:]
    private var performedAll: [String: Int] = [:]
    private var performedMatching: [Int]
    private var firstPerformed: [String: (seq: Int, t: TraceTime)] = [:]
    private var cancelled = Set<String>()
    private var stuck: [String] = []
    private var loops: [String] = []
    private var sent: [String: Int] = [:]
    private var held: [String: Int] = [:]
    private let boards: Set<String>
    /// Messages quote at most this many stuck barriers or loops.
    static let quoted = 100

    /// Everything it counted so far: an explorer keeps it at each choice point, and a run that
    /// shares the prefix starts from it instead of counting those events again.
    struct State {
        var lifecycle: [String: [(seq: Int, t: TraceTime, kind: String, reason: String?)]]
        var performedAll: [String: Int]
        var performedMatching: [Int]
        var firstPerformed: [String: (seq: Int, t: TraceTime)]
        var cancelled: Set<String>
        var stuck: [String]
        var loops: [String]
        var sent: [String: Int]
        var held: [String: Int]
    }

    var state: State {
        get {
            State(
                lifecycle: lifecycle, performedAll: performedAll, performedMatching: performedMatching, firstPerformed: firstPerformed,
                cancelled: cancelled, stuck: stuck, loops: loops, sent: sent, held: held)
        }
        set {
            lifecycle = newValue.lifecycle
            performedAll = newValue.performedAll
            performedMatching = newValue.performedMatching
            firstPerformed = newValue.firstPerformed
            cancelled = newValue.cancelled
            stuck = newValue.stuck
            loops = newValue.loops
            sent = newValue.sent
            held = newValue.held
        }
    }

    /// A recorder for `expectations`.
    public init(for expectations: [Expectation]) {
        self.expectations = expectations
        performedMatching = Array(repeating: 0, count: expectations.count)
        boards = Set(expectations.compactMap { e -> String? in
            switch e {
            case let .performed(b, _, _, _), let .never(b, _): return b.rawValue
            default: return nil
            }
        })
    }

    public func record(_ e: consuming TraceEvent) { observe(e) }

    /// Counts `e` without taking it (an explorer reads a step's events where they lie).
    func observe(_ e: borrowing TraceEvent) {
        switch e.body {
        case let .stuckBarrier(b, g, w):
            if stuck.count < Self.quoted { stuck.append("\(b) (gate \(g), waiting: \(w.joined(separator: ", ")))") }
        case let .barrierLoop(_, c):
            if loops.count < Self.quoted { loops.append(c.joined(separator: " → ")) }
        case let .dispatchSent(d, n, _): sent[d, default: 0] += n
        case let .stuckDispatcher(d, w): held[d] = w.count
        case .activationRequested, .activationCancelled, .activationPerformed, .gatewayChecked, .barrierChecked:
            guard !boards.isEmpty, let board = e.body.board, boards.contains(board) else { return }
            if lifecycle[board, default: []].count < 6 {
                lifecycle[board, default: []].append((e.seq, e.t, e.kind, e.body.cancelReason))
            }
            switch e.body {
            case .activationCancelled: cancelled.insert(board)
            case let .activationPerformed(_, actual):
                performedAll[board, default: 0] += 1
                if firstPerformed[board] == nil { firstPerformed[board] = (e.seq, e.t) }
                for (i, x) in expectations.enumerated() {
                    guard case let .performed(b, _, at, input) = x, b.rawValue == board else { continue }
                    if let at, e.t != at { continue }
                    if let input, actual != input { continue }
                    performedMatching[i] += 1
                }
            default: break
            }
        default: break
        }
    }

    /// The verdict on each expectation, in order.
    public func results() -> [ExpectationResult] {
        expectations.enumerated().map { i, x in
            func result(_ ok: Bool, _ detail: @autoclosure () -> String) -> ExpectationResult {
                ExpectationResult(expectation: x.summary, passed: ok, detail: ok ? "" : detail())
            }
            func story(_ board: BoardID) -> String {
                let lines = (lifecycle[board.rawValue] ?? []).map { "seq \($0.seq) t=\($0.t) \($0.kind)" + ($0.reason.map { " (\($0))" } ?? "") }
                return lines.isEmpty ? "the trace never mentions \(board)" : lines.joined(separator: "; ")
            }
            switch x {
            case let .performed(board, times, _, _):
                let matching = performedMatching[i]
                let ok = times.map { matching == $0 } ?? (matching > 0)
                let count = "\(matching) matching time\(matching == 1 ? "" : "s")"
                return result(ok, "expected \(x.summary); the trace shows \(count) (\(performedAll[board.rawValue] ?? 0) in all): \(story(board))")
            case let .never(board, wantCancelled):
                if let first = firstPerformed[board.rawValue] {
                    return result(false, "expected \(board) never to run; it ran at seq \(first.seq) (t=\(first.t))")
                }
                return result(
                    !wantCancelled || cancelled.contains(board.rawValue),
                    "expected a cancellation of \(board); the trace shows none: \(story(board))")
            case let .stuck(expected):
                return result(
                    !stuck.isEmpty == expected,
                    expected ? "expected a stuck barrier; the run ended with none" : "expected nothing stuck; stuck: \(stuck.joined(separator: "; "))")
            case let .loop(expected):
                return result(
                    !loops.isEmpty == expected,
                    expected ? "expected a barrier loop; none was recorded" : "expected no loop; recorded: \(loops.joined(separator: "; "))")
            case let .sent(dispatcher, n):
                let total = sent[dispatcher] ?? 0
                var detail = "expected \(n) events sent to \(dispatcher); the trace shows \(total)"
                if let h = held[dispatcher] { detail += " (\(h) still held at the end)" }
                return result(total == n, detail)
            }
        }
    }
}
