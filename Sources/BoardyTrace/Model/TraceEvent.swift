/// One line of a trace: something the engine did, with its place in the run.
///
/// `seq` counts from 1 without gaps in occurrence order; `t` never decreases; `mb` names the
/// motherboard (`main`, `main/pubPayment`); `cause` is the `seq` of the earlier event that led to
/// this one. ``body`` holds the kind and its fields; ``extra`` keeps fields this version does not
/// know, so every tool passes them through.
public struct TraceEvent: Sendable, Hashable {
    /// Position in the run, from 1, without gaps.
    public var seq: Int
    /// When it happened, on the trace's clock.
    public var t: TraceTime
    /// The motherboard path: `main`, or `main/<board>` inside a continuous board.
    public var mb: String
    /// The `seq` of the event that led to this one.
    ///
    /// `Int.min` stands for none (a trace's causes are at least 1): an `Int?` would pad the event
    /// by 8 bytes, to 136, and every recorded event is written and kept at this size.
    @inlinable
    public var cause: Int? {
        get { storedCause == .min ? nil : storedCause }
        set { storedCause = newValue ?? .min }
    }
    @usableFromInline var storedCause: Int
    /// The kind and its fields.
    public var body: Body
    /// Fields this version does not know, kept in order and written back as read.
    public var extra: JSONObject

    /// An event.
    @inlinable
    public init(seq: Int, t: TraceTime, mb: String, cause: Int? = nil, body: Body, extra: JSONObject = JSONObject()) {
        self.seq = seq
        self.t = t
        self.mb = mb
        self.storedCause = cause ?? .min
        self.body = body
        self.extra = extra
    }

    /// The `kind` string, e.g. `activation.requested`.
    public var kind: String { body.kind }
}

extension TraceEvent {
    /// What happened, with the fields of its kind (docs/contract.md §2).
    public enum Body: Sendable, Hashable {
        /// An outside input; `fields` holds the action's own fields (board, input, network, ...).
        case stimulus(action: String, fields: JSONObject)
        /// A board was asked to activate.
        case activationRequested(board: String, source: String?, input: JSONValue?)
        /// The gateway was checked.
        case gatewayChecked(board: String, barrier: String, result: GatewayResult)
        /// An activation barrier was checked.
        case barrierChecked(board: String, barrier: String, scope: String, result: BarrierResult)
        /// The gate `board` was activated to resolve `barrier`.
        case barrierStarted(barrier: String, board: String)
        /// The gate completed or sent a resolving output.
        case barrierResolved(barrier: String, passed: Bool, released: Int)
        /// A barrier that waits on itself, with the gates of the cycle in order.
        case barrierLoop(board: String, cycle: [String])
        /// The board's activate ran.
        case activationPerformed(board: String, input: JSONValue?)
        /// The activation will not run.
        case activationCancelled(board: String, reason: CancelReason)
        /// The board sent an output.
        case outputSent(board: String, output: JSONValue)
        /// A flow handler or flow step reacted to an output.
        case flowRouted(from: String, output: JSONValue, to: String?, action: String)
        /// A command reached a board.
        case commandSent(board: String, command: JSONValue)
        /// The board completed and left its motherboard.
        case boardCompleted(board: String, success: Bool?)
        /// A dispatch entered a queue.
        case dispatchQueued(dispatcher: String, event: JSONValue)
        /// Closed barriers held a pull back.
        case dispatchBlocked(dispatcher: String, barriers: [String])
        /// One non-empty pull left the queue.
        case dispatchSent(dispatcher: String, events: Int, flush: Bool)
        /// A dispatch barrier changed.
        case dispatchBarrier(barrier: String, dispatcher: String?, state: String, flushable: Bool)
        /// At the end of a run, a barrier still waiting: its gate and the boards waiting on it.
        case stuckBarrier(barrier: String, gate: String, waiting: [String])
        /// At the end of a run, a dispatcher still holding events.
        case stuckDispatcher(dispatcher: String, waiting: [JSONValue])
        /// `dispatch.dropped`: dispatches left a queue unsent (`dispatcher?`, `reason`, and what was
        /// dropped). Open-ended: its fields as recorded, in order.
        case dispatchDropped(fields: JSONObject)
        /// `runaway`: a bound stopped the run; its fields name the bound and what was pending.
        /// Open-ended: its fields as recorded, in order.
        case runaway(fields: JSONObject)
        /// `choice`: what a varying run took (`point`, `value`, `board?`; point `next` a tie-break,
        /// contract §1.9). Open-ended: its fields as recorded, in order.
        case choice(fields: JSONObject)
        /// A kind this version does not know, with all its fields.
        case unknown(kind: String, fields: JSONObject)

        /// The `kind` string of the contract.
        public var kind: String {
            if case .unknown(let kind, _) = self { return kind }
            return knownKind?.rawValue ?? ""
        }

        /// The kind of every body but ``unknown(kind:fields:)``.
        var knownKind: EventKind? {
            switch self {
            case .stimulus: return .stimulus
            case .activationRequested: return .activationRequested
            case .gatewayChecked: return .gatewayChecked
            case .barrierChecked: return .barrierChecked
            case .barrierStarted: return .barrierStarted
            case .barrierResolved: return .barrierResolved
            case .barrierLoop: return .barrierLoop
            case .activationPerformed: return .activationPerformed
            case .activationCancelled: return .activationCancelled
            case .outputSent: return .outputSent
            case .flowRouted: return .flowRouted
            case .commandSent: return .commandSent
            case .boardCompleted: return .boardCompleted
            case .dispatchQueued: return .dispatchQueued
            case .dispatchBlocked: return .dispatchBlocked
            case .dispatchSent: return .dispatchSent
            case .dispatchBarrier: return .dispatchBarrier
            case .stuckBarrier, .stuckDispatcher: return .stuck
            case .dispatchDropped: return .dispatchDropped
            case .runaway: return .runaway
            case .choice: return .choice
            case .unknown: return nil
            }
        }

        /// The board the event is about, where there is one (`from` for a routing).
        public var board: String? {
            switch self {
            case .activationRequested(let b, _, _), .gatewayChecked(let b, _, _), .barrierChecked(let b, _, _, _),
                .barrierStarted(_, let b), .barrierLoop(let b, _), .activationPerformed(let b, _),
                .activationCancelled(let b, _), .outputSent(let b, _), .commandSent(let b, _),
                .boardCompleted(let b, _), .flowRouted(let b, _, _, _), .stuckBarrier(_, let b, _):
                return b
            case .stimulus(_, let fields), .unknown(_, let fields), .dispatchDropped(let fields), .runaway(let fields), .choice(let fields):
                return fields["board"]?.stringValue
            default:
                return nil
            }
        }
    }

    /// A string-valued enumeration open to values this version does not know.
    public protocol OpenEnum: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible
    where RawValue == String {
        /// A value of `rawValue`, known to this version or not.
        init(rawValue: String)
    }

    /// `gateway.checked` results: `pass`, `wait`, `exempt`, `bypass`.
    public struct GatewayResult: OpenEnum {
        /// The result as the trace spells it.
        public var rawValue: String
        /// A result of `rawValue`, known or not.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The gate already passed (or no gateway applies): the activation goes on.
        public static let pass: GatewayResult = "pass"
        /// The activation waits for the gate.
        public static let wait: GatewayResult = "wait"
        /// The board is exempt from the gateway.
        public static let exempt: GatewayResult = "exempt"
        /// The board bypasses the gateway (`shouldBypassGatewayBarrier()`).
        public static let bypass: GatewayResult = "bypass"
    }

    /// `barrier.checked` results: `pass`, `wait`.
    public struct BarrierResult: OpenEnum {
        /// The result as the trace spells it.
        public var rawValue: String
        /// A result of `rawValue`, known or not.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// No barrier held the activation.
        public static let pass: BarrierResult = "pass"
        /// The activation waits for the barrier's gate.
        public static let wait: BarrierResult = "wait"
    }

    /// Why an activation will not run.
    public struct CancelReason: OpenEnum {
        /// The reason as the trace spells it (`reason`).
        public var rawValue: String
        /// A reason of `rawValue`, known or not.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The barrier's gate completed with `false`.
        public static let barrierFailed: CancelReason = "barrier-failed"
        /// The activation waited on a barrier loop.
        public static let loop: CancelReason = "loop"
        /// A one-at-a-time board was busy.
        public static let busy: CancelReason = "busy"
        /// No board is registered under the id.
        public static let unregistered: CancelReason = "unregistered"
        /// The input is not of the board's input type (boardy-viz extension; Boardy asserts).
        public static let invalidInput: CancelReason = "invalid-input"
        /// A newer activation replaced this one (BlockTaskBoard `.latest`; boardy-viz extension).
        public static let superseded: CancelReason = "superseded"
        /// The board cancelled the tasks it was running or holding (BlockTaskBoard's
        /// `cancelPendingTasksIfNeeded()`; boardy-viz extension).
        public static let cancelled: CancelReason = "cancelled"
    }
}

extension TraceEvent {
    /// Events are equal when they say the same: same place in the run and the same fields. For
    /// open-ended kinds (stimulus, unknown) it does not matter whether a field sits in the body or
    /// in ``extra``.
    public static func == (a: TraceEvent, b: TraceEvent) -> Bool {
        guard a.seq == b.seq, a.t == b.t, a.mb == b.mb, a.cause == b.cause else { return false }
        if a.body == b.body && a.extra == b.extra { return true }
        switch (a.body, b.body) {
        case (.stimulus, .stimulus), (.unknown, .unknown), (.dispatchDropped, .dispatchDropped), (.runaway, .runaway), (.choice, .choice):
            return a.jsonObject == b.jsonObject
        default: return false
        }
    }

    /// Hashes the place in the run and the kind: events that are `==` hash alike.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(seq)
        hasher.combine(t)
        hasher.combine(mb)
        hasher.combine(cause)
        hasher.combine(kind)
    }
}

extension TraceEvent.OpenEnum {
    /// A string literal is the value of that raw value.
    public init(stringLiteral value: String) { self.init(rawValue: value) }
    /// The raw value.
    public var description: String { rawValue }
}
