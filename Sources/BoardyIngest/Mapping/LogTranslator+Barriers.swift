// LogTranslator: activations, and barrier runs read back from them (waits, gates, releases, resolutions).

import BoardyTrace
import DequeModule

extension LogTranslator {
    // MARK: Activations

    func readActivation(_ r: LogRecord, previousRequest: Request?) throws {
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
        if let destination = Descriptions.gatewayDestination(board), let e = episodes[key(path, destination + BoardID.gatewaySuffix + BoardID.privateBarrierSuffix)], e.gateRequest != nil, e.gatePlace == nil {
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

    func key(_ path: String, _ barrierBoard: String) -> String { path + "\u{0}" + barrierBoard }

    func supersede(_ k: String) {
        guard let old = episodes.removeValue(forKey: k) else { return }
        completing[k, default: []].append(old)
    }

    func takeCompleting(_ k: String) -> Episode? {
        guard var list = completing[k], !list.isEmpty else { return nil }
        let first = list.removeFirst()
        completing[k] = list.isEmpty ? nil : list
        return first
    }

    /// The run of `gate` in `path` whose barrier board asked for the gate last and has not seen
    /// it activated yet.
    func openEpisode(path: String, gate: String) -> Episode? {
        episodes.values.filter { $0.path == path && $0.gate == gate && $0.gateRequest != nil && $0.gatePlace == nil }
            .max { ($0.gateRequest ?? 0) < ($1.gateRequest ?? 0) }
    }

    /// An activation waits behind a barrier. Which run it joins is known with the next record:
    /// a run starts when the barrier board asks for its gate right away; otherwise it joins the
    /// run open in this motherboard, or (an `.application` barrier, one for the whole app) the
    /// one open in another.
    func readBarrierWait(
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

    func settleBarrierWait(_ w: BarrierWait, next: LogItem?) {
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
    func takeRelease(path: String, board: String?, inputDescription: String?, barrierActivation: Bool) -> Release? {
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

    // MARK: Resolving a run

    func resolve(_ e: Episode, path: String, place: LogPlace) throws {
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
}
