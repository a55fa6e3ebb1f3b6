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
    @exclusivity(unchecked) public private(set) var path: MotherboardPath
    /// The runtime it shares with its parent and children; nil for the inner motherboard of a
    /// continuous board that is not installed yet.
    @exclusivity(unchecked) public private(set) var runtime: BoardyRuntime?
    /// The producer of boards that are not installed yet.
    public let boardProducer: (any ActivatableBoardProducer)?
    /// ``boardProducer`` when it is a ``BoardProducer`` (read on the hot path without a cast).
    let ownProducer: BoardProducer?
    /// Whether ``boardProducer`` is another kind of producer (which may produce anything).
    let hasForeignProducer: Bool
    /// The delegate of a nested motherboard (Boardy's motherboards are boards too).
    public weak var delegate: (any BoardDelegate)?
    /// The root context boards are installed into.
    public private(set) weak var context: AnyObject?
    /// The continuous board that owns this motherboard, if it is an inner one.
    public private(set) weak var parentBoard: ContinuousBoard?

    // The state below is internal, not private, only because the pipeline that works on it
    // lives in Motherboard+Pipeline.swift; nothing outside this class and its extensions
    // touches it.
    //
    // Confined to the driving thread, never accessed overlappingly: no dynamic exclusivity
    // checks on the hot path (see BoardyRuntime).
    @exclusivity(unchecked) var installed = BoardMap<any EngineBoard>()
    /// The `NoBoard`s Boardy installs for ids nothing registered when they were activated, by id:
    /// listed in ``boards``, and they stay, so a later registration of such an id is not used
    /// (Boardy's behaviour). The engine treats their ids as unregistered.
    var placeholders: [BoardID: NoBoard] = [:]
    /// The Swift type of each board installed, by id; named only when the definition is asked
    /// for (spelling a type's name costs microseconds, and an explorer installs boards by the
    /// thousand).
    var declared: [BoardID: any ActivatableBoard.Type] = [:]

    @exclusivity(unchecked) var flowsBySource = BoardMap<[RegisteredFlow]>()
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
    @exclusivity(unchecked) var genericFlows: [(order: Int, flow: any BoardFlow)] = []
    var flowOrder = 0
    var installCount = 0
    /// The gateway proxies Boardy would have installed here (its debug log says "installing"
    /// the first time, "was installed" after).
    var loggedGatewayProxies = Set<BoardID>()
    /// How the next activation of a gate prints its option: as Boardy's barrier board hands it
    /// (an `Any?`), where the engine hands the gate the value itself.
    var loggedGateOption: (board: BoardID, printed: BoardyDebugLog.Rendered)?
    @exclusivity(unchecked) var activeSource: BoardID?

    // The gateway (Boardy rules 8–11): one barrier for every board, and per-board entries
    // (`.exempt` or another gate) that take precedence.
    var gatewayForAll: GatewayBarrier?
    var gatewayByBoard: [BoardID: GatewayBarrier] = [:]
    @exclusivity(unchecked) var hasGateway = false
    /// For the motherboard of a gateway run's own gate instance (Boardy's gateway proxy): the
    /// motherboard whose gateway it runs under, and whose gateway it shares (in Boardy the
    /// proxy shares the producer, which holds the gateway registrations).
    weak var gatewayOrigin: Motherboard?
    /// For the motherboard of a gateway proxy board: the run its activations are made for (the
    /// wait-for graph's edge from the proxy's work to the barriers it waits on).
    @exclusivity(unchecked) var onBehalfOf: GateNode?

    /// A motherboard with `boards` installed now and `boardProducer` producing the others on
    /// demand. A root motherboard gets `runtime` (by default a fresh one on a virtual clock with no
    /// observer).
    public init(
        identifier: BoardID = BoardID(MotherboardPath.main.rawValue), boards: [any ActivatableBoard] = [],
        boardProducer: (any ActivatableBoardProducer)? = nil, runtime: BoardyRuntime? = BoardyRuntime(processing: .immediate)
    ) {
        self.identifier = identifier
        self.path = MotherboardPath(root: identifier.rawValue)
        self.boardProducer = boardProducer
        ownProducer = boardProducer as? BoardProducer
        hasForeignProducer = boardProducer != nil && ownProducer == nil && !(boardProducer is NoBoardProducer)
        self.runtime = runtime
        for board in boards { installBoard(board) }
    }

    /// A motherboard with `boards` installed now and nothing produced on demand (Boardy's
    /// initializer; a fresh runtime on a virtual clock when it is a root).
    public convenience init(identifier: BoardID = BoardID(MotherboardPath.main.rawValue), boards: [any ActivatableBoard] = []) {
        self.init(identifier: identifier, boards: boards, boardProducer: nil, runtime: BoardyRuntime(processing: .immediate))
    }

    /// A motherboard whose boards are all produced on demand by `boardProducer` (Boardy's
    /// initializer).
    public convenience init(identifier: BoardID = BoardID(MotherboardPath.main.rawValue), boardProducer: any ActivatableBoardProducer) {
        self.init(identifier: identifier, boards: [], boardProducer: boardProducer, runtime: BoardyRuntime(processing: .immediate))
    }

    /// A motherboard producing with `boardProducer`, `boards` installed now (Boardy's initializer).
    public convenience init(identifier: BoardID = BoardID(MotherboardPath.main.rawValue), boardProducer: any ActivatableBoardProducer, boards: [any ActivatableBoard]) {
        self.init(identifier: identifier, boards: boards, boardProducer: boardProducer, runtime: BoardyRuntime(processing: .immediate))
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
    init(gatewayProxyFor destination: BoardID, owner: Motherboard, origin: Motherboard, runtime: BoardyRuntime) {
        self.identifier = destination.gateway
        self.path = owner.path.appending(identifier.rawValue)
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
    public func installBoard(_ appBoard: any ActivatableBoard) {
        let board = appBoard.asEngineBoard
        declared[board.identifier] = type(of: appBoard)
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
            continuous.attachInner(runtime: runtime, path: path.appending(board.identifier.rawValue), context: context)
        } else if let foreign = board as? ForeignBoard {
            // A board that is not a Board sends through its delegate, as in Boardy.
            foreign.wrapped.delegate = self
            if let context { foreign.wrapped.putIntoContext(context) }
        }
    }

    /// A board's Swift type as the definition names it: the module users import (`Boardy`)
    /// rather than the target behind it, so fingerprints stay put when the split behind the
    /// umbrella changes.
    /// (`BoardID` moved from the engine to BoardyTrace in 0.2.0; it is still `Boardy.BoardID`.)
    private static func typeName(of type: any ActivatableBoard.Type) -> String {
        String(reflecting: type).replacingOccurrences(of: "BoardyCore.", with: "Boardy.").replacingOccurrences(of: "BoardyTrace.BoardID", with: "Boardy.BoardID")
    }

    /// Installs the motherboard and its boards into a root context (a window, a view controller).
    public func install(into context: AnyObject) {
        self.context = context
        for board in installed.values {
            board.context = context
            (board as? ForeignBoard)?.wrapped.putIntoContext(context)
        }
    }

    /// The installed board with `id`, if any (completed boards are not installed).
    public func board(_ id: BoardID) -> (any ActivatableBoard)? { installed[id]?.appBoard }

    /// Whether a board with `id` is installed now.
    public func isInstalled(_ id: BoardID) -> Bool { installed[id] != nil }

    func attach(runtime: BoardyRuntime, path: MotherboardPath, parent: ContinuousBoard, context: AnyObject?) {
        self.runtime = runtime
        self.path = path
        self.parentBoard = parent
        self.context = context
        for board in installed.values {
            board.context = context
            board.lastHome = (runtime, path)
            if let continuous = board as? ContinuousBoard {
                continuous.attachInner(runtime: runtime, path: path.appending(board.identifier.rawValue), context: context)
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
        var list = flowsBySource.removeValue(forKey: flow.source) ?? []
        list.append(registered)
        flowsBySource[flow.source] = list
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
        if runtime?.misusePolicy != .ignore, flows.contains(where: { $0.identifier == flow.identifier }) {
            BoardyConsole.warn(
                "⚠️ [Motherboard] ➤ \(identifier)\n  [Duplicated flow] ➤ A flow with identifier \(flow.identifier) is already registered!",
                log: runtime?.debugLog)
        }
        flowOrder += 1
        registry.append(.flow(flow))
        genericFlows.append((flowOrder, flow))
        return self
    }

    /// Every flow: Boardy's four default flows (forwarding flow actions, interactions,
    /// activation requests, completions; the engine does their work), then the registered ones
    /// in registration order.
    public var flows: [any BoardFlow] {
        defaultFlows
            + registry.map { entry -> any BoardFlow in
                switch entry {
                case let .route(r): return RouteFlow(registered: r, motherboard: self)
                case let .flow(f): return f
                }
            }
    }

    /// Boardy's default flows, as `flows` lists them (made on first use).
    private var defaultFlows: [any BoardFlow] {
        if let made = madeDefaultFlows { return made }
        let made: [any BoardFlow] = DefaultFlow.Kind.allCases.map { DefaultFlow(kind: $0) }
        madeDefaultFlows = made
        return made
    }
    private var madeDefaultFlows: [any BoardFlow]?

    /// Removes every registered flow; Boardy's default flows stay, as Boardy registers them again.
    public func resetFlows() {
        registry = []
        genericFlows = []
        flowsBySource = BoardMap()
    }

    /// Removes the flows whose identifier is `identifier` (Boardy's default flows are the
    /// engine's own work here and stay).
    public func removeFlow(by identifier: String) {
        registry.removeAll { $0.identifier == identifier }
        genericFlows.removeAll { $0.flow.identifier == identifier }
        for (source, list) in flowsBySource.entries {
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

    // Consuming: the action moves into the work item (a borrowed one was copied, a retain and a
    // release per item).
    func submit(_ action: consuming WorkItem.Action) {
        guard let runtime else {
            // The inner motherboard of a continuous board that is not installed yet: the work
            // waits and runs, in order, once the board is installed.
            waitingForRuntime.append(action)
            return
        }
        runtime.submit(WorkItem(motherboard: self, action: action, cause: runtime.currentCause))
    }

    /// Work asked of an inner motherboard before its continuous board was installed.
    var waitingForRuntime: [WorkItem.Action] = []

    /// Whether a board's request to activate another is performed here (Boardy's default flow)
    /// or only handed to the flows (a ``ComposableMotherboard``, which forwards it to its parent).
    var routesActivationRequests: Bool { true }

    /// A board's emission; `model` is the request or command model the board sent, when it sent
    /// one (``handToFlows(from:_:json:)`` hands it to the flows as it was).
    func receive(_ emission: Board.Emission, from board: Board, model: Any? = nil) {
        switch emission {
        case .output(let v): submit(.output(board, v, flowAction: false))
        case .flowAction(let v): submit(.output(board, v, flowAction: true))
        case .activate(let id, let input):
            if routesActivationRequests {
                if let log = runtime?.debugLog {
                    // Boardy logs the request as the motherboard takes it.
                    submit(
                        .call { [unowned self] in
                            self.logNextToBoard(log, from: board, to: id, input: input)
                            self.process(.activate(id, input: input, source: board.identifier, inputJSON: nil), cause: self.runtime?.currentCause ?? 0)
                        })
                    handToFlows(from: board.identifier, model ?? RelayedRequest(identifier: id, option: input), json: input)
                    return
                }
                submit(.activate(id, input: input, source: board.identifier, inputJSON: nil))
                // Boardy hands the request to every flow after its own activation flow (the first
                // it registers): a flow over `BoardInputModel` sees it.
                handToFlows(from: board.identifier, model ?? RelayedRequest(identifier: id, option: input), json: input)
            } else {
                // Handed to the flows as a message (a composable motherboard forwards it up).
                submit(.output(board, BoardInput<Any?>(target: id, input: input), flowAction: false))
            }
        case .command(let id, let c):
            if let log = runtime?.debugLog {
                submit(
                    .call { [unowned self] in
                        self.logSendCommand(log, from: board, to: id, command: c)
                        self.process(.command(id, c), cause: self.runtime?.currentCause ?? 0)
                    })
                handToFlows(from: board.identifier, model ?? RelayedCommand(identifier: id, data: c), json: c)
                return
            }
            submit(.command(id, c))
            handToFlows(from: board.identifier, model ?? RelayedCommand(identifier: id, data: c), json: c)
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

    /// A request a board made without a model (``Board/nextToBoard(_:with:)``), as flows see it.
    private struct RelayedRequest: BoardInputModel {
        let identifier: BoardID
        let option: Any?
    }

    /// A command a board sent without a model, as flows see it.
    private struct RelayedCommand: BoardCommandModel {
        let identifier: BoardID
        let data: Any?
    }

    /// Hands a board's request or command, as the model Boardy's flows see, to the flows
    /// registered with ``registerFlow(_:)-(BoardFlow)`` that match it (each traced as
    /// `flow.routed`, action `handler`), after the motherboard's own handling of it. Nothing when
    /// no such flow is registered.
    private func handToFlows(from source: BoardID, _ model: Any, json value: Any?) {
        guard !genericFlows.isEmpty else { return }
        submit(
            .call { [unowned self] in
                guard let runtime = self.runtime else { return }
                let json: JSONValue = runtime.isTracing ? TraceValue.json(value) ?? .null : .null
                self.submitMerged([], from: source, value: value, json: json, data: model, cause: runtime.currentCause, runtime: runtime)
            })
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

/// One of the four flows a Boardy motherboard registers for itself, as ``Motherboard/flows``
/// lists it. The engine does their work (forwarding flow actions to the parent, delivering
/// commands, performing requests, removing completed boards); the entry matches nothing itself.
struct DefaultFlow: BoardFlow {
    enum Kind: CaseIterable { case forwardAction, interaction, activation, completion }
    let kind: Kind
    let identifier = UUID().uuidString
    func match(with output: any BoardOutputModel) -> Bool { false }
    func doNext(with output: any BoardOutputModel) {}
}
