import BoardyTrace

/// What a Boardy debug log can say of a run, and whether two traces say the same of it: the
/// check that a run's log, ingested, tells what its recorded trace tells.
///
/// Both traces are reduced to the steps Boardy's log shows: requests, activations, outputs,
/// completions and commands, each with its motherboard and board, in order. Left out, on both
/// sides: Boardy's own machinery (gateway proxies `X.___GATEWAY___` and barrier boards
/// `…___PRIVATE_BARRIER___`, which the engine does not have as boards); commands and outside
/// completions that reached no installed board (Boardy stops a DEBUG build there, printing
/// nothing), commands sent by a board that has no motherboard any more, and a flow action going
/// on out of a continuous board (the recorder's output of the board, a log's `forward`).
///
/// Motherboards are compared as Boardy's log names them (a root by its id, any other as
/// `<board>.continuous-main`): two motherboards named alike (a continuous board installed in two
/// places, a gateway run nested in a run for the same destination) print the same id, and no
/// reading of the log can tell them apart. An activation the engine cancelled for an input of the wrong type is an
/// activation here: Boardy logs it, then stops in the board.
public enum LogRoundTrip {
    /// One step of a run, as a log can show it.
    public struct Step: Hashable, Sendable, CustomStringConvertible {
        /// `activation.requested`, `activation.performed`, `output.sent`, `board.completed` or
        /// `command.sent`.
        public var kind: String
        /// The motherboard path (empty where the log does not say: a board that sent with no
        /// motherboard, of an id seen in several).
        public var mb: String
        /// The board (empty where the log does not name it).
        public var board: String
        /// The event's `seq` in its own trace.
        public var seq: Int

        /// The id Boardy's log names the motherboard by: a root's id, `<board>.continuous-main`
        /// for the motherboard inside a continuous board (or a gateway run's proxy).
        public var loggedMotherboard: String {
            let path = MotherboardPath(mb)
            guard !path.isRoot, let last = path.components.last else { return MotherboardPath.decode(mb) }
            return MotherboardPath.decode(last) + ".continuous-main"
        }

        public var description: String { "\(kind) \(board.isEmpty ? "<unnamed>" : board) in \(mb) (seq \(seq))" }

        /// Whether two steps say the same (a board the log does not name matches any board).
        func matches(_ other: Step) -> Bool {
            kind == other.kind && (mb.isEmpty || other.mb.isEmpty || loggedMotherboard == other.loggedMotherboard)
                && (board == other.board || board.isEmpty || other.board.isEmpty)
        }
    }

    /// The steps of `events` a Boardy log can show, in order.
    public static func steps(of events: some Sequence<TraceEvent>) -> [Step] {
        var out: [Step] = []
        // Flow actions sent, by seq: a continuous board's output caused by one sent in its own
        // motherboard is the action going on (a `forward` in a log's trace), not an output.
        var flowActions: [Int: String] = [:]
        for e in events {
            if case .outputSent(let b, _) = e.body, e.extra["flowAction"] == .bool(true) {
                let path = MotherboardPath(e.mb)
                if let c = e.cause, let inner = flowActions[c], MotherboardPath(inner).parent == path, MotherboardPath(inner).owner == b {
                    flowActions[e.seq] = e.mb
                    continue
                }
                flowActions[e.seq] = e.mb
            }
            let kind: String
            let board: String
            switch e.body {
            case .activationRequested(let b, _, _):
                (kind, board) = (EventKind.activationRequested.rawValue, b)
            case .activationPerformed(let b, _):
                (kind, board) = (EventKind.activationPerformed.rawValue, b)
            case .activationCancelled(let b, let reason) where reason == .invalidInput:
                (kind, board) = (EventKind.activationPerformed.rawValue, b)
            case .outputSent(let b, _):
                (kind, board) = (EventKind.outputSent.rawValue, b)
            case .boardCompleted(let b, _):
                (kind, board) = (EventKind.boardCompleted.rawValue, b)
            case .commandSent(let b, _):
                (kind, board) = (EventKind.commandSent.rawValue, b)
            default:
                continue
            }
            if e.extra["delivered"] == .bool(false) { continue }
            // A command from a board with no motherboard reaches nobody (its log shows no
            // interaction).
            if kind == EventKind.commandSent.rawValue, e.extra["dropped"] != nil { continue }
            if board.contains(BoardID.gatewayComponent) || board.contains(BoardID.privateBarrierComponent) { continue }
            out.append(Step(kind: kind, mb: e.mb, board: board, seq: e.seq))
        }
        return out
    }

    /// Where the log's steps (`ingested`) first differ from the recorded ones (`recorded`): nil
    /// when they say the same; otherwise a report with the steps around the difference.
    public static func firstDifference(recorded: [Step], ingested: [Step]) -> String? {
        let n = min(recorded.count, ingested.count)
        var i = 0
        while i < n, recorded[i].matches(ingested[i]) { i += 1 }
        if i == n && recorded.count == ingested.count { return nil }
        func window(_ s: [Step]) -> String {
            let lo = max(0, i - 3), hi = min(s.count, i + 4)
            return (lo..<hi).map { ($0 == i ? "> " : "  ") + s[$0].description }.joined(separator: "\n")
        }
        return """
            step \(i + 1) differs (recorded \(recorded.count) steps, ingested \(ingested.count)):
            recorded:
            \(window(recorded))
            ingested from the log:
            \(window(ingested))
            """
    }
}

extension LogRoundTrip {
    /// What in a recorded run Boardy's log cannot tell apart, if anything:
    /// - motherboards named alike (two paths that print the same id);
    /// - two runs of one activation barrier open at once in one motherboard (an `.application`
    ///   and a `.mainboard` barrier of one gate, or a run superseded while completing): their
    ///   barrier boards print the same id, so which run a wait joins, and so which waiter a
    ///   release is, is not in the log.
    ///
    /// Where there is one, a log can still be checked with ``sameSteps(recorded:ingested:)``.
    public static func ambiguities(ofRecorded events: some Sequence<TraceEvent>) -> [String] {
        var reasons: [String] = []
        var byLoggedID: [String: Set<String>] = [:]
        var kinds: [Int: EventKind] = [:]
        var gatewayBoards: [Int: String] = [:]
        var open: [String: Int] = [:]
        var twoRuns: Set<String> = []
        for e in events {
            let step = Step(kind: "", mb: e.mb, board: "", seq: e.seq)
            byLoggedID[step.loggedMotherboard, default: []].insert(e.mb)
            if let k = e.eventKind { kinds[e.seq] = k }
            switch e.body {
            case .gatewayChecked(let board, _, _):
                gatewayBoards[e.seq] = board
            case .barrierStarted(let barrier, _):
                // An activation barrier's run, or a gateway run (one per destination).
                guard let c = e.cause, kinds[c] == .barrierChecked || gatewayBoards[c] != nil else { continue }
                let key = e.mb + " " + barrier + " " + (gatewayBoards[c] ?? "")
                if open[key, default: 0] > 0 { twoRuns.insert(barrier) }
                open[key, default: 0] += 1
            case .barrierResolved(let barrier, _, _):
                // Runs of one barrier resolve in the order they started.
                if let key = open.keys.filter({ $0.hasPrefix(e.mb + " " + barrier + " ") && open[$0, default: 0] > 0 }).sorted().first {
                    open[key]! -= 1
                }
            default:
                break
            }
        }
        for (id, paths) in byLoggedID.sorted(by: { $0.key < $1.key }) where paths.count > 1 {
            reasons.append("motherboards named alike (\(id)): \(paths.sorted().joined(separator: ", "))")
        }
        for b in twoRuns.sorted() { reasons.append("two runs of barrier \(b) open at once in one motherboard") }
        return reasons
    }

    /// Whether the two traces show the same activations, outputs, completions and commands,
    /// each as many times, with motherboards as the log names them (order and requests aside):
    /// what a log with ``ambiguities(ofRecorded:)`` can still be held to.
    public static func sameSteps(recorded: [Step], ingested: [Step]) -> Bool {
        var left: [String: Int] = [:]
        for s in recorded where s.kind != EventKind.activationRequested.rawValue {
            left[s.kind + " " + s.loggedMotherboard + " " + s.board, default: 0] += 1
        }
        // Steps whose motherboard the log does not say match any motherboard, after the others.
        var unplaced: [Step] = []
        for s in ingested where s.kind != EventKind.activationRequested.rawValue {
            if s.mb.isEmpty {
                unplaced.append(s)
                continue
            }
            let k = s.kind + " " + s.loggedMotherboard + " " + s.board
            guard let n = left[k], n > 0 else { return false }
            left[k] = n - 1
        }
        for s in unplaced {
            guard let k = left.keys.sorted().first(where: { $0.hasPrefix(s.kind + " ") && $0.hasSuffix(" " + s.board) && left[$0]! > 0 }) else { return false }
            left[k]! -= 1
        }
        return left.values.allSatisfy { $0 == 0 }
    }
}
