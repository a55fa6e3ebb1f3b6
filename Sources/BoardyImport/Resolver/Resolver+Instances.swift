import BoardyTrace

/// Board instances: the class an expression makes and the id it has.
extension Resolver {
    // MARK: Instances

    /// The class an instance expression makes (`LoginBoard()`, a local typed `let login:
    /// LoginBoard = container.resolve()`, an injected stored property) and its arguments.
    func instanceType(_ s: Sym, _ ctx: Ctx, depth: Int = 0) -> (type: String, args: [SymArg])? {
        guard depth < 8 else { return nil }
        switch s {
        case .call(.name(let t), let args), .call(.member(.name(let t)?, "init"), let args):
            return t.first?.isUppercase == true ? (t, args) : nil
        case .name(let n), .member(.name("self")?, let n):
            if let b = ctx.bindings[n] { return instanceType(b.sym, b.ctx, depth: depth + 1) }
            for case .type(let owner, _) in ctx.owners {
                if let t = storedTypes[owner + "." + n] { return (t, []) }
            }
            return nil
        default: return nil
        }
    }

    /// A board instance: its class, kind, the user classes whose code it runs, and its ids (its
    /// `identifier:` argument, its initializer's default, or the id its initializer fixes).
    /// Nil when the expression is not a board.
    func instanceBoard(_ s: Sym, _ ctx: Ctx) -> (type: String, kind: BoardKind, types: [String], ids: Eval, fixedAt: CodeLocation?)? {
        guard let (t0, args) = instanceType(s, ctx), let (kind, chain) = kindOf(t0) else { return nil }
        let t = chain.first ?? resolveType(t0)
        if let a = args.first(where: { $0.label == "identifier" }) { return (t, kind, chain, evalString(a.value, ctx), nil) }
        for type in chain {
            let inits = initsByType[type] ?? []
            let labels = Set(args.compactMap(\.label))
            let fit = inits.first { i in labels.isSubset(of: Set(i.fact.params.map(\.label))) && i.fact.params.contains { $0.label == "identifier" } }
                ?? inits.first { i in labels.isSubset(of: Set(i.fact.params.map(\.label))) }
            if type == t, let fit, let p = fit.fact.params.first(where: { $0.label == "identifier" }), let d = p.defaultValue {
                return (t, kind, chain, evalString(d, Ctx(file: ctx.file, module: fit.module, owners: [], depth: ctx.depth + 1)), nil)
            }
            // `super.init(identifier: .login)` in the initializer (the one the arguments fit).
            let fixed = (fixedIDs[type] ?? []).sorted { $0.fact.line < $1.fact.line }
            if let (f, fi) = fixed.first(where: { x in fit.map { x.fact.line >= $0.fact.line } ?? true }) ?? fixed.first {
                var c = Ctx(file: fi, module: files[fi].module, owners: [], depth: ctx.depth + 1)
                if type == t, let fit { c.bindings = bind(fit.fact, module: fit.module, args, ctx) }
                return (t, kind, chain, evalString(f.id, c), loc(fi, f.line))
            }
        }
        return (t, kind, chain, .failed(Why("`\(s.text)` is given no id: Boardy gives the board a random one", .noID)), nil)
    }

    /// An IO helper's call: its argument, else its parameter's default. Helpers of the caller's
    /// module hide those of others (an internal helper beside the public one); else public ones.
    func callHelper(_ name: String, _ all: [(fact: FuncFact, module: String?)], _ args: [SymArg], _ ctx: Ctx) -> Eval {
        var helpers = all.filter { $0.fact.params.contains { $0.type.contains("BoardID") || $0.defaultValue != nil } || $0.fact.returns != nil }
        let local = helpers.filter { $0.module == ctx.module }
        if !local.isEmpty { helpers = local } else {
            let pub = helpers.filter(\.fact.isPublic)
            if !pub.isEmpty { helpers = pub }
        }
        var values: [String] = []
        var note: Note?
        for h in helpers {
            let fn = h.fact
            let idParam = fn.params.firstIndex { $0.type.contains("BoardID") } ?? (fn.params.isEmpty ? nil : 0)
            var result: Eval
            if let i = idParam, let arg = (fn.params[i].label == "_" ? args.first(where: { $0.label == nil }) : args.first(where: { $0.label == fn.params[i].label })) {
                result = evalString(arg.value, ctx)
            } else if let i = idParam, let d = fn.params[i].defaultValue {
                result = evalString(d, Ctx(file: ctx.file, module: h.module, owners: [], depth: ctx.depth))
            } else if let r = fn.returns {
                // A helper that forwards to another (`ioLogin()` calling `ioLogin(.pubLogin)`).
                var c = Ctx(file: ctx.file, module: h.module, owners: [], depth: ctx.depth + 1)
                if let i = idParam, let d = fn.params[i].defaultValue { c.bindings[fn.params[i].name] = Bound(sym: d, ctx: c) }
                result = evalDestination(r, c)
            } else {
                continue
            }
            switch result {
            case .values(let vs, let n):
                note = note ?? n
                for v in vs where !values.contains(v) { values.append(v) }
            case .failed(let why): if helpers.count == 1 { return .failed(why) }
            }
        }
        if values.count > 1, helpers.count > 1 { return .failed(Why("`\(name)` is declared \(helpers.count) times with different boards (\(values.joined(separator: ", ")))", .ambiguous)) }
        return values.isEmpty ? .failed("`\(name)(…)` names no board that can be found") : .values(values, note: note)
    }
}
