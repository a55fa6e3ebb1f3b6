import BoardyTrace

/// A flow graph as data, whatever it came from (a scenario, a live motherboard, a trace): boards
/// with their module and kind, and the links between them. BoardyViz's `FlowGraph` draws it.
public struct FlowModel: Sendable, Hashable {
    /// One board.
    public struct Board: Sendable, Hashable {
        /// The motherboard it lives in: a root such as `main`, or `main/<continuous board>`.
        public var mb: MotherboardPath
        /// Its id.
        public var id: String
        /// Its module (a cluster), if any.
        public var module: String?
        /// What kind of board it is; nil when only its Swift type is known (a live motherboard's
        /// board: ``typeName``) or only that a producer registers it.
        public var kind: BoardKind?
        /// The Swift type of a live motherboard's board, as its definition names it.
        public var typeName: String?
        /// What the graph says it is: its Swift type, its kind, or `produced` (registered in a
        /// producer, never installed).
        public var kindLabel: String { typeName ?? kind?.rawValue ?? "produced" }
        /// Exempt from the gateway (listed in its exemptions).
        public var exempt: Bool
        /// Bypasses the gateway (`shouldBypassGatewayBarrier`).
        public var bypass: Bool
        /// The motherboard path of its inner boards, for continuous and flow boards.
        public var inner: MotherboardPath?
        /// Where the app's code registers it (`file:line`), for a model imported from sources.
        public var source: String?
        /// How many times a trace saw it perform (nil for declared boards).
        public var count: Int?

        /// A board.
        public init(mb: MotherboardPath = .main, id: String, module: String? = nil, kind: BoardKind? = .board, typeName: String? = nil, exempt: Bool = false, bypass: Bool = false, inner: MotherboardPath? = nil) {
            self.mb = mb
            self.id = id
            self.module = module
            self.kind = kind
            self.typeName = typeName
            self.exempt = exempt
            self.bypass = bypass
            self.inner = inner
        }

        /// `board-<id>` for boards of a root motherboard, `board-<path below the root>/<id>`
        /// inside continuous boards: the SVG element id.
        public var elementID: String { "board-" + key }

        /// Unique across a root's motherboards: the id, qualified with the path below the root.
        public var key: String { Self.key(mb: mb, id: id) }

        /// The key of board `id` in motherboard `mb`: `id` in a root, `<path below the root>/<id>`
        /// inside continuous boards.
        public static func key(mb path: MotherboardPath, id: String) -> String {
            path.isRoot ? id : path.belowRoot + "/" + id
        }
    }

    /// One link between two boards (by ``Board/key``).
    public struct Link: Sendable, Hashable {
        /// What the link stands for.
        public enum Kind: String, Sendable, Hashable {
            /// A flow step or handler: an output (or completion) leads to the target.
            case flow
            /// An activation barrier: the target waits for the gate (the source).
            case barrier
            /// The gateway: the target waits for the gateway's gate (the source).
            case gateway
        }
        /// From (the gate, for barriers).
        public var from: String
        /// To.
        public var to: String
        /// What it stands for.
        public var kind: Kind
        /// The output or action, for flows; the barrier identifier for barriers.
        public var label: String
        /// How often a trace saw it (nil for declared links).
        public var count: Int?
        /// Part of a barrier loop.
        public var inLoop: Bool
        /// Where the app's code makes it (`file:line`), for a model imported from sources.
        public var source: String?

        /// A link.
        public init(from: String, to: String, kind: Kind, label: String = "", count: Int? = nil, inLoop: Bool = false) {
            self.from = from
            self.to = to
            self.kind = kind
            self.label = label
            self.count = count
            self.inLoop = inLoop
        }
    }

    /// The analytics dispatch pipeline (Tealium's): tracked outputs → dispatchers, held back by
    /// dispatch barriers.
    public struct Dispatch: Sendable, Hashable {
        /// One dispatcher (a queue sent in batches).
        public struct Dispatcher: Sendable, Hashable {
            /// Its id.
            public var id: String
            /// Its configuration in a line (`limit 3 · delay 0.5s`), if known.
            public var detail: String?
            /// How many events it sent (observed).
            public var sent: Int?
            /// A dispatcher.
            public init(id: String, detail: String? = nil, sent: Int? = nil) {
                self.id = id
                self.detail = detail
                self.sent = sent
            }
        }
        /// One dispatch barrier.
        public struct Barrier: Sendable, Hashable {
            /// Its id (`barrier_id`).
            public var id: String
            /// The dispatchers it holds back (`all` for every one).
            public var scopes: [String]
            /// Its configuration, one `key: value` per entry.
            public var configuration: [String]
            /// A barrier.
            public init(id: String, scopes: [String], configuration: [String] = []) {
                self.id = id
                self.scopes = scopes
                self.configuration = configuration
            }
        }
        /// Dispatchers, in declaration (or first appearance) order.
        public var dispatchers: [Dispatcher]
        /// Barriers, in declaration (or first appearance) order.
        public var barriers: [Barrier]
        /// Boards whose outputs are tracked (``Board/key``), with how often (observed).
        public var tracked: [(board: String, count: Int?)]
        /// The script (or the app) tracks events of its own.
        public var directTracks: Int?

        /// A pipeline.
        public init(dispatchers: [Dispatcher] = [], barriers: [Barrier] = [], tracked: [(board: String, count: Int?)] = [], directTracks: Int? = nil) {
            self.dispatchers = dispatchers
            self.barriers = barriers
            self.tracked = tracked
            self.directTracks = directTracks
        }

        /// Pipelines are equal when their dispatchers, barriers, tracked boards (and counts) and
        /// direct tracks are.
        public static func == (a: Dispatch, b: Dispatch) -> Bool {
            a.dispatchers == b.dispatchers && a.barriers == b.barriers && a.directTracks == b.directTracks
                && a.tracked.map(\.board) == b.tracked.map(\.board) && a.tracked.map(\.count) == b.tracked.map(\.count)
        }

        /// Hashes what `==` compares.
        public func hash(into h: inout Hasher) {
            h.combine(dispatchers)
            h.combine(barriers)
            for t in tracked {
                h.combine(t.board)
                h.combine(t.count)
            }
            h.combine(directTracks)
        }
    }

    /// The graph's title (the scenario's name).
    public var title: String
    /// Where it came from: `scenario`, `motherboard` or `trace`.
    public var source: String
    /// Boards, in declaration (or first appearance) order.
    public var boards: [Board]
    /// Links, in declaration (or first appearance) order.
    public var links: [Link]
    /// Links carry how often traces exercised them (`graph DIR --traces`): drawn weighted by
    /// count, and dashed grey when never exercised.
    public var coverage = false
    /// The dispatch pipeline, when there is one.
    public var dispatch: Dispatch?

    /// A model.
    public init(title: String, source: String, boards: [Board] = [], links: [Link] = []) {
        self.title = title
        self.source = source
        self.boards = boards
        self.links = links
    }
}

extension FlowModel {
    /// `mb` with every gateway run's own motherboard left out (`main/pubCart.___GATEWAY___/login`
    /// → `main/login`): what a gate run does is drawn and counted as the gate's own.
    public static func foldingGatewayRuns(_ mb: String) -> String {
        guard containsGatewayRun(mb) else { return mb }
        return mb.split(separator: "/", omittingEmptySubsequences: false).filter { !$0.hasSuffix(BoardID.gatewaySuffix) }.joined(separator: "/")
    }

    /// Whether `mb` has a segment ending `.___GATEWAY___`, searched on its bytes: Foundation's
    /// `contains` was a fifth of `coverage`'s time on a million events.
    static func containsGatewayRun(_ mb: String) -> Bool {
        var mb = mb
        return mb.withUTF8 { b in
            let m = gatewayRunMarker
            guard b.count >= m.count else { return false }
            return (0...(b.count - m.count)).contains { b[$0] == m[0] && b[$0..<($0 + m.count)].elementsEqual(m) }
        }
    }

    private static let gatewayRunMarker = Array(BoardID.gatewaySuffix.utf8)

    /// A JSON value as a short label: strings without quotes.
    package static func describe(_ v: JSONValue) -> String { v.stringValue ?? v.jsonText }
}

// MARK: From a live motherboard

extension FlowModel {
    /// The flow graph of a motherboard built in Swift, from its registrations (the engine's
    /// `Motherboard.definition`, passed with the motherboard's `path`): boards with their Swift
    /// types, continuous boards' inner motherboards, and every flow that names its destination.
    ///
    /// ```swift
    /// let model = FlowModel(definition: motherboard.definition, path: motherboard.path)
    /// ```
    public init(definition: JSONValue, path: MotherboardPath = .main, title: String = "motherboard") {
        self.init(title: title, source: "motherboard")
        func add(_ definition: JSONValue, mb: MotherboardPath) {
            guard let o = definition.objectValue else { return }
            func key(_ id: String) -> String { Board.key(mb: mb, id: id) }
            for b in o["boards"]?.arrayValue ?? [] {
                guard let id = b.objectValue?["id"]?.stringValue else { continue }
                let inner = b.objectValue?["motherboard"]
                let type = b.objectValue?["type"]?.stringValue
                // The definition's ids joined as written, as this model always has (the engine's own paths
                // percent-encode `%/#:` in ids: `MotherboardPath.appending`).
                let innerPath = MotherboardPath(mb.rawValue + "/" + id)
                boards.append(Board(mb: mb, id: id, kind: type == nil ? .board : nil, typeName: type, inner: inner == nil ? nil : innerPath))
                if let inner { add(inner, mb: innerPath) }
            }
            for id in o["produced"]?.arrayValue ?? [] {
                guard let id = id.stringValue, !boards.contains(where: { $0.mb == mb && $0.id == id }) else { continue }
                boards.append(Board(mb: mb, id: id, kind: nil))
            }
            for f in o["flows"]?.arrayValue ?? [] {
                guard let f = f.objectValue, let from = f["from"]?.stringValue, let to = f["to"]?.stringValue else { continue }
                let label = f["match"]?.stringValue ?? (f["on"]?.stringValue == "output" ? "any output" : f["on"]?.stringValue ?? "")
                links.append(Link(from: key(from), to: key(to), kind: .flow, label: label))
            }
        }
        add(definition, mb: path)
    }
}

// MARK: From a trace

extension FlowModel {
    /// The flow graph a trace shows: the boards that appear, an edge per observed routing with how
    /// many times it happened (relays out of a continuous board to the board), barrier edges from
    /// each gate to the boards that waited on it, the links of recorded barrier loops, and the
    /// dispatch pipeline the trace used. A board that owns an inner motherboard is drawn as the
    /// continuous board it is; other kinds are not in a trace (`weigh(by:)`-style overlays on
    /// a scenario's model keep them).
    public init(trace: Trace) {
        var builder = ObservedBuilder()
        for event in trace.events { builder.add(mb: event.mb, event.body) }
        self = builder.model(title: trace.header.scenario ?? "trace")
    }

    /// The flow graph `table` shows, the same as ``init(trace:)`` gives for its events. Only the
    /// lines of kinds that draw more than their board are decoded: an activation's request and
    /// run, an output, a command, a completion or a cancellation is counted from the table's
    /// columns.
    public init(table: TraceTable) throws(TraceReadError) {
        var builder = ObservedBuilder()
        var foldedMB: [Int32: String] = [:]
        for i in 0..<table.count {
            if let kind = table.eventKind(at: i), Self.drawnByBoardAlone.contains(kind) {
                let mbID = table.mbs[i]
                let mb: String
                if let m = foldedMB[mbID] { mb = m } else if ObservedBuilder.isLoggedInner(table.strings[mbID]) {
                    // Where it is depends on where its board runs at this point: not cached.
                    mb = Self.foldingGatewayRuns(builder.resolving(table.strings[mbID]))
                } else {
                    mb = Self.foldingGatewayRuns(table.strings[mbID])
                    foldedMB[mbID] = mb
                }
                let board = table.boards[i] < 0 ? nil : table.strings[table.boards[i]]
                builder.addBoard(foldedMB: mb, board, performed: kind == .activationPerformed)
            } else {
                let e = try table.event(at: i)
                builder.add(mb: e.mb, e.body)
            }
        }
        self = builder.model(title: table.header.scenario ?? "trace")
    }

    /// Kinds whose only mark on the observed model is their board (and, for a run, its count).
    static let drawnByBoardAlone: Set<EventKind> = [
        .activationRequested, .activationPerformed, .outputSent, .commandSent, .boardCompleted, .activationCancelled,
    ]
}

/// The observed flow graph, built one event at a time.
private struct ObservedBuilder {
    typealias Link = FlowModel.Link
    typealias Board = FlowModel.Board
    typealias Dispatch = FlowModel.Dispatch
    var model = FlowModel(title: "", source: "trace")
    var seen = Set<String>()
    var linkIndex: [Link: Int] = [:]  // keyed with count nil
    var loopGates = Set<String>()
    var waits: [(mb: String, board: String, barrier: String, gateway: Bool)] = []
    var gateOf: [GateKey: String] = [:]
    var dispatch = Dispatch()
    var tracked: [String: Int] = [:]
    var directTracks = 0
    var performed: [String: Int] = [:]

    mutating func dispatcher(_ d: String) {
        if !dispatch.dispatchers.contains(where: { $0.id == d }) { dispatch.dispatchers.append(Dispatch.Dispatcher(id: d, sent: 0)) }
    }
    mutating func board(_ mb: String, _ id: String) -> String { board(MotherboardPath(mb), id) }
    mutating func board(_ mb: MotherboardPath, _ id: String) -> String {
        let key = Board.key(mb: mb, id: id)
        if seen.insert(key).inserted { model.boards.append(Board(mb: mb, id: id)) }
        return key
    }
    mutating func link(_ l: Link) {
        if let i = linkIndex[l] {
            model.links[i].count! += 1
        } else {
            linkIndex[l] = model.links.count
            var counted = l
            counted.count = 1
            model.links.append(counted)
        }
    }

    /// An event of a kind in `FlowModel.drawnByBoardAlone`, on a motherboard already folded.
    mutating func addBoard(foldedMB mb: String, _ b: String?, performed isRun: Bool) {
        guard let b else { return }
        let key = board(mb, b)
        if isRun {
            performed[key, default: 0] += 1
            homes[b] = mb
        } else if homes[b] == nil {
            homes[b] = mb
        }
    }

    /// Where each board was last activated (or first seen): the motherboard a trace read from
    /// Boardy's log names `<board>.continuous-main` is inside it.
    var homes: [String: String] = [:]

    /// Whether `mb` is a continuous board's motherboard as Boardy's log names it (an ingested
    /// trace's `mb`, §2.6): `<board>.continuous-main`, one segment.
    static func isLoggedInner(_ mb: String) -> Bool {
        mb.hasSuffix(".continuous-main") && !mb.utf8.contains(UInt8(ascii: "/"))
    }

    /// `mb` as a path: a logged `<board>.continuous-main` under where its board runs (so that a
    /// real session's boards are keyed as in the app's imported graph), else `mb`.
    func resolving(_ mb: String) -> String {
        guard Self.isLoggedInner(mb) else { return mb }
        let owner = MotherboardPath.decode(String(mb.dropLast(".continuous-main".count)))
        guard let home = homes[owner] else { return mb }
        return home + "/" + MotherboardPath.encode(owner)
    }

    /// One event of the trace.
    mutating func add(mb rawMB: String, _ body: TraceEvent.Body) {
        // A gateway run's own gate instance is drawn as the gateway's gate.
        let mb = FlowModel.foldingGatewayRuns(resolving(rawMB))
        if let b = body.board {
            if case .activationPerformed = body { homes[b] = mb } else if homes[b] == nil { homes[b] = mb }
        }
        switch body {
        case .stimulus(let action, _):
            // A `track` stimulus is a dispatch made straight to the pipeline; a stimulus's board
            // is not drawn from it (its activation request draws it).
            if StimulusAction(rawValue: action) == .track { directTracks += 1 }
        case .flowRouted(let from, let output, let to, let action):
            let f = board(mb, from)
            if let to {
                let label = FlowAction(rawValue: action) == .activate ? FlowModel.describe(output) : "\(FlowModel.describe(output)) → \(action)"
                link(Link(from: f, to: board(mb, to), kind: .flow, label: label))
            } else if FlowAction(rawValue: action) == .relay, let owner = MotherboardPath(mb).owner, let parent = MotherboardPath(mb).parent?.rawValue {
                // Out of a continuous board: drawn to the board itself, as for a scenario.
                link(Link(from: f, to: board(parent, owner), kind: .flow, label: "\(FlowModel.describe(output)) → relay"))
            } else if FlowAction(rawValue: action) == .track {
                tracked[f, default: 0] += 1
            }
        case .gatewayChecked(let b, let barrier, let result):
            _ = board(mb, b)
            if result == .wait { waits.append((mb, b, barrier, true)) }
        case .barrierChecked(let b, let barrier, _, let result):
            _ = board(mb, b)
            if result == .wait { waits.append((mb, b, barrier, false)) }
        case .barrierStarted(let barrier, let gate):
            gateOf[GateKey(mb: mb, barrier: barrier)] = gate
            _ = board(mb, gate)
        case .barrierLoop(let b, let cycle):
            _ = board(mb, b)
            loopGates.formUnion(cycle.map { Board.key(mb: MotherboardPath(mb), id: $0) })
        case .dispatchBarrier(let barrier, let d, _, _):
            if dispatch.barriers.firstIndex(where: { $0.id == barrier }) == nil { dispatch.barriers.append(Dispatch.Barrier(id: barrier, scopes: [])) }
            if let d, let i = dispatch.barriers.firstIndex(where: { $0.id == barrier }), !dispatch.barriers[i].scopes.contains(d) {
                dispatch.barriers[i].scopes.append(d)
            }
            if let d { dispatcher(d) }
        case .dispatchQueued(let d, _), .dispatchBlocked(let d, _), .stuckDispatcher(let d, _):
            dispatcher(d)
        case .dispatchSent(let d, let n, _):
            dispatcher(d)
            if let i = dispatch.dispatchers.firstIndex(where: { $0.id == d }) { dispatch.dispatchers[i].sent = (dispatch.dispatchers[i].sent ?? 0) + n }
        case .activationPerformed(let b, _):
            performed[board(mb, b), default: 0] += 1
        default:
            if let b = body.board { _ = board(mb, b) }
        }
    }

    /// The model: the events added, with their waits linked, inner motherboards owned and
    /// counts set.
    consuming func model(title: String) -> FlowModel {
        // A wait links the gate to the waiting board; the gate is the one started for that
        // barrier, or else the barrier identifier itself (a gateway's barrier is its gate's id).
        for w in waits {
            let gate = gateOf[GateKey(mb: w.mb, barrier: w.barrier)] ?? w.barrier
            link(Link(from: board(w.mb, gate), to: board(w.mb, w.board), kind: w.gateway ? .gateway : .barrier, label: w.gateway ? "gateway" : w.barrier))
        }
        // Inner motherboards: their continuous board owns them.
        var innerPaths: [MotherboardPath] = []
        for b in model.boards where !b.mb.isRoot && !innerPaths.contains(b.mb) { innerPaths.append(b.mb) }
        for path in innerPaths {
            guard let parentMB = path.parent, let owner = path.owner else { continue }
            _ = board(parentMB, owner)
            if let i = model.boards.firstIndex(where: { $0.mb == parentMB && $0.id == owner }) {
                model.boards[i].inner = path
                model.boards[i].kind = .continuous  // only a continuous board has an inner motherboard
            }
        }
        for i in model.boards.indices { model.boards[i].count = performed[model.boards[i].key] ?? 0 }
        if !dispatch.dispatchers.isEmpty || !dispatch.barriers.isEmpty || !tracked.isEmpty {
            dispatch.tracked = model.boards.map(\.key).filter { tracked[$0] != nil }.map { ($0, tracked[$0]) }
            dispatch.directTracks = directTracks
            model.dispatch = dispatch
        }
        for i in model.links.indices where model.links[i].kind != .flow && loopGates.contains(model.links[i].from) && loopGates.contains(model.links[i].to) {
            model.links[i].inLoop = true
        }
        model.title = title
        return model
    }
}
