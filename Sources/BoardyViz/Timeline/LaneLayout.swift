import BoardyTrace
import BoardyVizCore

/// A lane's unique key: a kind and a name (`b|main/pubAuth`, `d|collect`, `s|`, `o|`). The one
/// place these keys are spelled; the timeline and the viewer build and read them here.
enum LaneKey {
    /// A board's lane, by its key (``FlowModel/Board/key(mb:id:)``).
    static func board(_ boardKey: String) -> String { boardPrefix + boardKey }
    /// A board's lane, by motherboard and id.
    static func board(mb: String, id: String) -> String { board(FlowModel.Board.key(mb: MotherboardPath(mb), id: id)) }
    /// A dispatcher's lane (`nil`: dispatch events that name none).
    static func dispatcher(_ name: String?) -> String { "d|" + (name ?? "") }
    /// Stimuli from outside.
    static let stimuli = "s|"
    /// Anything else.
    static let other = "o|"
    /// The board key of a board's lane; nil for another lane.
    static func boardKey(of key: String) -> String? { key.hasPrefix(boardPrefix) ? String(key.dropFirst(boardPrefix.count)) : nil }

    private static let boardPrefix = "b|"
}

/// The lanes of a trace, shared by the timeline and the viewer so both draw the same rows: a lane
/// per board (grouped by motherboard), per dispatcher, and one for stimuli from outside; groups in
/// ``LaneGroup`` order, lanes within a group in order of first appearance.
struct LaneLayout {
    /// One lane.
    struct Lane {
        /// Unique (``LaneKey``): `b|<board key>`, `d|<dispatcher>`, `s|` (outside), `o|` (other).
        let key: String
        /// Shown at the lane's start.
        let label: String
        /// The SVG element id of what the lane stands for (the board's, the dispatcher's).
        let elementID: String
        /// Its group.
        let group: LaneGroup
    }

    /// The lanes, in order of first appearance among the events laid out.
    private(set) var lanes: [Lane] = []
    /// Each event's lane (an index into ``lanes``), by the event's index in the trace; -1 for
    /// events not laid out.
    private(set) var laneOf: [Int32]
    /// Each lane's index in ``lanes``, by its key.
    private(set) var indexByKey: [String: Int] = [:]

    /// The lanes of the events of `events` at `indices`, in that order.
    init(_ events: [TraceEvent], including indices: some Sequence<Int>) {
        let gateOf = GateKey.gates(in: events)
        laneOf = [Int32](repeating: -1, count: events.count)
        for i in indices {
            let lane = Self.lane(of: events[i], gateOf: gateOf)
            if let k = indexByKey[lane.key] {
                laneOf[i] = Int32(k)
            } else {
                indexByKey[lane.key] = lanes.count
                laneOf[i] = Int32(lanes.count)
                lanes.append(lane)
            }
        }
    }

    /// The lanes of every event of `table`, the same as of its events: an event of a kind drawn
    /// on its board's lane (``boardLaneKinds``) from the columns, any other decoded.
    init(table: TraceTable) throws(TraceReadError) {
        try self.init(table: table, including: 0..<table.count)
    }

    /// The lanes of the events of `table` at `indices`, in that order, the same as of its events.
    init(table: TraceTable, including indices: some Sequence<Int>) throws(TraceReadError) {
        var gateOf: [GateKey: String] = [:]
        let started = TraceTable.id(of: .barrierStarted)
        for i in 0..<table.count where table.kinds[i] == started {
            if case .barrierStarted(let barrier, let gate) = try table.event(at: i).body { gateOf[GateKey(mb: table.strings[table.mbs[i]], barrier: barrier)] = gate }
        }
        laneOf = [Int32](repeating: -1, count: table.count)
        let onBoard = Set(Self.boardLaneKinds.map(TraceTable.id(of:)))
        var boardLanes: [Int64: Int32] = [:]  // (board, mb) numbers → lane
        for i in indices {
            let lane: Lane
            if onBoard.contains(table.kinds[i]), table.boards[i] >= 0 {
                let pair = Int64(table.boards[i]) << 32 | Int64(table.mbs[i])
                if let k = boardLanes[pair] {
                    laneOf[i] = k
                    continue
                }
                lane = Self.boardLane(mb: table.strings[table.mbs[i]], board: table.strings[table.boards[i]])
                let k = place(lane)
                boardLanes[pair] = k
                laneOf[i] = k
            } else {
                laneOf[i] = place(Self.lane(of: try table.event(at: i), gateOf: gateOf))
            }
        }
    }

    /// Kinds drawn on the lane of their board (``TraceEvent/Body/board``), whatever else they say.
    static let boardLaneKinds: [EventKind] = [
        .activationRequested, .activationPerformed, .activationCancelled, .outputSent, .flowRouted, .commandSent,
        .boardCompleted, .gatewayChecked, .barrierChecked, .barrierStarted, .barrierLoop,
    ]

    /// The number of `lane`, added when new.
    private mutating func place(_ lane: Lane) -> Int32 {
        if let k = indexByKey[lane.key] { return Int32(k) }
        indexByKey[lane.key] = lanes.count
        lanes.append(lane)
        return Int32(lanes.count - 1)
    }

    /// `subset` (indices into ``lanes``) in drawing order: by group, then first appearance.
    func ordered(_ subset: [Int]) -> [Int] {
        subset.sorted { a, b in lanes[a].group != lanes[b].group ? lanes[a].group < lanes[b].group : a < b }
    }

    /// The lane of board `b` of motherboard `mb`.
    static func boardLane(mb: String, board b: String) -> Lane {
        let path = MotherboardPath(mb)
        let k = FlowModel.Board.key(mb: path, id: b)
        if path.isGatewayProxy {
            // One gateway run's own gate instance: a lane beside the gateway's motherboard.
            let destination = String((path.owner ?? "").dropLast(BoardID.gatewaySuffix.count))
            return Lane(key: LaneKey.board(k), label: "\(b) · gate run for \(destination)", elementID: "board-" + k, group: .motherboard(path.gatewayHost.rawValue))
        }
        return Lane(key: LaneKey.board(k), label: k, elementID: "board-" + k, group: .motherboard(mb))
    }

    /// The lane an event is drawn in: its board's (a barrier's resolution in its gate's, a
    /// gateway run's gate beside the gateway's motherboard), its dispatcher's, or the outside's.
    static func lane(of e: TraceEvent, gateOf: [GateKey: String]) -> Lane {
        func board(_ b: String) -> Lane { boardLane(mb: e.mb, board: b) }
        func dispatcher(_ d: String?) -> Lane {
            guard let d else { return Lane(key: LaneKey.dispatcher(nil), label: "dispatch", elementID: "dispatch", group: .dispatch) }
            return Lane(key: LaneKey.dispatcher(d), label: d, elementID: "dispatcher-" + d, group: .dispatch)
        }
        let outside = Lane(key: LaneKey.stimuli, label: "outside", elementID: "stimuli", group: .stimuli)
        switch e.body {
        case .stimulus(_, let fields):
            if let b = fields["board"]?.stringValue { return board(b) }
            return outside
        case .barrierResolved(let barrier, _, _):
            return board(gateOf[GateKey(mb: e.mb, barrier: barrier)] ?? barrier)
        case .stuckBarrier(_, let gate, _): return board(gate)
        case .stuckDispatcher(let d, _): return dispatcher(d)
        case .dispatchQueued(let d, _), .dispatchBlocked(let d, _), .dispatchSent(let d, _, _): return dispatcher(d)
        case .dispatchBarrier(_, let d, _, _): return dispatcher(d)
        case .dispatchDropped(let fields):
            return dispatcher(fields["dispatcher"]?.stringValue)
        case .unknown(let kind, let fields) where kind.hasPrefix("dispatch."):
            return dispatcher(fields["dispatcher"]?.stringValue)
        case .choice(let fields) where fields["board"] == nil:
            return outside
        default:
            if let b = e.body.board { return board(b) }
            return Lane(key: LaneKey.other, label: "other", elementID: "other", group: .stimuli)
        }
    }
}

/// A lane's group: stimuli from outside first, then each motherboard by path, then the
/// dispatchers. A group is its name, as drawn: a motherboard a hostile trace names `dispatch`
/// shares the dispatchers' group (and its lanes are numbered apart), as it always has.
struct LaneGroup: Hashable, Comparable {
    /// The group's name: `stimuli`, `dispatch`, or a motherboard's path.
    let name: String

    /// Stimuli from outside (and events of no board).
    static let stimuli = LaneGroup(name: "stimuli")
    /// The dispatchers.
    static let dispatch = LaneGroup(name: "dispatch")
    /// The boards of motherboard `path`.
    static func motherboard(_ path: String) -> LaneGroup { LaneGroup(name: path) }

    private var rank: Int { self == .stimuli ? 0 : self == .dispatch ? 2 : 1 }

    /// Stimuli, motherboards by path, dispatch.
    static func < (a: LaneGroup, b: LaneGroup) -> Bool { a.rank != b.rank ? a.rank < b.rank : a.name < b.name }
}
