import BoardyCore

/// What a ``BarrierBoard`` is activated with (Boardy's `BarrierBoard.Action`).
public typealias BarrierBoardInput<Value> = BarrierBoard<Value>.Action

/// Holds actions until something happens (ComponentKit's `BarrierBoard`), e.g. "add to cart once
/// the user has logged in": `.wait` queues an action, `.overcome(value)` runs the queue in order
/// with the value, sends it as output and completes (true); `.cancel` drops the queue and
/// completes (false). Its state ends with its completion: register it with a `BoardProducer`
/// so the next `.wait` gets a fresh board (Boardy rule 27). It bypasses the gateway.
public final class BarrierBoard<Value>: Board, GuaranteedBoard, GuaranteedOutputSendingBoard {
    /// What it is activated with: ``Action``.
    public typealias InputType = BarrierBoardInput<Value>
    /// The value the barrier is overcome with, sent as its output.
    public typealias OutputType = Value
    /// What the board is activated with (Boardy's `BarrierBoard.Action`).
    public enum Action: TraceValueConvertible {
        /// Queue an action to run once the barrier is overcome.
        case wait(Process)
        /// Run the queued actions with the value, in order; send it; complete(true).
        case overcome(Value)
        /// Drop the queued actions; complete(false).
        case cancel

        /// The action as a trace shows it.
        public var traceValue: JSONValue {
            switch self {
            case .wait: return ["wait": true]
            case let .overcome(v): return ["overcome": TraceValue.json(v) ?? .null]
            case .cancel: return ["cancel": true]
            }
        }
    }
    /// A waiter (Boardy's `BarrierBoard.Process`).
    public typealias Process = (Value) -> Void
    private var waiters: [(Value) -> Void] = []
    private let adapter: ((BarrierBoard<Value>, Any?) -> BarrierBoardInput<Value>?)?

    /// A barrier board; `adapter` turns other inputs (a scenario's JSON, say) into its inputs.
    public init(identifier: BoardID, adapter: ((BarrierBoard<Value>, Any?) -> BarrierBoardInput<Value>?)? = nil) {
        self.adapter = adapter
        super.init(identifier: identifier)
    }

    private func input(_ option: Any?) -> BarrierBoardInput<Value>? {
        (option as? BarrierBoardInput<Value>) ?? adapter?(self, option)
    }

    /// Nil for an ``Action`` or an input the adapter turns into one; else what was expected.
    public func inputMismatch(_ option: Any?) -> String? {
        input(option) == nil ? "expected BarrierBoardInput<\(Value.self)> (wait, overcome or cancel)" : nil
    }

    /// Runs the ``Action`` the option is or the adapter makes of it; ignores anything else.
    public func activate(withOption option: Any?) {
        if let i = input(option) { activate(withGuaranteedInput: i) }
    }

    /// How many actions wait.
    public var waitingCount: Int { waiters.count }

    /// Always bypasses the gateway.
    public func shouldBypassGatewayBarrier() -> Bool { true }

    /// `.wait` queues the action; `.overcome` runs the queue, sends the value and completes (true);
    /// `.cancel` drops the queue and completes (false).
    public func activate(withGuaranteedInput input: BarrierBoardInput<Value>) {
        switch input {
        case let .wait(action):
            waiters.append(action)
        case let .overcome(value):
            let queued = waiters
            waiters.removeAll()
            for action in queued { action(value) }
            sendOutput(value)
            complete(true)
        case .cancel:
            waiters.removeAll()
            complete(false)
        }
    }
}
