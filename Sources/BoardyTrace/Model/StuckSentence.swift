extension TraceEvent {
    /// A `stuck` barrier event in a sentence: who waits, behind which gate, and what the gate
    /// did: "`pub.Dashboard` waits behind `pub.Auth`'s barrier (in main); `pub.Auth` was
    /// activated at line 812 and never completed". A trace ingested from a Boardy log names
    /// lines (`line`, `gateLine`, `waitLines`), inputs of waiters the log never named (`inputs`), how many
    /// activations the barrier holds (`held`, when more than the boards named), whether
    /// the gate ran (`gateActivated`), and for a gateway run the boards inside it that never
    /// completed (`gateway`, `innerGates`); a recorded trace says what it knows. Nil for any
    /// other event.
    public var stuckSentence: String? {
        guard case let .stuckBarrier(barrier, gate, waiting) = body else { return nil }
        let inputs = extra["inputs"]?.arrayValue
        let waitLines = extra["waitLines"]?.arrayValue
        let who = waiting.enumerated().map { i, board -> String in
            if !board.isEmpty { return "`\(board)`" }
            let input = inputs.flatMap { i < $0.count ? $0[i].stringValue : nil }
            let waitLine = waitLines.flatMap { i < $0.count ? $0[i].intValue : nil } ?? extra["line"]?.intValue
            return "a board the log does not name (activated with \(input.map { "`\($0)`" } ?? "no option")\(waitLine.map { " from line \($0)" } ?? ""))"
        }
        let list: String
        switch who.count {
        case 0: list = "nothing"
        case 1: list = who[0]
        default: list = who.dropLast().joined(separator: ", ") + " and " + who.last!
        }
        var verb = who.count == 1 ? "waits" : "wait"
        // Activations held beyond one per board named (a board activated again while it waits).
        if let held = extra["held"]?.intValue, held > who.count { verb += ", with \(held) activations held," }
        let activated = extra["gateActivated"]?.boolValue
        let gateLine = extra["gateLine"]?.intValue
        func state(_ name: String) -> String {
            switch activated {
            case false?: return "\(name) was never activated"
            case true?: return "\(name) was activated\(gateLine.map { " at line \($0)" } ?? "") and never completed"
            case nil: return "\(name) never completed"
            }
        }
        // A run that waits on itself: Boardy deadlocks there (a gateway loop recurses, nesting
        // a run in a run, until the app crashes).
        var loopNote = ""
        if extra["loop"]?.boolValue == true {
            let depth = extra["loopDepth"]?.intValue
            loopNote = "barrier loop: it waits on itself" + (depth.map { ", nested \($0) times before the log ends" } ?? "") + "; "
        }
        if extra["gateway"]?.boolValue == true {
            let destination = gate.hasSuffix(BoardID.gatewaySuffix) ? String(gate.dropLast(BoardID.gatewaySuffix.count)) : gate
            var text = loopNote + "\(list) \(verb) behind the gateway for `\(destination)` (in \(mb)); " + state("its proxy `\(gate)`")
            let inner = (extra["innerGates"]?.arrayValue ?? []).compactMap { g -> String? in
                guard let b = g["board"]?.stringValue else { return nil }
                return "`\(b)` was activated\(g["line"]?.intValue.map { " at line \($0)" } ?? "") and never completed"
            }
            if !inner.isEmpty { text += "; inside it " + inner.joined(separator: ", ") }
            return text
        }
        _ = barrier
        return loopNote + "\(list) \(verb) behind `\(gate)`'s barrier (in \(mb)); " + state("`\(gate)`")
    }
}
