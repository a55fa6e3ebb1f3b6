import Foundation

// The pipeline an activation and an output go through, one work item at a time: the gateway
// barrier and its proxies, activation barriers and their gates, producing boards, routing outputs
// through flows, completions. Called by the runtime (`BoardyRuntime`), never from outside.

extension Motherboard {
    func process(_ action: consuming WorkItem.Action, cause: Int) {
        guard let runtime = self.runtime else { return }
        runtime.currentCause = cause
        activeSource = nil
        switch consume action {
        case .activate(let id, let input, let source, let inputJSON):
            processActivation(id, input: input, source: source, inputJSON: inputJSON, forGate: onBehalfOf, cause: cause, runtime: runtime)
        case .activateGate(let id, let input, let source, let node):
            processActivation(id, input: input, source: source, inputJSON: nil, forGate: node, cause: cause, runtime: runtime)
        case .output(let board, let value, let flowAction):
            processOutput(board, value, flowAction: flowAction, cause: cause, runtime: runtime)
        case .orphanOutput(let board, let value, let flowAction):
            if let log = runtime.warningLog { logOrphan(log, of: board, value, flowAction: flowAction) }
            runtime.record(
                self, cause: cause, .outputSent(board: board.identifier.rawValue, output: TraceValue.json(value) ?? .null),
                extra: Self.droppedExtra(flowAction: flowAction))
        case .route(let registered, let from, let value, let json):
            let seq = runtime.record(
                self, cause: cause,
                .flowRouted(from: from.rawValue, output: json, to: registered.flow.destination?.rawValue, action: registered.flow.action.rawValue))
            if seq != 0 { runtime.currentCause = seq }
            if let destination = registered.flow.stepDestination {
                // A flow step: the output, and its JSON, go on as the destination's input.
                runtime.submit(
                    WorkItem(
                        motherboard: self, action: .activate(destination, input: value, source: from, inputJSON: json),
                        cause: runtime.currentCause))
            } else {
                activeSource = from
                registered.flow.perform(self, value)
                activeSource = nil
            }
        case .command(let id, let command):
            if let board = installed[id] {
                if !(board.appBoard is any InteractableBoard), runtime.misusePolicy != .ignore {
                    BoardyMisuse(
                        .notInteractable, board: id,
                        message: "⚠️ [\(id)] received an interaction command but it needs to conform InteractableBoard to continue process!"
                    ).report(runtime: runtime, mb: path)
                }
                let seq = runtime.record(self, cause: cause, .commandSent(board: id.rawValue, command: TraceValue.json(command) ?? .null))
                if seq != 0 { runtime.currentCause = seq }
                if let log = runtime.debugLog { logInteraction(log, with: board, command: command) }
                board.interact(command: command)
            } else {
                runtime.record(
                    self, cause: cause, .commandSent(board: id.rawValue, command: TraceValue.json(command) ?? .null),
                    extra: ["delivered": false])
                if runtime.misusePolicy != .ignore {
                    BoardyMisuse(
                        .boardNotInstalled, board: id,
                        message: "⚠️ [\(id)] received an interaction command but no board with that identifier is installed in \(String(describing: self))!"
                    ).report(runtime: runtime, mb: path)
                }
            }
        case .completion(let board, let isDone):
            processCompletion(board, isDone: isDone, cause: cause, runtime: runtime)
        case .call(let body):
            body()
        }
    }

    private static func droppedExtra(flowAction: Bool) -> JSONObject {
        var o: JSONObject = ["dropped": "board-completed"]
        if flowAction { o["flowAction"] = true }
        return o
    }

    func processActivation(
        _ id: BoardID, input: Any?, source: BoardID?, inputJSON known: JSONValue?, forGate: GateNode?, cause: Int, runtime: BoardyRuntime
    ) {
        // Converted to JSON once, for both events, and only when traced.
        let inputJSON = runtime.isTracing ? (known ?? TraceValue.json(input)) : nil
        let requested = runtime.record(self, cause: cause, .activationRequested(board: id.rawValue, source: source?.rawValue, input: inputJSON))
        let reqCause = requested == 0 ? cause : requested
        // Rule 5: find the installed board or produce and install it, before any check. An id
        // that was unregistered when first activated keeps Boardy's NoBoard.
        guard placeholders.isEmpty || placeholders[id] == nil, let board = installed[id] ?? produce(id) else {
            if let log = runtime.warningLog { logUnregistered(log, id, option: input) }
            runtime.record(self, cause: reqCause, .activationCancelled(board: id.rawValue, reason: .unregistered))
            installPlaceholder(id)
            return
        }
        if let mismatch = board.inputMismatch(input) {
            // Boardy logs the activation, then traps in the board.
            if let log = runtime.debugLog { logActivation(log, of: board, option: input) }
            runtime.record(self, cause: reqCause, .activationCancelled(board: id.rawValue, reason: .invalidInput), extra: ["detail": .string(mismatch)])
            if runtime.misusePolicy != .ignore {
                BoardyMisuse(
                    .inputMismatch, board: id,
                    message: "\(String(describing: board))\n🔥 Cannot convert input from \(String(describing: input)) to type \(board.inputTypeDescription)"
                ).report(runtime: runtime, mb: path)
            }
            return
        }
        // Rule 8: the gateway first, then the board's own activation barrier.
        if hasGateway || producerHasGateways {
            var request = Request(board: id, input: input, inputJSON: inputJSON, source: source, requestSeq: reqCause, forGate: forGate)
            if runtime.debugLog != nil { request.loggedOption = takeLoggedGateOption(id) }
            if !passesGateway(board, request, runtime: runtime) { return }
            checkActivationBarrier(board, request, cause: reqCause, runtime: runtime)
            return
        }
        // No gateway: a board without a barrier is performed without building the request (its
        // copies of the input, its JSON and the source cost a retain and a release each).
        guard let barrier = board.activationBarrier(withOption: input) else {
            performActivation(board, input: input, inputJSON: inputJSON, cause: reqCause, runtime: runtime)
            return
        }
        var request = Request(board: id, input: input, inputJSON: inputJSON, source: source, requestSeq: reqCause, forGate: forGate)
        if runtime.debugLog != nil { request.loggedOption = takeLoggedGateOption(id) }
        waitOnActivationBarrier(barrier, request, cause: reqCause, runtime: runtime)
    }

    /// An activation request on its way through the checks (a ``PendingActivation`` once it
    /// waits, which adds the motherboard: retaining it only then keeps the hot path cheap).
    struct Request {
        let board: BoardID
        let input: Any?
        let inputJSON: JSONValue?
        let source: BoardID?
        /// The `seq` of its `activation.requested` (0 when not traced).
        let requestSeq: Int
        /// Set when this activation runs a gate for a barrier: the gate's node.
        let forGate: GateNode?
        /// With Boardy's debug log on, how the option prints when it is not as given (a gate's,
        /// handed over by its barrier board), kept with the request while it waits.
        var loggedOption: BoardyDebugLog.Rendered? = nil
    }

    func pending(_ r: Request) -> PendingActivation { PendingActivation(motherboard: self, request: r) }

    /// Checks the gateway; true when the activation goes on now, false when it waits for a run
    /// of the gate (or was cancelled on a loop).
    func passesGateway(_ board: any EngineBoard, _ pending: Request, runtime: BoardyRuntime) -> Bool {
        let id = pending.board
        let home = gatewayOrigin ?? self
        guard let entry = home.gatewayByBoard[id] ?? home.gatewayForAll else {
            // Boardy's producer-registered gateway boards (`registerGatewayBoard`).
            if let gateBoard = boardProducer?.produceGatewayBoard(identifier: id), !board.shouldBypassGatewayBarrier() {
                return waitOnProxy(gateBoard, pending, home: home, runtime: runtime)
            }
            runtime.record(self, cause: pending.requestSeq, .gatewayChecked(board: id.rawValue, barrier: "", result: .pass))
            return true
        }
        switch entry.kind {
        case .exempt:
            if let log = runtime.debugLog { logGatewayExempt(log, destination: id, option: pending.input) }
            runtime.record(
                self, cause: pending.requestSeq,
                .gatewayChecked(board: id.rawValue, barrier: home.gatewayForAll?.gateBoard.map { MotherboardPath.encode($0.rawValue) } ?? "", result: .exempt))
            return true
        case .proxy:
            if board.shouldBypassGatewayBarrier() {
                if let log = runtime.debugLog { logGatewayInstall(log, destination: id) }
                runtime.record(
                    self, cause: pending.requestSeq,
                    .gatewayChecked(board: id.rawValue, barrier: MotherboardPath.encode(id.gateway.rawValue), result: .bypass))
                return true
            }
            return waitOnProxy(nil, pending, home: home, registration: entry, runtime: runtime)
        case let .gate(gate, gateInput, resolveOn, instances):
            if board.shouldBypassGatewayBarrier() {
                if let log = runtime.debugLog { logGatewayInstall(log, destination: id) }
                runtime.record(self, cause: pending.requestSeq, .gatewayChecked(board: id.rawValue, barrier: MotherboardPath.encode(gate.rawValue), result: .bypass))
                return true
            }
            let checked = runtime.record(
                self, cause: pending.requestSeq, .gatewayChecked(board: id.rawValue, barrier: MotherboardPath.encode(gate.rawValue), result: .wait))
            // Rule 9: one run per destination, its own gate instance unless shared (or unproducible).
            let perRun = instances == .perRun && home.canProducePerRun(gate)
            let makeHost: (() -> Motherboard)? =
                perRun ? { Motherboard(gatewayProxyFor: id, owner: self, origin: home, runtime: runtime) } : nil
            let waited = runtime.barriers.wait(
                self.pending(pending), onGateway: gate, home: home, resolveOn: resolveOn, makeGateHost: makeHost, runtime: runtime)
            if let log = runtime.debugLog { logGatewayInstall(log, destination: id) }
            guard let (run, isNew) = waited, isNew else { return false }
            let started = runtime.record(self, cause: checked, .barrierStarted(barrier: MotherboardPath.encode(gate.rawValue), board: gate.rawValue))
            let request = GatewayRequest(destination: id, input: pending.input)
            let input = pending.input
            (run.gateHost ?? home).submitGate(
                gate, input: gateInput.map { $0(request) } ?? request, for: id, node: run.node, cause: started, runtime: runtime,
                announce: { [unowned self] log in self.logGatewayRunStart(log, destination: id, option: input, proxyActivated: true) })
            return false
        }
    }

    /// Boardy's gateway wiring: the destination's run is a proxy board `<id>.___GATEWAY___`
    /// installed here (made from `registration`, or the producer's gateway board `given`),
    /// activated with the destination's input; the run resolves when the proxy completes. A
    /// second request while the proxy's run is open joins it. Activations in the proxy's own
    /// motherboard run on the run's behalf, so a gate that waits on its own gateway is a loop.
    func waitOnProxy(
        _ given: (any ActivatableBoard)?, _ pending: Request, home: Motherboard, registration: GatewayBarrierRegistration? = nil,
        runtime: BoardyRuntime
    ) -> Bool {
        let id = pending.board
        let gateID = given?.identifier ?? id.gateway
        let checked = runtime.record(
            self, cause: pending.requestSeq, .gatewayChecked(board: id.rawValue, barrier: MotherboardPath.encode(gateID.rawValue), result: .wait))
        let waited = runtime.barriers.wait(self.pending(pending), onGateway: gateID, home: home, resolveOn: nil, makeGateHost: nil, runtime: runtime)
        if let log = runtime.debugLog { logGatewayInstall(log, destination: id) }
        guard let (run, isNew) = waited, isNew else { return false }
        run.hasProxyBoard = true
        let proxy: any ActivatableBoard =
            given ?? GatewayBarrierProxy(destination: id, producer: home.boardProducer, registration: registration!)
        installBoard(proxy)
        if let inner = (proxy as? ContinuousBoard)?.continuousMotherboard {
            inner.gatewayOrigin = home
            inner.hasGateway = home.hasGateway
            inner.onBehalfOf = run.node
        }
        let started = runtime.record(self, cause: checked, .barrierStarted(barrier: MotherboardPath.encode(gateID.rawValue), board: gateID.rawValue))
        let input = pending.input
        submitGate(
            gateID, input: pending.input, for: id, node: run.node, cause: started, runtime: runtime,
            announce: { [unowned self] log in self.logGatewayRunStart(log, destination: id, option: input, proxyActivated: false) })
        return false
    }

    /// Checks the board's activation barrier; performs the activation now or leaves it waiting.
    func checkActivationBarrier(_ board: any EngineBoard, _ pending: Request, cause: Int, runtime: BoardyRuntime) {
        guard let barrier = board.activationBarrier(withOption: pending.input) else {
            performActivation(board, input: pending.input, inputJSON: pending.inputJSON, cause: cause, runtime: runtime, logged: pending.loggedOption)
            return
        }
        waitOnActivationBarrier(barrier, pending, cause: cause, runtime: runtime)
    }

    /// The activation meets `barrier` (the board's, for this input): it waits for the barrier's
    /// run, starting one if none is open.
    func waitOnActivationBarrier(_ barrier: ActivationBarrier, _ pending: Request, cause: Int, runtime: BoardyRuntime) {
        let id = pending.board
        let identity = runtime.barriers.identity(of: barrier)
        let checked = runtime.record(
            self, cause: cause, .barrierChecked(board: id.rawValue, barrier: identity.traced, scope: barrier.scope.rawValue, result: .wait))
        let owner = barrier.scope == .application ? ObjectIdentifier(runtime) : ObjectIdentifier(self)
        let waited = runtime.barriers.wait(self.pending(pending), onActivationBarrier: barrier, identity: identity, scopeOwner: owner, runtime: runtime)
        let barrierBoard = runtime.debugLog == nil ? barrier.identifier : Self.barrierBoardID(gate: barrier.identifier, traced: identity.traced)
        if let log = runtime.debugLog { logBarrierWait(log, barrierBoard: barrierBoard, option: pending.input, printed: pending.loggedOption) }
        guard let (run, isNew) = waited, isNew else { return }
        // Rule 12: the gate runs once per cycle, activated with the option's value.
        let started = runtime.record(self, cause: checked, .barrierStarted(barrier: run.identifier, board: barrier.identifier.rawValue))
        let gateInput = barrier.gateInput
        submitGate(
            barrier.identifier, input: barrier.gateInput, for: id, node: run.node, cause: started, runtime: runtime,
            announce: { [unowned self] log in self.logBarrierRunStart(log, barrierBoard: barrierBoard, gate: barrier.identifier, gateInput: gateInput) })
    }

    /// Queues the gate's activation for a run; with Boardy's debug log on, `announce` prints the
    /// barrier board asking for it as the activation is taken up.
    func submitGate(
        _ gate: BoardID, input: Any?, for id: BoardID, node: GateNode, cause: Int, runtime: BoardyRuntime,
        announce: ((BoardyDebugLog) -> Void)? = nil
    ) {
        if let log = runtime.debugLog, let announce {
            runtime.submit(
                WorkItem(
                    motherboard: self,
                    action: .call { [unowned self] in
                        announce(log)
                        self.process(.activateGate(gate, input: input, source: id, node: node), cause: cause)
                    }, cause: cause))
            return
        }
        runtime.submit(WorkItem(motherboard: self, action: .activateGate(gate, input: input, source: id, node: node), cause: cause))
    }

    /// Resolves barrier runs taken from the coordinator: for each run, in start order,
    /// `barrier.resolved` and then its waiting activations, in request order, at this time.
    func resolve(_ taken: [(BarrierRun, Bool)], cause: Int, runtime: BoardyRuntime) {
        for (run, verdict) in taken {
            runtime.submit(
                WorkItem(
                    motherboard: run.owner,
                    action: .call {
                        // The run's own gate instance, and the motherboards its waiters were
                        // requested in, live until the work they queue has run: a gateway proxy
                        // whose own run was the last to hold it may be one of them (work items
                        // hold their motherboard unretained).
                        if let host = run.gateHost { runtime.keepAlive(host) }
                        runtime.keepAlive(run.owner)
                        for w in run.waiting where w.motherboard !== run.owner { runtime.keepAlive(w.motherboard) }
                        let passed = runtime.barrierVerdictOverride?(run.identifier, verdict) ?? verdict
                        // Boardy's barrier board completes, then its waiting activations run.
                        if let log = runtime.debugLog { run.owner.logRunResolved(log, run: run, passed: passed) }
                        let resolved = runtime.record(
                            run.owner, cause: cause, .barrierResolved(barrier: run.identifier, passed: passed, released: run.waiting.count))
                        let releaseCause = resolved == 0 ? cause : resolved
                        for w in run.waiting {
                            runtime.submit(
                                WorkItem(
                                    motherboard: w.motherboard,
                                    action: .call { w.motherboard.release(w, passed: passed, fromGateway: run.isGateway, cause: releaseCause, runtime: runtime) },
                                    cause: releaseCause))
                        }
                    }, cause: cause))
        }
    }

    /// A waiting activation after its barrier resolved: cancelled on failure; after a gateway it
    /// goes on to its activation barrier; after an activation barrier it runs directly (rule 15).
    func release(_ w: PendingActivation, passed: Bool, fromGateway: Bool, cause: Int, runtime: BoardyRuntime) {
        guard passed else {
            runtime.record(self, cause: cause, .activationCancelled(board: w.board.rawValue, reason: .barrierFailed))
            return
        }
        guard placeholders.isEmpty || placeholders[w.board] == nil, let board = installed[w.board] ?? produce(w.board) else {
            runtime.record(self, cause: cause, .activationCancelled(board: w.board.rawValue, reason: .unregistered))
            installPlaceholder(w.board)
            return
        }
        if fromGateway {
            checkActivationBarrier(board, w.request, cause: cause, runtime: runtime)
        } else {
            performActivation(board, input: w.request.input, inputJSON: w.request.inputJSON, cause: cause, runtime: runtime, logged: w.request.loggedOption)
        }
    }

    func performActivation(
        _ board: any EngineBoard, input: Any?, inputJSON: JSONValue?, cause: Int, runtime: BoardyRuntime, logged: BoardyDebugLog.Rendered? = nil
    ) {
        if let reason = board.activationRejection(withOption: input) {
            if let log = runtime.warningLog { logRefused(log, board, option: input, reason: reason, printed: logged) }
            runtime.record(self, cause: cause, .activationCancelled(board: board.identifier.rawValue, reason: reason))
            return
        }
        if let log = runtime.debugLog { logActivation(log, of: board, option: input, printed: logged) }
        let seq = runtime.record(self, cause: cause, .activationPerformed(board: board.identifier.rawValue, input: inputJSON))
        runtime.currentCause = seq == 0 ? cause : seq
        board.activate(withOption: input)
    }

    /// Whether a gate can be produced for each run (a producer that says it knows the id, or one
    /// that cannot say).
    /// Whether the producer registers gateway boards (Boardy's `registerGatewayBoard`).
    var producerHasGateways: Bool {
        if let p = ownProducer { return p.hasGatewayRegistrations }
        return hasForeignProducer
    }

    func canProducePerRun(_ gate: BoardID) -> Bool {
        if let p = ownProducer { return p.canProduceBoard(identifier: gate) }
        return hasForeignProducer
    }

    /// Installs Boardy's `NoBoard` for `id`, unless one is there already.
    func installPlaceholder(_ id: BoardID) {
        guard placeholders[id] == nil else { return }
        let placeholder = NoBoard(placeholderFor: id)
        installCount += 1
        placeholder.installOrder = installCount
        placeholders[id] = placeholder
    }

    func produce(_ id: BoardID) -> (any EngineBoard)? {
        // NoBoardProducer's placeholder stands for "not registered" (rule 1), never installed.
        guard let board = boardProducer?.produceBoard(identifier: id), !((board as? NoBoard)?.isPlaceholder ?? false) else { return nil }
        installBoard(board)
        return installed[board.identifier]
    }

    func processOutput(_ board: Board, _ value: consuming Any?, flowAction: Bool, cause: Int, runtime: BoardyRuntime) {
        let id = board.identifier
        if let log = runtime.debugLog { logOutput(log, of: board, value, flowAction: flowAction) }
        let json: JSONValue = runtime.isTracing ? TraceValue.json(value) ?? .null : .null
        let seq = runtime.record(
            self, cause: cause, .outputSent(board: id.rawValue, output: json),
            extra: flowAction ? ["flowAction": true] : JSONObject())
        let routeCause = seq == 0 ? cause : seq
        // A gateway gate's output may resolve its runs (`resolveOn`): taken now, resolved after
        // the flows (as for a completion).
        var taken: [(BarrierRun, Bool)] = []
        if !runtime.barriers.isEmpty && !flowAction && runtime.barriers.hasRuns(gate: id, in: self) {
            taken = runtime.barriers.takeGatewayRuns(outputOf: id, in: self, output: value)
        }
        if flowAction, let parent = parentBoard {
            // Rule 3/21: flow actions go to the parent first, as the continuous board's own.
            let action = copy value
            runtime.submit(WorkItem(motherboard: self, action: .call { parent.sendFlowAction(action) }, cause: routeCause))
        }
        if genericFlows.isEmpty {
            if let candidates = flowsBySource[id] {
                if candidates.count == 1 {
                    // One flow from this board (the usual case): the output and its JSON move
                    // into the route instead of being copied.
                    let flow = candidates[0]
                    if flow.matchesOutput(value, flowAction: flowAction) {
                        runtime.submit(
                            WorkItem(motherboard: self, action: .route(flow, from: id, value: consume value, json: consume json), cause: routeCause))
                    }
                } else {
                    for flow in candidates where flow.matchesOutput(value, flowAction: flowAction) {
                        runtime.submit(WorkItem(motherboard: self, action: .route(flow, from: id, value: copy value, json: json), cause: routeCause))
                    }
                }
            }
        } else {
            let routes = (flowsBySource[id] ?? []).filter { $0.matchesOutput(value, flowAction: flowAction) }
            submitMerged(routes, from: id, value: copy value, json: json, data: value, cause: routeCause, runtime: runtime)
        }
        if !taken.isEmpty { resolve(taken, cause: routeCause, runtime: runtime) }
    }

    /// Submits the matching routes and Boardy's flows that match `data` from `id`, in
    /// registration order. Each of Boardy's flows is traced as `flow.routed` (action `handler`)
    /// before it runs.
    func submitMerged(
        _ routes: [RegisteredFlow], from id: BoardID, value: Any?, json: JSONValue, data: Any?, cause: Int, runtime: BoardyRuntime
    ) {
        let message = BoardOutput(identifier: id, data: data)
        var items: [(Int, WorkItem)] = routes.map { ($0.order, WorkItem(motherboard: self, action: .route($0, from: id, value: value, json: json), cause: cause)) }
        for (order, flow) in genericFlows where flow.match(with: message) {
            let call: () -> Void = { [unowned self] in
                let seq = runtime.record(self, cause: cause, .flowRouted(from: id.rawValue, output: json, to: nil, action: FlowAction.handler.rawValue))
                if seq != 0 { runtime.currentCause = seq }
                if let mismatch = flow.dataMismatch(message) {
                    // Boardy's flow traps here (a debug build); its release build returns.
                    BoardyMisuse(.flowTypeMismatch, board: id, message: mismatch).report(runtime: runtime, mb: self.path)
                    return
                }
                self.activeSource = id
                flow.doNext(with: message)
                self.activeSource = nil
            }
            items.append((order, WorkItem(motherboard: self, action: .call(call), cause: cause)))
        }
        items.sort { $0.0 < $1.0 }
        for (_, item) in items { runtime.submit(item) }
    }

    func processCompletion(_ board: Board, isDone: Bool, cause: Int, runtime: BoardyRuntime) {
        let id = board.identifier
        // Rule 4: only the installed instance completes, once.
        guard let current = installed[id], current === board else { return }
        installed[id] = nil
        (board as? ForeignBoard)?.release(from: self)
        board.host = nil
        board.formerMotherboard = self
        // Work for this board's inner motherboard may still wait on the stack: keep it alive
        // until the runtime's stack is empty.
        runtime.keepAlive(board)
        if let log = runtime.debugLog { logCompletion(log, of: board, isDone: isDone) }
        let seq = runtime.record(self, cause: cause, .boardCompleted(board: id.rawValue, success: isDone))
        let routeCause = seq == 0 ? cause : seq
        // The runs this completion resolves are fixed now (rule 13: a request the completion
        // flows make starts a new cycle, even when they run at once); they resolve after the
        // completion flows.
        let taken = runtime.barriers.isEmpty ? [] : runtime.barriers.takeRuns(completedGate: id, in: self, isDone: isDone)
        if genericFlows.isEmpty {
            if let candidates = flowsBySource[id] {
                for flow in candidates where flow.matchesCompletion(isDone) {
                    runtime.submit(
                        WorkItem(motherboard: self, action: .route(flow, from: id, value: isDone, json: .bool(isDone)), cause: routeCause))
                }
            }
        } else {
            let routes = (flowsBySource[id] ?? []).filter { $0.matchesCompletion(isDone) }
            submitMerged(routes, from: id, value: isDone, json: .bool(isDone), data: CompleteAction(identifier: id, isDone: isDone), cause: routeCause, runtime: runtime)
        }
        if !taken.isEmpty { resolve(taken, cause: routeCause, runtime: runtime) }
    }
}
