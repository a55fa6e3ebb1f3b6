import Boardy

/// Runs a board's `onActivate` steps in order, each `after` seconds after the previous one, on the
/// board's scheduler; stops once `isFinished` says the board completed.
struct StepRunner {
    let steps: [Step]
    let board: Board
    let perform: (Step.Action) -> Void
    let isFinished: () -> Bool
    let onEnd: () -> Void

    func start() { run(0) }

    /// Runs steps without delay inline, in a loop; schedules the rest from the first delayed one.
    private func run(_ first: Int) {
        var i = first
        while i < steps.count {
            guard !isFinished() else { return }
            let step = steps[i]
            if step.after.microseconds > 0 {
                let next = i
                board.schedule(after: step.after) { [self] in
                    guard !isFinished() else { return }
                    perform(steps[next].action)
                    run(next + 1)
                }
                return
            }
            perform(step.action)
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
}

extension ScriptedSteps {
    func runSteps(from first: Int) {
        var i = first
        while i < steps.count {
            if completed { return }
            let step = steps[i]
            if step.after.microseconds > 0 {
                schedule(after: step.after) { [self] in
                    guard !completed else { return }
                    perform(steps[i].action)
                    runSteps(from: i + 1)
                }
                return
            }
            perform(step.action)
            i += 1
        }
    }

    private func perform(_ action: Step.Action) {
        switch action {
        case let .output(v): sendOutput(v)
        case let .complete(ok):
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

    init(spec: BoardSpec) {
        steps = spec.onActivate
        bypass = spec.bypassGateway ?? false
        barrier = spec.activationBarrier.map(ScenarioBuilder.barrier)
        super.init(identifier: spec.id)
    }

    func activate(withOption option: Any?) { runSteps(from: 0) }

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

    init(spec: BoardSpec, producer: BoardProducer) {
        steps = spec.onActivate
        bypass = spec.bypassGateway ?? (spec.kind == .flow)
        barrier = spec.activationBarrier.map(ScenarioBuilder.barrier)
        super.init(identifier: spec.id, boardProducer: producer)
    }

    func activate(withOption option: Any?) { runSteps(from: 0) }

    func shouldBypassGatewayBarrier() -> Bool { bypass }
    func activationBarrier(withOption option: Any?) -> ActivationBarrier? { barrier }
}
