import BoardyTrace

/// What activations hand their targets, board kinds, and plugins' instances.
extension Resolver {
    // MARK: Activation values

    /// `ctx` of a bound value, at least as deep as the evaluation that reads it (no cycle runs
    /// forever).
    func deeper(_ bound: Ctx, than ctx: Ctx) -> Ctx {
        var c = bound
        c.depth = max(c.depth, ctx.depth) + 1
        return c
    }

    /// The values assigned to the stored property `name` of the type whose code `ctx` is.
    func assigned(_ name: String, _ ctx: Ctx) -> [Bound]? {
        guard let t = ctx.owners.lazy.compactMap(\.typeName).first, let list = assignments[t + "." + name], !list.isEmpty else { return nil }
        return list.map { a in
            var c = Ctx(file: a.file, module: files[a.file].module, owners: a.fact.owners)
            c.depth = ctx.depth + 1
            return Bound(sym: a.fact.value, ctx: c)
        }
    }

    /// Whether `base` names `BoardInput` (an implicit member in an activation is one of its
    /// static helpers).
    func isBoardInputBase(_ base: Sym?) -> Bool {
        guard let base else { return true }
        if case .name(let n) = base { return resolveType(n) == "BoardInput" }
        return false
    }

    func isBoardInputInit(_ callee: Sym) -> Bool {
        switch callee {
        case .name(let n): return resolveType(n) == "BoardInput"
        case .member(let b?, "init"): return isBoardInputBase(b)
        default: return false
        }
    }

    /// A static helper of `BoardInput` named `name`, the caller's module's first.
    func inputHelper(_ name: String, _ ctx: Ctx) -> (fact: FuncFact, module: String?)? {
        let all = (functions[name] ?? []).filter { $0.fact.owner == "BoardInput" && $0.fact.returns != nil }
        return all.first { $0.module == ctx.module } ?? all.first { $0.fact.isPublic } ?? all.first
    }

    func inputProperty(_ name: String, _ ctx: Ctx) -> (fact: PropFact, module: String?)? {
        let all = (properties[name] ?? []).filter { $0.fact.owner == "BoardInput" && $0.fact.value != nil }
        return all.first { $0.module == ctx.module } ?? all.first { $0.fact.isPublic } ?? all.first
    }

    /// A call's arguments bound to the function's parameters (defaults where left out).
    func bind(_ fn: FuncFact, module: String?, _ args: [SymArg], _ ctx: Ctx) -> [String: Bound] {
        var out: [String: Bound] = [:]
        let unlabeled = args.filter { $0.label == nil }
        var positional = 0
        for p in fn.params {
            var arg: Sym?
            if p.label == "_" {
                if positional < unlabeled.count { arg = unlabeled[positional].value }
                positional += 1
            } else {
                arg = args.first(where: { $0.label == p.label })?.value
            }
            if let arg { out[p.name] = Bound(sym: arg, ctx: ctx) } else if let d = p.defaultValue {
                out[p.name] = Bound(sym: d, ctx: Ctx(file: ctx.file, module: module, owners: [], depth: ctx.depth))
            }
        }
        return out
    }

    /// The activations a value handed to `nextToBoard`, `continueBoard` or `activateBoard`
    /// makes: a `BoardInput(target:input:)` built in place or by a static helper, an id, a
    /// destination, or an input the board received and forwards.
    func evalInput(_ s: Sym, _ ctx: Ctx) -> InputEval {
        guard ctx.depth < 32 else { return .failed(Why("`\(s.text)` is defined through too many steps", .tooManySteps)) }
        var ctx = ctx
        ctx.depth += 1
        func union(_ bounds: [Bound], why: Why) -> InputEval {
            var acts: [Activation] = []
            var note: Note?
            var failure: Why?
            for b in bounds {
                switch evalInput(b.sym, deeper(b.ctx, than: ctx)) {
                case .values(let vs, let n):
                    note = note ?? n
                    for v in vs where !acts.contains(where: { $0.target == v.target && $0.payload?.sym == v.payload?.sym }) { acts.append(v) }
                case .failed(let w): failure = failure ?? w
                }
            }
            if acts.isEmpty { return .failed(failure ?? why) }
            return .values(acts, note: note)
        }
        switch s {
        case .call(let callee, let args) where isBoardInputInit(callee) || (args.count == 1 && callee == .member(nil, "target")):
            guard let t = args.first(where: { $0.label == "target" }) ?? args.first(where: { $0.label == nil }) else { break }
            let payload = args.first(where: { $0.label == "input" }).map { Bound(sym: $0.value, ctx: ctx) }
            switch evalString(t.value, ctx) {
            case .values(let vs, let n): return .values(vs.map { Activation(target: $0, payload: payload) }, note: n)
            case .failed(let why): return .failed(why)
            }
        case .call(.member(let base, let n), let args) where isBoardInputBase(base):
            guard let h = inputHelper(n, ctx), let r = h.fact.returns else { break }
            var c = Ctx(file: ctx.file, module: h.module, owners: [], depth: ctx.depth)
            c.bindings = bind(h.fact, module: h.module, args, ctx)
            return evalInput(r, c)
        case .member(let base, let n) where isBoardInputBase(base):
            if let p = inputProperty(n, ctx), let v = p.fact.value {
                return evalInput(v, Ctx(file: ctx.file, module: p.module, owners: [], depth: ctx.depth))
            }
        case .name(let n):
            if let b = ctx.bindings[n] { return union([b], why: "`\(n)` is computed at run time") }
            if let a = assigned(n, ctx) { return union(a, why: "`\(n)` is set to values computed at run time") }
        case .param(_, _, let name) where ctx.bindings[name] != nil:
            return union([ctx.bindings[name]!], why: "`\(name)` is computed at run time")
        case .param(let function, _, let name) where functionsByKey[function]?.name == "activate":
            // The board's own input: whatever its activations hand it.
            let boards = runners(ctx.owners).boards
            let handed = boards.flatMap { payloads[$0] ?? [] }
            guard !handed.isEmpty else {
                return .failed(Why("`\(name)` is the input of \(boards.isEmpty ? "a board no producer registers" : boards.joined(separator: ", ")), and no activation of it hands it a BoardInput", .input))
            }
            switch union(handed, why: "`\(name)` is the input of \(boards.joined(separator: ", ")), computed at run time") {
            case .values(let acts, _): return .values(acts, note: Note("the input its callers hand it", throughCallers: true))
            case let failed: return failed
            }
        default: break
        }
        switch evalDestination(s, ctx) {
        case .values(let vs, let n): return .values(vs.map { Activation(target: $0, payload: nil) }, note: n)
        case .failed(let why): return .failed(why)
        }
    }

    /// Fills `payloads`: what every activation hands its target, repeated while forwarding
    /// reveals more (a board that forwards its input to a board that forwards it again).
    mutating func collectPayloads() {
        for _ in 0..<4 {
            var found: [String: [Bound]] = [:]
            var keys = Set<String>()
            for (fi, f) in files.enumerated() {
                for c in f.calls {
                    guard case .activate = c.kind, case .call(.name("__input"), let args)? = c.target, let a = args.first?.value, used(c.owners) else { continue }
                    guard case .values(let acts, _) = evalInput(a, Ctx(file: fi, module: f.module, owners: c.owners)) else { continue }
                    for act in acts {
                        guard let p = act.payload, keys.insert("\(act.target)|\(p.ctx.file)|\(c.line)|\(p.sym.text)").inserted else { continue }
                        found[act.target, default: []].append(p)
                    }
                }
            }
            let before = payloads.values.reduce(0) { $0 + $1.count }
            payloads = found
            if found.values.reduce(0, { $0 + $1.count }) == before { break }
        }
    }

    // MARK: Types

    func resolveType(_ name: String) -> String {
        var n = baseName(name)
        var seen = Set<String>()
        while let t = typealiases[n], seen.insert(n).inserted { n = baseName(t) }
        return n
    }

    static let componentKinds: [String: BoardKind] = [
        "TaskBoard": .task, "BlockTaskBoard": .blockTask, "ResultTaskBoard": .resultTask, "FlowBoard": .flow, "BarrierBoard": .barrier,
        "ContinuousBoard": .continuous, "ModernContinuableBoard": .continuous, "ContinuableBoard": .continuous, "FlowingBoard": .flow,
        "Board": .board, "NoBoard": .board, "InstallableBoard": .board, "NormalBoard": .board, "ModernBoard": .board,
        "DedicatedBoard": .board, "AdaptableBoard": .board, "AdapterBoard": .board, "ClosureContinuousBoard": .continuous,
    ]

    /// The board kind of a type, and the user types (itself and its superclasses) whose code it runs.
    func kindOf(_ type: String, depth: Int = 0) -> (kind: BoardKind, types: [String])? {
        var t = resolveType(type)
        if let k = Self.componentKinds[t] { return (k, []) }
        if types[t] == nil, let full = nestedShort[t] { t = full }
        guard depth < 16, let decl = types[t], decl.kind == .class || decl.kind == .extension else { return nil }
        for parent in decl.inherits {
            if let (k, ts) = kindOf(parent, depth: depth + 1) { return (k, [t] + ts) }
        }
        // A class that adopts Boardy's board protocols without subclassing Board (older apps'
        // `RIBBoard: IdentifiableBoard`), or a library's board class the import does not read.
        for parent in decl.inherits {
            let p = resolveType(parent)
            if Self.boardProtocols.contains(p) || (types[p] == nil && nestedShort[p] == nil && p.hasSuffix("Board") && p != "Board") { return (.board, [t]) }
        }
        return nil
    }

    static let boardProtocols: Set<String> = [
        "ActivatableBoard", "GuaranteedBoard", "IdentifiableBoard", "GuaranteedActivatableBoard", "OriginalBoard", "GuaranteedOpenBoard", "OpenBoard",
    ]

    /// What a maker (a registration's closure or case, a plugin's build, a factory) makes: the
    /// kind, and the code keys that run as the board.
    func make(_ key: Owner, module: String?, serviceCase: String?, depth: Int = 0) -> (kind: BoardKind, keys: [Owner])? {
        guard depth < 8 else { return nil }
        for m in makes[key] ?? [] {
            if let c = serviceCase, let cases = m.serviceCases, !cases.contains(c) { continue }
            switch m.callee {
            case .name(let t), .member(.name(let t)?, "init"):
                if let (k, ts) = kindOf(t) { return (k, [key] + ts.map { Owner.type($0, module: declModule($0, from: module)) }) }
            case .member(.name(let t)?, let f):
                let fm = declModule(resolveType(t), from: module)
                let fkey = Owner.function("F:\(t).\(f)", module: fm)
                if let (k, keys) = make(fkey, module: fm, serviceCase: nil, depth: depth + 1) { return (k, [key] + keys) }
            default: break
            }
        }
        return nil
    }

    // MARK: Plugins

    func isPlugin(_ t: String) -> Bool {
        types[t]?.inherits.contains { ["ModulePlugin", "ModuleBuilderPlugin"].contains(baseName($0)) } ?? false
    }

    /// A plugin's instances: per service case (or none), the ids its `identifier` gives.
    func pluginInstances(_ p: String) -> [(service: String?, ids: [String], source: CodeLocation?)] {
        var out: [(service: String?, ids: [String], source: CodeLocation?)] = []
        // The enum whose `identifier` maps cases to ids (the plugin's ServiceType).
        func serviceTable() -> (cases: [String], table: PropFact?) {
            let allIDProps = (properties["identifier"] ?? []).map(\.fact).filter { !$0.cases.isEmpty }
            // `var identifier: BoardID { switch service { case let .x(id): return id } }` on the
            // plugin itself: the cases are its nested ServiceType's.
            if let prop = allIDProps.first(where: { $0.owner == p }) {
                let nested = types.values.filter { $0.kind == .enum && $0.name.hasPrefix(p + ".") }.sorted { $0.name < $1.name }.flatMap(\.cases)
                return (nested.isEmpty ? prop.cases.flatMap(\.names).filter { $0 != "default:" } : nested, prop)
            }
            let idProps = allIDProps
                .sorted { ($0.owner?.hasPrefix(p + ".") ?? false) && !($1.owner?.hasPrefix(p + ".") ?? false) }
            for prop in idProps where prop.owner?.hasPrefix(p + ".") ?? false || !idProps.contains(where: { $0.owner?.hasPrefix(p + ".") ?? false }) {
                if let owner = prop.owner, let t = types[owner], t.kind == .enum { return (t.cases, prop) }
            }
            return ([], nil)
        }
        let (cases, table) = serviceTable()
        func idsFor(_ caseName: String, args: [SymArg], file: Int) -> [String] {
            guard let table, let row = table.cases.first(where: { $0.names.contains(caseName) }) else { return [] }
            var ctx = Ctx(file: file, module: files[file].module, owners: [])
            let at = Ctx(file: file, module: files[file].module, owners: [])
            for (i, b) in row.bindings.enumerated() where i < args.count { ctx.bindings[b] = Bound(sym: args[i].value, ctx: at) }
            if case .values(let vs, _) = evalString(row.value, ctx) { return vs }
            return []
        }
        for (args, file, line) in constructions[p] ?? [] {
            let src = loc(file, line)
            if let s = args.first(where: { $0.label == "service" })?.value {
                switch s {
                case .member(nil, let c): out.append((c, idsFor(c, args: [], file: file), src))
                case .call(.member(nil, let c), let a): out.append((c, idsFor(c, args: a, file: file), src))
                default: for c in cases { out.append((c, idsFor(c, args: [], file: file), src)) }
                }
            } else if let id = args.first(where: { $0.label == "identifier" })?.value {
                if case .values(let vs, _) = evalString(id, Ctx(file: file, module: files[file].module, owners: [])) { out.append((nil, vs, src)) }
            }
        }
        // A plugin with a fixed identifier (installed: its bundled list is, or it is named outside it).
        let listed = types.keys.contains(p) && declaresMember(p + ".bundledPlugins")
        if out.isEmpty, referenced.contains(p), !listed || referenced.contains(p + ".bundledPlugins") {
            if let c = (constants["identifier"] ?? []).first(where: { $0.fact.owner == p }),
               case .values(let vs, _) = evalString(c.fact.value, Ctx(file: 0, module: c.module, owners: [])) {
                out.append((nil, vs, nil))
            } else if let pr = (properties["identifier"] ?? []).first(where: { $0.fact.owner == p }), let v = pr.fact.value,
                      case .values(let vs, _) = evalString(v, Ctx(file: 0, module: pr.module, owners: [])) {
                out.append((nil, vs, nil))
            } else {
                for c in cases { out.append((c, idsFor(c, args: [], file: 0), nil)) }
            }
        }
        return out
    }

    /// Whether `Type.name` is a declared property or constant.
    func declaresMember(_ qualified: String) -> Bool {
        guard let dot = qualified.lastIndex(of: ".") else { return false }
        let owner = String(qualified[..<dot]), name = String(qualified[qualified.index(after: dot)...])
        return (properties[name] ?? []).contains { $0.fact.owner == owner } || (constants[name] ?? []).contains { $0.fact.owner == owner }
    }
}
