/// The base of every board: its identity, the motherboard it is installed in, its root context,
/// and the helpers through which it emits (Boardy rule 1: a board emits only through its
/// motherboard).
///
/// Subclass it and adopt ``ActivatableBoard`` (or ``GuaranteedBoard`` for a typed input):
/// ```swift
/// final class PaymentBoard: Board, GuaranteedBoard {
///     typealias InputType = String
///     func activate(withGuaranteedInput input: String) {
///         sendOutput("paid \(input)")
///         complete()
///     }
/// }
/// ```
open class Board {
    /// The board's id.
    public let identifier: BoardID
    /// The motherboard the board is installed in; nil before installation and after completion.
    public var motherboard: Motherboard? { host }
    /// Unretained on purpose (the hot path must not retain the motherboard): a motherboard sets it
    /// when it installs the board and clears it when the board leaves or the motherboard goes.
    @exclusivity(unchecked) internal unowned(unsafe) var host: Motherboard?
    /// The motherboard the board was installed in before it completed: its later emissions are
    /// recorded there as dropped, never routed.
    internal weak var formerMotherboard: Motherboard?
    /// The runtime and motherboard path the board was last installed under: if that motherboard
    /// is released while the board lives on (a scheduled step of an inner board of a completed
    /// continuous board), its emissions are still recorded, as dropped.
    internal var lastHome: (runtime: BoardyRuntime, path: String)?
    /// The root context (a window or view controller in an app; any object headless).
    public internal(set) weak var context: AnyObject?

    /// A board named `identifier`.
    public init(identifier: BoardID) {
        self.identifier = identifier
    }

    /// Sends an output to the motherboard, which routes it to the flows that match.
    public func sendOutput(_ output: Any?) {
        emit(.output(output))
    }

    /// Sends a flow action: the motherboard forwards it to its parent first, then to its action
    /// handlers.
    public func sendFlowAction(_ action: Any?) {
        emit(.flowAction(action))
    }

    /// Asks the motherboard to activate another board.
    public func activateBoard(_ id: BoardID, with input: Any? = nil) {
        emit(.activate(id, input))
    }

    /// Sends a command to another installed board (it never produces a board).
    public func sendCommand(_ command: Any?, to id: BoardID) {
        emit(.command(id, command))
    }

    /// Completes the board: it leaves its motherboard (which runs its completion flows). A second
    /// completion does nothing.
    public func complete(_ isDone: Bool = true) {
        emit(.complete(isDone))
    }

    /// The `seq` of the event that what this board emits now would be attributed to (0 when
    /// nothing is traced). Keep it to attribute later work to the activation that asked for it.
    public var currentTraceCause: Int { (motherboard ?? formerMotherboard)?.runtime?.currentCause ?? 0 }

    /// Runs `body` with `cause` as the cause of what it emits and schedules (for work that was
    /// queued by one activation and starts during another, as a queued task does).
    public func withTraceCause<R>(_ cause: Int, _ body: () throws -> R) rethrows -> R {
        guard let runtime = (motherboard ?? formerMotherboard)?.runtime else { return try body() }
        return try runtime.withCause(cause, body)
    }

    /// Reports that an activation of this board will not run to its end (for example a task
    /// superseded by a newer one): traced as `activation.cancelled` with `reason`.
    public func sendCancellation(reason: TraceEvent.CancelReason, detail: String? = nil) {
        emit(.cancelled(reason, detail))
    }

    /// Runs `action` after `delay` on the motherboard's scheduler; whatever it emits is traced as
    /// caused by what was running when it was scheduled.
    public func schedule(after delay: TraceDuration, _ action: @escaping () -> Void) {
        guard let mb = motherboard ?? formerMotherboard, let runtime = mb.runtime else { return }
        runtime.schedule(after: delay, action)
    }

    enum Emission {
        case output(Any?)
        case flowAction(Any?)
        case activate(BoardID, Any?)
        case command(BoardID, Any?)
        case complete(Bool)
        case cancelled(TraceEvent.CancelReason, String?)
    }

    func emit(_ emission: Emission) {
        if let mb = motherboard {
            mb.receive(emission, from: self)
        } else if let former = formerMotherboard {
            former.receiveOrphan(emission, from: self)
        } else if let home = lastHome {
            home.runtime.recordReleased(emission, from: self, path: home.path)
        }
    }
}

/// A span of time on a scheduler's clock, in microseconds.
public typealias TraceDuration = TraceTime
