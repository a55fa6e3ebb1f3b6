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

extension StepRunner {
    /// Runs a scripted board's steps: outputs and completion go out through the board; activations
    /// and commands go to `inner` (a continuous board's motherboard) or else to the board's own.
    static func script(_ steps: [Step], board: Board, inner: Motherboard?, completed: @escaping () -> Bool, markCompleted: @escaping () -> Void) {
        StepRunner(
            steps: steps, board: board,
            perform: { action in
                switch action {
                case let .output(v): board.sendOutput(v)
                case let .complete(ok):
                    markCompleted()
                    board.complete(ok)
                case let .activate(id, input):
                    if let inner { inner.activate(id, with: input) } else { board.activateBoard(id, with: input) }
                case let .command(c, to):
                    if let inner { inner.sendCommand(c, to: to) } else { board.sendCommand(c, to: to) }
                case .progress: break
                }
            }, isFinished: completed, onEnd: {}
        ).start()
    }
}

/// A plain scenario board: its steps send outputs, complete it, activate siblings, send commands.
final class ScriptedBoard: Board, ActivatableBoard {
    let steps: [Step]
    let bypass: Bool
    let barrier: ActivationBarrier?
    private var completed = false

    init(spec: BoardSpec) {
        steps = spec.onActivate
        bypass = spec.bypassGateway ?? false
        barrier = spec.activationBarrier.map(ScenarioBuilder.barrier)
        super.init(identifier: spec.id)
    }

    func activate(withOption option: Any?) {
        StepRunner.script(steps, board: self, inner: nil, completed: { [self] in completed }, markCompleted: { [self] in completed = true })
    }

    func shouldBypassGatewayBarrier() -> Bool { bypass }
    func activationBarrier(withOption option: Any?) -> ActivationBarrier? { barrier }
}

/// A scenario's continuous (or flow) board: its steps address its inner motherboard.
final class ScriptedContinuousBoard: ContinuousBoard {
    let steps: [Step]
    let bypass: Bool
    let barrier: ActivationBarrier?
    private var completed = false

    init(spec: BoardSpec, producer: BoardProducer) {
        steps = spec.onActivate
        bypass = spec.bypassGateway ?? (spec.kind == .flow)
        barrier = spec.activationBarrier.map(ScenarioBuilder.barrier)
        super.init(identifier: spec.id, boardProducer: producer)
    }

    override func activate(withOption option: Any?) {
        StepRunner.script(
            steps, board: self, inner: continuousMotherboard, completed: { [self] in completed },
            markCompleted: { [self] in completed = true })
    }

    override func shouldBypassGatewayBarrier() -> Bool { bypass }
    override func activationBarrier(withOption option: Any?) -> ActivationBarrier? { barrier }
}
