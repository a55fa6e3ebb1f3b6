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

    private var window = EventWindow()
    private var lastSeq = 0
    private var lastTime = TraceTime.zero
    private let write: (TraceEvent) throws -> Void
    /// Whether events carry `file` (several captures were read as one).
    var multipleFiles = false

    // MARK: What the log has told so far

    /// A motherboard's id → its path in the trace.
    private var paths: [String: String] = [:]
    /// A board → the path of the motherboard it was last seen in.
    private var homes: [String: String] = [:]
    /// Ids known to be motherboards (a record's 🏝 of an activation, a 🌏).
    private var motherboards: Set<String> = []
    /// The last `activation.performed`: what a board sends while it is the last one activated
    /// is its doing.
    private var lastActivated: (path: String, board: String, seq: Int)?
    /// A `Next To Board` read in the record just before this one (cleared after each record).
    private var lastRequest: Request?
    /// Barrier runs not resolved yet, by motherboard path and barrier board id.
    private var episodes: [String: Episode] = [:]
    /// Activations a resolved barrier will release, per motherboard path, in order.
    /// One queue per resolved run, innermost last: a release's own work can resolve another
    /// barrier, whose releases then come before the rest of the first one's.
    private var releases: [String: [Deque<Release>]] = [:]
    /// The last flow action seen, to read the hops that relay it.
    private var lastBroadcast: (path: String, board: String, seq: Int, data: String)?
    /// ``records`` when the last motherboard relayed a flow action to itself.
    private var relayRecord = -1
    /// Per board, the runs (motherboard and gate) it was activated straight past.
    private var notGated: [String: Set<String>] = [:]
    /// The board that likely owns a motherboard not named `<board>.continuous-main`.
    private var ownerGuess: [String: String] = [:]
    /// A decision waiting for the next record.
    private var deferred: Deferred?
    /// The `barrier.resolved` of the run whose barrier board completed in the record before
    /// this one (its first release is this record), and how many records ago.
    private var justResolved: Int?
    private var justResolvedAge = 0
    /// The gate each board was seen waiting on (its activation barrier's gate).
    private var gateOf: [String: String] = [:]
    /// Boards found waiting on their own barrier (a barrier loop), with how often: Boardy does
    /// not detect a loop; a gateway loop recurses until the app crashes.
    private(set) var loops: [String: Int] = [:]
    private var loopOrder: [String] = []
    /// ``loops`` in the order they were found.
    var loopsInOrder: [(board: String, waits: Int)] { loopOrder.map { ($0, loops[$0] ?? 0) } }

    /// A wait that closes a loop: the board waits inside its own gateway run, or is the gate of
    /// the barrier it waits on. The first time, a `barrier.loop` event says so.
    private func checkLoop(_ e: Episode, board: String, path: String, requestSeq: Int, place: LogPlace) {
        let closes: Bool
        if e.isGateway {
            closes = MotherboardPath(path).components.dropFirst().contains(MotherboardPath.encode(board + ".___GATEWAY___"))
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
    private var keepOnDiscard: String?
    /// Boards activated and not completed, per motherboard path, with the line of their
    /// activation (a stuck gateway run names the gate inside its proxy).
    private var open: [String: [String: Int]] = [:]

    // MARK: Counts

    private(set) var records = 0
    private(set) var warnings = 0
    private(set) var notes = 0
    /// What the log implies but does not show (a released activation that never appears: the
    /// run was cut off, or the board was gone). Not lines it could not read.
    private(set) var observations: [RecordAssembler.Problem] = []

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
    private enum Deferred {
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

    // MARK: Events

    @discardableResult
    private func emit(
        _ path: String, cause: Int?, _ body: TraceEvent.Body, extra: JSONObject = JSONObject(), inferred: Bool = true, waiter: WaiterName? = nil,
        at time: TraceTime? = nil
    ) -> Int {
        lastSeq += 1
        var x = extra
        if cause != nil, inferred { x["causeInferred"] = true }
        window.append(TraceEvent(seq: lastSeq, t: time ?? lastTime, mb: logged(path), cause: cause, body: body, extra: x), waiter: waiter)
        return lastSeq
    }

    private func placeExtra(_ p: LogPlace) -> JSONObject {
        var o: JSONObject = ["line": .int(Int64(p.line))]
        if multipleFiles { o["file"] = .int(Int64(p.file)) }
        return o
    }

    // MARK: Motherboards and boards

    /// The `mb` of an event in the motherboard at `path`: the id the log prints. Inside, a
    /// continuous board's motherboard (`<board>.continuous-main`) is a path under where the
    /// board runs, which is what tells a wait inside its own gateway run, the gates inside a
    /// stuck proxy and a flow action going on up; the trace names it as the log does.
    private func logged(_ path: String) -> String {
        guard path.utf8.contains(UInt8(ascii: "/")) else { return path }
        if let name = loggedNames[path] { return name }
        let p = MotherboardPath(path)
        let name = p.components.last.map { MotherboardPath.encode(MotherboardPath.decode($0) + ".continuous-main") } ?? path
        loggedNames[path] = name
        return name
    }

    private var loggedNames: [String: String] = [:]

    private func path(ofMotherboard id: String) -> String {
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
    private var active: [String: [String]] = [:]

    /// The motherboard of a board that sends with no motherboard (no `🌏` line, its own
    /// completed or released): the one the board was ever seen in, when there is one; when the
    /// log shows the id in several, it does not say which sent, and the motherboard is unknown
    /// (`""`).
    private func orphanPath(_ board: String) -> String {
        guard let seen = seenIn[board], seen.count == 1 else { return "" }
        return seen.first!
    }

    /// The motherboards each board was seen in.
    private var seenIn: [String: Set<String>] = [:]

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

    private func value(_ f: LogField?) -> JSONValue? {
        guard let f else { return nil }
        return Descriptions.json(type: f.type, value: f.value)
    }

    // MARK: Activations

    private func readActivation(_ r: LogRecord, previousRequest: Request?) throws {
        guard let src = r.source, let dst = r.destination else { return }
        let known = paths[src.value] != nil
        let path = path(ofMotherboard: src.value)
        // A motherboard first seen activating a board right after a board of another one was
        // activated is, most likely, that board's own (a `ContinuousBoard` given a motherboard
        // of any id): used only to tell its relayed flow actions going on.
        if !known, !path.utf8.contains(UInt8(ascii: "/")), let a = lastActivated, a.path != path { ownerGuess[path] = a.board }
        let board = dst.value
        let inputDescription = r.data?.value
        let input = value(r.data)
        var extra = placeExtra(r.place)
        extra["boardType"] = .string(dst.type)
        if let d = r.data { extra["inputType"] = .string(d.type) }

        // A board held behind an activation barrier shows as an activation of the barrier board.
        if let (gate, barrier) = Descriptions.barrier(board), Descriptions.gatewayDestination(gate) == nil {
            try readBarrierWait(r, path: path, barrierBoard: board, gate: gate, barrier: barrier, input: input, inputDescription: inputDescription, previousRequest: previousRequest)
            return
        }
        homes[board] = path
        seenIn[board, default: []].insert(path)

        // A gateway run's proxy, activated by its barrier board.
        if let destination = Descriptions.gatewayDestination(board), let e = episodes[key(path, destination + ".___GATEWAY___.___PRIVATE_BARRIER___")], e.gateRequest != nil, e.gatePlace == nil {
            deferred = .activation(path: path, board: board, input: input, cause: e.gateRequest, extra: extra, place: r.place, time: lastTime, noBoard: false)
            e.gatePlace = r.place
            return
        }

        // The gate a barrier board asked for in the record just before: its activation, not a
        // release (a gate's `Optional(())` and a waiter's missing option read alike).
        if let req = previousRequest, req.path == path, req.board == board, Descriptions.barrier(req.source) != nil,
            let e = openEpisode(path: path, gate: board), let request = e.gateRequest, request == req.seq
        {
            e.gatePlace = r.place
            deferred = .activation(path: path, board: board, input: input, cause: request, extra: extra, place: r.place, time: lastTime, noBoard: dst.type == "NoBoard")
            return
        }

        // A release of a resolved barrier.
        if let release = takeRelease(path: path, board: board, inputDescription: inputDescription, barrierActivation: false) {
            if release.waiter.name.board == nil {
                release.waiter.name.board = board
                if !release.gateway { gateOf[board] = release.gate }
            }
            if !release.waiter.name.inputKnown {
                release.waiter.name.input = input
                release.waiter.name.inputKnown = true
            }
            release.waiter.name.settled = true
            var x = extra
            x["released"] = .string(release.barrier)
            deferred = .activation(path: path, board: board, input: input, cause: release.resolved, extra: x, place: r.place, time: lastTime, noBoard: dst.type == "NoBoard")
            return
        }

        // The gate of an open barrier run, which its barrier board asked for.
        if let e = openEpisode(path: path, gate: board), let request = e.gateRequest, e.gatePlace == nil {
            e.gatePlace = r.place
            deferred = .activation(path: path, board: board, input: input, cause: request, extra: extra, place: r.place, time: lastTime, noBoard: dst.type == "NoBoard")
            return
        }

        // Activated straight while a run of a gate is open here: the board does not wait on that
        // gate (a board it gates shows as its barrier board's activation), so a later activation
        // of it is not the release of a waiter the log never named. (Bounded: a log with
        // hundreds of runs open at once is left to the other signs.)
        if episodes.count <= 256 {
            for e in episodes.values where e.path == path && !e.isGateway && e.gate != board { notGated[board, default: []].insert(key(path, e.gate)) }
        }

        // A request just before, for this board: its activation.
        let requestSeq: Int
        if let req = previousRequest, req.path == path, req.board == board {
            requestSeq = req.seq
        } else {
            requestSeq = emit(path, cause: nil, .activationRequested(board: board, source: nil, input: input), extra: placeExtra(r.place))
        }
        deferred = .activation(path: path, board: board, input: input, cause: requestSeq, extra: extra, place: r.place, time: lastTime, noBoard: dst.type == "NoBoard")
    }

    private func key(_ path: String, _ barrierBoard: String) -> String { path + "\u{0}" + barrierBoard }

    /// Runs whose gate is done but whose barrier board has not completed yet, while a new run of
    /// the same barrier board started: they resolve first, in order.
    private var completing: [String: [Episode]] = [:]

    private func supersede(_ k: String) {
        guard let old = episodes.removeValue(forKey: k) else { return }
        completing[k, default: []].append(old)
    }

    private func takeCompleting(_ k: String) -> Episode? {
        guard var list = completing[k], !list.isEmpty else { return nil }
        let first = list.removeFirst()
        completing[k] = list.isEmpty ? nil : list
        return first
    }

    /// The run of `gate` in `path` whose barrier board asked for the gate last and has not seen
    /// it activated yet.
    private func openEpisode(path: String, gate: String) -> Episode? {
        episodes.values.filter { $0.path == path && $0.gate == gate && $0.gateRequest != nil && $0.gatePlace == nil }
            .max { ($0.gateRequest ?? 0) < ($1.gateRequest ?? 0) }
    }

    /// An activation waits behind a barrier. Which run it joins is known with the next record:
    /// a run starts when the barrier board asks for its gate right away; otherwise it joins the
    /// run open in this motherboard, or (an `.application` barrier, one for the whole app) the
    /// one open in another.
    private func readBarrierWait(
        _ r: LogRecord, path: String, barrierBoard: String, gate: String, barrier: String, input: JSONValue?, inputDescription: String?,
        previousRequest: Request?
    ) throws {
        // A request just before names the waiter; otherwise it may be a released gateway waiter.
        let request = previousRequest.flatMap { $0.path == path && Descriptions.bare($0.input) == Descriptions.bare(inputDescription) ? $0 : nil }
        let release = request == nil ? takeRelease(path: path, board: nil, inputDescription: inputDescription, barrierActivation: true) : nil
        deferred = .barrierWait(
            BarrierWait(
                path: path, barrierBoard: barrierBoard, gate: gate, barrier: barrier, input: input, inputDescription: inputDescription, place: r.place,
                time: lastTime, release: release, request: request))
    }

    struct BarrierWait {
        let path: String
        let barrierBoard: String
        let gate: String
        let barrier: String
        let input: JSONValue?
        let inputDescription: String?
        let place: LogPlace
        let time: TraceTime
        let release: Release?
        let request: Request?
    }

    private func settleBarrierWait(_ w: BarrierWait, next: LogItem?) {
        let name: WaiterName
        let requestSeq: Int
        if let release = w.release {
            // A released gateway waiter going on to its own activation barrier.
            name = release.waiter.name
            if !name.inputKnown {
                name.input = w.input
                name.inputKnown = true
            }
            name.settled = name.board != nil
            requestSeq = release.resolved
        } else if let req = w.request {
            name = WaiterName(board: req.board, input: w.input, inputKnown: true)
            requestSeq = req.seq
        } else {
            // Nothing named the waiting board: the log says so when the wait ends, if ever.
            name = WaiterName(board: nil, input: w.input, inputKnown: true)
            requestSeq = emit(w.path, cause: nil, .activationRequested(board: "", source: nil, input: w.input), extra: placeExtra(w.place), waiter: name, at: w.time)
        }
        let starts: Bool
        if case .record(let n)? = next, case .activity("Next To Board") = n.kind, n.source?.value == w.barrierBoard,
            n.motherboard.map({ path(ofMotherboard: $0.value) }) == w.path
        {
            starts = true
        } else if case .warning(let t)? = next, t.text.contains("[Barrier] discarded"), Descriptions.warningSubject(t.text)?.id == w.barrierBoard {
            // The run open elsewhere lost its motherboard: this wait starts a run of its own
            // (the warning cancels the old run's waiters).
            starts = true
            keepOnDiscard = key(w.path, w.barrierBoard)
        } else {
            starts = false
        }
        var scope = "unknown"
        let e: Episode
        if starts, let open = episodes[key(w.path, w.barrierBoard)], open.started != nil {
            // Its run is completing (its gate is done, its barrier board not yet): a request now
            // starts a new run (Boardy's rule 13).
            supersede(key(w.path, w.barrierBoard))
            e = Episode(path: w.path, barrierBoard: w.barrierBoard, gate: w.gate, barrier: w.barrier, destination: nil, opened: w.place)
            episodes[key(w.path, w.barrierBoard)] = e
        } else if let open = episodes[key(w.path, w.barrierBoard)] {
            e = open
        } else if !starts, let elsewhere = episodes.values.filter({ $0.barrierBoard == w.barrierBoard }).min(by: { ($0.opened.file, $0.opened.line) < ($1.opened.file, $1.opened.line) }) {
            // One barrier board for the whole app, with a run open elsewhere: `.application`.
            e = elsewhere
            scope = "application"
        } else {
            e = Episode(path: w.path, barrierBoard: w.barrierBoard, gate: w.gate, barrier: w.barrier, destination: nil, opened: w.place)
            episodes[key(w.path, w.barrierBoard)] = e
        }
        var extra = placeExtra(w.place)
        extra["barrierBoard"] = .string(w.barrierBoard)
        let check = emit(
            w.path, cause: requestSeq, .barrierChecked(board: name.board ?? "", barrier: e.barrier, scope: scope, result: .wait), extra: extra,
            waiter: name.settled ? nil : name, at: w.time)
        e.lastCheck = check
        e.waiters.append(Waiter(path: w.path, name: name, inputDescription: w.inputDescription, inputKnown: true, requestSeq: requestSeq, checkSeq: check, place: w.place))
        if let b = name.board, !e.isGateway { gateOf[b] = e.gate }
        if let b = name.board { checkLoop(e, board: b, path: w.path, requestSeq: requestSeq, place: w.place) }
    }

    /// The next release in `path` this activation is: of `board` (or of a waiter not named yet)
    /// with the same input, first in the run resolved last. Releases passed over (their
    /// activation never came) are reported.
    private func takeRelease(path: String, board: String?, inputDescription: String?, barrierActivation: Bool) -> Release? {
        guard var queues = releases[path], !queues.isEmpty else { return nil }
        defer { releases[path] = queues.isEmpty ? nil : queues }
        for q in queues.indices.reversed() {
            var list = queues[q]
            // A barrier activation is the next gateway waiter released here going on to its own
            // activation barrier: releases come in order, each right after the one before is done.
            if barrierActivation {
                guard let front = list.first, front.gateway, front.waiter.name.board != nil,
                    !front.waiter.inputKnown || Descriptions.bare(front.waiter.inputDescription) == Descriptions.bare(inputDescription)
                else { continue }
                list.removeFirst()
                if list.isEmpty { queues.remove(at: q) } else { queues[q] = list }
                return front
            }
            for (i, r) in list.prefix(8).enumerated() {
                // A waiter the log never named: the activation right after its barrier board
                // completed is its release; later, a board known to wait on this gate (or not
                // known to wait on another, and not the gate itself) may be.
                let unnamedFits: Bool
                if let b = board, r.waiter.name.board == nil {
                    let right = justResolved == r.resolved && i == 0
                    unnamedFits = right || gateOf[b] == r.gate || (gateOf[b] == nil && b != r.gate && notGated[b]?.contains(key(path, r.gate)) != true)
                } else {
                    unnamedFits = true
                }
                let nameMatches = board == nil || (r.waiter.name.board == nil && unnamedFits) || r.waiter.name.board == board
                // A named waiter is its board's next activation; one the log never named is told by
                // its input (the released activation prints the same option).
                let inputMatches =
                    (board != nil && r.waiter.name.board != nil) || !r.waiter.inputKnown
                    || Descriptions.bare(r.waiter.inputDescription) == Descriptions.bare(inputDescription)
                guard nameMatches, inputMatches else { continue }
                for skipped in list.prefix(i) {
                    observations.append(.init(place: skipped.waiter.place, message: "released by \(skipped.barrier), but its activation does not appear where it should"))
                    skipped.waiter.name.settled = true
                }
                list.removeFirst(i + 1)
                if list.isEmpty { queues.remove(at: q) } else { queues[q] = list }
                return r
            }
        }
        return nil
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
    private var pendingGatewayRequest: Request?

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

    private func resolve(_ e: Episode, path: String, place: LogPlace) throws {
        // Boardy's barrier board completes with `isDone: true` even when its gate failed: the
        // run's result is the gate's.
        let passed = e.exempt || (e.gateResult ?? true)
        var extra = placeExtra(place)
        if e.gateResult == nil && !e.exempt { extra["gateResult"] = "unseen" }
        let resolved = emit(e.path, cause: e.gateCompleted ?? (e.gatePerformed ?? e.lastCheck), .barrierResolved(barrier: e.barrier, passed: passed, released: e.waiters.count), extra: extra)
        justResolved = resolved
        justResolvedAge = 0
        if passed {
            var byPath: [String: Deque<Release>] = [:]
            var order: [String] = []
            for w in e.waiters {
                if byPath[w.path] == nil { order.append(w.path) }
                byPath[w.path, default: []].append(Release(waiter: w, resolved: resolved, gateway: e.isGateway, barrier: e.barrier, gate: e.gate, barrierBoard: e.barrierBoard))
            }
            for p in order { releases[p, default: []].append(byPath[p]!) }
        } else {
            // Boardy drops a failed gate's waiters without a record: cancelled here, named where
            // the log named them.
            for w in e.waiters {
                w.name.settled = true
                var x = placeExtra(w.place)
                if w.name.board == nil {
                    x["waiter"] = "unknown"
                    if w.inputKnown, let i = w.inputDescription { x["input"] = .string(i) }
                }
                emit(w.path, cause: resolved, .activationCancelled(board: w.name.board ?? "", reason: .barrierFailed), extra: x)
            }
        }
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

    // MARK: Deciding with the next record

    /// Settles the decision the previous record left, with `next` (nil at the end of the log).
    /// Returns whether `next` was taken up by it.
    private func settleDeferred(with next: LogItem?) throws -> Bool {
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
            if let destination = Descriptions.gatewayDestination(board), let e = episodes[key(path, destination + ".___GATEWAY___.___PRIVATE_BARRIER___")] {
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

    private func settleGateway(path: String, board: String, proxy: String, request: Request?, place: LogPlace, next: LogItem?) throws {
        let barrierBoard = proxy + ".___PRIVATE_BARRIER___"
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
