/// What the engine installs: a ``Board`` that is an ``ActivatableBoard``. A board of the app's
/// own that conforms to ``ActivatableBoard`` without subclassing ``Board`` (Boardy asks only for
/// `IdentifiableBoard` and `OriginalBoard`) is installed inside a ``ForeignBoard``.
typealias EngineBoard = Board & ActivatableBoard

/// Carries a board that is not a ``Board`` through the engine: the engine keeps its own
/// bookkeeping (its motherboard, its order, its trace home) on this carrier, hands the board's
/// activations, commands and checks to it, and routes what the board sends to its delegate (the
/// motherboard, which it is given) as the carrier's. The motherboard's lists show the board
/// itself, never the carrier.
final class ForeignBoard: Board, ActivatableBoard {
    /// The app's board.
    let wrapped: any ActivatableBoard

    init(_ wrapped: any ActivatableBoard) {
        self.wrapped = wrapped
        super.init(identifier: wrapped.identifier)
    }

    func activate(withOption option: Any?) { wrapped.activate(withOption: option) }
    func interact(command: Any?) { wrapped.interact(command: command) }
    func inputMismatch(_ option: Any?) -> String? { wrapped.inputMismatch(option) }
    var inputTypeDescription: String { wrapped.inputTypeDescription }
    func shouldBypassGatewayBarrier() -> Bool { wrapped.shouldBypassGatewayBarrier() }
    func activationBarrier(withOption option: Any?) -> ActivationBarrier? { wrapped.activationBarrier(withOption: option) }
    func activationRejection(withOption option: Any?) -> TraceEvent.CancelReason? { wrapped.activationRejection(withOption: option) }
    /// The board leaves `motherboard`: it no longer sends there (Boardy clears its delegate).
    func release(from motherboard: Motherboard) {
        if wrapped.delegate === motherboard { wrapped.delegate = nil }
    }

    override func putIntoContext(_ context: AnyObject) {
        super.putIntoContext(context)
        wrapped.putIntoContext(context)
    }
}

extension ActivatableBoard {
    /// The board as the engine installs it: itself when it is a ``Board``, else in a
    /// ``ForeignBoard``.
    var asEngineBoard: any EngineBoard {
        if let board = self as? any EngineBoard { return board }
        return ForeignBoard(self)
    }

    /// The board as the app sees it: the app's own board for a ``ForeignBoard``.
    var appBoard: any ActivatableBoard { (self as? ForeignBoard)?.wrapped ?? self }
}

extension ActivatableBoard {
    /// Runs `action` after `delay` on the scheduler of the board's motherboard (see
    /// ``Board/schedule(after:_:)``): for a task's executor, which is handed the board as an
    /// `ActivatableBoard`. Nothing runs for a board with no motherboard.
    public func schedule(after delay: TraceDuration, _ action: @escaping () -> Void) {
        if let board = self as? Board {
            board.schedule(after: delay, action)
        } else if let mb = delegate as? Motherboard, let runtime = mb.runtime {
            runtime.schedule(after: delay, action)
        }
    }
}
