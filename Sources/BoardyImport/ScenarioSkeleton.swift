import BoardyTrace

// MARK: A scenario skeleton

extension ImportedApp {
    /// A scenario (docs/contract.md §1) with every board, flow, barrier and gateway the app's code makes,
    /// each with its `source`, ready to be given behaviour and simulated. Gates whose code
    /// completes get `onActivate: [{"complete": true}]`; the app's entry points are activated at
    /// 0. What a scenario cannot say (an activation across motherboards, a handler that activates
    /// nothing) is left out and listed in `notes`.
    public func scenarioSkeleton() -> (scenario: JSONValue, notes: [String]) {
        var notes: [String] = []
        var byID: [String: ImportedBoard] = [:]
        for b in boards { byID[b.id] = b }
        let children = Dictionary(grouping: boards.filter { $0.parent != nil }, by: { $0.parent! })
        let gates = Set(edges.filter { $0.kind == .barrier || $0.kind == .gateway }.map(\.from))
        let silentGates = Set(gatesWithoutCompletion.map(\.id))
        let exempt = edges.filter { $0.kind == .exempt }.map(\.to)
        func sameMB(_ a: String, _ b: String) -> Bool { byID[a]?.parent == byID[b]?.parent }

        func board(_ b: ImportedBoard) -> JSONValue {
            var o: JSONObject = ["id": .string(b.id)]
            if let m = b.module { o["module"] = .string(m) }
            let inner = children[b.id] ?? []
            var kind = b.kind
            if !inner.isEmpty, !kind.hasInnerMotherboard { kind = .continuous }
            // A continuous board with nothing registered inside works on the motherboard around
            // it (Boardy's inner producer falls back to the outer one): a plain board here.
            if inner.isEmpty, kind.hasInnerMotherboard {
                kind = .board
                notes.append("\(b.source): \(b.id) registers no inner boards; simulated as a plain board beside the boards it activates")
            }
            if kind != .board { o["kind"] = .string(kind.rawValue) }
            if b.bypassesGateway, !kind.bypassesGatewayByDefault { o["bypassGateway"] = true }
            if let barrier = edges.first(where: { $0.kind == .barrier && $0.to == b.id }) {
                if sameMB(barrier.from, b.id) {
                    o["activationBarrier"] = ["board": .string(barrier.from), "source": .string(barrier.source.description)]
                } else {
                    notes.append("\(barrier.source): \(b.id)'s gate \(barrier.from) is in another motherboard; left out")
                }
            }
            var steps: [JSONValue] = []
            // What the board's own code activates: in its inner motherboard for a continuous
            // board, else beside it.
            for e in edges where e.kind == .activates && e.from == b.id && !e.byOutput {
                let target = byID[e.to]
                if target?.parent == (kind == .board ? b.parent : b.id) {
                    steps.append(["activate": .string(e.to)])
                } else {
                    notes.append("\(e.source): \(b.id) activates \(e.to) in another motherboard; left out")
                }
            }
            if gates.contains(b.id), !silentGates.contains(b.id), !b.kind.bypassesGatewayByDefault { steps.append(["complete": true]) }
            if !steps.isEmpty { o["onActivate"] = .array(steps) }
            if !inner.isEmpty {
                o["boards"] = .array(inner.map(board))
                let fl = flows(in: b.id)
                if !fl.isEmpty { o["flows"] = .array(fl) }
            }
            o["source"] = .string(b.source.description)
            return .object(o)
        }

        func flows(in parent: String?) -> [JSONValue] {
            var out: [JSONValue] = []
            // Activations made on an output (in a handler, or a flow step) are flows.
            for e in edges where e.kind == .activates && e.byOutput && byID[e.from]?.parent == parent {
                guard sameMB(e.from, e.to) else {
                    notes.append("\(e.source): a handler of \(e.from)'s outputs activates \(e.to) in another motherboard; left out")
                    continue
                }
                var o: JSONObject = ["from": .string(e.from)]
                if let on = e.on { o["on"] = .string(on) }
                o["activate"] = .string(e.to)
                o["source"] = .string(e.source.description)
                out.append(.object(o))
            }
            return out
        }

        var root: JSONObject = ["scenario": .string(name)]
        root["boards"] = .array(boards.filter { $0.parent == nil }.map(board))
        let fl = flows(in: nil)
        if !fl.isEmpty { root["flows"] = .array(fl) }
        if let g = edges.first(where: { $0.kind == .gateway }) {
            var o: JSONObject = ["barrier": .string(g.from)]
            let ex = exempt.filter { byID[$0]?.parent == nil }
            if !ex.isEmpty { o["exempt"] = .array(ex.map(JSONValue.string)) }
            o["source"] = .string(g.source.description)
            root["gateway"] = .object(o)
        }
        let starts = entries.filter { byID[$0.board]?.parent == nil }
        if !starts.isEmpty { root["script"] = .array(starts.map { ["at": 0, "activate": .string($0.board)] }) }
        return (.object(root), notes)
    }
}
