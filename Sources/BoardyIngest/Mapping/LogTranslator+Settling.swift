// LogTranslator: the decisions that wait for the next record, and the end of the log (what is stuck).

import BoardyTrace

extension LogTranslator {
    // MARK: The end of the log

    /// The end of the log: what waits is `stuck`, everything is written.
    func finish(stuckAt t: TraceTime) throws -> [StuckReport] {
        lastTime = max(lastTime, t)
        _ = try settleDeferred(with: nil)
        var reports: [StuckReport] = []
        // Releases never seen: the waits they name stay as they are.
        for (path, queues) in releases.sorted(by: { $0.key < $1.key }) {
            for r in queues.joined() {
                observations.append(.init(place: r.waiter.place, message: "released by \(r.barrier) in \(path), but its activation never appears in the log"))
            }
        }
        releases = [:]
        var loopReported: Set<String> = []
        for e in (Array(episodes.values) + completing.values.joined()).sorted(by: { ($0.opened.file, $0.opened.line) < ($1.opened.file, $1.opened.line) }) {
            // A loop is reported once, by its first run: the runs nested in it are the loop.
            if e.loop, let b = e.waiters.first?.name.board {
                guard loopReported.insert(b).inserted else {
                    for w in e.waiters where w.name.board == nil { w.name.settled = true }
                    continue
                }
            }
            // The boards waiting, each once (a board activated twice behind one gate is one
            // board waiting, with two activations held); a waiter the log never named is its
            // own entry, since two of them may be different boards.
            var waiting: [String] = []
            var inputs: [JSONValue] = []
            var lines: [JSONValue] = []
            for w in e.waiters {
                if let b = w.name.board {
                    if !waiting.contains(b) {
                        waiting.append(b)
                        inputs.append(.null)
                        lines.append(.int(Int64(w.place.line)))
                    }
                } else {
                    waiting.append("")
                    inputs.append(w.inputKnown ? (w.inputDescription.map { JSONValue.string($0) } ?? .null) : .null)
                    lines.append(.int(Int64(w.place.line)))
                }
            }
            var extra: JSONObject = ["line": .int(Int64(e.opened.line))]
            if multipleFiles { extra["file"] = .int(Int64(e.opened.file)) }
            if waiting.contains("") { extra["inputs"] = .array(inputs) }
            extra["waitLines"] = .array(lines)
            extra["held"] = .int(Int64(e.waiters.count))
            if let p = e.gatePlace { extra["gateLine"] = .int(Int64(p.line)) }
            extra["gateActivated"] = .bool(e.gatePerformed != nil)
            if e.loop {
                extra["loop"] = true
                if let b = e.waiters.first?.name.board, let n = loops[b], n > 1 { extra["loopDepth"] = .int(Int64(n)) }
            }
            if e.isGateway {
                extra["gateway"] = true
                let inner = e.path + "/" + MotherboardPath.encode(e.gate)
                let gates = (open[inner] ?? [:]).sorted { ($0.value, $0.key) < ($1.value, $1.key) }
                if !gates.isEmpty {
                    extra["innerGates"] = .array(gates.map { ["board": .string($0.key), "line": .int(Int64($0.value))] })
                }
            }
            let body = TraceEvent.Body.stuckBarrier(barrier: e.barrier, gate: e.gate, waiting: waiting)
            let cause = e.lastCheck == 0 ? nil : e.lastCheck
            let seq = emit(e.path, cause: cause, body, extra: extra, inferred: false)
            let event = TraceEvent(seq: seq, t: lastTime, mb: logged(e.path), cause: cause, body: body, extra: extra)
            let report = StuckReport(
                seq: seq, path: logged(e.path), barrier: e.barrier, gate: e.gate, gateway: e.isGateway,
                waiting: e.waiters.map { w in StuckReport.Waiter(board: w.name.board, input: w.inputKnown ? w.inputDescription : nil, line: w.place.line) },
                openedLine: e.opened.line, gateLine: e.gatePlace?.line, gateActivated: e.gatePerformed != nil, sentence: event.stuckSentence ?? "")
            reports.append(report)
            for w in e.waiters where w.name.board == nil { w.name.settled = true }
        }
        episodes = [:]
        completing = [:]
        try window.flushAll(write)
        return reports
    }

    // MARK: Deciding with the next record

    /// Settles the decision the previous record left, with `next` (nil at the end of the log).
    /// Returns whether `next` was taken up by it.
    func settleDeferred(with next: LogItem?) throws -> Bool {
        guard let d = deferred else { return false }
        deferred = nil
        switch d {
        case let .activation(path, board, input, cause, extra, _, time, noBoard):
            if noBoard {
                var x = extra
                var took = false
                if case .warning(let w)? = next, w.text.hasPrefix("⚠️ [NoBoard]") {
                    x["detail"] = .string(w.text)
                    took = true
                }
                emit(path, cause: cause, .activationCancelled(board: board, reason: .unregistered), extra: x, at: time)
                return took
            }
            if case .warning(let w)? = next, Descriptions.busyBoard(w.text) == board {
                var x = extra
                x["detail"] = .string(w.text)
                emit(path, cause: cause, .activationCancelled(board: board, reason: .busy), extra: x, at: time)
                return true
            }
            let seq = emit(path, cause: cause, .activationPerformed(board: board, input: input), extra: extra, at: time)
            lastActivated = (path, board, seq)
            if active[board]?.last != path { active[board, default: []].append(path) }
            if case .int(let line)? = extra["line"] { open[path, default: [:]][board] = Int(line) }
            for e in episodes.values where e.path == path && e.gate == board && e.gateRequest != nil && e.gatePerformed == nil { e.gatePerformed = seq }
            if let destination = Descriptions.gatewayDestination(board), let e = episodes[key(path, destination + BoardID.gatewaySuffix + BoardID.privateBarrierSuffix)] {
                e.gatePerformed = seq
                // `⏩ … bypassed by X.___GATEWAY___`: an exempt id's proxy passes at once.
                if case .note(let n)? = next, n.text.hasPrefix("⏩"), n.text.hasSuffix(" " + board) {
                    e.exempt = true
                    var fields = JSONObject()
                    fields["message"] = .string(n.text)
                    emit(path, cause: seq, .unknown(kind: EventKind.logNote.rawValue, fields: fields), extra: placeExtra(n.place))
                    return true
                }
            }
            return false
        case let .command(path, board, command, cause, extra, time):
            var x = extra
            if case .record(let r)? = next, r.kind == .interaction, r.destination?.value == board {
                if let t = r.destination?.type { x["boardType"] = .string(t) }
                x["interactionLine"] = .int(Int64(r.place.line))
                homes[board] = path
                let seq = emit(path, cause: cause, .commandSent(board: board, command: command), extra: x, at: time)
                lastActivated = (path, board, seq)
                return true
            }
            x["delivered"] = false
            emit(path, cause: cause, .commandSent(board: board, command: command), extra: x, at: time)
            return false
        case let .completion(path, board, success, cause, extra, time):
            var x = extra
            var took = false
            if case .warning(let w)? = next, w.text.contains("[Already removed] ➤ Board \(board) is not installed") {
                x["delivered"] = false
                x["reason"] = "not-installed"
                took = true
            }
            let seq = emit(path, cause: cause, .boardCompleted(board: board, success: success), extra: x, at: time)
            if !took, let i = active[board]?.lastIndex(of: path) {
                active[board]?.remove(at: i)
                if active[board]?.isEmpty == true { active[board] = nil }
            }

            for e in episodes.values where e.path == path && e.gate == board && e.gateRequest != nil && e.gateCompleted == nil { e.gateCompleted = seq }
            open[path]?[board] = nil
            if !took, lastActivated?.board == board, lastActivated?.path == path { lastActivated = nil }
            return took
        case let .send(event, board, data):
            var e = event
            var took = false
            if case .warning(let w)? = next, w.text.contains("] [\(board)] sent a message"), w.text.contains("seems to have no Motherboards") {
                e.extra["dropped"] = "no-motherboard"
                took = true
            }
            let seq = emit(e.mb, cause: e.cause, e.body, extra: e.extra, at: e.t)
            if case .boardCompleted(let completed, _) = e.body {
                for ep in episodes.values where ep.path == e.mb && ep.gate == completed && ep.gateRequest != nil && ep.gateCompleted == nil { ep.gateCompleted = seq }
            }
            if e.extra["flowAction"] == .bool(true) {
                lastBroadcast = (e.mb, board, seq, data ?? "")
            }
            return took
        case let .gateway(path, board, proxy, request, place, _):
            try settleGateway(path: path, board: board, proxy: proxy, request: request, place: place, next: next)
            return false
        case let .barrierWait(w):
            settleBarrierWait(w, next: next)
            return false
        case let .barrierCompletion(k, path, place):
            var candidates = (completing[k] ?? []) + (episodes[k].map { [$0] } ?? [])
            var chosen = 0
            if case .record(let n)? = next, n.kind == .activation, let dst = n.destination?.value {
                let input = Descriptions.bare(n.data?.value)
                let isBarrier = Descriptions.barrier(dst) != nil
                if let i = candidates.firstIndex(where: { e in
                    guard let w = e.waiters.first, e.gateResult ?? true || e.exempt else { return false }
                    if isBarrier { return e.isGateway && (!w.inputKnown || Descriptions.bare(w.inputDescription) == input) }
                    let named = w.name.board.map { $0 == dst } ?? true
                    return named && (w.name.board != nil || !w.inputKnown || Descriptions.bare(w.inputDescription) == input)
                }) {
                    chosen = i
                }
            }
            let e = candidates.remove(at: chosen)
            if let open = episodes[k], open === e { episodes[k] = nil } else { completing[k]?.removeAll { $0 === e } }
            if completing[k]?.isEmpty == true { completing[k] = nil }
            try resolve(e, path: path, place: place)
            return false
        }
    }

    func settleGateway(path: String, board: String, proxy: String, request: Request?, place: LogPlace, next: LogItem?) throws {
        let barrierBoard = proxy + BoardID.privateBarrierSuffix
        if case .record(let r)? = next, case .activity("Next To Board") = r.kind, r.source?.value == barrierBoard {
            // A new run: the next record reads it, with this request.
            if let request {
                pendingGatewayRequest = request
            } else {
                let gw = r.data.flatMap { Descriptions.gatewayInput($0.value) }
                let input = gw.map { g in g.option.map { JSONValue.string($0) } } ?? nil
                let seq = emit(path, cause: nil, .activationRequested(board: board, source: nil, input: input), extra: placeExtra(place))
                pendingGatewayRequest = Request(path: path, board: board, input: gw?.option, seq: seq, source: "")
            }
            return
        }
        // A release of this board's earlier wait may come right after (its run resolved in the
        // same step): then this request waits, it did not go through.
        let releasePending = (releases[path] ?? []).joined().contains { $0.waiter.name.board == board || $0.waiter.name.board == nil }
        if case .record(let r)? = next, r.kind == .activation, let dst = r.destination?.value,
            dst == board || Descriptions.barrier(dst) != nil, !releasePending || episodes[key(path, barrierBoard)] == nil
        {
            // The activation went through (a board that bypasses the gateway): it reads on as
            // an activation, with this request.
            var x = placeExtra(place)
            x["proxy"] = .string(proxy)
            if let request {
                emit(path, cause: request.seq, .gatewayChecked(board: board, barrier: MotherboardPath.encode(proxy), result: .bypass), extra: x)
                lastRequest = request
            } else {
                emit(path, cause: nil, .gatewayChecked(board: board, barrier: MotherboardPath.encode(proxy), result: .bypass), extra: x)
            }
            return
        }
        // Anything else: the activation joined the run that is open for this board (one this log
        // did not see start, if none: a gate waiting on its own gateway shows only this record).
        let e: Episode
        if let open = episodes[key(path, barrierBoard)] {
            e = open
        } else {
            e = Episode(path: path, barrierBoard: barrierBoard, gate: proxy, barrier: MotherboardPath.encode(proxy), destination: board, opened: place)
            episodes[key(path, barrierBoard)] = e
        }
        do {
            let name = WaiterName(board: board, input: nil, inputKnown: request != nil)
            if let request { name.input = request.input.map { JSONValue.string($0) } }
            let requestSeq = request?.seq ?? emit(path, cause: nil, .activationRequested(board: board, source: nil, input: nil), extra: placeExtra(place), waiter: name.settled ? nil : name)
            let check = emit(path, cause: requestSeq, .gatewayChecked(board: board, barrier: e.barrier, result: .wait), extra: placeExtra(place))
            e.lastCheck = check
            e.waiters.append(Waiter(path: path, name: name, inputDescription: request?.input, inputKnown: request != nil, requestSeq: requestSeq, checkSeq: check, place: place))
            checkLoop(e, board: board, path: path, requestSeq: requestSeq, place: place)
        }
    }
}

/// What waits at the end of a log: a barrier, its gate, and the boards waiting behind it.
public struct StuckReport: Sendable, Hashable {
    /// A board waiting behind the barrier.
    public struct Waiter: Sendable, Hashable {
        /// The board, where the log names it.
        public var board: String?
        /// Its input as printed, where the log shows it.
        public var input: String?
        /// The log line where its wait was read.
        public var line: Int
    }

    /// The `seq` of the `stuck` event.
    public var seq: Int
    /// The motherboard the barrier lives in.
    public var path: String
    /// The barrier's name in the trace.
    public var barrier: String
    /// The gate (for a gateway run, its proxy board).
    public var gate: String
    /// Whether it is a gateway run.
    public var gateway: Bool
    /// Who waits, in request order.
    public var waiting: [Waiter]
    /// The log line where the first wait was read.
    public var openedLine: Int
    /// The log line where the gate was activated, if it was.
    public var gateLine: Int?
    /// Whether the gate was activated at all.
    public var gateActivated: Bool
    /// What waits, in a sentence (`TraceEvent.stuckSentence` in BoardyTrace).
    public var sentence: String
}
