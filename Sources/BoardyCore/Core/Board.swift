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
open class Board: IdentifiableBoard, OriginalBoard {
    /// The board's id.
    public let identifier: BoardID
    /// The motherboard the board is installed in; nil before installation and after completion.
    /// (Boardy reaches it as ``delegate``; a continuous board's `motherboard` is its inner one.)
    public var hostMotherboard: Motherboard? { host }
    /// Where the board sends what it emits (Boardy's `delegate`): the motherboard it is installed
    /// in, or any other ``BoardDelegate`` set by hand (held weakly, as in Boardy).
    /// Set by hand, it detaches the board from the motherboard that installed it; a motherboard
    /// set this way is held weakly and reached through ``BoardDelegate`` (only a motherboard that
    /// installs the board holds it directly), so a board outliving it never reaches a freed one.
    public var delegate: (any BoardDelegate)? {
        get { host ?? foreignDelegate }
        set {
            host = nil
            foreignDelegate = newValue
        }
    }
    private weak var foreignDelegate: (any BoardDelegate)?
    /// The order the board was installed in, for ``Motherboard/boards``.
    internal var installOrder = 0
    /// Unretained on purpose (the hot path must not retain the motherboard): a motherboard sets it
    /// when it installs the board and clears it when the board leaves or the motherboard goes.
    internal var host: Motherboard? {
        get { hostRef?.takeUnretainedValue() }
        set { hostRef = newValue.map { Unmanaged.passUnretained($0) } }
    }
    /// ``host``, unretained.
    @exclusivity(unchecked) internal var hostRef: Unmanaged<Motherboard>?
    /// The motherboard the board was installed in before it completed: its later emissions are
    /// recorded there as dropped, never routed.
    internal weak var formerMotherboard: Motherboard?
    /// The runtime and motherboard path the board was last installed under: if that motherboard
    /// is released while the board lives on (a scheduled step of an inner board of a completed
    /// continuous board), its emissions are still recorded, as dropped.
    internal var lastHome: (runtime: BoardyRuntime, path: MotherboardPath)?
    /// The root context (a window or view controller in an app; any object headless).
    public internal(set) weak var context: AnyObject?
    /// The contents ``watch(content:)`` holds weakly.
    var watchedContents: [WatchedContentBox] = []

    /// Puts the board into a root context (Boardy's `putIntoContext(_:)`).
    open func putIntoContext(_ context: AnyObject) {
        self.context = context
    }

    /// The board's type, id and motherboard, in Boardy's format (`⛵️ [Debug Description]` and a
    /// line each).
    public var debugDescription: String {
        """
        ⛵️ [Debug Description]
            ● [Board] ➤ \(String(describing: type(of: self)))
            ● [ID] ➤ \(String(describing: identifier))
            ● [Motherboard] ➤ \(String(describing: (delegate as? any IdentifiableBoard)?.identifier))
        """
    }

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

    /// Asks the motherboard to activate another board (Boardy's `nextToBoard(model:)`, without
    /// the model).
    public func nextToBoard(_ id: BoardID, with input: Any? = nil) {
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
    public var currentTraceCause: Int { (host ?? formerMotherboard)?.runtime?.currentCause ?? 0 }

    /// Runs `body` with `cause` as the cause of what it emits and schedules (for work that was
    /// queued by one activation and starts during another, as a queued task does).
    public func withTraceCause<R>(_ cause: Int, _ body: () throws -> R) rethrows -> R {
        guard let runtime = (host ?? formerMotherboard)?.runtime else { return try body() }
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
        guard let mb = host ?? formerMotherboard, let runtime = mb.runtime else { return }
        runtime.schedule(after: delay, action)
    }

    /// The runtime of the motherboard this board is (or was last) installed on.
    public var boardRuntime: BoardyRuntime? { (host ?? formerMotherboard)?.runtime }

    /// The path of the motherboard this board is (or was last) installed on (`main`,
    /// `main/pubPayment`), if any.
    public var motherboardPath: MotherboardPath? { (host ?? formerMotherboard)?.path }

    enum Emission {
        case output(Any?)
        case flowAction(Any?)
        case activate(BoardID, Any?)
        case command(BoardID, Any?)
        case complete(Bool)
        case cancelled(TraceEvent.CancelReason, String?)

        /// What a delegate other than a motherboard receives, in Boardy's models.
        func data(from id: BoardID) -> Any? {
            switch self {
            case let .output(v), let .flowAction(v): return v
            case let .activate(id, input): return BoardInput<Any?>(target: id, input: input)
            case let .command(id, c): return BoardCommand<Any?>(identifier: id, input: c)
            case let .complete(done): return CompleteAction(identifier: id, isDone: done)
            case .cancelled: return nil
            }
        }

        /// What `data`, sent to a motherboard through ``BoardDelegate``, means.
        static func from(_ data: Any?) -> Emission {
            switch data {
            case let model as any BoardInputModel: return .activate(model.identifier, model.option)
            case let done as CompleteAction: return .complete(done.isDone)
            case let command as any BoardCommandModel: return .command(command.identifier, command.data)
            case let action as any BoardFlowAction: return .flowAction(action)
            default: return .output(data)
            }
        }
    }

    func emit(_ emission: Emission) {
        // Held strongly: receiving may run the work stack, whose code may drop the app's last
        // reference to the motherboard.
        if let mb = host {
            mb.receive(emission, from: self)
        } else if let delegate = foreignDelegate {
            if case .cancelled = emission { return }  // a trace note, nothing a delegate receives
            delegate.board(self, didSendData: emission.data(from: identifier))
        } else if let former = formerMotherboard {
            former.receiveOrphan(emission, from: self)
        } else if let home = lastHome {
            home.runtime.recordReleased(emission, from: self, path: home.path)
        } else if let console = BoardyConsole.warningsOnly {
            // Never installed: nothing records it, and Boardy's console says so.
            Motherboard.logOrphan(console, of: self, emission)
        }
    }
}

/// A span of time on a scheduler's clock, in microseconds.
public typealias TraceDuration = TraceTime
