import BoardyCore
import BoardyComponentKit
import BoardyDispatch

/// A whole app flow declared as data (docs/contract.md §1): boards, flows, barriers, dispatch, the outside
/// stimuli of a run and what the run must show.
public struct Scenario: Sendable {
    /// The scenario's name (`scenario`).
    public var name: String
    /// The top-level boards.
    public var boards: [BoardSpec]
    /// The top-level flows.
    public var flows: [FlowSpec]
    /// More root motherboards beside `main` (`roots`), as a launcher creates them.
    public var roots: [RootSpec] = []
    /// The gateway, if any.
    public var gateway: GatewaySpec?
    /// Dispatchers, Tealium barrier settings and tracked outputs, if any.
    public var dispatch: DispatchSpec?
    /// Outside stimuli at virtual times.
    public var script: [ScriptStep]
    /// What `boardy-viz test` checks after the run.
    public var expectations: [Expectation]
    /// `boards`, `flows`, `gateway` and `dispatch` as written: what the definition fingerprint
    /// hashes.
    public var definition: JSONValue
    /// The file it came from (for messages).
    public var file: String
    /// The parsed file, which knows the line of every value by its JSON path (`flows[1]`), so
    /// findings can point at their source. Nil for a scenario built in code.
    public var document: JSONDocument?

    /// `file:line` of the value at `path` (`flows[1]`), or the path alone when its line is unknown.
    public func source(of path: String) -> String {
        guard let (line, _) = document?.location(of: path) else { return path }
        return "\(path) (\(file):\(line))"
    }

    /// `sha256:` of the canonical JSON of ``definition``.
    public var fingerprint: String { DefinitionFingerprint.of(definition) }
}

/// One declared board.
public struct BoardSpec: Sendable {
    /// The board's id (`id`), unique within its motherboard.
    public var id: BoardID
    /// The group of boards it belongs to (`module`), a cluster in pictures; nil when none.
    public var module: String?
    /// Which kind of board it is (`kind`); `board` when not given.
    public var kind: BoardKind
    /// The steps run in order each time it is activated (`onActivate`).
    public var onActivate: [Step]
    /// Whether it bypasses the gateway (`bypassGateway`, its `shouldBypassGatewayBarrier()`); nil
    /// takes its kind's default.
    public var bypassGateway: Bool?
    /// Its activation barrier (`activationBarrier`), if any.
    public var activationBarrier: BarrierSpec?
    /// `blockTask` only.
    public var executing: BlockTaskExecutingType?
    /// `continuous` and `flow` only: the inner motherboard.
    public var boards: [BoardSpec]
    /// `continuous` and `flow` only: the inner motherboard's flows.
    public var flows: [FlowSpec]
    /// Where it was declared (`boards[2]`).
    public var path: String
}

/// A board's activation barrier.
public struct BarrierSpec: Sendable {
    /// The gate board.
    public var gate: BoardID
    /// Where the barrier lives.
    public var scope: ActivationBarrierScope
    /// What distinguishes barriers on the gate, and the gate's input.
    public var option: BarrierOptionSpec

    /// The engine's barrier.
    public var barrier: ActivationBarrier {
        ActivationBarrier(identifier: gate, scope: scope, option: option.option)
    }

    /// The barrier identifier as a trace names it (`gate`, `gate:KEY`); a fresh `.unidentified`
    /// barrier is numbered at run time, so its label is `gate#…`.
    public var label: String {
        let gate = MotherboardPath.encode(self.gate.rawValue)
        switch option {
        case .void: return gate
        case let .unique(key): return "\(gate):\(MotherboardPath.encode(key))"
        case let .unidentified(value):
            guard let value, value != .null else { return "\(gate)#none" }
            return "\(gate)#…"
        }
    }
}

/// A scenario's activation barrier option (`"void"`, `"unique:KEY"`, `"unidentified:VALUE"` or
/// `{"unidentified": VALUE}`).
public enum BarrierOptionSpec: Sendable, Hashable {
    /// `.void`: one barrier per gate; the gate gets null.
    case void
    /// `.unique(KEY)`: one barrier per gate and key; the gate gets the key.
    case unique(String)
    /// `.unidentified(VALUE)`: a fresh barrier per request; the gate gets the value.
    case unidentified(JSONValue?)

    /// The engine's option.
    public var option: ActivationBarrierOption {
        switch self {
        case .void: return .void
        case let .unique(key): return .unique(key)
        case let .unidentified(value): return .unidentified(value == .null ? nil : value)
        }
    }
}

/// One step of `onActivate`, `after` seconds after the previous one.
public struct Step: Sendable {
    /// What a step does: its one action key.
    public enum Action: Sendable {
        /// `output`: send this value as an output (a task's success value).
        case output(JSONValue)
        /// `complete`: complete the board with true or false (a task fails on false).
        case complete(Bool)
        /// `activate`: activate this board, with `input` when given.
        case activate(BoardID, input: JSONValue?)
        /// `command` and `to`: send this value as a command to that board.
        case command(JSONValue, to: BoardID)
        /// `progress` (`resultTask` only): send `{"progress": V}`.
        case progress(JSONValue)
        /// Send a flow action (Boardy's `sendFlowAction`/`broadcastAction`): it goes up to the
        /// parent motherboard first, as the continuous board's own.
        case flowAction(JSONValue)
        /// Complete with an outcome left open (`"complete": "either"`): true in a plain run;
        /// an explorer tries both.
        case completeEither
    }
    /// The delay after the previous step (the start of the range when it is one).
    public var after: TraceTime
    /// The end of the delay's range (`"after": [1, 5]`), when it is one: an explorer tries it
    /// before, between and after the other events of the range; a plain run takes `after`.
    public var afterUpTo: TraceTime? = nil
    /// What the step does.
    public var action: Action
}

/// A flow: flow steps, or a handler of one board's outputs.
public enum FlowSpec: Sendable {
    /// `A ->> B ->> C`.
    case steps([BoardID])
    /// `{"from", "on"?, …}`: when `from` sends `on` (any output if nil), do `action`.
    case handler(from: BoardID, on: JSONValue?, action: HandlerAction)
    /// `{"from", "flowAction": true, "on"?, …}`: when `from` sends the flow action `on` (any if
    /// nil; Boardy's `BoardFlowAction`, which an inner board's continuous board forwards up as
    /// its own), do `action`.
    case flowActionHandler(from: BoardID, on: JSONValue?, action: HandlerAction)

    /// What a handler does: `activate`, `complete` or `relay`.
    public enum HandlerAction: Sendable {
        /// Activate a board with `input`, or with the output.
        case activate(BoardID, input: JSONValue?)
        /// Complete a board with `with`.
        case complete(BoardID, with: Bool)
        /// Send `value` out of the continuous board.
        case relay(JSONValue)
    }
}

/// The gateway: its gate, the exempt boards, and the gate's outputs that resolve its runs.
public struct GatewaySpec: Sendable {
    /// The gate board (`barrier`).
    public var gate: BoardID
    /// Boards the gateway does not hold (`exempt`).
    public var exempt: [BoardID]
    /// Gate outputs that resolve a run (`resolveOn`), each with whether the run passes.
    public var resolveOn: [(output: String, passes: Bool)]
    /// Each run's own gate instance (`perRun`, Boardy's documented wiring) or one `shared`.
    public var gateInstance: GatewayBarrier.GateInstances = .perRun
}

/// Dispatchers, barrier settings and tracked outputs.
public struct DispatchSpec: Sendable {
    /// A dispatcher (an entry of `dispatchers`).
    public struct Dispatcher: Sendable {
        /// Its id (`id`), unique.
        public var id: String
        /// Events per pull (`dispatchLimit`), 1 or more; 1 when not given.
        public var dispatchLimit: Int
        /// Virtual time to complete a batch (`delay`); zero completes it at once.
        public var delay: TraceTime
    }
    /// The dispatchers (`dispatchers`).
    public var dispatchers: [Dispatcher]
    /// Tealium's `barriers` settings object, as written.
    public var barriers: JSONValue?
    /// Boards whose outputs are also tracked as dispatch events (`trackOutputs`).
    public var trackOutputs: [BoardID]
}

/// A root motherboard beside `main` (`{"mb", "boards", "flows"}` in `roots`): its own boards and
/// flows, on the same runtime and clock; traced with its own `mb` name.
public struct RootSpec: Sendable {
    /// Its name: the `mb` of its events.
    public var name: String
    /// Its boards.
    public var boards: [BoardSpec]
    /// Its flows.
    public var flows: [FlowSpec]
    /// Where it was declared (`roots[0]`).
    public var path: String
}

/// An outside stimulus at a virtual time: an entry of `script`.
public struct ScriptStep: Sendable {
    /// What the stimulus does: its one action key.
    public enum Action: Sendable {
        /// `activate`: activate this board from outside, with `input` when given.
        case activate(BoardID, input: JSONValue?)
        /// `network`: the simulated network changes.
        case network(NetworkConnection)
        /// `track`: track this event for one dispatcher, or for every dispatcher when nil.
        case track(JSONValue, dispatcher: String?)
        /// `flush`: Tealium's flush of the dispatch queue.
        case flush
        /// `configure`: apply new Tealium barrier settings (an object, as `dispatch.barriers`).
        case configure(JSONValue)
        /// `complete` and `with`: complete this installed board from outside, as a user closing a
        /// screen would.
        case complete(BoardID, with: Bool)
    }
    /// When it fires (the start of the range when it is one).
    public var at: TraceTime
    /// The end of its time range (`"at": [0, 4]`), when it is one: an explorer tries it
    /// before, between and after the other events of the range; a plain run takes `at`.
    public var atUpTo: TraceTime? = nil
    /// What it does.
    public var action: Action
    /// Where it was declared (`script[3]`).
    public var path: String
    /// The root motherboard an `activate` or `complete` step addresses (`main` when nil).
    public var mb: String? = nil
}

/// What a run must show (docs/contract.md §1 `expect`).
public enum Expectation: Sendable {
    /// `performed`: the board's activate ran, exactly `times` times or else at least once; only
    /// runs at `at` and with `input` count, when given.
    case performed(BoardID, times: Int?, at: TraceTime?, input: JSONValue?)
    /// `never`: the board's activate never ran; `cancelled` also requires a recorded cancellation.
    case never(BoardID, cancelled: Bool)
    /// `stuck`: whether the run must end with stuck activation or gateway barriers.
    case stuck(Bool)
    /// `loop`: whether the run must record a barrier loop.
    case loop(Bool)
    /// `sent` and `events`: the total of events the dispatcher sent.
    case sent(dispatcher: String, events: Int)
}
