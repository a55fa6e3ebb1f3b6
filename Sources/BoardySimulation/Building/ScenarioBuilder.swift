import BoardyCore
import BoardyComponentKit
import BoardyDispatch

/// The engine objects of a scenario, ready to run.
public struct BuiltScenario {
    /// The scenario.
    public let scenario: Scenario
    /// The runtime (virtual clock, recorder).
    public let runtime: BoardyRuntime
    /// The virtual clock.
    public let scheduler: VirtualScheduler
    /// The main motherboard.
    public let mainboard: Motherboard
    /// The dispatch pipeline, when the scenario has one.
    public let dispatch: DispatchManager?
    /// The other root motherboards, by name.
    public var roots: [String: Motherboard] = [:]
    /// What the run leaves open and how it is decided.
    let variation: Variation
}

/// Turns a ``Scenario`` into real engine objects: the same Motherboard, barriers and ComponentKit
/// boards a Swift user would build (docs/contract.md §1).
public enum ScenarioBuilder {
    /// Builds `scenario` on a fresh virtual clock reporting to `observer`, printing Boardy's
    /// debug log to `debugLog` (by default as Boardy does: in a DEBUG build whose environment
    /// has `BOARDY_LOG_ENABLED=YES`).
    public static func build(_ scenario: Scenario, observer: (any TraceObserver)?, debugLog: BoardyDebugLog? = .fromEnvironment) -> BuiltScenario {
        build(scenario, observer: observer, footprints: [:], debugLog: debugLog)
    }

    /// Builds `scenario` on a fresh virtual clock reporting to `observer`; `footprints` gives
    /// each declared board (by path) the footprint id its scheduled steps are tagged with.
    static func build(
        _ scenario: Scenario, observer: (any TraceObserver)?, footprints: [String: Int], chooser: (any ScheduleChooser)? = nil,
        debugLog: BoardyDebugLog? = nil
    ) -> BuiltScenario {
        let scheduler = VirtualScheduler()
        scheduler.chooser = chooser
        let runtime = BoardyRuntime(scheduler: scheduler, observer: observer, debugLog: debugLog, misuse: .ignore)
        let variation = Variation(runtime: runtime, scheduler: scheduler, footprints: footprints, recordsTies: scenario.hasVariation)
        let mainboard = Motherboard(
            identifier: BoardID(MotherboardPath.main.rawValue), boardProducer: producer(for: scenario.boards, variation), runtime: runtime)
        register(scenario.flows, on: mainboard, continuous: nil)
        if let g = scenario.gateway {
            let map = Dictionary(g.resolveOn.map { ($0.output, $0.passes) }, uniquingKeysWith: { a, _ in a })
            mainboard.install(
                gatewayBarrier: .gate(
                    g.gate, resolveOn: map.isEmpty ? nil : { output in (output as? JSONValue)?.stringValue.flatMap { map[$0] } },
                    instances: g.gateInstance))
            for id in g.exempt { mainboard.install(gatewayBarrier: .exempt, for: id) }
        }
        var dispatch: DispatchManager?
        if let d = scenario.dispatch {
            let dispatchers = d.dispatchers.map { SimulatedDispatcher(id: $0.id, dispatchLimit: $0.dispatchLimit, delay: $0.delay) }
            let settings = d.barriers.map(BarrierSettings.parse) ?? BarrierSettings()
            let manager = DispatchManager(runtime: runtime, dispatchers: dispatchers, settings: settings)
            mainboard.trackOutputs(of: d.trackOutputs, into: manager)
            dispatch = manager
        }
        var built = BuiltScenario(
            scenario: scenario, runtime: runtime, scheduler: scheduler, mainboard: mainboard, dispatch: dispatch, variation: variation)
        // More roots, as a launcher creates them: the same runtime and clock, their own names.
        for r in scenario.roots {
            let mb = Motherboard(identifier: BoardID(r.name), boardProducer: producer(for: r.boards, variation), runtime: runtime)
            register(r.flows, on: mb, continuous: nil)
            built.roots[r.name] = mb
        }
        return built
    }

    static func barrier(_ spec: BarrierSpec) -> ActivationBarrier {
        spec.barrier
    }

    /// Every declared board, produced on demand (so a completed board can be activated again).
    static func producer(for boards: [BoardSpec], _ variation: Variation) -> BoardProducer {
        let producer = BoardProducer()
        for spec in boards {
            producer.add(registration: BoardRegistration(spec.id) { _ in make(spec, variation) })
        }
        return producer
    }

    static func make(_ spec: BoardSpec, _ variation: Variation) -> any ActivatableBoard {
        switch spec.kind {
        case .board:
            return ScriptedBoard(spec: spec, variation: variation)
        case .continuous, .flow:
            let board = ScriptedContinuousBoard(spec: spec, producer: producer(for: spec.boards, variation), variation: variation)
            register(spec.flows, on: board.continuousMotherboard, continuous: board)
            return board
        case .task:
            // A task board hands its executor itself: a Board.
            return TaskBoard<Any?, JSONValue>(identifier: spec.id) { board, _, completion in
                runTask(spec, board: board as! Board, variation: variation, progress: nil) { completion($0.mapError { $0 }) }
            }
        case .blockTask:
            return BlockTaskBoard<Any?, JSONValue>(identifier: spec.id, executingType: spec.executing ?? .default) { board, _, completion in
                runTask(spec, board: board, variation: variation, progress: nil) { completion($0.mapError { $0 }) }
            }
        case .resultTask:
            return ScenarioResultTaskBoard(identifier: spec.id) { board, send in
                runTask(spec, board: board, variation: variation, progress: { send(.progress($0)) }) { result in
                    switch result {
                    case let .success(v): send(.success(v))
                    case let .failure(e): send(.failure(e))
                    }
                }
            }
        case .barrier:
            return BarrierBoard<JSONValue>(identifier: spec.id, adapter: barrierInput)
        }
    }

    /// A task's steps as its executor: outputs set the success value, `complete: false` fails,
    /// the end of the steps succeeds.
    static func runTask(
        _ spec: BoardSpec, board: Board, variation: Variation, progress: ((JSONValue) -> Void)?, finish: @escaping (Result<JSONValue, TaskFailure>) -> Void
    ) {
        var value: JSONValue = .null
        var done = false
        let activation = variation.activationNumber(of: spec.path, varies: spec.varies)
        StepRunner(
            steps: spec.onActivate, board: board, variation: variation, specPath: spec.path,
            perform: { action, index in
                switch action {
                case let .output(v): value = v
                case let .progress(v): progress?(v)
                case let .complete(ok):
                    done = true
                    finish(ok ? .success(value) : .failure(TaskFailure()))
                case .completeEither:
                    let ok = variation.outcome(ofStep: index, of: board, activation: activation)
                    done = true
                    finish(ok ? .success(value) : .failure(TaskFailure()))
                case let .activate(id, input): board.nextToBoard(id, with: input)
                case let .command(c, to): board.sendCommand(c, to: to)
                case let .flowAction(v): board.sendFlowAction(v)
                }
            }, isFinished: { done }, onEnd: { finish(.success(value)) }, activation: activation
        ).start()
    }

    /// A barrier board's scenario input: `{"wait": {"activate": ID, "input": X}}`,
    /// `{"overcome": V}` or `{"cancel": true}`.
    static func barrierInput(_ board: BarrierBoard<JSONValue>, _ option: Any?) -> BarrierBoardInput<JSONValue>? {
        guard let o = (option as? JSONValue)?.objectValue, o.count == 1, let m = o.members.first else { return nil }
        switch m.key {
        case "overcome": return .overcome(m.value)
        case "cancel" where m.value == .bool(true): return .cancel
        case "wait":
            guard let w = m.value.objectValue, let target = w["activate"]?.stringValue else { return nil }
            let input = w["input"]
            // The waiter runs when the barrier is overcome, while the barrier board is still
            // installed: the board asks its motherboard for the activation.
            return .wait { [weak board] _ in board?.nextToBoard(BoardID(target), with: input) }
        default: return nil
        }
    }

    /// Registers scenario flows on `mb`; `continuous` is the board whose inner flows these are.
    static func register(_ flows: [FlowSpec], on mb: Motherboard, continuous: ContinuousBoard?) {
        for flow in flows {
            switch flow {
            case let .steps(ids):
                for i in 0..<(ids.count - 1) { mb.registerFlowSteps(ids[i] ->> ids[i + 1]) }
            case let .handler(from, on, action):
                let matches: (Any?) -> Bool = { output in on == nil || TraceValue.json(output) == on }
                register(action, from: from, trigger: .output(matches: matches), label: on?.jsonText, on: mb, continuous: continuous)
            case let .flowActionHandler(from, on, action):
                let matches: (Any?) -> Bool = { value in on == nil || TraceValue.json(value) == on }
                register(action, from: from, trigger: .flowAction(matches: matches), label: on?.jsonText, on: mb, continuous: continuous)
            }
        }
    }
}

extension ScenarioBuilder {
    static func register(
        _ action: FlowSpec.HandlerAction, from: BoardID, trigger: FlowRoute.Trigger, label: String?, on mb: Motherboard, continuous: ContinuousBoard?
    ) {
        switch action {
        case let .activate(to, input):
            mb.registerFlow(FlowRoute(source: from, trigger: trigger, action: .activate, destination: to, label: label) { mb, output in
                mb.activate(to, with: input ?? TraceValue.json(output))
            })
        case let .complete(to, with):
            mb.registerFlow(FlowRoute(source: from, trigger: trigger, action: .complete, destination: to, label: label) { mb, _ in
                mb.completeBoard(to, isDone: with)
            })
        case let .relay(value):
            mb.registerFlow(FlowRoute(source: from, trigger: trigger, action: .relay, label: label) { [weak continuous] _, _ in
                continuous?.sendOutput(value)
            })
        }
    }
}

/// A scenario task that completed with `false`.
public struct TaskFailure: Error, CustomStringConvertible {
    public var description: String { "the task completed with false" }
}
