import BoardyCore
import BoardySimulation
import BoardyTrace
import BoardyVizCore

// MARK: From a scenario

extension FlowModel {
    /// The declared flow graph of `scenario`: its boards, flows, activation barriers and gateway;
    /// links of the barrier loops `StaticCheck` finds are marked.
    public init(scenario s: Scenario) {
        self.init(title: s.name, source: "scenario")
        let loops = StaticCheck.check(s).filter { $0.code == .barrierLoop }.map { Set($0.boards.map(\.rawValue)) }
        let exempt = Set((s.gateway?.exempt ?? []).map(\.rawValue))
        func key(_ mb: String, _ id: BoardID) -> String { Board.key(mb: MotherboardPath(mb), id: id.rawValue) }
        func inLoop(_ gate: String, _ target: String) -> Bool { loops.contains { $0.contains(gate) && $0.contains(target) } }

        func add(_ specs: [BoardSpec], flows: [FlowSpec], mb: String, module inherited: String?) {
            for b in specs {
                let isMain = mb == MotherboardPath.main.rawValue  // the gateway is main's (roots beside it have none)
                let bypass = b.bypassGateway ?? b.kind.bypassesGatewayByDefault
                let inner = b.boards.isEmpty && b.flows.isEmpty ? nil : MotherboardPath(mb).appending(b.id.rawValue)
                boards.append(
                    Board(
                        mb: MotherboardPath(mb), id: b.id.rawValue, module: b.module ?? inherited, kind: b.kind,
                        exempt: isMain && exempt.contains(b.id.rawValue), bypass: bypass, inner: inner))
                if let spec = b.activationBarrier {
                    let gate = spec.gate
                    let identifier = spec.label
                    let loop = isMain && inLoop(gate.rawValue, b.id.rawValue)
                    links.append(Link(from: key(mb, gate), to: key(mb, b.id), kind: .barrier, label: identifier, inLoop: loop))
                }
                if isMain, let g = s.gateway, !exempt.contains(b.id.rawValue), !bypass {
                    links.append(
                        Link(from: key(mb, g.gate), to: key(mb, b.id), kind: .gateway, label: "gateway",
                             inLoop: inLoop(g.gate.rawValue, b.id.rawValue)))
                }
                if let inner { add(b.boards, flows: b.flows, mb: inner.rawValue, module: b.module ?? inherited) }
            }
            for f in flows {
                switch f {
                case .steps(let ids):
                    for (a, b) in zip(ids, ids.dropFirst()) { links.append(Link(from: key(mb, a), to: key(mb, b), kind: .flow, label: "any output")) }
                case .handler(let from, let on, let action), .flowActionHandler(let from, let on, let action):
                    var on = on.map(Self.describe) ?? "any output"
                    if case .flowActionHandler = f { on = "flow action " + (on == "any output" ? "(any)" : on) }
                    switch action {
                    case .activate(let to, _): links.append(Link(from: key(mb, from), to: key(mb, to), kind: .flow, label: on))
                    case .complete(let to, let with): links.append(Link(from: key(mb, from), to: key(mb, to), kind: .flow, label: "\(on) → complete(\(with))"))
                    case .relay(let v):
                        // Out of the continuous board: drawn to the board itself.
                        let inner = MotherboardPath(mb)
                        guard let owner = inner.owner, let ownerMB = inner.parent?.rawValue else { break }
                        links.append(Link(from: key(mb, from), to: key(ownerMB, BoardID(owner)), kind: .flow, label: "\(on) → relay \(Self.describe(v))"))
                    }
                }
            }
        }
        add(s.boards, flows: s.flows, mb: MotherboardPath.main.rawValue, module: nil)
        if let d = s.dispatch {
            var pipeline = Dispatch(
                dispatchers: d.dispatchers.map { Dispatch.Dispatcher(id: $0.id, detail: "limit \($0.dispatchLimit)" + ($0.delay == .zero ? "" : " · delay \($0.delay)s")) },
                tracked: d.trackOutputs.map { (key(MotherboardPath.main.rawValue, $0), nil) })
            // Tealium's barriers settings: {"Name": {"barrier_id", "scopes", "configuration"}}.
            for (name, v) in d.barriers?.objectValue?.members.map({ ($0.key, $0.value) }) ?? [] {
                let o = v.objectValue
                let id = o?["barrier_id"]?.stringValue ?? name
                let scopes = o?["scopes"]?.arrayValue?.compactMap(\.stringValue) ?? ["all"]
                let config = o?["configuration"]?.objectValue?.members.map { "\($0.key): \(Self.describe($0.value))" } ?? []
                pipeline.barriers.append(Dispatch.Barrier(id: id, scopes: scopes, configuration: config))
            }
            pipeline.directTracks = s.script.contains { if case .track = $0.action { return true } else { return false } } ? 0 : nil
            dispatch = pipeline
        }
        for r in s.roots { add(r.boards, flows: r.flows, mb: MotherboardPath(root: r.name).rawValue, module: nil) }
    }
}

