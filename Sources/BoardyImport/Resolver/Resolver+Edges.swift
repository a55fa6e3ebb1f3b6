import BoardyTrace

/// The edges each call makes, gateways, and the counts of what was understood.
extension Resolver {
    // MARK: Edges

    /// What the pass over the call sites gathers for the passes after it.
    struct EdgeScan {
        /// Each gateway's `registerWithActivation` (by its line): the gates it activates, and its file.
        var gatewayDefs: [Int: (gates: [String], file: Int)] = [:]
        /// The gateways installed (`install(gatewayBarrier:…)`), with their files.
        var installs: [(fact: CallFact, file: Int)] = []
        /// The broadcast actions of the code that runs (type-matched handlers need them).
        var broadcasts: [Broadcast] = []
        /// The boards whose code completes (or sends an output in a gateway's flows).
        var completes = Set<String>()
        /// The boards whose code sends an output.
        var outputs = Set<String>()
    }

    /// A call site being resolved: the call, where it is written, and who runs it.
    struct CallSite {
        let call: CallFact
        let file: Int
        let module: String?
        let source: CodeLocation
        let ctx: Ctx
        /// The boards whose code holds the call, and whether the app's entry code holds it.
        let own: (boards: [String], entry: Bool)
        /// Who runs it: the handled boards inside a handler, else the code's own boards.
        let froms: [String]
        /// How `froms` were found, when a handler's sources or type gave them.
        let fromNote: Note?
    }

    /// Resolves the edges every call site makes, in passes: the broadcast actions, each call
    /// site, the boards activated by hand, the gateways, the gates that never complete; then one
    /// edge, unresolved item and entry each, in source order.
    mutating func resolveEdges() {
        collectPayloads()
        var scan = EdgeScan()
        // Broadcast actions first: type-matched handlers need them.
        scan.broadcasts = broadcastActions()
        for (fi, f) in files.enumerated() {
            for c in f.calls { resolveCall(c, in: f, file: fi, scan: &scan) }
        }
        resolveActivatedByHand()
        resolveGateways(defs: scan.gatewayDefs, installs: scan.installs)
        findGatesWithoutCompletion(completes: scan.completes)
        dropDuplicates()
    }

    /// An edge `from` → `to`, or an unresolved item when no producer of the app registers `to`.
    mutating func addEdge(_ from: String, _ to: String, _ kind: ImportedEdge.Kind, on: String? = nil, _ src: CodeLocation, note: Note? = nil, byOutput: Bool = false, chain: [String] = []) {
        guard boards[to] != nil else {
            unresolved.append(UnresolvedItem(source: src, why: "\(kind.rawValue) `\(to)`, which no producer of the app registers", cause: .unregisteredTarget, ids: [to]))
            return
        }
        edges.append(ImportedEdge(from: from, to: to, kind: kind, on: on, source: src, note: note?.text, byOutput: byOutput, chain: chain))
    }

    /// Whose code a call is, in words.
    func runnerWhy(_ c: CallFact, _ from: String) -> String {
        if let h = c.handler { return h.sources.isEmpty ? "in a handler matched by type, of \(from)'s outputs" : "in a handler of \(from)'s outputs" }
        guard let key = c.owners.first(where: { bindings[$0] != nil }) else { return "in code that \(from)'s code calls" }
        if let t = key.typeName { return "in \(t), the class \(from) is made of" }
        if key.functionKey != nil { return "in \(key.shown), which makes \(from)" }
        return "in the code that makes \(from)"
    }

    /// The broadcast actions of the code that runs, each with its board, type and case.
    func broadcastActions() -> [Broadcast] {
        var broadcasts: [Broadcast] = []
        for f in files {
            for c in f.calls {
                guard case .broadcast(let type) = c.kind, used(c.owners) else { continue }
                let t = type ?? actionType(of: c.target)
                for b in runners(c.owners).boards { broadcasts.append(Broadcast(board: b, type: t ?? boardAlias(b, "FlowActionType"), action: c.target?.lastName)) }
            }
        }
        return broadcasts
    }

    /// Resolves one call site: skips what does not run (counting the activations it holds as
    /// unreached), finds who runs it, and hands it to the rule of its kind.
    mutating func resolveCall(_ c: CallFact, in f: FileFacts, file fi: Int, scan: inout EdgeScan) {
        let src = loc(fi, c.line, c.column)
        let isActivation: Bool
        switch c.kind {
        case .activate, .barrier, .gatewayGate: isActivation = true
        default: isActivation = false
        }
        // An app's own overload that forwards to Boardy's (`func nextToBoard(_ id:
        // BoardIdentity) { nextToBoard(model: id) }`): its callers are the call sites, each
        // resolved where it is written.
        if case .activate = c.kind, case .call(.name("__input"), let a)? = c.target, case .param(let fkey, _, _)? = a.first?.value,
           let fn = functionsByKey[fkey], Self.activationVerbs.contains(fn.name) {
            return
        }
        guard used(c.owners) else {
            if isActivation { unreach(c, fi, src, why: unusedWhy(c.owners)) }
            return
        }
        let ctx = Ctx(file: fi, module: f.module, owners: c.owners)
        let own = runners(c.owners)
        // The code of a board class whose maker no registration the app runs reaches (a
        // service case no instance has): counted and listed, no edge. A board class made
        // nowhere we can see stays unresolved.
        if own.boards.isEmpty, !own.entry, let t = c.owners.lazy.compactMap(\.typeName).first(where: { self.kindOf($0) != nil }),
           constructedAnywhere.contains(t) {
            if isActivation { unreach(c, fi, src, why: "in \(t), a board class no registration the import resolved makes") }
            return
        }
        let (froms, fromNote) = callRunners(c, ctx, own: own, broadcasts: scan.broadcasts)
        let site = CallSite(call: c, file: fi, module: f.module, source: src, ctx: ctx, own: own, froms: froms, fromNote: fromNote)
        switch c.kind {
        case .activate, .barrier, .gatewayGate:
            resolveActivation(site, gatewayDefs: &scan.gatewayDefs)
        case .flowHandler, .flowBind:
            resolveFlowHandler(site, broadcasts: scan.broadcasts)
        case .steps(let parts):
            resolveSteps(parts, site)
        case .broadcast:
            break
        case .complete:
            scan.completes.formUnion(own.boards)
        case .sendOutput:
            scan.outputs.formUnion(own.boards)
            if c.inGatewayFlows { scan.completes.formUnion(own.boards) }
        case .gatewayInstall:
            scan.installs.append((c, fi))
        }
    }

    /// Who runs a call: the handled boards inside a handler (or, for a handler matched by type,
    /// the boards that broadcast its case), else the code's own boards; and how they were found.
    func callRunners(_ c: CallFact, _ ctx: Ctx, own: (boards: [String], entry: Bool), broadcasts: [Broadcast]) -> (froms: [String], fromNote: Note?) {
        var froms = own.boards
        var fromNote: Note?
        if let h = c.handler, !h.sources.isEmpty {
            froms = []
            for s in h.sources {
                if case .values(let vs, let n) = evalDestination(s, ctx) { froms += vs.filter { boards[$0] != nil }; fromNote = fromNote ?? n }
            }
        } else if let h = c.handler, let t = h.matchType {
            // Only the boards that broadcast this case, when the handler matches one.
            froms = handledByType(t, broadcasts: broadcasts, action: h.outputCase)
            fromNote = "matched by type \(t)"
        }
        return (froms, fromNote)
    }

    /// An activation, a barrier or a gateway's gate: its targets; the gates a gateway activates,
    /// the barriers in front of the code's boards, the entries the app's entry code activates,
    /// or an edge from each board that runs it to each target.
    mutating func resolveActivation(_ site: CallSite, gatewayDefs: inout [Int: (gates: [String], file: Int)]) {
        let c = site.call, fi = site.file, src = site.source, ctx = site.ctx, own = site.own, froms = site.froms, fromNote = site.fromNote
        guard let target = c.target else { return }
        let tos: [String]
        var note: Note?
        switch evalDestination(target, ctx) {
        case .values(let vs, let n): tos = vs; note = n
        case .failed(let why):
            unresolved.append(UnresolvedItem(source: src, why: "target depends on data: \(why)", cause: .target, reason: why.reason, ids: mentionedIDs(target, ctx)))
            tally(site.module, .unresolved)
            return
        }
        // A type-matched handler no board feeds is not a call site that runs.
        if !(froms.isEmpty && c.handler?.matchType != nil) {
            let runs = !froms.isEmpty || (own.entry && c.handler == nil)
            tally(site.module, !runs ? .unresolved : note?.throughCallers == true ? .throughCallers : .direct)
        }
        if case .gatewayGate(let def) = c.kind {
            gatewayDefs[def, default: ([], fi)].gates += tos.filter { !(gatewayDefs[def]?.gates.contains($0) ?? false) }
            return
        }
        if case .barrier = c.kind {
            for to in tos { gates.insert(to) }
            for b in own.boards { for g in tos { addEdge(g, b, .barrier, src, note: note) } }
            return
        }
        if froms.isEmpty {
            if c.handler?.matchType != nil { return }
            if own.entry && c.handler == nil {
                for t in tos where boards[t] != nil { entries.append(EntryPoint(board: t, source: src)) }
            } else {
                unresolved.append(UnresolvedItem(source: src, why: "activates \(tos.joined(separator: ", ")) in code no board runs", cause: .noRunner, ids: tos))
            }
            return
        }
        for from in froms {
            for to in tos {
                let chain = ["call at \(src): `\(target.text.replacingOccurrences(of: "__input", with: "activate"))`", "target \"\(to)\": \(note?.text ?? "from what is written at the call")",
                             "runs as \(from): \(fromNote?.text ?? runnerWhy(c, from))"]
                addEdge(from, to, .activates, on: c.handler?.outputCase, src, note: note ?? fromNote, byOutput: c.handler != nil, chain: chain)
            }
        }
    }

    /// A flow handler or binding: an edge from each board it handles (or, matched by type, each
    /// board whose output or broadcast action has the type) to each board whose code registers it.
    mutating func resolveFlowHandler(_ site: CallSite, broadcasts: [Broadcast]) {
        let c = site.call, src = site.source, ctx = site.ctx, own = site.own
        if c.target == nil, let t = c.matchType {
            // A general handler, matched by type: the boards whose output or
            // broadcast action has it.
            for h in handledByType(t, broadcasts: broadcasts) { for r in own.boards where r != h { addEdge(h, r, .flow, src, note: "matched by type \(t)") } }
            return
        }
        guard let target = c.target else { return }
        guard case .values(let handled, let note) = evalDestination(target, ctx) else {
            if case .failed(let why) = evalDestination(target, ctx) { unresolved.append(UnresolvedItem(source: src, why: "handled board depends on data: \(why)", cause: .handledBoard, reason: why.reason, ids: mentionedIDs(target, ctx))) }
            return
        }
        for h in handled {
            for r in own.boards where r != h {
                let chain = ["handler registered at \(src) for `\(target.text)`", "handled board \"\(h)\": \(note ?? "from what is written at the call")", "registered by \(r): \(runnerWhy(c, r))"]
                if c.cases.isEmpty { addEdge(h, r, .flow, src, note: note, chain: chain) } else { for k in c.cases { addEdge(h, r, .flow, on: k, src, note: note, chain: chain) } }
            }
        }
    }

    /// `registerFlowSteps(a ->> b ->> c)`: an edge from each step to the next.
    mutating func resolveSteps(_ parts: [Sym], _ site: CallSite) {
        let src = site.source, ctx = site.ctx
        var ids: [[String]] = []
        for p in parts {
            switch evalDestination(p, ctx) {
            case .values(let vs, _): ids.append(vs)
            case .failed(let why): unresolved.append(UnresolvedItem(source: src, why: "flow step depends on data: \(why)", cause: .flowStep, reason: why.reason, ids: mentionedIDs(p, ctx))); ids.append([])
            }
        }
        for (a, b) in zip(ids, ids.dropFirst()) { for x in a where boards[x] != nil { for y in b { addEdge(x, y, .activates, src, note: "flow step", byOutput: true) } } }
    }

    /// Boards activated by hand (`rootBoard.activate()`): entries from the app's entry code,
    /// edges from a board's.
    mutating func resolveActivatedByHand() {
        for (x, fi) in instances where x.how == .activatedDirectly {
            let ctx = Ctx(file: fi, module: files[fi].module, owners: x.owners)
            guard let inst = instanceBoard(x.board, ctx), case .values(let ids, _) = inst.ids else { continue }
            let src = loc(fi, x.line)
            guard used(x.owners) else { continue }
            let own = runners(x.owners)
            if own.boards.isEmpty {
                if own.entry {
                    tally(files[fi].module, .direct)
                    for id in ids where boards[id] != nil { entries.append(EntryPoint(board: id, source: src)) }
                }
                continue
            }
            tally(files[fi].module, .direct)
            for from in own.boards { for to in ids where to != from { addEdge(from, to, .activates, src, note: "activated by hand") } }
        }
    }

    /// Gateways: the gate activated in `registerWithActivation`, in front of the boards
    /// guarded (`for:` one id, else every board of the main producer that neither is exempt
    /// nor bypasses).
    mutating func resolveGateways(defs gatewayDefs: [Int: (gates: [String], file: Int)], installs: [(fact: CallFact, file: Int)]) {
        let allDefs = gatewayDefs.sorted { $0.key < $1.key }
        var exemptIDs = Set<String>()
        var gatewayGate: [String] = []
        for (c, fi) in installs {
            guard case .gatewayInstall(let exempt, let forID, let def) = c.kind else { continue }
            let ctx = Ctx(file: fi, module: files[fi].module, owners: c.owners)
            var gs = def.flatMap { gatewayDefs[$0]?.gates } ?? []
            if gs.isEmpty, def == nil, allDefs.count == 1 { gs = allDefs[0].value.gates }
            if !exempt, !gs.isEmpty { gatewayGate = gs }
            if exempt, let forID, case .values(let ids, _) = evalString(forID, ctx) { exemptIDs.formUnion(ids) }
        }
        for (c, fi) in installs {
            guard case .gatewayInstall(let exempt, let forID, let def) = c.kind else { continue }
            let src = loc(fi, c.line, c.column)
            let ctx = Ctx(file: fi, module: files[fi].module, owners: c.owners)
            var gs = def.flatMap { gatewayDefs[$0]?.gates } ?? []
            if gs.isEmpty { gs = gatewayGate }
            guard !gs.isEmpty else {
                unresolved.append(UnresolvedItem(source: src, why: "gateway whose gate cannot be found (no activation in its registerWithActivation)", cause: .gateway, reason: .other))
                continue
            }
            for g in gs { gatewayGates.insert(g); gates.insert(g) }
            var guarded: [String]
            if let forID {
                guard case .values(let ids, _) = evalString(forID, ctx) else {
                    unresolved.append(UnresolvedItem(source: src, why: "gateway for a board that depends on data: `\(forID.text)`", cause: .gateway, ids: mentionedIDs(forID, ctx)))
                    continue
                }
                guarded = ids
            } else {
                guarded = order.filter { boards[$0]?.parent == nil && !(boards[$0]?.bypassesGateway ?? true) && !exemptIDs.contains($0) }
            }
            for g in gs {
                for b in guarded { addEdge(g, b, exempt ? .exempt : .gateway, src) }
            }
        }
    }

    /// Gates whose code never completes (nor sends a resolving output, for gateways).
    mutating func findGatesWithoutCompletion(completes: Set<String>) {
        gatesWithoutCompletion = gates.sorted().compactMap { g in
            guard let b = boards[g] else { return nil }
            if b.kind.bypassesGatewayByDefault { return nil }
            if completes.contains(g) { return nil }
            return b
        }
    }

    /// One edge per (from, to, kind, on), at its first place in the sources; each unresolved
    /// item and each entry once, in source order.
    mutating func dropDuplicates() {
        var seen = Set<String>()
        edges.sort { ($0.source, $0.from, $0.to, $0.kind.rawValue) < ($1.source, $1.from, $1.to, $1.kind.rawValue) }
        edges = edges.filter { seen.insert("\($0.from)\u{0}\($0.to)\u{0}\($0.kind.rawValue)\u{0}\($0.on ?? "")").inserted }
        var seenU = Set<UnresolvedItem>()
        unresolved = unresolved.sorted { ($0.source, $0.why) < ($1.source, $1.why) }.filter { seenU.insert($0).inserted }
        var seenE = Set<String>()
        entries = entries.sorted { $0.source < $1.source }.filter { seenE.insert($0.board).inserted }
    }

    /// The names of Boardy's activation calls an app may overload for its own target types.
    static let activationVerbs: Set<String> = ["nextToBoard", "activateBoard", "continueBoard"]

    mutating func unreach(_ c: CallFact, _ fi: Int, _ src: CodeLocation, why: String) {
        let owner = c.owners.lazy.compactMap(\.typeName).first ?? c.owners.first?.shown ?? ""
        unreached.append(UnreachedSite(source: src, owner: owner, why: why))
        tally(files[fi].module, .unreached)
    }

    enum Outcome { case direct, throughCallers, unresolved, unreached }

    mutating func tally(_ module: String?, _ o: Outcome) {
        let m = module ?? ""
        var r = resolution[m] ?? ImportResolution(module: m)
        switch o {
        case .direct: r.direct += 1
        case .throughCallers: r.throughCallers += 1
        case .unresolved: r.unresolved += 1
        case .unreached: r.unreached += 1
        }
        resolution[m] = r
    }

    /// A board's `typealias OutputType = …` (or FlowActionType), through its class and superclasses.
    func boardAlias(_ id: String, _ alias: String) -> String? {
        for (key, ids) in bindings.sorted(by: { $0.key.shown < $1.key.shown }) where ids.contains(id) {
            if let t = key.typeName, let a = types[t]?.aliases[alias] { return resolveType(a) }
        }
        return nil
    }

    /// The type of an action written as an implicit member (`.webReturn`): the parameter type
    /// of the app's own `broadcastAction(_:)` wrapper when there is one, else the one enum that
    /// declares that case.
    func actionType(of target: Sym?) -> String? {
        guard case .member(nil, let name)? = target else { return nil }
        let wrappers = (functions["broadcastAction"] ?? []) + (functions["sendFlowAction"] ?? []) + (functions["sendAction"] ?? [])
        let typed = Set(wrappers.compactMap { $0.fact.params.first.map { resolveType($0.type) } }.filter { t in types[t]?.cases.contains(name) ?? false })
        if typed.count == 1 { return typed.first }
        let declaring = Set(types.values.filter { $0.kind == .enum && $0.cases.contains(name) }.map(\.name))
        return declaring.count == 1 ? declaring.first : nil
    }

    /// A `broadcastAction(…)`: the board, the action's type and case.
    struct Broadcast {
        var board: String
        var type: String?
        var action: String?
    }

    /// The boards whose outputs (or broadcast actions) have type `t` (and, when given, that
    /// broadcast `action`).
    func handledByType(_ t: String, broadcasts: [Broadcast], action: String? = nil) -> [String] {
        let t = resolveType(t)
        var out: [String] = []
        for b in broadcasts where b.type.map(resolveType) == t && !out.contains(b.board) {
            if let action, let a = b.action, a != action, !broadcasts.contains(where: { $0.board == b.board && ($0.action == action || $0.action == nil) }) { continue }
            out.append(b.board)
        }
        for id in order where boardAlias(id, "OutputType") == t && !out.contains(id) { out.append(id) }
        return out
    }

    /// The boards, in a stable order: module, parent, id.
    var sortedBoards: [ImportedBoard] {
        boards.values.sorted { ($0.module ?? "", $0.parent ?? "", $0.id) < ($1.module ?? "", $1.parent ?? "", $1.id) }
    }
}
