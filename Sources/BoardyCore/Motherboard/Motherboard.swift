import Foundation

/// The orchestrator: activates boards, routes what they emit through its flows, removes them when
/// they complete, and reports every step to its runtime's observer.
///
/// ```swift
/// let recorder = TraceRecorder()
/// let mainboard = Motherboard(boards: [cart, ordering, payment], runtime: BoardyRuntime(observer: recorder))
/// mainboard.registerFlowSteps(.pubShoppingCart ->> .pubOrdering ->> .pubPayment)
/// mainboard.activate(.pubShoppingCart, with: "cart-1")
/// ```
///
/// A motherboard is used from one thread (its scheduler's), as Boardy's is from the main thread.
/// Made without a runtime argument it gets a fresh one with no observer, and works as Boardy's
/// does: what an outside call asks for runs on the calling thread before the call returns.
open class Motherboard: MotherboardType, FlowManageable, BoardDelegate {
    /// The motherboard's id: `main` for an app's root.
    public let identifier: BoardID
    /// The path that names it in traces: `main`, or `main/<board>` inside a continuous board.
    @exclusivity(unchecked) public private(set) var path: String
    /// The runtime it shares with its parent and children; nil for the inner motherboard of a
    /// continuous board that is not installed yet.
    @exclusivity(unchecked) public private(set) var runtime: BoardyRuntime?
    /// The producer of boards that are not installed yet.
    public let boardProducer: (any ActivatableBoardProducer)?
    /// ``boardProducer`` when it is a ``BoardProducer`` (read on the hot path without a cast).
    private let ownProducer: BoardProducer?
    /// Whether ``boardProducer`` is another kind of producer (which may produce anything).
    private let hasForeignProducer: Bool
    /// The delegate of a nested motherboard (Boardy's motherboards are boards too).
    public weak var delegate: (any BoardDelegate)?
    /// The root context boards are installed into.
    public private(set) weak var context: AnyObject?
    /// The continuous board that owns this motherboard, if it is an inner one.
    public private(set) weak var parentBoard: ContinuousBoard?

    // Confined to the driving thread, never accessed overlappingly: no dynamic exclusivity
    // checks on the hot path (see BoardyRuntime).
    @exclusivity(unchecked) private var installed: [BoardID: any ActivatableBoard] = [:]
    /// The Swift type of each board installed, by id; named only when the definition is asked
    /// for (spelling a type's name costs microseconds, and an explorer installs boards by the
    /// thousand).
    private var declared: [BoardID: any ActivatableBoard.Type] = [:]

    @exclusivity(unchecked) private var flowsBySource: [BoardID: [RegisteredFlow]] = [:]
    /// Every route in registration order.
    public var routes: [FlowRoute] { registry.compactMap { if case let .route(r) = $0 { return r.flow } else { return nil } } }
    /// Every flow in registration order: a route, or one of Boardy's flows.
    private var registry: [RegistryEntry] = []
    private enum RegistryEntry {
        case route(RegisteredFlow)
        case flow(any BoardFlow)
        var identifier: String {
            switch self {
            case let .route(r): return r.identifier
            case let .flow(f): return f.identifier
            }
        }
    }
    /// Boardy's flows, matched against every message, with their registration order.
    @exclusivity(unchecked) private var genericFlows: [(order: Int, flow: any BoardFlow)] = []
    private var flowOrder = 0
    private var installCount = 0
    @exclusivity(unchecked) private var activeSource: BoardID?

    // The gateway (Boardy rules 8–11): one barrier for every board, and per-board entries
    // (`.exempt` or another gate) that take precedence.
    private var gatewayForAll: GatewayBarrier?
    private var gatewayByBoard: [BoardID: GatewayBarrier] = [:]
    @exclusivity(unchecked) private var hasGateway = false
    /// For the motherboard of a gateway run's own gate instance (Boardy's gateway proxy): the
    /// motherboard whose gateway it runs under, and whose gateway it shares (in Boardy the
    /// proxy shares the producer, which holds the gateway registrations).
    private weak var gatewayOrigin: Motherboard?
    /// For the motherboard of a gateway proxy board: the run its activations are made for (the
    /// wait-for graph's edge from the proxy's work to the barriers it waits on).
    @exclusivity(unchecked) private var onBehalfOf: GateNode?

    /// A motherboard with `boards` installed now and `boardProducer` producing the others on
    /// demand. A root motherboard gets `runtime` (by default a fresh one on a virtual clock with no
    /// observer).
    public init(
        identifier: BoardID = BoardID(MotherboardPath.main.rawValue), boards: [any ActivatableBoard] = [],
        boardProducer: (any ActivatableBoardProducer)? = nil, runtime: BoardyRuntime? = BoardyRuntime(processing: .immediate)
    ) {
        self.identifier = identifier
        self.path = identifier.rawValue
        self.boardProducer = boardProducer
        ownProducer = boardProducer as? BoardProducer
        hasForeignProducer = boardProducer != nil && ownProducer == nil && !(boardProducer is NoBoardProducer)
        self.runtime = runtime
        for board in boards { installBoard(board) }
    }

    /// A motherboard whose boards are all produced on demand (Boardy's dynamic registration).
    public convenience init(
        identifier: BoardID = BoardID(MotherboardPath.main.rawValue), boardProducer: any ActivatableBoardProducer, runtime: BoardyRuntime? = BoardyRuntime(processing: .immediate)
    ) {
        self.init(identifier: identifier, boards: [], boardProducer: boardProducer, runtime: runtime)
    }

    /// A motherboard whose boards are built by `registrationsBuilder` (Boardy's initializer); ids
    /// it does not register are asked of `externalProducer`.
    public convenience init(
        identifier: BoardID = BoardID(MotherboardPath.main.rawValue), externalProducer: any ActivatableBoardProducer = NoBoardProducer(),
        @BoardRegistrationBuilder registrationsBuilder: (_ producer: any ActivatableBoardProducer) -> [BoardRegistration]
    ) {
        let producer = BoardProducer(externalProducer: externalProducer, registrationsBuilder: registrationsBuilder)
        self.init(identifier: identifier, boards: [], boardProducer: producer, runtime: BoardyRuntime(processing: .immediate))
    }

    /// A motherboard producing boards with `boardProducer`, with `boards` installed now (Boardy's
    /// argument order).
    public convenience init(
        identifier: BoardID = BoardID(MotherboardPath.main.rawValue), boardProducer: any ActivatableBoardProducer, boards: [any ActivatableBoard],
        runtime: BoardyRuntime? = BoardyRuntime(processing: .immediate)
    ) {
        self.init(identifier: identifier, boards: boards, boardProducer: boardProducer, runtime: runtime)
    }

    /// The motherboard of one gateway run's own gate instance: named `<destination>.___GATEWAY___`
    /// under `owner`, producing from `origin`'s producer and sharing its gateway.
    private init(gatewayProxyFor destination: BoardID, owner: Motherboard, origin: Motherboard, runtime: BoardyRuntime) {
        self.identifier = destination.appending("___GATEWAY___")
        self.path = MotherboardPath(owner.path).appending(identifier.rawValue).rawValue
        self.boardProducer = origin.boardProducer
        ownProducer = origin.ownProducer
        hasForeignProducer = origin.hasForeignProducer
        self.runtime = runtime
        self.context = owner.context
        self.gatewayOrigin = origin
        self.hasGateway = true
    }

    deinit {
        for board in installed.values where board.host === self { board.host = nil }
        runtime?.barriers.forget(motherboard: ObjectIdentifier(self))
    }

    // MARK: Installing

    /// Installs `board` now: it gets this motherboard as its delegate and its root context. A
    /// board already installed under the same id is replaced.
    public func installBoard(_ board: any ActivatableBoard) {
        declared[board.identifier] = type(of: board)
        if let previous = installed.updateValue(board, forKey: board.identifier), previous !== board {
            previous.host = nil
            runtime?.keepAlive(previous)
        }
        board.host = self
        board.formerMotherboard = nil
        board.context = context
        installCount += 1
        board.installOrder = installCount
        if let runtime { board.lastHome = (runtime, path) }
        if let continuous = board as? ContinuousBoard, let runtime {
            continuous.attachInner(runtime: runtime, path: MotherboardPath(path).appending(board.identifier.rawValue).rawValue, context: context)
        }
    }

    /// A board's Swift type as the definition names it: the module users import (`Boardy`)
    /// rather than the target behind it, so fingerprints stay put when the split behind the
    /// umbrella changes.
    private static func typeName(of type: any ActivatableBoard.Type) -> String {
        String(reflecting: type).replacingOccurrences(of: "BoardyCore.", with: "Boardy.")
    }

    /// Installs the motherboard and its boards into a root context (a window, a view controller).
    public func install(into context: AnyObject) {
        self.context = context
        for board in installed.values { board.context = context }
    }

    /// The installed board with `id`, if any (completed boards are not installed).
    public func board(_ id: BoardID) -> (any ActivatableBoard)? { installed[id] }

    /// Whether a board with `id` is installed now.
    public func isInstalled(_ id: BoardID) -> Bool { installed[id] != nil }

    // MARK: Boardy's MotherboardType

    /// The installed boards, in installation order, then, as Boardy's barrier boards, the
    /// barrier runs this motherboard has open (see ``ActivatableBarrierBoard``).
    public var boards: [any ActivatableBoard] {
        let own = installed.values.sorted { $0.installOrder < $1.installOrder }
        guard let runtime, !runtime.barriers.isEmpty else { return own }
        return own + runtime.barriers.views(ownedBy: self)
    }

    /// Activates board `identifier` with `option` (Boardy's name for ``activate(_:with:)``).
    public func activateBoard(identifier: BoardID, withOption option: Any?) { activate(identifier, with: option) }

    /// Installs `board` (Boardy's name for ``installBoard(_:)``).
    public func addBoard(_ board: any ActivatableBoard) { installBoard(board) }

    /// Uninstalls the board `identifier` without completing it: no completion is traced and no
    /// completion flow runs (Boardy's `removeBoard(withIdentifier:)`).
    public func removeBoard(withIdentifier identifier: BoardID) {
        guard let board = installed.removeValue(forKey: identifier) else { return }
        board.host = nil
        board.formerMotherboard = self
        runtime?.keepAlive(board)
    }

    /// The installed board `identifier` (or the barrier board of an open barrier run of this
    /// motherboard), if any; never produces one.
    public func getBoard(identifier: BoardID) -> (any ActivatableBoard)? {
        if let board = installed[identifier] { return board }
        guard let runtime, !runtime.barriers.isEmpty else { return nil }
        return runtime.barriers.views(ownedBy: self).first { $0.identifier == identifier }
    }

    /// The installed board `identifier`, or one produced and installed now.
    public func getOrProduceBoard(identifier: BoardID) -> (any ActivatableBoard)? { installed[identifier] ?? produce(identifier) }

    /// The gateway board the producer registers for `identifier` (Boardy's `registerGatewayBoard`).
    public func getGatewayBoard(identifier: BoardID) -> (any ActivatableBoard)? { boardProducer?.produceGatewayBoard(identifier: identifier) }

    /// Uninstalls every board.
    public func clearActiveBoards() {
        for id in Array(installed.keys) { removeBoard(withIdentifier: id) }
    }

    /// Puts the motherboard and its boards into a root context (Boardy's `putIntoContext(_:)`).
    public func putIntoContext(_ context: AnyObject) { install(into: context) }

    /// The motherboard's path, for debugging.
    public var debugDescription: String { "Motherboard(\(path))" }

    /// Receives what `board` sends when it calls Boardy's `sendToMotherboard(data:)`.
    public func board(_ board: any IdentifiableBoard, didSendData data: Any?) {
        guard let board = board as? Board else { return }
        receive(.from(data), from: board)
    }

    func attach(runtime: BoardyRuntime, path: String, parent: ContinuousBoard, context: AnyObject?) {
        self.runtime = runtime
        self.path = path
        self.parentBoard = parent
        self.context = context
        for board in installed.values {
            board.context = context
            board.lastHome = (runtime, path)
            if let continuous = board as? ContinuousBoard {
                continuous.attachInner(runtime: runtime, path: MotherboardPath(path).appending(board.identifier.rawValue).rawValue, context: context)
            }
        }
        let waiting = waitingForRuntime
        waitingForRuntime = []
        for action in waiting { submit(action) }
    }

    // MARK: Gateway

    /// Installs a gateway barrier for every board (`id` nil) or for board `id` (for example
    /// `.exempt` for the gate itself and for boards reachable without it).
    public func install(gatewayBarrier: GatewayBarrier, for id: BoardID? = nil) {
        if let id { gatewayByBoard[id] = gatewayBarrier } else { gatewayForAll = gatewayBarrier }
        hasGateway = true
    }

    // MARK: Flows

    /// Registers a route; it sees messages processed from now on (Boardy rule 2).
    public func registerFlow(_ flow: FlowRoute) {
        flowOrder += 1
        let registered = RegisteredFlow(flow, order: flowOrder)
        registry.append(.route(registered))
        flowsBySource[flow.source, default: []].append(registered)
    }

    /// Registers one of Boardy's flows: it is matched against every message (outputs, flow
    /// actions, completions as ``CompleteAction``) from now on, in registration order with the
    /// routes.
    @discardableResult
    public func registerFlow(_ flow: any BoardFlow) -> Self {
        if let route = flow as? RouteFlow {
            registerFlow(route.registered.flow)
            return self
        }
        flowOrder += 1
        registry.append(.flow(flow))
        genericFlows.append((flowOrder, flow))
        return self
    }

    /// Every registered flow, in registration order.
    public var flows: [any BoardFlow] {
        registry.map { entry -> any BoardFlow in
            switch entry {
            case let .route(r): return RouteFlow(registered: r, motherboard: self)
            case let .flow(f): return f
            }
        }
    }

    /// Removes every registered flow.
    public func resetFlows() {
        registry = []
        genericFlows = []
        flowsBySource = [:]
    }

    /// Removes the flows whose identifier is `identifier`.
    public func removeFlow(by identifier: String) {
        registry.removeAll { $0.identifier == identifier }
        genericFlows.removeAll { $0.flow.identifier == identifier }
        for (source, list) in flowsBySource {
            let kept = list.filter { $0.identifier != identifier }
            flowsBySource[source] = kept.isEmpty ? nil : kept
        }
    }

    /// Registers flow steps: `A ->> B ->> C` makes any output of A activate B with that output,
    /// and any output of B activate C (Boardy rule 19).
    public func registerFlowSteps(_ steps: FlowSteps) {
        for (from, to) in steps.steps { registerFlow(.step(from, to)) }
    }

    /// Registers several chains.
    public func registerFlowSteps(_ steps: [FlowSteps]) {
        for s in steps { registerFlowSteps(s) }
    }

    // MARK: Outside calls

    /// Asks for `id` to be activated with `input`. From outside a run it runs now, to completion;
    /// from inside (a board, a flow) it runs right after the current step, depth first.
    public func activate(_ id: BoardID, with input: Any? = nil) {
        submit(.activate(id, input: input, source: activeSource, inputJSON: nil))
    }

    /// Sends `command` to the installed board `id` (Boardy's `interact`); never produces a board.
    public func sendCommand(_ command: Any?, to id: BoardID) {
        submit(.command(id, command))
    }

    /// Completes the installed board `id` from outside, as a user closing its screen would.
    /// A board that is not installed (never activated, or completed already) cannot complete:
    /// the trace records the attempt as `board.completed` with `"delivered": false` and a
    /// `reason` (as an undeliverable command is recorded), so the stimulus never vanishes.
    public func completeBoard(_ id: BoardID, isDone: Bool = true) {
        guard let board = installed[id] else {
            submit(
                .call { [unowned self] in
                    guard let runtime = self.runtime else { return }
                    runtime.record(
                        self, cause: runtime.currentCause, .boardCompleted(board: id.rawValue, success: isDone),
                        extra: ["delivered": false, "reason": "not-installed"])
                })
            return
        }
        submit(.completion(board, isDone))
    }

    /// Runs `body` as one step of this motherboard's work: what it emits is processed after it,
    /// depth first, with the current cause.
    public func perform(_ body: @escaping () -> Void) {
        submit(.call(body))
    }

    private func submit(_ action: WorkItem.Action) {
        guard let runtime else {
            // The inner motherboard of a continuous board that is not installed yet: the work
            // waits and runs, in order, once the board is installed.
            waitingForRuntime.append(action)
            return
        }
        runtime.submit(WorkItem(motherboard: self, action: action, cause: runtime.currentCause))
    }

    /// Work asked of an inner motherboard before its continuous board was installed.
    private var waitingForRuntime: [WorkItem.Action] = []

    /// Whether a board's request to activate another is performed here (Boardy's default flow)
    /// or only handed to the flows (a ``ComposableMotherboard``, which forwards it to its parent).
    var routesActivationRequests: Bool { true }

    func receive(_ emission: Board.Emission, from board: Board) {
        switch emission {
        case .output(let v): submit(.output(board, v, flowAction: false))
        case .flowAction(let v): submit(.output(board, v, flowAction: true))
        case .activate(let id, let input):
            if routesActivationRequests {
                submit(.activate(id, input: input, source: board.identifier, inputJSON: nil))
            } else {
                // Handed to the flows as a message (a composable motherboard forwards it up).
                submit(.output(board, BoardInput<Any?>(target: id, input: input), flowAction: false))
            }
        case .command(let id, let c): submit(.command(id, c))
        case .complete(let done): submit(.completion(board, done))
        case .cancelled(let reason, let detail):
            submit(
                .call { [unowned self] in
                    guard let runtime = self.runtime else { return }
                    runtime.record(
                        self, cause: runtime.currentCause, .activationCancelled(board: board.identifier.rawValue, reason: reason),
                        extra: detail.map { ["detail": .string($0)] } ?? JSONObject())
                })
        }
    }

    /// A completed board's emission: outputs are recorded as dropped, nothing is routed (Boardy
    /// rule 4; Boardy itself lets such outputs drive flows again in some versions).
    func receiveOrphan(_ emission: Board.Emission, from board: Board) {
        guard runtime?.isTracing == true else { return }
        switch emission {
        case .output(let v): submit(.orphanOutput(board, v, flowAction: false))
        case .flowAction(let v): submit(.orphanOutput(board, v, flowAction: true))
        default: break
        }
    }

    // MARK: Processing (called by the runtime, one item at a time)

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
            runtime.record(
                self, cause: cause, .outputSent(board: board.identifier.rawValue, output: TraceValue.json(value) ?? .null),
                extra: Self.droppedExtra(flowAction: flowAction))
        case .route(let registered, let from, let value, let json):
            let seq = runtime.record(
                self, cause: cause,
                .flowRouted(from: from.rawValue, output: json, to: registered.flow.destination?.rawValue, action: registered.flow.action))
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
                let seq = runtime.record(self, cause: cause, .commandSent(board: id.rawValue, command: TraceValue.json(command) ?? .null))
                if seq != 0 { runtime.currentCause = seq }
                board.interact(command: command)
            } else {
                runtime.record(
                    self, cause: cause, .commandSent(board: id.rawValue, command: TraceValue.json(command) ?? .null),
                    extra: ["delivered": false])
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

    private func processActivation(
        _ id: BoardID, input: Any?, source: BoardID?, inputJSON known: JSONValue?, forGate: GateNode?, cause: Int, runtime: BoardyRuntime
    ) {
        // Converted to JSON once, for both events, and only when traced.
        let inputJSON = runtime.isTracing ? (known ?? TraceValue.json(input)) : nil
        let requested = runtime.record(self, cause: cause, .activationRequested(board: id.rawValue, source: source?.rawValue, input: inputJSON))
        let reqCause = requested == 0 ? cause : requested
        // Rule 5: find the installed board or produce and install it, before any check.
        guard let board = installed[id] ?? produce(id) else {
            runtime.record(self, cause: reqCause, .activationCancelled(board: id.rawValue, reason: .unregistered))
            return
        }
        if let mismatch = board.inputMismatch(input) {
            runtime.record(self, cause: reqCause, .activationCancelled(board: id.rawValue, reason: .invalidInput), extra: ["detail": .string(mismatch)])
            return
        }
        let request = Request(board: id, input: input, inputJSON: inputJSON, source: source, requestSeq: reqCause, forGate: forGate)
        // Rule 8: the gateway first, then the board's own activation barrier.
        if (hasGateway || producerHasGateways) && !passesGateway(board, request, runtime: runtime) { return }
        checkActivationBarrier(board, request, cause: reqCause, runtime: runtime)
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
    }

    private func pending(_ r: Request) -> PendingActivation { PendingActivation(motherboard: self, request: r) }

    /// Checks the gateway; true when the activation goes on now, false when it waits for a run
    /// of the gate (or was cancelled on a loop).
    private func passesGateway(_ board: any ActivatableBoard, _ pending: Request, runtime: BoardyRuntime) -> Bool {
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
            runtime.record(
                self, cause: pending.requestSeq,
                .gatewayChecked(board: id.rawValue, barrier: home.gatewayForAll?.gateBoard.map { MotherboardPath.encode($0.rawValue) } ?? "", result: .exempt))
            return true
        case .proxy:
            if board.shouldBypassGatewayBarrier() {
                runtime.record(
                    self, cause: pending.requestSeq,
                    .gatewayChecked(board: id.rawValue, barrier: MotherboardPath.encode(id.appending("___GATEWAY___").rawValue), result: .bypass))
                return true
            }
            return waitOnProxy(nil, pending, home: home, registration: entry, runtime: runtime)
        case let .gate(gate, gateInput, resolveOn, instances):
            if board.shouldBypassGatewayBarrier() {
                runtime.record(self, cause: pending.requestSeq, .gatewayChecked(board: id.rawValue, barrier: MotherboardPath.encode(gate.rawValue), result: .bypass))
                return true
            }
            let checked = runtime.record(
                self, cause: pending.requestSeq, .gatewayChecked(board: id.rawValue, barrier: MotherboardPath.encode(gate.rawValue), result: .wait))
            // Rule 9: one run per destination, its own gate instance unless shared (or unproducible).
            let perRun = instances == .perRun && home.canProducePerRun(gate)
            let makeHost: (() -> Motherboard)? =
                perRun ? { Motherboard(gatewayProxyFor: id, owner: self, origin: home, runtime: runtime) } : nil
            guard
                let (run, isNew) = runtime.barriers.wait(
                    self.pending(pending), onGateway: gate, home: home, resolveOn: resolveOn, makeGateHost: makeHost, runtime: runtime),
                isNew
            else { return false }
            let started = runtime.record(self, cause: checked, .barrierStarted(barrier: MotherboardPath.encode(gate.rawValue), board: gate.rawValue))
            let request = GatewayRequest(destination: id, input: pending.input)
            (run.gateHost ?? home).submitGate(
                gate, input: gateInput.map { $0(request) } ?? request, for: id, node: run.node, cause: started, runtime: runtime)
            return false
        }
    }

    /// Boardy's gateway wiring: the destination's run is a proxy board `<id>.___GATEWAY___`
    /// installed here (made from `registration`, or the producer's gateway board `given`),
    /// activated with the destination's input; the run resolves when the proxy completes. A
    /// second request while the proxy's run is open joins it. Activations in the proxy's own
    /// motherboard run on the run's behalf, so a gate that waits on its own gateway is a loop.
    private func waitOnProxy(
        _ given: (any ActivatableBoard)?, _ pending: Request, home: Motherboard, registration: GatewayBarrierRegistration? = nil,
        runtime: BoardyRuntime
    ) -> Bool {
        let id = pending.board
        let gateID = given?.identifier ?? id.appending("___GATEWAY___")
        let checked = runtime.record(
            self, cause: pending.requestSeq, .gatewayChecked(board: id.rawValue, barrier: MotherboardPath.encode(gateID.rawValue), result: .wait))
        guard
            let (run, isNew) = runtime.barriers.wait(
                self.pending(pending), onGateway: gateID, home: home, resolveOn: nil, makeGateHost: nil, runtime: runtime), isNew
        else { return false }
        let proxy: any ActivatableBoard =
            given ?? GatewayBarrierProxy(destination: id, producer: home.boardProducer, registration: registration!)
        installBoard(proxy)
        if let inner = (proxy as? ContinuousBoard)?.continuousMotherboard {
            inner.gatewayOrigin = home
            inner.hasGateway = home.hasGateway
            inner.onBehalfOf = run.node
        }
        let started = runtime.record(self, cause: checked, .barrierStarted(barrier: MotherboardPath.encode(gateID.rawValue), board: gateID.rawValue))
        submitGate(gateID, input: pending.input, for: id, node: run.node, cause: started, runtime: runtime)
        return false
    }

    /// Checks the board's activation barrier; performs the activation now or leaves it waiting.
    private func checkActivationBarrier(_ board: any ActivatableBoard, _ pending: Request, cause: Int, runtime: BoardyRuntime) {
        guard let barrier = board.activationBarrier(withOption: pending.input) else {
            performActivation(board, input: pending.input, inputJSON: pending.inputJSON, cause: cause, runtime: runtime)
            return
        }
        let id = pending.board
        let identity = runtime.barriers.identity(of: barrier)
        let checked = runtime.record(
            self, cause: cause, .barrierChecked(board: id.rawValue, barrier: identity.traced, scope: barrier.scope.rawValue, result: .wait))
        let owner = barrier.scope == .application ? ObjectIdentifier(runtime) : ObjectIdentifier(self)
        guard
            let (run, isNew) = runtime.barriers.wait(self.pending(pending), onActivationBarrier: barrier, identity: identity, scopeOwner: owner, runtime: runtime),
            isNew
        else { return }
        // Rule 12: the gate runs once per cycle, activated with the option's value.
        let started = runtime.record(self, cause: checked, .barrierStarted(barrier: run.identifier, board: barrier.identifier.rawValue))
        submitGate(barrier.identifier, input: barrier.gateInput, for: id, node: run.node, cause: started, runtime: runtime)
    }

    private func submitGate(_ gate: BoardID, input: Any?, for id: BoardID, node: GateNode, cause: Int, runtime: BoardyRuntime) {
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
    private func release(_ w: PendingActivation, passed: Bool, fromGateway: Bool, cause: Int, runtime: BoardyRuntime) {
        guard passed else {
            runtime.record(self, cause: cause, .activationCancelled(board: w.board.rawValue, reason: .barrierFailed))
            return
        }
        guard let board = installed[w.board] ?? produce(w.board) else {
            runtime.record(self, cause: cause, .activationCancelled(board: w.board.rawValue, reason: .unregistered))
            return
        }
        if fromGateway {
            checkActivationBarrier(board, w.request, cause: cause, runtime: runtime)
        } else {
            performActivation(board, input: w.request.input, inputJSON: w.request.inputJSON, cause: cause, runtime: runtime)
        }
    }

    func performActivation(_ board: any ActivatableBoard, input: Any?, inputJSON: JSONValue?, cause: Int, runtime: BoardyRuntime) {
        if let reason = board.activationRejection(withOption: input) {
            runtime.record(self, cause: cause, .activationCancelled(board: board.identifier.rawValue, reason: reason))
            return
        }
        let seq = runtime.record(self, cause: cause, .activationPerformed(board: board.identifier.rawValue, input: inputJSON))
        runtime.currentCause = seq == 0 ? cause : seq
        board.activate(withOption: input)
    }

    /// Whether a gate can be produced for each run (a producer that says it knows the id, or one
    /// that cannot say).
    /// Whether the producer registers gateway boards (Boardy's `registerGatewayBoard`).
    private var producerHasGateways: Bool {
        if let p = ownProducer { return p.hasGatewayRegistrations }
        return hasForeignProducer
    }

    private func canProducePerRun(_ gate: BoardID) -> Bool {
        if let p = ownProducer { return p.canProduceBoard(identifier: gate) }
        return hasForeignProducer
    }

    private func produce(_ id: BoardID) -> (any ActivatableBoard)? {
        // NoBoardProducer's placeholder stands for "not registered" (rule 1), never installed.
        guard let board = boardProducer?.produceBoard(identifier: id), !((board as? NoBoard)?.isPlaceholder ?? false) else { return nil }
        installBoard(board)
        return board
    }

    private func processOutput(_ board: Board, _ value: Any?, flowAction: Bool, cause: Int, runtime: BoardyRuntime) {
        let id = board.identifier
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
            runtime.submit(WorkItem(motherboard: self, action: .call { parent.sendFlowAction(value) }, cause: routeCause))
        }
        if genericFlows.isEmpty {
            if let candidates = flowsBySource[id] {
                for flow in candidates where flow.matchesOutput(value, flowAction: flowAction) {
                    runtime.submit(WorkItem(motherboard: self, action: .route(flow, from: id, value: value, json: json), cause: routeCause))
                }
            }
        } else {
            let routes = (flowsBySource[id] ?? []).filter { $0.matchesOutput(value, flowAction: flowAction) }
            submitMerged(routes, from: id, value: value, json: json, data: value, cause: routeCause, runtime: runtime)
        }
        if !taken.isEmpty { resolve(taken, cause: routeCause, runtime: runtime) }
    }

    /// Submits the matching routes and Boardy's flows that match `data` from `id`, in
    /// registration order. Each of Boardy's flows is traced as `flow.routed` (action `handler`)
    /// before it runs.
    private func submitMerged(
        _ routes: [RegisteredFlow], from id: BoardID, value: Any?, json: JSONValue, data: Any?, cause: Int, runtime: BoardyRuntime
    ) {
        let message = BoardOutput(identifier: id, data: data)
        var items: [(Int, WorkItem)] = routes.map { ($0.order, WorkItem(motherboard: self, action: .route($0, from: id, value: value, json: json), cause: cause)) }
        for (order, flow) in genericFlows where flow.match(with: message) {
            let call: () -> Void = { [unowned self] in
                let seq = runtime.record(self, cause: cause, .flowRouted(from: id.rawValue, output: json, to: nil, action: "handler"))
                if seq != 0 { runtime.currentCause = seq }
                self.activeSource = id
                flow.doNext(with: message)
                self.activeSource = nil
            }
            items.append((order, WorkItem(motherboard: self, action: .call(call), cause: cause)))
        }
        items.sort { $0.0 < $1.0 }
        for (_, item) in items { runtime.submit(item) }
    }

    private func processCompletion(_ board: Board, isDone: Bool, cause: Int, runtime: BoardyRuntime) {
        let id = board.identifier
        // Rule 4: only the installed instance completes, once.
        guard let current = installed[id], current === board else { return }
        installed[id] = nil
        board.host = nil
        board.formerMotherboard = self
        // Work for this board's inner motherboard may still wait on the stack: keep it alive
        // until the runtime's stack is empty.
        runtime.keepAlive(board)
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

    // MARK: Definition

    /// The registrations as JSON: boards (id and Swift type, sorted by id), produced ids, and
    /// flows in registration order; continuous boards nest their own. Its fingerprint goes into
    /// a trace's header.
    public var definition: JSONValue {
        var boards: [JSONValue] = []
        for id in declared.keys.sorted() {
            var o: JSONObject = ["id": .string(id.rawValue), "type": .string(Self.typeName(of: declared[id]!))]
            if let continuous = installed[id] as? ContinuousBoard { o["motherboard"] = continuous.continuousMotherboard.definition }
            boards.append(.object(o))
        }
        var o: JSONObject = ["boards": .array(boards)]
        if let producer = boardProducer as? BoardProducer { o["produced"] = .array(producer.registeredIDs.map { .string($0.rawValue) }) }
        o["flows"] = .array(routes.map(\.definition) + genericFlows.map { JSONValue.object(["flow": .string(String(describing: type(of: $0.flow)))]) })
        return .object(o)
    }

    /// `sha256:` of the canonical JSON of ``definition``.
    public var definitionFingerprint: String { DefinitionFingerprint.of(definition) }

    /// A trace header for a run of this motherboard.
    public func traceHeader(scenario: String? = nil) -> TraceHeader {
        TraceHeader(scenario: scenario, clock: runtime?.scheduler.clock ?? .virtual, definition: definitionFingerprint)
    }
}
