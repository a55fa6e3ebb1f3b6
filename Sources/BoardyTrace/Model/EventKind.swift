/// Every event kind a trace of ours holds: the `kind` field of a line (docs/contract.md §2.3). A trace may
/// hold kinds not listed (a newer writer's); they read as ``TraceEvent/Body/unknown(kind:fields:)``.
public enum EventKind: String, Sendable, CaseIterable {
    /// Something from outside the flow: a script step, a test's call, a dispatch stimulus.
    case stimulus
    /// A board was asked to activate.
    case activationRequested = "activation.requested"
    /// The gateway barrier was consulted for a board.
    case gatewayChecked = "gateway.checked"
    /// A board's activation barrier was consulted.
    case barrierChecked = "barrier.checked"
    /// A barrier's gate started.
    case barrierStarted = "barrier.started"
    /// A barrier's gate completed, releasing the boards waiting on it.
    case barrierResolved = "barrier.resolved"
    /// A board waits, directly or through others, on a gate that waits on it.
    case barrierLoop = "barrier.loop"
    /// A board's activation ran.
    case activationPerformed = "activation.performed"
    /// A waiting activation was dropped.
    case activationCancelled = "activation.cancelled"
    /// A board sent an output.
    case outputSent = "output.sent"
    /// A flow matched an output and acted on it.
    case flowRouted = "flow.routed"
    /// A command was sent to a board.
    case commandSent = "command.sent"
    /// A board completed.
    case boardCompleted = "board.completed"
    /// A dispatcher queued an event.
    case dispatchQueued = "dispatch.queued"
    /// A dispatcher's send was held by dispatch barriers.
    case dispatchBlocked = "dispatch.blocked"
    /// A dispatcher sent events.
    case dispatchSent = "dispatch.sent"
    /// A dispatch barrier changed state.
    case dispatchBarrier = "dispatch.barrier"
    /// A queued dispatch event was dropped.
    case dispatchDropped = "dispatch.dropped"
    /// At the end of a run: a barrier or dispatcher still waiting.
    case stuck
    /// A run stopped by its activation budget.
    case runaway
    /// A scheduling choice made by a simulation variation or the explorer, recorded so a
    /// replay takes the same one.
    case choice
    /// A Boardy app's gateway proxy was installed or found installed for a board (read from
    /// Boardy's debug log: `[Gateway] with identifier X is installing by X.___GATEWAY___`).
    case gatewayInstalled = "gateway.installed"
    /// A warning a Boardy app printed (`⚠️ …` in its debug log), kept with its text.
    case logWarning = "log.warning"
    /// Another line Boardy printed that is neither a record nor a warning (`⏩ … bypassed`,
    /// `ℹ️ [Boardy] …`, a URL opened), kept with its text.
    case logNote = "log.note"
    /// Boardy's API was misused where Boardy traps (a duplicate `addBoard`, a typed flow handed
    /// the wrong type, ...): recorded before the trap, so the trace shows what happened.
    case misuse
}

extension TraceEvent {
    /// The event's kind, when it is one of ours (nil for a kind a newer writer added).
    public var eventKind: EventKind? {
        switch body {
        case .unknown(let kind, _): return EventKind(rawValue: kind)
        default: return body.knownKind
        }
    }
}
