// Where the engine prints Boardy's debug log: at the steps where it records the matching event,
// so the log comes out in the order of the trace. Every function is called only when the
// runtime has a log (`runtime.debugLog != nil`): a run without one builds no string.
//
// Boardy's own records stand for its machinery (a barrier board per activation barrier, a proxy
// board per gateway run, `<board>.continuous-main` motherboards); the engine has none of those
// objects, so it prints what Boardy's would, by the names Boardy gives them.

extension Motherboard {
    /// The id Boardy's log names this motherboard by: a root's id, `<board>.continuous-main`
    /// inside a continuous board (and inside a gateway run's proxy, `<X>.___GATEWAY___`).
    var debugLogID: String {
        guard !path.isRoot, let last = path.components.last else { return identifier.rawValue }
        return MotherboardPath.decode(last) + ".continuous-main"
    }

    /// `(type, id)` as a record's `🌏` line names the motherboard.
    var debugLogSelf: (type: String, id: String) { (String(describing: type(of: self)), debugLogID) }

    /// `🚀 [Activation]` of `board` with `option` (as Boardy's barrier board handed it, for a
    /// gate whose barrier board asked for it).
    func logActivation(_ log: BoardyDebugLog, of board: any ActivatableBoard, option: Any?, printed kept: BoardyDebugLog.Rendered? = nil) {
        var printed = kept ?? BoardyDebugLog.Rendered(option)
        if kept == nil, let o = takeLoggedGateOption(board.identifier) { printed = o }
        log.activation(
            motherboardType: debugLogSelf.type, motherboard: debugLogID, boardType: BoardyDebugLog.typeName(board), board: board.identifier.rawValue,
            option: printed)
    }

    /// An unregistered id: Boardy's producer answers it with a `NoBoard`, whose activation says so.
    func logUnregistered(_ log: BoardyDebugLog, _ id: BoardID, option: Any?) {
        log.activation(motherboardType: debugLogSelf.type, motherboard: debugLogID, boardType: "NoBoard", board: id.rawValue, option: .init(option))
        log.line("⚠️ [NoBoard] Feature Not Found - Board with identifier \(id.rawValue) was not registered yet!!! ‼️")
    }

    /// A one-at-a-time board refusing an activation: Boardy logs the activation, then the board
    /// says it is busy.
    func logRefused(_ log: BoardyDebugLog, _ board: any ActivatableBoard, option: Any?, reason: TraceEvent.CancelReason, printed: BoardyDebugLog.Rendered? = nil) {
        logActivation(log, of: board, option: option, printed: printed)
        guard reason == .busy else { return }
        let description = "⛵️ [Debug Description]\n    ● [Board] ➤ \(BoardyDebugLog.typeName(board))\n    ● [ID] ➤ \(board.identifier.rawValue)\n"
            + "    ● [Motherboard] ➤ Optional(\(debugLogID))"
        log.line("⚠️ [\(description)] [\(board.identifier.rawValue)] is already activated. Duplicated activations should avoid.")
    }

    /// An activation held behind an activation barrier: Boardy activates the barrier board with
    /// the board's option.
    func logBarrierWait(_ log: BoardyDebugLog, barrierBoard: BoardID, option: Any?, printed: BoardyDebugLog.Rendered? = nil) {
        log.activation(
            motherboardType: debugLogSelf.type, motherboard: debugLogID, boardType: "ActivatableBarrierBoard", board: barrierBoard.rawValue,
            option: printed ?? .init(option))
    }

    /// How a gate's option prints when its barrier board just asked for it (taken once: the
    /// gate's activation, or its request going on to wait, carries it).
    func takeLoggedGateOption(_ board: BoardID) -> BoardyDebugLog.Rendered? {
        guard let o = loggedGateOption, o.board == board else { return nil }
        loggedGateOption = nil
        return o.printed
    }

    /// A new run's barrier board asks for its gate (printed as the gate's activation is taken
    /// up, so a run stopped before it prints nothing).
    func logBarrierRunStart(_ log: BoardyDebugLog, barrierBoard: BoardID, gate: BoardID, gateInput: Any?) {
        // Boardy hands the gate the option's value as an `Any?` (`()` for `.void`); the gate's
        // activation prints it so.
        let value = gateInput.map { "\($0)" } ?? "()"
        log.activity(
            "Next To Board", senderType: "ActivatableBarrierBoard", sender: barrierBoard.rawValue, motherboard: debugLogSelf,
            destination: gate.rawValue, data: .optionalAny(value))
        loggedGateOption = (gate, .optionalAny(value))
    }

    /// A new gateway run: its barrier board asks for the destination's proxy, which this
    /// motherboard activates. `proxyActivated` is false when the engine activates a proxy board
    /// of its own (Boardy's `registerWithActivation` wiring), whose activation is logged as any
    /// other.
    func logGatewayRunStart(_ log: BoardyDebugLog, destination: BoardID, option: Any?, proxyActivated: Bool) {
        let proxy = destination.gateway
        let input = Self.gatewayInput(destination, option)
        log.activity(
            "Next To Board", senderType: "ActivatableBarrierBoard", sender: proxy.privateBarrier.rawValue,
            motherboard: debugLogSelf, destination: proxy.rawValue, data: .optionalAny(input))
        if proxyActivated {
            log.activation(
                motherboardType: debugLogSelf.type, motherboard: debugLogID, boardType: "GatewayBarrierProxy", board: proxy.rawValue,
                option: .optionalAny(input))
        } else {
            loggedGateOption = (proxy, .optionalAny(input))
        }
    }

    /// `[Gateway] with identifier X is installing by X.___GATEWAY___` (or `was installed by`).
    func logGatewayInstall(_ log: BoardyDebugLog, destination: BoardID) {
        let proxy = destination.gateway
        let installed = !loggedGatewayProxies.insert(destination).inserted
        log.activity(
            "Send Out", senderType: "GatewayBarrierProxy", sender: proxy.rawValue, motherboard: debugLogSelf,
            data: .init(type: "String", value: "[Gateway] with identifier \(destination.rawValue) \(installed ? "was installed" : "is installing") by \(proxy.rawValue)"))
    }

    /// An exempt id: Boardy runs its proxy, which passes at once.
    func logGatewayExempt(_ log: BoardyDebugLog, destination: BoardID, option: Any?) {
        logGatewayInstall(log, destination: destination)
        logGatewayRunStart(log, destination: destination, option: option, proxyActivated: true)
        log.line("⏩ [GatewayBarrierProxy] GatewayBarrier has been bypassed by \(destination.gateway.rawValue)")
        logRunCompletion(log, destination: destination, isDone: true)
    }

    /// A run resolved: Boardy's barrier board completes (`isDone: true`, whatever the gate said);
    /// for a gateway run whose proxy the engine does not have, the proxy completes first.
    func logRunResolved(_ log: BoardyDebugLog, run: BarrierRun, passed: Bool) {
        if case let .gateway(_, join) = run.kind {
            if !run.hasProxyBoard {
                logRunCompletion(log, destination: join.destination, isDone: passed)
            } else {
                logBarrierCompletion(log, barrierBoard: run.boardID)
                loggedGatewayProxies.remove(join.destination)
            }
            return
        }
        logBarrierCompletion(log, barrierBoard: run.barrier.map { Self.barrierBoardID(gate: $0.identifier, traced: run.identifier) } ?? run.boardID)
    }

    /// A gateway run's proxy completes (its motherboard goes with it), then its barrier board.
    private func logRunCompletion(_ log: BoardyDebugLog, destination: BoardID, isDone: Bool) {
        let proxy = destination.gateway
        log.activity(
            "Send Out", senderType: "GatewayBarrierProxy", sender: proxy.rawValue, motherboard: debugLogSelf, data: .completion(proxy, isDone))
        logBarrierCompletion(log, barrierBoard: proxy.privateBarrier)
        loggedGatewayProxies.remove(destination)
    }

    private func logBarrierCompletion(_ log: BoardyDebugLog, barrierBoard: BoardID) {
        log.activity(
            "Send Out", senderType: "ActivatableBarrierBoard", sender: barrierBoard.rawValue, motherboard: debugLogSelf,
            data: .completion(barrierBoard, true))
    }

    /// An output or a flow action; a flow action is relayed by the motherboard itself (its
    /// first default flow forwards it to its parent).
    func logOutput(_ log: BoardyDebugLog, of board: Board, _ value: Any?, flowAction: Bool) {
        log.activity(
            flowAction ? "Broadcast Action" : "Send Out", senderType: BoardyDebugLog.typeName(board), sender: board.identifier.rawValue,
            motherboard: debugLogSelf, data: .init(value))
        if flowAction {
            log.activity("Broadcast Action", senderType: debugLogSelf.type, sender: debugLogID, motherboard: nil, data: .init(value))
        }
    }

    /// A board's completion: `CompleteAction(identifier: X, isDone: …)`.
    func logCompletion(_ log: BoardyDebugLog, of board: any IdentifiableBoard, isDone: Bool) {
        log.activity(
            "Send Out", senderType: BoardyDebugLog.typeName(board), sender: board.identifier.rawValue, motherboard: debugLogSelf,
            data: .completion(board.identifier, isDone))
    }

    /// What a completed board sends: it has no motherboard any more.
    func logOrphan(_ log: BoardyDebugLog, of board: Board, _ value: Any?, flowAction: Bool) {
        Self.logOrphan(log, of: board, flowAction ? .flowAction(value) : .output(value))
    }

    /// What a board sends with no motherboard (completed, or its motherboard gone): Boardy logs
    /// the message without a `🌏` line, then says the board has no motherboard.
    static func logOrphan(_ log: BoardyDebugLog, of board: Board, _ emission: Board.Emission) {
        let type = BoardyDebugLog.typeName(board)
        let id = board.identifier.rawValue
        let data: Any?
        switch emission {
        case .output(let v):
            log.activity("Send Out", senderType: type, sender: id, motherboard: nil, data: .init(v))
            data = v
        case .flowAction(let v):
            log.activity("Broadcast Action", senderType: type, sender: id, motherboard: nil, data: .init(v))
            data = v
        case .activate(let target, let input):
            log.activity("Next To Board", senderType: type, sender: id, motherboard: nil, destination: target.rawValue, data: .init(input))
            data = "BoardInput(identifier: \(target.rawValue), option: \(String(describing: input)))"
        case .command(let target, let c):
            log.activity("Send Command", senderType: type, sender: id, motherboard: nil, destination: target.rawValue, data: .init(c))
            data = "BoardCommand(identifier: \(target.rawValue), data: \(String(describing: c)))"
        case .complete(let done):
            log.activity("Send Out", senderType: type, sender: id, motherboard: nil, data: .completion(board.identifier, done))
            data = "Boardy.CompleteAction(identifier: \(id), isDone: \(done))"
        case .cancelled:
            return
        }
        log.line(
            "⚠️ [\(type)] [sendToMotherboard(data:)] [\(id)] sent a message with data \(String(describing: data)) to its Motherboard but it seems to have no Motherboards."
        )
    }

    /// A board asking its motherboard to activate another.
    func logNextToBoard(_ log: BoardyDebugLog, from board: any IdentifiableBoard, to id: BoardID, input: Any?) {
        log.activity(
            "Next To Board", senderType: BoardyDebugLog.typeName(board), sender: board.identifier.rawValue, motherboard: debugLogSelf,
            destination: id.rawValue, data: .init(input))
    }

    /// A board sending another a command.
    func logSendCommand(_ log: BoardyDebugLog, from board: any IdentifiableBoard, to id: BoardID, command: Any?) {
        log.activity(
            "Send Command", senderType: BoardyDebugLog.typeName(board), sender: board.identifier.rawValue, motherboard: debugLogSelf,
            destination: id.rawValue, data: .init(command))
    }

    /// The motherboard handing an installed board a command.
    func logInteraction(_ log: BoardyDebugLog, with board: any ActivatableBoard, command: Any?) {
        log.activation(
            icon: "🚚 [Interaction]", motherboardType: debugLogSelf.type, motherboard: debugLogID, boardType: BoardyDebugLog.typeName(board),
            board: board.identifier.rawValue, option: .init(command))
    }

    /// The barrier board Boardy's log names for a run of `gate` traced as `traced` (`gate`,
    /// `gate:key`, `gate#none`, `gate#N`): `gate.___PRIVATE_BARRIER___` and the key, `none`, or
    /// `unidentified.N` (Boardy uses a random id there; the run's number keeps the log stable).
    static func barrierBoardID(gate: BoardID, traced: String) -> BoardID {
        let base = gate.privateBarrier
        let encodedGate = MotherboardPath.encode(gate.rawValue)
        guard traced.hasPrefix(encodedGate), traced.count > encodedGate.count else { return base }
        let rest = traced.dropFirst(encodedGate.count)
        if rest.hasPrefix(":") { return base.appending(MotherboardPath.decode(String(rest.dropFirst()))) }
        if rest == "#none" { return base.appending("none") }
        if rest.hasPrefix("#") { return base.appending("unidentified").appending(String(rest.dropFirst())) }
        return base
    }

    /// `Optional(Boardy.GatewayInputModel(identifier: X, option: …))`'s inner text.
    static func gatewayInput(_ destination: BoardID, _ option: Any?) -> String {
        // The option as an `Any?` prints: `nil`, or `Optional(…)` with a string in quotes. A
        // scenario's JSON values print as the Swift values they stand for (null is nil).
        let printed: String
        if let json = option as? JSONValue {
            printed = json == .null ? "nil" : "Optional(\(json.jsonText))"
        } else {
            printed = String(describing: option)
        }
        return "Boardy.GatewayInputModel(identifier: \(destination.rawValue), option: \(printed))"
    }
}
