import BoardyTrace
import BoardyVizCore

// MARK: The flow graph of an imported app

extension FlowModel {
    /// The flow graph of an app read from its sources: boards in their modules and continuous
    /// boards, `activates` and `flow` edges as flows, barriers and the gateway from their gates,
    /// exempt boards marked, barrier loops in red; every node and edge carries its `file:line`.
    public init(imported app: ImportedApp) {
        self.init(title: app.name, source: "sources")
        // Motherboard paths from parents: main, main/<parent>, main/<parent>/<child>…
        var byID: [String: ImportedBoard] = [:]
        for b in app.boards { byID[b.id] = b }
        // Raw ids joined (not `appending`'s encoding), as the import has always named them.
        func path(_ id: String?, depth: Int = 0) -> MotherboardPath {
            guard let id, let b = byID[id], depth < 32 else { return .main }
            return MotherboardPath(path(b.parent, depth: depth + 1).rawValue + "/" + id)
        }
        func key(_ id: String) -> String { Board.key(mb: byID[id].map { path($0.parent) } ?? .main, id: id) }
        let exempt = Set(app.edges.filter { $0.kind == .exempt }.map(\.to))
        let parents = Set(app.boards.compactMap(\.parent))
        for b in app.boards {
            var board = Board(
                mb: path(b.parent), id: b.id, module: b.module, kind: b.kind, exempt: exempt.contains(b.id), bypass: b.bypassesGateway,
                inner: parents.contains(b.id) ? path(b.id) : nil)
            board.source = b.source.description
            boards.append(board)
        }
        let loops = ImportCheck.loops(app)
        let loopEdges = Set(loops.flatMap { $0.edges }.map { "\($0.from)|\($0.to)|\($0.kind.rawValue)" })
        for e in app.edges where e.kind != .exempt {
            let kind: Link.Kind = e.kind == .barrier ? .barrier : e.kind == .gateway ? .gateway : .flow
            let label: String
            switch e.kind {
            case .activates: label = e.on.map { "\($0) → activates" } ?? "activates"
            case .flow: label = e.on.map { "output \($0)" } ?? "outputs"
            case .barrier: label = e.from
            default: label = "gateway"
            }
            var l = Link(from: key(e.from), to: key(e.to), kind: kind, label: label, inLoop: loopEdges.contains("\(e.from)|\(e.to)|\(e.kind.rawValue)"))
            l.source = e.source.description
            links.append(l)
        }
    }
}
