import BoardyCore

/// Runs a board's `onActivate` steps in order, each `after` seconds after the previous one, on the
/// board's scheduler; stops once `isFinished` says the board completed.
struct StepRunner {
    let steps: [Step]
    let board: Board
    let variation: Variation
    let specPath: String
    let perform: (Step.Action, Int) -> Void
    let isFinished: () -> Bool
    let onEnd: () -> Void
    let activation: Int

    func start() { run(0) }

    /// Runs steps without delay inline, in a loop; schedules the rest from the first delayed one.
    private func run(_ first: Int) {
        var i = first
        while i < steps.count {
            guard !isFinished() else { return }
            let step = steps[i]
            if step.after.microseconds > 0 || step.afterUpTo != nil {
                let next = i
                variation.schedule(
                    step: step, index: i, of: board, specPath: specPath, activation: activation,
                    live: step.afterUpTo == nil ? nil : { [self] in !isFinished() }
                ) { [self] in
                    guard !isFinished() else { return }
                    perform(steps[next].action, next)
                    run(next + 1)
                }
                return
            }
            perform(step.action, i)
            i += 1
        }
        if !isFinished() { onEnd() }
    }
}

/// A scripted board (plain or continuous) runs its steps itself, without closures: steps
/// without delay run inline in a loop; the first delayed one schedules the rest. Outputs and
/// completion go out through the board; activations and commands go to ``stepTarget`` (a
/// continuous board's inner motherboard) or else to the board's own.
protocol ScriptedSteps: Board {
    var steps: [Step] { get }
    var completed: Bool { get set }
    var stepTarget: Motherboard? { get }
    var variation: Variation { get }
    var specPath: String { get }
    /// Whether any of its steps leaves something open (its activations are numbered then).
    var varies: Bool { get }
}

extension ScriptedSteps {
    /// Starts the steps of a new activation.
    func startSteps() { runSteps(from: 0, activation: variation.activationNumber(of: specPath, varies: varies)) }

    /// Whether its steps still run: not once a step completed it. (A board completed from
    /// outside goes on with its steps, as a Boardy board's own code does; what it then emits
    /// is traced as dropped.)
    var stepsRun: Bool { !completed }

    func runSteps(from first: Int, activation: Int) {
        var i = first
        while i < steps.count {
            if !stepsRun { return }
            let step = steps[i]
            if step.after.microseconds > 0 || step.afterUpTo != nil {
                // Only a ranged step needs to ask (and a closure made only then costs
                // nothing on the plain path).
                variation.schedule(
                    step: step, index: i, of: self, specPath: specPath, activation: activation,
                    live: step.afterUpTo == nil ? nil : { [self] in stepsRun }
                ) { [self] in
                    guard stepsRun else { return }
                    perform(steps[i].action, index: i, activation: activation)
                    runSteps(from: i + 1, activation: activation)
                }
                return
            }
            perform(step.action, index: i, activation: activation)
            i += 1
        }
    }

    private func perform(_ action: Step.Action, index: Int, activation: Int) {
        switch action {
        case let .output(v): sendOutput(v)
        case let .complete(ok):
            completed = true
            complete(ok)
        case .completeEither:
            let ok = variation.outcome(ofStep: index, of: self, activation: activation)
            completed = true
            complete(ok)
        case let .activate(id, input):
            if let inner = stepTarget { inner.activate(id, with: input) } else { nextToBoard(id, with: input) }
        case let .command(c, to):
            if let inner = stepTarget { inner.sendCommand(c, to: to) } else { sendCommand(c, to: to) }
        case .progress: break
        case let .flowAction(v): sendFlowAction(v)
        }
    }
}

/// A plain scenario board: its steps send outputs, complete it, activate siblings, send commands.
final class ScriptedBoard: Board, ActivatableBoard, ScriptedSteps {
    let steps: [Step]
    let bypass: Bool
    let barrier: ActivationBarrier?
    var completed = false
    var stepTarget: Motherboard? { nil }
    let variation: Variation
    let specPath: String
    let varies: Bool

    init(spec: BoardSpec, variation: Variation) {
        steps = spec.onActivate
        self.variation = variation
        specPath = spec.path
        varies = spec.varies
        bypass = spec.bypassGateway ?? false
        barrier = spec.activationBarrier.map(ScenarioBuilder.barrier)
        super.init(identifier: spec.id)
    }

    func activate(withOption option: Any?) { startSteps() }

    func shouldBypassGatewayBarrier() -> Bool { bypass }
    func activationBarrier(withOption option: Any?) -> ActivationBarrier? { barrier }
}

/// A scenario's continuous (or flow) board: its steps address its inner motherboard.
final class ScriptedContinuousBoard: ContinuousBoard, ActivatableBoard, ScriptedSteps {
    let steps: [Step]
    let bypass: Bool
    let barrier: ActivationBarrier?
    var completed = false
    var stepTarget: Motherboard? { continuousMotherboard }
    let variation: Variation
    let specPath: String
    let varies: Bool

    init(spec: BoardSpec, producer: BoardProducer, variation: Variation) {
        steps = spec.onActivate
        self.variation = variation
        specPath = spec.path
        varies = spec.varies
        bypass = spec.bypassGateway ?? (spec.kind == .flow)
        barrier = spec.activationBarrier.map(ScenarioBuilder.barrier)
        super.init(identifier: spec.id, boardProducer: producer)
    }

    func activate(withOption option: Any?) { startSteps() }

    func shouldBypassGatewayBarrier() -> Bool { bypass }
    func activationBarrier(withOption option: Any?) -> ActivationBarrier? { barrier }
}
