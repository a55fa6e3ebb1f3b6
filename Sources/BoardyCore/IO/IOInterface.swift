/// Type-safe access to one board through a motherboard, in Boardy's style but without code
/// generation. Declare it once per board:
///
/// ```swift
/// extension Motherboard {
///     func ioPayment() -> IOInterface<PaymentInput, PaymentOutput, PaymentCommand> { io(.pubPayment) }
/// }
///
/// mainboard.ioPayment().activation.activate(with: input)
/// mainboard.ioPayment().flow.addTarget(mainboard) { mainboard, output in
///     mainboard.ioReceipt().activation.activate(with: output.transactionID)
/// }
/// ```
public struct IOInterface<Input, Output, Command> {
    /// The motherboard the board lives in.
    public let motherboard: Motherboard
    /// The board's id.
    public let identifier: BoardID

    /// Access to `identifier` in `motherboard`.
    public init(motherboard: Motherboard, identifier: BoardID) {
        self.motherboard = motherboard
        self.identifier = identifier
    }

    /// Activating the board.
    public var activation: ActivationHandle<Input> { ActivationHandle(motherboard: motherboard, identifier: identifier) }
    /// Reacting to the board's outputs.
    public var flow: FlowHandle<Output> { FlowHandle(motherboard: motherboard, identifier: identifier) }
    /// Reacting to the board's completion.
    public var completion: CompletionHandle { CompletionHandle(motherboard: motherboard, identifier: identifier) }
    /// Sending commands to the board.
    public var interaction: InteractionHandle<Command> { InteractionHandle(motherboard: motherboard, identifier: identifier) }
}

extension Motherboard {
    /// Typed access to board `id`.
    public func io<Input, Output, Command>(
        _ id: BoardID, input: Input.Type = Input.self, output: Output.Type = Output.self, command: Command.Type = Command.self
    ) -> IOInterface<Input, Output, Command> {
        IOInterface(motherboard: self, identifier: id)
    }
}

/// Activates one board with a typed input.
public struct ActivationHandle<Input> {
    let motherboard: Motherboard
    let identifier: BoardID

    /// Activates the board with `input`.
    public func activate(with input: Input) {
        motherboard.activate(identifier, with: input)
    }
}

extension ActivationHandle where Input == Void {
    /// Activates a board that takes no input.
    public func activate() {
        motherboard.activate(identifier, with: nil)
    }
}

/// Reacts to one board's typed outputs.
public struct FlowHandle<Output> {
    let motherboard: Motherboard
    let identifier: BoardID

    /// Runs `action` for each output of the board while `target` lives (it is held weakly).
    public func addTarget<Target: AnyObject>(_ target: Target, action: @escaping (Target, Output) -> Void) {
        motherboard.registerFlow(
            FlowRoute(
                source: identifier, trigger: .output(matches: { BoardValue.cast($0, to: Output.self) != nil }), action: "handler",
                label: String(describing: Output.self)
            ) { [weak target] _, value in
                guard let target, let output = BoardValue.cast(value, to: Output.self) else { return }
                action(target, output)
            })
    }

    /// Activates `destination` with each output (a flow step, `A ->> B`, for one source).
    public func activate(_ destination: BoardID) {
        motherboard.registerFlowSteps(identifier ->> destination)
    }
}

/// Reacts to one board's completion.
public struct CompletionHandle {
    let motherboard: Motherboard
    let identifier: BoardID

    /// Runs `action` with `isDone` when the board completes, while `target` lives.
    public func addTarget<Target: AnyObject>(_ target: Target, action: @escaping (Target, Bool) -> Void) {
        motherboard.registerFlow(
            FlowRoute(source: identifier, trigger: .completion(isDone: nil), action: "completion") { [weak target] _, value in
                guard let target, let isDone = value as? Bool else { return }
                action(target, isDone)
            })
    }
}

/// Sends typed commands to one board.
public struct InteractionHandle<Command> {
    let motherboard: Motherboard
    let identifier: BoardID

    /// Sends `command` to the board, if it is installed.
    public func send(command: Command) {
        motherboard.sendCommand(command, to: identifier)
    }
}
