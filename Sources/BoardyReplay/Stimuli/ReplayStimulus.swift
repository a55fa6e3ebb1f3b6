import BoardyCore
import BoardyDispatch
import BoardyTrace

/// A recorded `stimulus` event read back as an input to feed a fresh engine.
///
/// The actions are the ones the engine and the simulator record: `activate` (`board`, `input?`),
/// `complete` (`board`, `with`), `command` (`board`, `command`) on the motherboard `mb` names;
/// `network`, `track`, `flush` and `configure` on the dispatch pipeline.
public struct ReplayStimulus: Sendable {
    /// The `seq` of the stimulus in the recorded trace.
    public var seq: Int
    /// When it fired.
    public var t: TraceTime
    /// The motherboard it was applied to.
    public var mb: String
    /// What it does.
    public var action: Action

    /// What a stimulus does.
    public enum Action: Sendable {
        /// Activate a board (on `mb`).
        case activate(BoardID, input: JSONValue?)
        /// Complete an installed board from outside (on `mb`).
        case complete(BoardID, with: Bool)
        /// Send a command to an installed board (on `mb`).
        case command(BoardID, JSONValue)
        /// A dispatch stimulus, applied by the dispatch pipeline (as the simulator's script does).
        case dispatch(DispatchStimulus)
    }

    /// Reads `event`: nil when it is not a stimulus; an error message when it is one that cannot
    /// be replayed (an unknown action, a missing or mistyped field).
    public static func from(_ event: TraceEvent) -> Result<ReplayStimulus, ReplayStimulusError>? {
        guard case let .stimulus(action, fields) = event.body else { return nil }
        // Fields may sit in the body or, for open kinds, in `extra`.
        var all = fields
        for m in event.extra.members where all[m.key] == nil { all.members.append(m) }
        func fail(_ message: String) -> Result<ReplayStimulus, ReplayStimulusError> {
            .failure(ReplayStimulusError(seq: event.seq, message: message))
        }
        func board() -> BoardID? { all["board"]?.stringValue.map { BoardID($0) } }
        let a: Action
        switch StimulusAction(rawValue: action) {
        case .activate:
            guard let b = board() else { return fail("an \"activate\" stimulus needs a string \"board\"") }
            a = .activate(b, input: all["input"])
        case .complete:
            guard let b = board() else { return fail("a \"complete\" stimulus needs a string \"board\"") }
            guard case let .bool(with)? = all["with"] else { return fail("a \"complete\" stimulus needs a boolean \"with\"") }
            a = .complete(b, with: with)
        case .command:
            guard let b = board() else { return fail("a \"command\" stimulus needs a string \"board\"") }
            a = .command(b, all["command"] ?? .null)
        default:
            if let d = DispatchStimulus.from(action: action, fields: all) {
                switch d {
                case let .success(stimulus): a = .dispatch(stimulus)
                case let .failure(e): return fail(e.message)
                }
                break
            }
            return fail("unknown stimulus action \"\(action)\": this version replays activate, complete, command, network, track, flush and configure")
        }
        return .success(ReplayStimulus(seq: event.seq, t: event.t, mb: event.mb, action: a))
    }

    /// Applies it to `target`; an error message when its motherboard does not exist now.
    func apply(to target: ReplayTarget) -> ReplayStimulusError? {
        switch action {
        case let .dispatch(step):
            guard mb == target.mainboard.path.rawValue else {
                return ReplayStimulusError(seq: seq, message: "a dispatch stimulus applies to \"\(target.mainboard.path)\", not \"\(mb)\"")
            }
            guard let runtime = target.mainboard.runtime else {
                return ReplayStimulusError(seq: seq, message: "the replay's mainboard has no runtime to record in")
            }
            DispatchManager.stimulate(step, on: target.dispatch, runtime: runtime, mb: MotherboardPath(mb))
        case .activate, .complete, .command:
            guard let m = target.motherboard(at: mb) else {
                return ReplayStimulusError(seq: seq, message: "motherboard \"\(mb)\" does not exist in the replay at t=\(t)")
            }
            switch action {
            case let .activate(id, input): m.stimulate(.activate(id, input: input))
            case let .complete(id, with): m.stimulate(.complete(id, isDone: with))
            case let .command(id, command): m.stimulate(.command(id, command))
            case .dispatch: break
            }
        }
        return nil
    }
}

/// A recorded stimulus that cannot be fed to an engine.
public struct ReplayStimulusError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Its `seq` in the recorded trace.
    public var seq: Int
    /// What is wrong.
    public var message: String
    public var description: String { "seq \(seq): cannot replay this stimulus: \(message)" }
}
