import BoardyTrace
import DequeModule

/// Turns Boardy's records, in the order they were printed, into trace events: one rule per
/// record kind (docs/contract.md §2.6), with what Boardy's log says about barriers read back
/// into waits, gate runs, releases and failures.
///
/// What it keeps between records is bounded by what is open in the app: barrier runs not yet
/// resolved, releases not yet seen, the motherboards' paths. A decision that needs the record
/// after this one (a busy task board's refusal, a command's interaction, a gateway's wait or
/// pass, an exempt id) waits for exactly one record.
final class LogTranslator {
    // MARK: Output

    var window = EventWindow()
    private var lastSeq = 0
    var lastTime = TraceTime.zero
    let write: (TraceEvent) throws -> Void
    /// Whether events carry `file` (several captures were read as one).
    var multipleFiles = false

    // MARK: What the log has told so far

    /// A motherboard's id → its path in the trace.
    var paths: [String: String] = [:]
    /// A board → the path of the motherboard it was last seen in.
    var homes: [String: String] = [:]
    /// Ids known to be motherboards (a record's 🏝 of an activation, a 🌏).
    private var motherboards: Set<String> = []
    /// The last `activation.performed`: what a board sends while it is the last one activated
    /// is its doing.
    var lastActivated: (path: String, board: String, seq: Int)?
    /// A `Next To Board` read in the record just before this one (cleared after each record).
    var lastRequest: Request?
    /// Barrier runs not resolved yet, by motherboard path and barrier board id.
    var episodes: [String: Episode] = [:]
    /// Runs whose gate is done but whose barrier board has not completed yet, while a new run of
    /// the same barrier board started: they resolve first, in order.
    var completing: [String: [Episode]] = [:]
    /// Activations a resolved barrier will release, per motherboard path, in order.
    /// One queue per resolved run, innermost last: a release's own work can resolve another
    /// barrier, whose releases then come before the rest of the first one's.
    var releases: [String: [Deque<Release>]] = [:]
    /// The last flow action seen, to read the hops that relay it.
    var lastBroadcast: (path: String, board: String, seq: Int, data: String)?
    /// ``records`` when the last motherboard relayed a flow action to itself.
    private var relayRecord = -1
    /// Per board, the runs (motherboard and gate) it was activated straight past.
    var notGated: [String: Set<String>] = [:]
    /// The board that likely owns a motherboard not named `<board>.continuous-main`.
    var ownerGuess: [String: String] = [:]
    /// A decision waiting for the next record.
    var deferred: Deferred?
    /// The `barrier.resolved` of the run whose barrier board completed in the record before
    /// this one (its first release is this record), and how many records ago.
    var justResolved: Int?
    var justResolvedAge = 0
    /// The gate each board was seen waiting on (its activation barrier's gate).
    var gateOf: [String: String] = [:]
    /// Boards found waiting on their own barrier (a barrier loop), with how often: Boardy does
    /// not detect a loop; a gateway loop recurses until the app crashes.
    private(set) var loops: [String: Int] = [:]
    private var loopOrder: [String] = []
    /// ``loops`` in the order they were found.
    var loopsInOrder: [(board: String, waits: Int)] { loopOrder.map { ($0, loops[$0] ?? 0) } }

    /// A wait that closes a loop: the board waits inside its own gateway run, or is the gate of
    /// the barrier it waits on. The first time, a `barrier.loop` event says so.
    func checkLoop(_ e: Episode, board: String, path: String, requestSeq: Int, place: LogPlace) {
        let closes: Bool
        if e.isGateway {
            closes = MotherboardPath(path).components.dropFirst().contains(MotherboardPath.encode(board + BoardID.gatewaySuffix))
        } else {
            closes = board == e.gate
        }
        guard closes else { return }
        e.loop = true
        if loops[board] == nil {
            loopOrder.append(board)
            var x = placeExtra(place)
            x["barrierBoard"] = .string(e.barrierBoard)
            emit(path, cause: requestSeq, .barrierLoop(board: board, cycle: [board]), extra: x)
        }
        loops[board, default: 0] += 1
    }

    /// A run a `[Barrier] discarded` warning must leave alone: the one the wait before it started.
    var keepOnDiscard: String?
    /// Boards activated and not completed, per motherboard path, with the line of their
    /// activation (a stuck gateway run names the gate inside its proxy).
    var open: [String: [String: Int]] = [:]

    // MARK: Counts

    private(set) var records = 0
    private(set) var warnings = 0
    private(set) var notes = 0
    /// What the log implies but does not show (a released activation that never appears: the
    /// run was cut off, or the board was gone). Not lines it could not read.
    var observations: [RecordAssembler.Problem] = []

    struct Request {
        let path: String
        let board: String
        let input: String?
        let seq: Int
        let source: String
    }

    struct Waiter {
        /// The motherboard the activation was asked of (where it is released).
        let path: String
        let name: WaiterName
        /// The option's description as printed (nil: no option; unknown when `!inputKnown`).
        let inputDescription: String?
        let inputKnown: Bool
        let requestSeq: Int
        let checkSeq: Int
        let place: LogPlace
    }

    final class Episode {
        let path: String
        let barrierBoard: String
        let gate: String
        /// The barrier's name in the trace (`gate`, `gate:key`; a gateway run: its proxy id).
        let barrier: String
        /// The gated board, for a gateway run.
        let destination: String?
        var waiters: [Waiter] = []
        var lastCheck = 0
        var started: Int?
        var gateRequest: Int?
        var gatePerformed: Int?
        var gatePlace: LogPlace?
        var gateResult: Bool?
        var gateCompleted: Int?
        var exempt = false
        /// Whether the run waits on itself (a barrier loop): reported once, not as stuck.
        var loop = false
        let opened: LogPlace

        init(path: String, barrierBoard: String, gate: String, barrier: String, destination: String?, opened: LogPlace) {
            self.path = path
            self.barrierBoard = barrierBoard
            self.gate = gate
            self.barrier = barrier
            self.destination = destination
            self.opened = opened
        }
        var isGateway: Bool { destination != nil }
    }

    struct Release {
        let waiter: Waiter
        let resolved: Int
        let gateway: Bool
        let barrier: String
        /// The run's gate and barrier board.
        let gate: String
        let barrierBoard: String
    }

    /// What the next record decides.
    enum Deferred {
        /// An activation's `activation.performed`, unless a busy refusal or a "not found" note follows.
        case activation(path: String, board: String, input: JSONValue?, cause: Int?, extra: JSONObject, place: LogPlace, time: TraceTime, noBoard: Bool)
        /// A `Send Command`: one `command.sent` with the `Interaction` that follows.
        case command(path: String, board: String, command: JSONValue, cause: Int?, extra: JSONObject, time: TraceTime)
        /// A gateway proxy installed or found for `board`: the next record says whether the
        /// activation waits (a new run, or one already open) or goes through.
        case gateway(path: String, board: String, proxy: String, request: Request?, place: LogPlace, time: TraceTime)
        /// A completion, unless "Already removed" follows.
        case completion(path: String, board: String, success: Bool, cause: Int?, extra: JSONObject, time: TraceTime)
        /// An activation that waits behind a barrier: which run it joins.
        case barrierWait(BarrierWait)
        /// A barrier board completed while two runs of boards with its id were open: which.
        case barrierCompletion(key: String, path: String, place: LogPlace)
        /// An output, a flow action or a completion from a board with no motherboard, unless
        /// "… seems to have no Motherboards" follows.
        case send(event: TraceEvent, board: String, data: String?)
    }

    init(write: @escaping (TraceEvent) throws -> Void) {
        self.write = write
    }

    // MARK: Reading items

    /// Reads one item at time `t` (seconds on the trace's clock).
    func read(_ item: LogItem, at t: TraceTime) throws {
        lastTime = max(lastTime, t)
        let consumed = try settleDeferred(with: item)
        let previousRequest = lastRequest
        lastRequest = nil
        defer { if justResolvedAge > 0 { justResolved = nil } else { justResolvedAge += 1 } }
        if !consumed {
            switch item {
            case .record(let r):
                records += 1
                try read(record: r, previousRequest: previousRequest)
            case .warning(let w):
                warnings += 1
                try read(warning: w)
            case .note(let n):
                notes += 1
                try read(note: n)
            }
        } else {
            switch item {
            case .record: records += 1
            case .warning: warnings += 1
            case .note: notes += 1
            }
        }
        try window.flush(write)
    }

    // MARK: Events

    @discardableResult
    func emit(
        _ path: String, cause: Int?, _ body: TraceEvent.Body, extra: JSONObject = JSONObject(), inferred: Bool = true, waiter: WaiterName? = nil,
        at time: TraceTime? = nil
    ) -> Int {
        lastSeq += 1
        var x = extra
        if cause != nil, inferred { x["causeInferred"] = true }
        window.append(TraceEvent(seq: lastSeq, t: time ?? lastTime, mb: logged(path), cause: cause, body: body, extra: x), waiter: waiter)
        return lastSeq
    }

    func placeExtra(_ p: LogPlace) -> JSONObject {
        var o: JSONObject = ["line": .int(Int64(p.line))]
        if multipleFiles { o["file"] = .int(Int64(p.file)) }
        return o
    }

    // MARK: Motherboards and boards

    /// The `mb` of an event in the motherboard at `path`: the id the log prints. Inside, a
    /// continuous board's motherboard (`<board>.continuous-main`) is a path under where the
    /// board runs, which is what tells a wait inside its own gateway run, the gates inside a
    /// stuck proxy and a flow action going on up; the trace names it as the log does.
    func logged(_ path: String) -> String {
        guard path.utf8.contains(UInt8(ascii: "/")) else { return path }
        if let name = loggedNames[path] { return name }
        let p = MotherboardPath(path)
        let name = p.components.last.map { MotherboardPath.encode(MotherboardPath.decode($0) + ".continuous-main") } ?? path
        loggedNames[path] = name
        return name
    }

    private var loggedNames: [String: String] = [:]

    func path(ofMotherboard id: String) -> String {
        let inner = ".continuous-main"
        if id.hasSuffix(inner) {
            // A continuous board's motherboard: under the motherboard the board is active in.
            // Two such boards of one id nested in each other print the same id: the innermost
            // one still active is meant (it is the one whose work runs).
            let owner = String(id.dropLast(inner.count))
            if let parent = active[owner]?.last ?? homes[owner] {
                motherboards.insert(id)
                return parent + "/" + MotherboardPath.encode(owner)
            }
        }
        if let p = paths[id] { return p }
        motherboards.insert(id)
        let p = MotherboardPath.encode(id)
        paths[id] = p
        return p
    }

    /// Where each board is active (performed, not completed), innermost last.
    var active: [String: [String]] = [:]

    /// The motherboard of a board that sends with no motherboard (no `🌏` line, its own
    /// completed or released): the one the board was ever seen in, when there is one; when the
    /// log shows the id in several, it does not say which sent, and the motherboard is unknown
    /// (`""`).
    private func orphanPath(_ board: String) -> String {
        guard let seen = seenIn[board], seen.count == 1 else { return "" }
        return seen.first!
    }

    /// The motherboards each board was seen in.
    var seenIn: [String: Set<String>] = [:]

    private func isMotherboard(_ field: LogField) -> Bool {
        motherboards.contains(field.value) || field.type.hasSuffix("Motherboard") || field.value.hasSuffix(".continuous-main")
    }

    /// The cause of what `board` sends in `path`: its activation, when it is the last one.
    private func senderCause(_ path: String, _ board: String) -> Int? {
        guard let a = lastActivated, a.path == path, a.board == board else { return nil }
        return a.seq
    }

    // MARK: Records

    private func read(record r: LogRecord, previousRequest: Request?) throws {
        switch r.kind {
        case .activation:
            try readActivation(r, previousRequest: previousRequest)
        case .interaction:
            guard let src = r.source, let dst = r.destination else { return }
            let path = path(ofMotherboard: src.value)
            var extra = placeExtra(r.place)
            extra["boardType"] = .string(dst.type)
            if let d = r.data { extra["commandType"] = .string(d.type) }
            homes[dst.value] = path
            let seq = emit(path, cause: nil, .commandSent(board: dst.value, command: value(r.data) ?? .null), extra: extra)
            // What the board sends while it handles the command is the command's doing.
            lastActivated = (path, dst.value, seq)
        case .activity(let name):
            try readActivity(name, r, previousRequest: previousRequest)
        case .other(let icon, let name):
            var extra = placeExtra(r.place)
            extra["record"] = .string("\(icon) [\(name)]")
            var fields = JSONObject()
            fields["text"] = .string([r.source, r.motherboard, r.destination, r.data].compactMap { $0.map { "[\($0.type)] ➤ \($0.value)" } }.joined(separator: "\n"))
            emit(r.source.map { path(ofMotherboard: $0.value) } ?? "", cause: nil, .unknown(kind: EventKind.logNote.rawValue, fields: fields), extra: extra)
        }
    }

    func value(_ f: LogField?) -> JSONValue? {
        guard let f else { return nil }
        return Descriptions.json(type: f.type, value: f.value)
    }

    // MARK: Messages a board sends

    private func readActivity(_ name: String, _ r: LogRecord, previousRequest: Request?) throws {
        guard let src = r.source else { return }
        let sender = src.value
        let senderIsMotherboard = r.motherboard == nil && isMotherboard(src)
        let path: String
        if let mb = r.motherboard {
            path = self.path(ofMotherboard: mb.value)
            homes[sender] = path
            seenIn[sender, default: []].insert(path)
        } else if senderIsMotherboard {
            path = self.path(ofMotherboard: sender)
        } else {
            // No `🌏`: the board has no motherboard (it completed, or its motherboard is gone);
            // `mb` is empty, and the motherboard it was seen in, when only one, is kept.
            path = ""
        }
        var extra = placeExtra(r.place)
        if path.isEmpty, !senderIsMotherboard, case let seen = orphanPath(sender), !seen.isEmpty { extra["seenIn"] = .string(logged(seen)) }
        extra["boardType"] = .string(src.type)
        switch name {
        case "Next To Board":
            guard let dst = r.destination else { return }
            try readRequest(r, path: path, sender: sender, target: dst.value, extra: extra)
        case "Send Out":
            try readSendOut(r, path: path, sender: sender, senderIsMotherboard: senderIsMotherboard, extra: extra, previousRequest: previousRequest)
        case "Broadcast Action":
            let data = r.data?.value ?? ""
            if let d = r.data { extra["outputType"] = .string(d.type) }
            if senderIsMotherboard, let b = lastBroadcast, b.data == data {
                // A motherboard relaying a flow action up (its own default flow).
                extra["relay"] = .string(sender)
                let seq = emit(path, cause: b.seq, .flowRouted(from: b.board, output: value(r.data) ?? .null, to: nil, action: FlowAction.relay.rawValue), extra: extra)
                lastBroadcast = (path, b.board, seq, data)
                relayRecord = records
            } else {
                // A board's flow action; a continuous board's, right after its inner motherboard
                // relayed one, is the same action going on as its own.
                // So is a board's, in another motherboard, right after a motherboard relayed the
                // same action (a board that owns a motherboard of its own and sends its actions on).
                let relayed =
                    lastBroadcast.map {
                        $0.data == data
                            && ($0.path.hasSuffix("/" + MotherboardPath.encode(sender)) || (relayRecord == records - 1 && ownerGuess[$0.path] == sender && $0.path != path))
                    } ?? false
                let cause = relayed ? lastBroadcast?.seq : senderCause(path, sender)
                if relayed, let b = lastBroadcast {
                    // Boardy prints the hop as the continuous board's own broadcast; it is the
                    // same action going on (one output, its relays): `forward`, not an output.
                    extra["flowAction"] = true
                    let body = TraceEvent.Body.flowRouted(from: sender, output: value(r.data) ?? .null, to: nil, action: "forward")
                    if r.motherboard == nil {
                        // A continuous board with no motherboard any more: the hop goes nowhere.
                        deferred = .send(event: TraceEvent(seq: 0, t: lastTime, mb: path, cause: b.seq, body: body, extra: extra), board: sender, data: data)
                    } else {
                        let seq = emit(path, cause: b.seq, body, extra: extra)
                        lastBroadcast = (path, sender, seq, data)
                    }
                    return
                }
                extra["flowAction"] = true
                let event = TraceEvent(seq: 0, t: lastTime, mb: path, cause: cause, body: .outputSent(board: sender, output: value(r.data) ?? .null), extra: extra)
                if r.motherboard == nil && !senderIsMotherboard {
                    deferred = .send(event: event, board: sender, data: data)
                } else {
                    let seq = emit(path, cause: cause, event.body, extra: event.extra)
                    lastBroadcast = (path, sender, seq, data)
                }
            }
        case "Send Command":
            guard let dst = r.destination else { return }
            if let d = r.data { extra["commandType"] = .string(d.type) }
            extra["sender"] = .string(sender)
            deferred = .command(path: path, board: dst.value, command: value(r.data) ?? .null, cause: senderCause(path, sender), extra: extra, time: lastTime)
        default:
            // UI element actions (`Update UI Element`, …) and any other message: an output of the
            // sender, marked with what it was.
            extra["message"] = .string(name)
            if let dst = r.destination { extra["target"] = .string(dst.value) }
            if let d = r.data { extra["outputType"] = .string(d.type) }
            emit(path, cause: senderCause(path, sender), .outputSent(board: sender, output: value(r.data) ?? .null), extra: extra)
        }
    }

    private func readRequest(_ r: LogRecord, path: String, sender: String, target: String, extra: JSONObject) throws {
        var extra = extra
        if let d = r.data { extra["inputType"] = .string(d.type) }
        // A barrier board asking for its gate: the barrier's run starts.
        if let (gate, _) = Descriptions.barrier(sender), gate == target, Descriptions.gatewayDestination(gate) == nil, let e = episodes[key(path, sender)] {
            e.started = emit(path, cause: e.lastCheck == 0 ? nil : e.lastCheck, .barrierStarted(barrier: e.barrier, board: target), extra: placeExtra(r.place))
            let seq = emit(path, cause: e.started, .activationRequested(board: target, source: sender, input: value(r.data)), extra: extra)
            e.gateRequest = seq
            // The gate's activation may meet the gateway first: this is its request.
            lastRequest = Request(path: path, board: target, input: r.data?.value, seq: seq, source: sender)
            return
        }
        // A gateway's barrier board asking for the proxy: a gateway run starts, and names its
        // first waiter and its input.
        if let (gate, _) = Descriptions.barrier(sender), gate == target, let destination = Descriptions.gatewayDestination(gate) {
            let gw = r.data.flatMap { Descriptions.gatewayInput($0.value) }
            let waiterBoard = gw?.board ?? destination
            let k = key(path, sender)
            if episodes[k]?.started != nil { supersede(k) }
            let e = episodes[k] ?? Episode(path: path, barrierBoard: sender, gate: target, barrier: MotherboardPath.encode(target), destination: destination, opened: r.place)
            episodes[k] = e
            if e.waiters.isEmpty {
                // Not announced by a `[Gateway]` record (an app's own gateway wiring): the request
                // is read here.
                let input = gw.map { g in g.option.map { JSONValue.string($0) } } ?? nil
                let name = WaiterName(board: waiterBoard, input: input, inputKnown: gw != nil)
                let req = pendingGatewayRequest.flatMap { $0.board == waiterBoard && $0.path == path ? $0 : nil }
                let requestSeq = req?.seq ?? emit(path, cause: nil, .activationRequested(board: waiterBoard, source: nil, input: input), extra: placeExtra(r.place))
                let check = emit(path, cause: requestSeq, .gatewayChecked(board: waiterBoard, barrier: e.barrier, result: .wait), extra: placeExtra(r.place))
                e.lastCheck = check
                e.waiters.append(Waiter(path: path, name: name, inputDescription: gw?.option, inputKnown: gw != nil, requestSeq: requestSeq, checkSeq: check, place: r.place))
                checkLoop(e, board: waiterBoard, path: path, requestSeq: requestSeq, place: r.place)
            }
            pendingGatewayRequest = nil
            e.started = emit(path, cause: e.lastCheck, .barrierStarted(barrier: e.barrier, board: target), extra: placeExtra(r.place))
            e.gateRequest = emit(path, cause: e.started, .activationRequested(board: target, source: sender, input: value(r.data)), extra: extra)
            return
        }
        let seq = emit(path, cause: senderCause(path, sender), .activationRequested(board: target, source: sender, input: value(r.data)), extra: extra)
        lastRequest = Request(path: path, board: target, input: r.data?.value, seq: seq, source: sender)
    }

    /// The request a `[Gateway]` record read, for the gateway run that starts right after it.
    var pendingGatewayRequest: Request?

    private func readSendOut(
        _ r: LogRecord, path: String, sender: String, senderIsMotherboard: Bool, extra: JSONObject, previousRequest: Request?
    ) throws {
        var extra = extra
        let data = r.data?.value
        if let data, let done = Descriptions.completeAction(data) {
            try readCompletion(r, path: path, sender: sender, board: done.board, isDone: done.isDone, extra: extra)
            return
        }
        if let data, let install = Descriptions.gatewayInstall(data) {
            var x = placeExtra(r.place)
            x["proxy"] = .string(install.proxy)
            var fields = JSONObject()
            fields["board"] = .string(install.board)
            fields["gateway"] = .string(install.proxy)
            fields["state"] = .string(install.installing ? "installing" : "installed")
            emit(path, cause: nil, .unknown(kind: EventKind.gatewayInstalled.rawValue, fields: fields), extra: x)
            let request = previousRequest.flatMap { $0.path == path && $0.board == install.board ? $0 : nil }
            deferred = .gateway(path: path, board: install.board, proxy: install.proxy, request: request, place: r.place, time: lastTime)
            return
        }
        if let d = r.data { extra["outputType"] = .string(d.type) }
        let event = TraceEvent(seq: 0, t: lastTime, mb: path, cause: senderCause(path, sender), body: .outputSent(board: sender, output: value(r.data) ?? .null), extra: extra)
        if r.motherboard == nil && !senderIsMotherboard {
            deferred = .send(event: event, board: sender, data: data)
        } else {
            emit(path, cause: event.cause, event.body, extra: event.extra)
        }
    }

    /// `CompleteAction(identifier: X, …)`: X completes (the sender is X, or another board that
    /// completes it, as `completer(X).complete()` does).
    private func readCompletion(_ r: LogRecord, path: String, sender: String, board: String, isDone: Bool, extra: JSONObject) throws {
        // A barrier board's own completion: its run resolves with its gate's result.
        if Descriptions.barrier(board) != nil {
            let k = key(path, board)
            let candidates = (completing[k] ?? []) + (episodes[k].map { [$0] } ?? [])
            if candidates.count > 1 {
                // Two runs of barrier boards named alike (an `.application` and a `.mainboard`
                // barrier of one gate): the activation released right after says which resolved.
                deferred = .barrierCompletion(key: k, path: path, place: r.place)
                return
            }
            if let e = takeCompleting(k) ?? episodes.removeValue(forKey: k) {
                try resolve(e, path: path, place: r.place)
                return
            }
        }
        // The gate of open runs: their result.
        var cause = senderCause(path, sender)
        let gated = episodes.values.filter { $0.path == path && $0.gate == board && $0.gateRequest != nil }
        if cause == nil, let e = gated.first { cause = e.gatePerformed }
        var extra = extra
        if sender != board { extra["completedBy"] = .string(sender) }
        for e in gated where e.gateResult == nil { e.gateResult = isDone }
        if r.motherboard == nil && !isMotherboard(r.source!) {
            let event = TraceEvent(seq: 0, t: lastTime, mb: path, cause: cause, body: .boardCompleted(board: board, success: isDone), extra: extra)
            deferred = .send(event: event, board: sender, data: r.data?.value)
            return
        }
        deferred = .completion(path: path, board: board, success: isDone, cause: cause, extra: extra, time: lastTime)
    }

    // MARK: Warnings and notes

    private func read(warning w: LogText) throws {
        var fields = JSONObject()
        if let subject = Descriptions.warningSubject(w.text) {
            fields["board"] = .string(subject.id)
            fields["type"] = .string(subject.type)
        }
        fields["message"] = .string(w.text)
        let path = Descriptions.warningSubject(w.text).flatMap { s in paths[s.id] ?? homes[s.id] } ?? ""
        emit(path, cause: nil, .unknown(kind: EventKind.logWarning.rawValue, fields: fields), extra: placeExtra(w.place))
        // `[Barrier] discarded N pending activation(s)`: the owning motherboard went away, and
        // the barrier's waiters with it.
        defer { keepOnDiscard = nil }
        if w.text.contains("[Barrier] discarded"), let subject = Descriptions.warningSubject(w.text),
            let (k, e) = episodes.first(where: { $0.value.barrierBoard == subject.id && $0.key != keepOnDiscard })
        {
            episodes[k] = nil
            for waiter in e.waiters {
                waiter.name.settled = true
                emit(waiter.path, cause: waiter.checkSeq, .activationCancelled(board: waiter.name.board ?? "", reason: "discarded"), extra: placeExtra(w.place))
            }
        }
    }

    private func read(note n: LogText) throws {
        var fields = JSONObject()
        fields["message"] = .string(n.text)
        emit("", cause: nil, .unknown(kind: EventKind.logNote.rawValue, fields: fields), extra: placeExtra(n.place))
    }
}
