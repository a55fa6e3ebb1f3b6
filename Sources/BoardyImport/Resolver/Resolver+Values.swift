import BoardyTrace

/// Resolving values: ids through constants, interpolations, enum cases, callers and the values things are made with; destinations through IO helpers and service maps.
extension Resolver {
    // MARK: Ids

    /// The strings an id expression can be.
    func evalString(_ s: Sym, _ ctx: Ctx) -> Eval {
        guard ctx.depth < 24 else { return .failed(Why("`\(s.text)` is defined through too many steps", .tooManySteps)) }
        var ctx = ctx
        ctx.depth += 1
        switch s {
        case .str(let parts):
            var results = [""]
            var note: Note?
            for p in parts {
                switch p {
                case .text(let t): results = results.map { $0 + t }
                case .expr(let e):
                    guard case .values(let vs, let n) = evalString(e, ctx) else { return .failed("`\(s.text)` interpolates `\(e.text)`, computed at run time") }
                    note = note ?? n
                    results = results.flatMap { r in vs.map { r + $0 } }
                    if results.count > 64 { return .failed(Why("`\(s.text)` has too many possible values", .tooManySteps)) }
                }
            }
            return .values(results, note: note)
        case .name(let n):
            if let b = ctx.bindings[n] { return evalString(b.sym, deeper(b.ctx, than: ctx)) }
            if let a = assigned(n, ctx) {
                var values: [String] = []
                var note: Note?
                for b in a {
                    if case .values(let vs, let n) = evalString(b.sym, b.ctx) {
                        values += vs
                        if n?.throughCallers == true { note = note ?? n }
                    }
                }
                if !values.isEmpty { return .values(values.uniqued, note: note) }
            }
            if n == "identifier", let ids = ctx.pluginID { return .values(ids, note: nil) }
            return constant(n, owner: nil, ctx) ?? .failed("`\(n)` is computed at run time")
        case .member(nil, let n):
            return constant(n, owner: "BoardID", ctx) ?? constant(n, owner: nil, ctx) ?? .failed(Why("no constant `.\(n)` is declared", .noConstant))
        case .member(.name("self")?, "identifier"):
            if let ids = ctx.pluginID { return .values(ids, note: nil) }
            return .failed(Why("`self.identifier` outside a plugin", .outsidePlugin))
        case .member(.name("service")?, "identifier"), .member(.member(.name("self")?, "service")?, "identifier"):
            // In a plugin, its service's id is the id of the instance being registered.
            if let ids = ctx.pluginID, !ids.isEmpty { return .values(ids, note: nil) }
            return .failed(Why("`\(s.text)` is read outside a plugin whose service case is known", .outsidePlugin))
        case .member(.name("self")?, let n), .member(.name("Self")?, let n):
            return constant(n, owner: nil, ctx) ?? .failed("`self.\(n)` is computed at run time")
        case .member(let base?, "rawValue"):
            return evalString(base, ctx)
        case .member(let base?, let n):
            // A member of a value made with arguments (`ids.account`, ids being
            // `AccountIDs(account: .pubAccount)` wherever it came from).
            if case .name(let t) = base, t.first?.isLowercase == true, let made = madeMember(base, n, ctx) { return made }
            if case .name(let t) = base { return constant(n, owner: t, ctx) ?? constant(n, owner: nil, ctx) ?? .failed(Why("no constant `\(t).\(n)` is declared", .noConstant)) }
            if case .member(_, let t) = base { return constant(n, owner: t, ctx) ?? .failed(Why("no constant `\(s.text)` is declared", .noConstant)) }
            return .failed("`\(s.text)` is computed at run time")
        case .call(let callee, let args):
            let name = callee.lastName
            if name == "BoardID" || name == "init" || name == "String", let a = args.first { return evalString(a.value, ctx) }
            return .failed("`\(s.text)` is computed at run time")
        case .param(_, _, let name) where ctx.bindings[name] != nil:
            let b = ctx.bindings[name]!
            return evalString(b.sym, deeper(b.ctx, than: ctx))
        case .param(let function, let index, let name):
            return throughCallers(function: function, index: index, name: name, ctx)
        case .oneOf(let xs):
            var values: [String] = []
            for x in xs {
                guard case .values(let vs, _) = evalString(x, ctx) else { return .failed("`\(x.text)` is computed at run time") }
                for v in vs where !values.contains(v) { values.append(v) }
            }
            return .values(values, note: nil)
        case .other(let t):
            return .failed("`\(t)` is computed at run time")
        }
    }

    /// A constant's value: declared by `name` (in `owner` when given), preferring the module of
    /// the code that reads it, then public declarations.
    func constant(_ name: String, owner: String?, _ ctx: Ctx) -> Eval? {
        var candidates = (constants[name] ?? []).filter { owner == nil || $0.fact.owner == owner || typealiases[$0.fact.owner ?? ""] == owner || (owner == "BoardID" && $0.fact.owner == nil) }
        if candidates.isEmpty, let props = properties[name]?.filter({ owner == nil || $0.fact.owner == owner }), let p = props.first, let v = p.fact.value {
            return evalString(v, Ctx(file: ctx.file, module: p.module, owners: [], depth: ctx.depth))
        }
        guard !candidates.isEmpty else { return nil }
        let local = candidates.filter { $0.module == ctx.module }
        if !local.isEmpty { candidates = local } else if candidates.count > 1 {
            let pub = candidates.filter { $0.fact.isPublic }
            if !pub.isEmpty { candidates = pub }
        }
        var values: [String] = []
        for c in candidates {
            guard case .values(let vs, _) = evalString(c.fact.value, Ctx(file: ctx.file, module: c.module, owners: [], depth: ctx.depth)) else { continue }
            for v in vs where !values.contains(v) { values.append(v) }
        }
        if values.count > 1 { return .failed(Why("`\(name)` is declared with different values (\(values.joined(separator: ", ")))", .ambiguous)) }
        return values.isEmpty ? nil : .values(values, note: nil)
    }

    /// A parameter's value at every call of its function: resolved when every caller passes a
    /// static value (or leaves the default).
    /// The values `base` can hold, as the expressions that make them: followed through local
    /// names, stored properties (what their type's code assigns) and parameters (what callers
    /// and constructions pass).
    func valuesOf(_ s: Sym, _ ctx: Ctx) -> [Bound] {
        guard ctx.depth < 12 else { return [] }
        var ctx = ctx
        ctx.depth += 1
        switch s {
        case .name(let n):
            if let b = ctx.bindings[n] { return valuesOf(b.sym, deeper(b.ctx, than: ctx)) }
            if let a = assigned(n, ctx) { return a.flatMap { valuesOf($0.sym, $0.ctx) } }
            return []
        case .param(_, _, let name) where ctx.bindings[name] != nil:
            let b = ctx.bindings[name]!
            return valuesOf(b.sym, deeper(b.ctx, than: ctx))
        case .param(let function, let index, _):
            return passed(function: function, index: index, ctx).flatMap { valuesOf($0.value.sym, $0.value.ctx) }
        default:
            return [Bound(sym: s, ctx: ctx)]
        }
    }

    /// What the calls (or, for an initializer, the constructions) of `function` pass to its
    /// parameter `index` (or its default, where a call leaves it out), each with the context and
    /// place of the call.
    func passed(function: String, index: Int, _ ctx: Ctx) -> [(value: Bound, at: CodeLocation)] {
        guard let fn = functionsByKey[function], index < fn.params.count else { return [] }
        let p = fn.params[index]
        var calls: [(args: [SymArg], owners: OwnerChain, file: Int, line: Int)] = []
        if fn.name == "init", let t = fn.owner {
            calls = (initCalls[t] ?? []).map { ($0.fact.args, $0.fact.owners, $0.file, $0.fact.line) }
        } else {
            calls = (userCalls[fn.name] ?? []).map { ($0.fact.args, $0.fact.owners, $0.file, $0.fact.line) }
        }
        var out: [(value: Bound, at: CodeLocation)] = []
        for call in calls {
            var arg: Sym?
            if p.label == "_" {
                // Positional: the index among unlabeled arguments.
                let unlabeledBefore = fn.params[..<index].filter { $0.label == "_" }.count
                let unlabeled = call.args.filter { $0.label == nil }
                arg = unlabeledBefore < unlabeled.count ? unlabeled[unlabeledBefore].value : nil
            } else {
                arg = call.args.first(where: { $0.label == p.label })?.value
            }
            guard let value = arg ?? p.defaultValue else { continue }
            var c = Ctx(file: call.file, module: files[call.file].module, owners: call.owners, depth: ctx.depth + 1)
            c.pluginID = ctx.pluginID
            out.append((Bound(sym: value, ctx: c), loc(call.file, call.line)))
        }
        return out
    }

    /// `base.n` where `base` holds values made with arguments: the argument labelled `n` of each
    /// (a memberwise or hand-written initializer that stores it under its label). Nil when
    /// `base` holds no such construction.
    func madeMember(_ base: Sym, _ n: String, _ ctx: Ctx) -> Eval? {
        let made = valuesOf(base, ctx)
        guard !made.isEmpty else { return nil }
        var values: [String] = []
        for b in made {
            guard case .call(let callee, let args) = b.sym, callee.lastName?.first?.isUppercase == true, let a = args.first(where: { $0.label == n }) else { return nil }
            switch evalString(a.value, b.ctx) {
            case .values(let vs, _): values += vs
            case .failed: return nil
            }
        }
        return values.isEmpty ? nil : .values(values.uniqued, note: Note("through the values it is made with", throughCallers: true))
    }

    func throughCallers(function: String, index: Int, name: String, _ ctx: Ctx) -> Eval {
        guard let fn = functionsByKey[function] else { return .failed(Why("`\(name)` is a parameter, computed at run time", .parameter)) }
        let p = fn.params[index]
        // An initializer's parameter is what the constructions of its type pass; any other
        // function's, what its callers pass.
        let constructions = fn.name == "init" && fn.owner != nil
        var values: [String] = []
        var callers: [CodeLocation] = []
        for (value, at) in passed(function: function, index: index, ctx) {
            guard case .values(let vs, _) = evalString(value.sym, value.ctx) else {
                let how = constructions ? "\(fn.owner!)(…) is made with" : "\(fn.name)(…) is called with"
                return .failed(Why("`\(name)` depends on data: \(how) `\(value.sym.text)` at \(at)", .parameter))
            }
            callers.append(at)
            for v in vs where !values.contains(v) { values.append(v) }
        }
        if constructions, !values.isEmpty {
            return .values(values, note: Note(callers.count == 1 ? "through the only construction" : "through its \(callers.count) constructions", throughCallers: true))
        }
        if values.isEmpty, let d = p.defaultValue { return evalString(d, ctx) }
        guard !values.isEmpty else { return .failed(Why("`\(name)` is a parameter of \(fn.name), and no call passes a static value", .parameter)) }
        let note = Note(callers.count == 1 ? "through the only caller, at \(callers[0])" : "through its \(callers.count) callers", throughCallers: true)
        return .values(values, note: note)
    }

    // MARK: Destinations

    /// The board ids a destination expression (`motherboard.ioLogin()`, `serviceMap.mod.ioLogin`,
    /// an id) names.
    func evalDestination(_ s: Sym, _ ctx: Ctx) -> Eval {
        guard ctx.depth < 24 else { return .failed(Why("`\(s.text)` is defined through too many steps", .tooManySteps)) }
        var ctx = ctx
        ctx.depth += 1
        switch s {
        case .call(.name("__input"), let args):
            guard let a = args.first?.value else { break }
            switch evalInput(a, ctx) {
            case .values(let acts, let note): return .values(acts.map(\.target).uniqued, note: note)
            case .failed(let why): return .failed(why)
            }
        case .call(let callee, let args):
            if let t = args.first(where: { $0.label == "destinationID" || $0.label == "identifier" && callee.lastName?.hasSuffix("Destination") == true }) {
                return evalString(t.value, ctx)
            }
            if let name = callee.lastName, let helpers = functions[name], name != "BoardID" {
                return callHelper(name, helpers, args, ctx)
            }
            // An app enum's case with data: `.main(userInfo: info)`.
            if case .member(let base, let c) = callee, let e = enumCaseID(c, in: base, args: args, ctx) { return e }
        case .member(let base?, let n) where enumNamed(base) != nil:
            if let e = enumCaseID(n, in: base, args: [], ctx) { return e }
        case .member(let base, let n):
            if let props = properties[n] {
                var candidates = props.filter { $0.fact.value != nil && $0.fact.owner != "BoardInput" }
                // The member of the base's own type, when the base's type is declared.
                if candidates.count > 1, let bt = declaredType(base, ctx) {
                    let own = candidates.filter { $0.fact.owner.map(resolveType) == bt || $0.fact.owner == bt }
                    if !own.isEmpty { candidates = own }
                }
                let local = candidates.filter { $0.module == ctx.module }
                if !local.isEmpty { candidates = local }
                if let p = candidates.first, let v = p.fact.value {
                    return evalDestination(v, Ctx(file: ctx.file, module: p.module, owners: ctx.owners, plugin: ctx.plugin, pluginID: ctx.pluginID, depth: ctx.depth))
                }
            }
        case .name(let n):
            if let b = ctx.bindings[n] { return evalDestination(b.sym, deeper(b.ctx, than: ctx)) }
            if let props = properties[n]?.filter({ $0.fact.owner != "BoardInput" }), let p = props.first, let v = p.fact.value { return evalDestination(v, ctx) }
        default: break
        }
        // A constant of that name first (`.login` declared on BoardID), then an app enum's case.
        let direct = evalString(s, ctx)
        if case .failed = direct, case .member(nil, let n) = s, let e = enumCaseID(n, in: nil, args: [], ctx) { return e }
        return direct
    }

    /// The declared type of a property chain (`serviceMap.payment` is a `PaymentServiceMap`),
    /// nested types named with their parents; nil when not declared.
    func declaredType(_ s: Sym?, _ ctx: Ctx, depth: Int = 0) -> String? {
        guard depth < 8, case .member(let base, let n)? = s, var props = properties[n]?.filter({ $0.fact.type != nil }), !props.isEmpty else { return nil }
        if props.count > 1, let bt = declaredType(base, ctx, depth: depth + 1) {
            let own = props.filter { $0.fact.owner == bt }
            if !own.isEmpty { props = own }
        }
        let types = Set(props.compactMap { p -> String? in
            guard let t = p.fact.type else { return nil }
            if let o = p.fact.owner, self.types[o + "." + t] != nil { return o + "." + t }
            return resolveType(t)
        })
        return types.count == 1 ? types.first : nil
    }

    /// The enum a base names (`BoardIdentity` of `BoardIdentity.login`), when it declares cases.
    func enumNamed(_ base: Sym?) -> String? {
        guard case .name(let n)? = base else { return nil }
        var t = resolveType(n)
        if types[t] == nil, let full = nestedShort[t] { t = full }
        return types[t]?.kind == .enum ? t : nil
    }

    /// The id an app enum's case gives through the enum's `identifier` switch (`enum
    /// BoardIdentity: BoardInputModel { case login, main(userInfo: User) … var identifier:
    /// BoardID { switch self { … } } }`); the case's data binds the names the row binds. Nil when
    /// no enum with such a table declares that case.
    func enumCaseID(_ c: String, in base: Sym?, args: [SymArg], _ ctx: Ctx) -> Eval? {
        let only = base.flatMap(enumNamed)
        if base != nil, only == nil { return nil }
        var values: [String] = []
        var failure: Why?
        var enums = 0
        for (p, module) in identifierTables[c] ?? [] {
            guard let owner = p.owner, only == nil || only == owner else { continue }
            guard let row = p.cases.first(where: { $0.names.contains(c) }) ?? p.cases.first(where: { $0.names.contains("default:") }) else { continue }
            var cx = Ctx(file: ctx.file, module: module, owners: [], depth: ctx.depth + 1)
            cx.pluginID = ctx.pluginID
            for (i, b) in row.bindings.enumerated() where i < args.count { cx.bindings[b] = Bound(sym: args[i].value, ctx: ctx) }
            enums += 1
            switch evalString(row.value, cx) {
            case .values(let vs, _): values += vs
            case .failed(let why): failure = failure ?? why
            }
        }
        guard enums > 0 else { return nil }
        if let failure, values.isEmpty { return .failed(failure) }
        values = values.uniqued
        if values.count > 1 { return .failed(Why("`.\(c)` is a case of \(enums) enums whose identifiers differ (\(values.joined(separator: ", ")))", .ambiguous)) }
        return .values(values, note: nil)
    }

    /// The ids the names in an expression could stand for (constants it names), so that an
    /// unresolved item can be found from the id it was meant to be (`import --explain`).
    func mentionedIDs(_ s: Sym, _ ctx: Ctx) -> [String] {
        var out: [String] = []
        var stack = [s]
        var steps = 0
        while let x = stack.popLast(), steps < 64 {
            steps += 1
            switch x {
            case .member(let b, let n):
                if let b { stack.append(b) }
                if case .values(let vs, _)? = constant(n, owner: nil, ctx) ?? enumCaseID(n, in: nil, args: [], ctx) { out += vs }
            case .name(let n):
                if case .values(let vs, _)? = constant(n, owner: nil, ctx) { out += vs }
            case .call(let c, let args): stack.append(c); stack += args.map(\.value)
            case .oneOf(let xs): stack += xs
            case .str(let parts): for case .expr(let e) in parts { stack.append(e) }
            case .param, .other: break
            }
        }
        return out.uniqued
    }
}
