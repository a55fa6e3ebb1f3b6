import BoardyTrace

/// Turns every file's facts into the app's model: resolves ids through constants, interpolations,
/// enum cases, IO helpers (with their defaults), ServiceMap properties and callers; binds each
/// registered board to the code that makes it; attributes each call to the boards that run it.
struct Resolver {
    private let files: [FileFacts]
    private var constants: [String: [(fact: ConstFact, module: String?)]] = [:]
    private var functions: [String: [(fact: FuncFact, module: String?)]] = [:]
    private var functionsByKey: [String: FuncFact] = [:]
    private var properties: [String: [(fact: PropFact, module: String?)]] = [:]
    private var types: [String: TypeFact] = [:]
    private var typealiases: [String: String] = [:]
    private var nestedShort: [String: String] = [:]
    private var makes: [Owner: [MakeFact]] = [:]
    private var userCalls: [String: [(fact: UserCallFact, file: Int)]] = [:]
    private var calledFrom: [String: Set<OwnerChain>] = [:]
    private var referenced: Set<String> = []
    private var constructions: [String: [(args: [SymArg], file: Int, line: Int)]] = [:]
    /// Stored properties' assignments, by `Type.name`.
    private var assignments: [String: [(fact: AssignFact, file: Int)]] = [:]
    /// Types the app delegate or launcher constructs (a root board it activates).
    private var constructedByEntry = Set<String>()
    /// Types constructed anywhere in the sources.
    private var constructedAnywhere = Set<String>()
    /// What the activations of each board hand it (a `BoardInput`'s `input:`), for boards that
    /// activate their own input later.
    private var payloads: [String: [Bound]] = [:]

    /// Owner → the boards whose code it is.
    private var bindings: [Owner: [String]] = [:]
    private var boards: [String: ImportedBoard] = [:]
    private var order: [String] = []
    private(set) var edges: [ImportedEdge] = []
    private(set) var unresolved: [UnresolvedItem] = []
    private(set) var entries: [EntryPoint] = []
    private(set) var warnings: [ImportWarning] = []
    private var gates = Set<String>()
    private var gatewayGates = Set<String>()
    /// The module that declares each type.
    private var typeModule: [String: String?] = [:]
    /// The modules that declare each type.
    private var declaring: [String: Set<String>] = [:]
    /// Board instances installed or activated by hand, with their files.
    private var instances: [(fact: InstanceFact, file: Int)] = []
    /// Ids classes fix in their initializers, by class.
    private var fixedIDs: [String: [(fact: FixedIDFact, file: Int)]] = [:]
    /// Constructions with arguments, by type name.
    private var initCalls: [String: [(fact: InitCallFact, file: Int)]] = [:]
    /// Injected stored properties' types, by `Type.name`.
    private var storedTypes: [String: String] = [:]

    init(files unnormalised: [FileFacts]) {
        // The modules that declare each type, so that every owner names its type's module.
        var declaring: [String: Set<String>] = [:]
        for f in unnormalised { for t in f.types where t.kind != "extension" { declaring[t.name, default: []].insert(f.module ?? "") } }
        let files = unnormalised.map { Self.normalised($0, declaring) }
        self.files = files
        self.declaring = declaring
        for f in files {
            for c in f.constants { constants[c.name, default: []].append((c, f.module)) }
            for fn in f.functions {
                functions[fn.name, default: []].append((fn, f.module))
                functionsByKey[fn.key] = fn
            }
            for p in f.properties { properties[p.name, default: []].append((p, f.module)) }
            for t in f.types {
                if var old = types[t.name] {
                    old.inherits += t.inherits
                    old.isEntry = old.isEntry || t.isEntry
                    old.cases += t.cases
                    old.aliases.merge(t.aliases) { a, _ in a }
                    if old.kind == "extension" { old.kind = t.kind; old.line = t.line }
                    types[t.name] = old
                } else {
                    types[t.name] = t
                }
            }
            typealiases.merge(f.typealiases) { a, _ in a }
            // A nested type is also found by its own name, unless a top-level type has it.
            for t in f.types {
                guard let dot = t.name.lastIndex(of: ".") else { continue }
                let short = String(t.name[t.name.index(after: dot)...])
                if nestedShort[short] == nil { nestedShort[short] = t.name }
            }
            for m in f.makes { makes[m.owner, default: []].append(m) }
            referenced.formUnion(f.referenced)
            calledFrom.merge(f.calledFrom) { $0.union($1) }
        }
        for (i, f) in files.enumerated() {
            for x in f.instances { instances.append((x, i)) }
            for x in f.initCalls { initCalls[x.type, default: []].append((x, i)) }
            for t in f.types where t.kind != "extension" && typeModule[t.name] == nil { typeModule[t.name] = f.module }
            for x in f.fixedIDs { fixedIDs[x.type, default: []].append((x, i)) }
            storedTypes.merge(f.storedTypes) { a, _ in a }
            for a in f.assignments { assignments[a.owner + "." + a.name, default: []].append((a, i)) }
            for u in f.userCalls { userCalls[u.name, default: []].append((u, i)) }
            for c in f.constructions {
                // Instances listed in `P.bundledPlugins` count only when the app installs that list.
                if let p = c.inProperty, p.hasSuffix(".bundledPlugins"), !referenced.contains(p) { continue }
                constructions[c.type, default: []].append((c.args, i, c.line))
            }
        }
    }

    // MARK: Context

    /// The module that declares `type`, as code in `module` names it: its own module's type
    /// first (Swift's lookup), else the one module that declares it; a library's type (only
    /// extended here) stays in `module`.
    static func declaringModule(_ type: String, from module: String?, _ declaring: [String: Set<String>]) -> String? {
        guard let ms = declaring[type], !ms.isEmpty else { return module }
        if ms.contains(module ?? "") { return module }
        let first = ms.sorted()[0]
        return first.isEmpty ? nil : first
    }

    /// `o` with its type's declaring module.
    static func normalised(_ o: Owner, _ declaring: [String: Set<String>]) -> Owner {
        switch o {
        case .type(let t, let m): return .type(t, module: declaringModule(t, from: m, declaring))
        case .function(let k, let m):
            let name = k.dropFirst(2)
            guard let dot = name.lastIndex(of: ".") else { return o }
            return .function(k, module: declaringModule(String(name[..<dot]), from: m, declaring))
        case .maker: return o
        }
    }

    /// A file's facts with every owner normalised.
    static func normalised(_ f: FileFacts, _ d: [String: Set<String>]) -> FileFacts {
        var f = f
        func n(_ chain: OwnerChain) -> OwnerChain { chain.map { normalised($0, d) } }
        for i in f.registrations.indices { f.registrations[i].owners = n(f.registrations[i].owners); f.registrations[i].maker = normalised(f.registrations[i].maker, d) }
        for i in f.makes.indices { f.makes[i].owner = normalised(f.makes[i].owner, d) }
        for i in f.calls.indices { f.calls[i].owners = n(f.calls[i].owners) }
        for i in f.userCalls.indices { f.userCalls[i].owners = n(f.userCalls[i].owners) }
        for i in f.assignments.indices { f.assignments[i].owners = n(f.assignments[i].owners) }
        for i in f.instances.indices { f.instances[i].owners = n(f.instances[i].owners) }
        for i in f.initCalls.indices { f.initCalls[i].owners = n(f.initCalls[i].owners) }
        f.constructedIn = Dictionary(f.constructedIn.map { (normalised($0.key, d), $0.value) }, uniquingKeysWith: { $0.union($1) })
        f.calledFrom = f.calledFrom.mapValues { Set($0.map(n)) }
        return f
    }

    /// The module that declares `type`, seen from `module`.
    private func declModule(_ type: String, from module: String?) -> String? {
        Self.declaringModule(type, from: module, declaring)
    }

    /// Why a value could not be resolved: the words for the report, and the kind the suggested
    /// fix is made from (never read back from the words).
    struct Why: ExpressibleByStringInterpolation, CustomStringConvertible, Sendable {
        var text: String
        var reason: UnresolvedItem.Reason
        init(_ text: String, _ reason: UnresolvedItem.Reason) { self.text = text; self.reason = reason }
        init(stringLiteral value: String) { self.init(value, .runtimeValue) }
        init(stringInterpolation: DefaultStringInterpolation) { self.init(String(stringInterpolation: stringInterpolation), .runtimeValue) }
        var description: String { text }
    }

    /// Marks the types the app delegate or a launcher constructs.
    private mutating func findEntryConstructions() {
        for f in files {
            for (owner, made) in f.constructedIn {
                constructedAnywhere.formUnion(made.map { resolveType($0) })
                var t: String?
                if let n = owner.typeName { t = n } else if let k = owner.functionKey, let dot = k.lastIndex(of: ".") {
                    t = String(k[k.index(k.startIndex, offsetBy: 2)..<dot])
                }
                guard let t, types[t]?.isEntry == true || isLauncher(t) else { continue }
                constructedByEntry.formUnion(made.map { resolveType($0) })
            }
        }
    }

    private struct Ctx {
        var file: Int
        var module: String?
        var owners: OwnerChain
        /// The plugin instance's service case and its arguments, when evaluating in a plugin.
        var plugin: String?
        var pluginID: [String]?
        /// Names bound to values, each evaluated where it was written (a helper's parameter
        /// bound to its caller's argument).
        var bindings: [String: Bound] = [:]
        var depth = 0
    }

    /// A value with the context it is evaluated in.
    private struct Bound {
        var sym: Sym
        var ctx: Ctx
    }

    /// One activation a value makes: its target and the input handed to it (a `BoardInput`'s
    /// `input:`), kept symbolic for the target to forward.
    private struct Activation {
        var target: String
        var payload: Bound?
    }

    private enum InputEval {
        case values([Activation], note: String?)
        case failed(Why)
    }

    private func loc(_ file: Int, _ line: Int, _ column: Int = 1) -> CodeLocation { CodeLocation(file: files[file].path, line: line, column: column) }

    private enum Eval {
        case values([String], note: String?)
        case failed(Why)
    }

    // MARK: Ids

    /// The strings an id expression can be.
    private func evalString(_ s: Sym, _ ctx: Ctx) -> Eval {
        guard ctx.depth < 24 else { return .failed(Why("`\(s.text)` is defined through too many steps", .tooManySteps)) }
        var ctx = ctx
        ctx.depth += 1
        switch s {
        case .str(let parts):
            var results = [""]
            var note: String?
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
                for b in a { if case .values(let vs, _) = evalString(b.sym, b.ctx) { values += vs } }
                if !values.isEmpty { return .values(values.uniqued, note: nil) }
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
    private func constant(_ name: String, owner: String?, _ ctx: Ctx) -> Eval? {
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
    private func valuesOf(_ s: Sym, _ ctx: Ctx) -> [Bound] {
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
            return passed(function: function, index: index, ctx).flatMap { valuesOf($0.sym, $0.ctx) }
        default:
            return [Bound(sym: s, ctx: ctx)]
        }
    }

    /// What the calls (or, for an initializer, the constructions) of `function` pass to its
    /// parameter `index`, each with the context of the call.
    private func passed(function: String, index: Int, _ ctx: Ctx) -> [Bound] {
        guard let fn = functionsByKey[function], index < fn.params.count else { return [] }
        let p = fn.params[index]
        var calls: [(args: [SymArg], owners: OwnerChain, file: Int)] = []
        if fn.name == "init", let t = fn.owner {
            calls = (initCalls[t] ?? []).map { ($0.fact.args, $0.fact.owners, $0.file) }
        } else {
            calls = (userCalls[fn.name] ?? []).map { ($0.fact.args, $0.fact.owners, $0.file) }
        }
        var out: [Bound] = []
        for call in calls {
            var arg: Sym?
            if p.label == "_" {
                let unlabeledBefore = fn.params[..<index].filter { $0.label == "_" }.count
                let unlabeled = call.args.filter { $0.label == nil }
                arg = unlabeledBefore < unlabeled.count ? unlabeled[unlabeledBefore].value : nil
            } else {
                arg = call.args.first(where: { $0.label == p.label })?.value
            }
            guard let value = arg ?? p.defaultValue else { continue }
            var c = Ctx(file: call.file, module: files[call.file].module, owners: call.owners, depth: ctx.depth + 1)
            c.pluginID = ctx.pluginID
            out.append(Bound(sym: value, ctx: c))
        }
        return out
    }

    /// `base.n` where `base` holds values made with arguments: the argument labelled `n` of each
    /// (a memberwise or hand-written initializer that stores it under its label). Nil when
    /// `base` holds no such construction.
    private func madeMember(_ base: Sym, _ n: String, _ ctx: Ctx) -> Eval? {
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
        return values.isEmpty ? nil : .values(values.uniqued, note: "through the values it is made with")
    }

    private func throughCallers(function: String, index: Int, name: String, _ ctx: Ctx) -> Eval {
        guard let fn = functionsByKey[function] else { return .failed(Why("`\(name)` is a parameter, computed at run time", .parameter)) }
        let p = fn.params[index]
        if fn.name == "init", fn.owner != nil {
            // An initializer's parameter: whatever the constructions of its type pass.
            let bounds = passed(function: function, index: index, ctx)
            var values: [String] = []
            for b in bounds {
                guard case .values(let vs, _) = evalString(b.sym, b.ctx) else {
                    return .failed(Why("`\(name)` depends on data: \(fn.owner!)(…) is made with `\(b.sym.text)` at \(loc(b.ctx.file, 0))", .parameter))
                }
                values += vs
            }
            if !values.isEmpty { return .values(values.uniqued, note: bounds.count == 1 ? "through the only construction" : "through its \(bounds.count) constructions") }
        }
        var values: [String] = []
        var callers: [CodeLocation] = []
        for (call, file) in userCalls[fn.name] ?? [] {
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
            var c = Ctx(file: file, module: files[file].module, owners: call.owners, depth: ctx.depth + 1)
            c.pluginID = ctx.pluginID
            guard case .values(let vs, _) = evalString(value, c) else {
                return .failed(Why("`\(name)` depends on data: \(fn.name)(…) is called with `\(value.text)` at \(loc(file, call.line))", .parameter))
            }
            callers.append(loc(file, call.line))
            for v in vs where !values.contains(v) { values.append(v) }
        }
        if values.isEmpty, let d = p.defaultValue { return evalString(d, ctx) }
        guard !values.isEmpty else { return .failed(Why("`\(name)` is a parameter of \(fn.name), and no call passes a static value", .parameter)) }
        let note = callers.count == 1 ? "through the only caller, at \(callers[0])" : "through its \(callers.count) callers"
        return .values(values, note: note)
    }

    // MARK: Destinations

    /// The board ids a destination expression (`motherboard.ioLogin()`, `serviceMap.mod.ioLogin`,
    /// an id) names.
    private func evalDestination(_ s: Sym, _ ctx: Ctx) -> Eval {
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
        case .member(_, let n):
            if let props = properties[n] {
                var candidates = props.filter { $0.fact.value != nil && $0.fact.owner != "BoardInput" }
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

    /// The enum a base names (`BoardIdentity` of `BoardIdentity.login`), when it declares cases.
    private func enumNamed(_ base: Sym?) -> String? {
        guard case .name(let n)? = base else { return nil }
        var t = resolveType(n)
        if types[t] == nil, let full = nestedShort[t] { t = full }
        return types[t]?.kind == "enum" ? t : nil
    }

    /// The id an app enum's case gives through the enum's `identifier` switch (`enum
    /// BoardIdentity: BoardInputModel { case login, main(userInfo: User) … var identifier:
    /// BoardID { switch self { … } } }`); the case's data binds the names the row binds. Nil when
    /// no enum with such a table declares that case.
    private func enumCaseID(_ c: String, in base: Sym?, args: [SymArg], _ ctx: Ctx) -> Eval? {
        let only = base.flatMap(enumNamed)
        if base != nil, only == nil { return nil }
        var values: [String] = []
        var failure: Why?
        var enums = 0
        for (p, module) in properties["identifier"] ?? [] where !p.cases.isEmpty {
            guard let owner = p.owner, let t = types[owner], t.kind == "enum", t.cases.contains(c), only == nil || only == owner else { continue }
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
    private func mentionedIDs(_ s: Sym, _ ctx: Ctx) -> [String] {
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

    // MARK: Instances

    /// The class an instance expression makes (`LoginBoard()`, a local typed `let login:
    /// LoginBoard = container.resolve()`, an injected stored property) and its arguments.
    private func instanceType(_ s: Sym, _ ctx: Ctx, depth: Int = 0) -> (type: String, args: [SymArg])? {
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
    private func instanceBoard(_ s: Sym, _ ctx: Ctx) -> (type: String, kind: BoardKind, types: [String], ids: Eval, fixedAt: CodeLocation?)? {
        guard let (t0, args) = instanceType(s, ctx), let (kind, chain) = kindOf(t0) else { return nil }
        let t = chain.first ?? resolveType(t0)
        if let a = args.first(where: { $0.label == "identifier" }) { return (t, kind, chain, evalString(a.value, ctx), nil) }
        for type in chain {
            let inits = (functions["init"] ?? []).filter { $0.fact.owner == type }
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
    private func callHelper(_ name: String, _ all: [(fact: FuncFact, module: String?)], _ args: [SymArg], _ ctx: Ctx) -> Eval {
        var helpers = all.filter { $0.fact.params.contains { $0.type.contains("BoardID") || $0.defaultValue != nil } || $0.fact.returns != nil }
        let local = helpers.filter { $0.module == ctx.module }
        if !local.isEmpty { helpers = local } else {
            let pub = helpers.filter(\.fact.isPublic)
            if !pub.isEmpty { helpers = pub }
        }
        var values: [String] = []
        var note: String?
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

    // MARK: Activation values

    /// `ctx` of a bound value, at least as deep as the evaluation that reads it (no cycle runs
    /// forever).
    private func deeper(_ bound: Ctx, than ctx: Ctx) -> Ctx {
        var c = bound
        c.depth = max(c.depth, ctx.depth) + 1
        return c
    }

    /// The values assigned to the stored property `name` of the type whose code `ctx` is.
    private func assigned(_ name: String, _ ctx: Ctx) -> [Bound]? {
        guard let t = ctx.owners.lazy.compactMap(\.typeName).first, let list = assignments[t + "." + name], !list.isEmpty else { return nil }
        return list.map { a in
            var c = Ctx(file: a.file, module: files[a.file].module, owners: a.fact.owners)
            c.depth = ctx.depth + 1
            return Bound(sym: a.fact.value, ctx: c)
        }
    }

    /// Whether `base` names `BoardInput` (an implicit member in an activation is one of its
    /// static helpers).
    private func isBoardInputBase(_ base: Sym?) -> Bool {
        guard let base else { return true }
        if case .name(let n) = base { return resolveType(n) == "BoardInput" }
        return false
    }

    private func isBoardInputInit(_ callee: Sym) -> Bool {
        switch callee {
        case .name(let n): return resolveType(n) == "BoardInput"
        case .member(let b?, "init"): return isBoardInputBase(b)
        default: return false
        }
    }

    /// A static helper of `BoardInput` named `name`, the caller's module's first.
    private func inputHelper(_ name: String, _ ctx: Ctx) -> (fact: FuncFact, module: String?)? {
        let all = (functions[name] ?? []).filter { $0.fact.owner == "BoardInput" && $0.fact.returns != nil }
        return all.first { $0.module == ctx.module } ?? all.first { $0.fact.isPublic } ?? all.first
    }

    private func inputProperty(_ name: String, _ ctx: Ctx) -> (fact: PropFact, module: String?)? {
        let all = (properties[name] ?? []).filter { $0.fact.owner == "BoardInput" && $0.fact.value != nil }
        return all.first { $0.module == ctx.module } ?? all.first { $0.fact.isPublic } ?? all.first
    }

    /// A call's arguments bound to the function's parameters (defaults where left out).
    private func bind(_ fn: FuncFact, module: String?, _ args: [SymArg], _ ctx: Ctx) -> [String: Bound] {
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
    private func evalInput(_ s: Sym, _ ctx: Ctx) -> InputEval {
        guard ctx.depth < 32 else { return .failed(Why("`\(s.text)` is defined through too many steps", .tooManySteps)) }
        var ctx = ctx
        ctx.depth += 1
        func union(_ bounds: [Bound], why: Why) -> InputEval {
            var acts: [Activation] = []
            var note: String?
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
            case .values(let acts, _): return .values(acts, note: "the input its callers hand it")
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
    private mutating func collectPayloads() {
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

    private func resolveType(_ name: String) -> String {
        var n = baseName(name)
        var seen = Set<String>()
        while let t = typealiases[n], seen.insert(n).inserted { n = baseName(t) }
        return n
    }

    private static let componentKinds: [String: BoardKind] = [
        "TaskBoard": .task, "BlockTaskBoard": .blockTask, "ResultTaskBoard": .resultTask, "FlowBoard": .flow, "BarrierBoard": .barrier,
        "ContinuousBoard": .continuous, "ModernContinuableBoard": .continuous, "ContinuableBoard": .continuous, "FlowingBoard": .flow,
        "Board": .board, "NoBoard": .board, "InstallableBoard": .board, "NormalBoard": .board, "ModernBoard": .board,
        "DedicatedBoard": .board, "AdaptableBoard": .board, "AdapterBoard": .board, "ClosureContinuousBoard": .continuous,
    ]

    /// The board kind of a type, and the user types (itself and its superclasses) whose code it runs.
    private func kindOf(_ type: String, depth: Int = 0) -> (kind: BoardKind, types: [String])? {
        var t = resolveType(type)
        if let k = Self.componentKinds[t] { return (k, []) }
        if types[t] == nil, let full = nestedShort[t] { t = full }
        guard depth < 16, let decl = types[t], decl.kind == "class" || decl.kind == "extension" else { return nil }
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

    private static let boardProtocols: Set<String> = [
        "ActivatableBoard", "GuaranteedBoard", "IdentifiableBoard", "GuaranteedActivatableBoard", "OriginalBoard", "GuaranteedOpenBoard", "OpenBoard",
    ]

    /// What a maker (a registration's closure or case, a plugin's build, a factory) makes: the
    /// kind, and the code keys that run as the board.
    private func make(_ key: Owner, module: String?, serviceCase: String?, depth: Int = 0) -> (kind: BoardKind, keys: [Owner])? {
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

    private func isPlugin(_ t: String) -> Bool {
        types[t]?.inherits.contains { ["ModulePlugin", "ModuleBuilderPlugin"].contains(baseName($0)) } ?? false
    }

    /// A plugin's instances: per service case (or none), the ids its `identifier` gives.
    private func pluginInstances(_ p: String) -> [(service: String?, ids: [String], source: CodeLocation?)] {
        var out: [(service: String?, ids: [String], source: CodeLocation?)] = []
        // The enum whose `identifier` maps cases to ids (the plugin's ServiceType).
        func serviceTable() -> (cases: [String], table: PropFact?) {
            let allIDProps = (properties["identifier"] ?? []).map(\.fact).filter { !$0.cases.isEmpty }
            // `var identifier: BoardID { switch service { case let .x(id): return id } }` on the
            // plugin itself: the cases are its nested ServiceType's.
            if let prop = allIDProps.first(where: { $0.owner == p }) {
                let nested = types.values.filter { $0.kind == "enum" && $0.name.hasPrefix(p + ".") }.sorted { $0.name < $1.name }.flatMap(\.cases)
                return (nested.isEmpty ? prop.cases.flatMap(\.names).filter { $0 != "default:" } : nested, prop)
            }
            let idProps = allIDProps
                .sorted { ($0.owner?.hasPrefix(p + ".") ?? false) && !($1.owner?.hasPrefix(p + ".") ?? false) }
            for prop in idProps where prop.owner?.hasPrefix(p + ".") ?? false || !idProps.contains(where: { $0.owner?.hasPrefix(p + ".") ?? false }) {
                if let owner = prop.owner, let t = types[owner], t.kind == "enum" { return (t.cases, prop) }
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
    private func declaresMember(_ qualified: String) -> Bool {
        guard let dot = qualified.lastIndex(of: ".") else { return false }
        let owner = String(qualified[..<dot]), name = String(qualified[qualified.index(after: dot)...])
        return (properties[name] ?? []).contains { $0.fact.owner == owner } || (constants[name] ?? []).contains { $0.fact.owner == owner }
    }

    // MARK: Use

    private static let frameworkEntry: Set<String> = [
        "activate", "activationBarrier", "interact", "init", "deinit", "apply", "build", "internalContinuousRegistrations", "produceBoard",
        "prepareForLaunching", "shouldBypassGatewayBarrier", "mainboard", "willOpen", "application", "scene", "sceneDidBecomeActive",
        "viewDidLoad", "body", "putIntoContext", "registrationsBuilder", "makeBoard", "registerFlows",
    ]

    /// Whether the code of `chain` runs at all: functions that nothing calls and types nothing
    /// names are unused (no boards, no edges).
    private func used(_ chain: OwnerChain) -> Bool {
        for key in chain {
            if let k = key.functionKey {
                guard let fn = functionsByKey[k] else { continue }
                if Self.frameworkEntry.contains(fn.name) || fn.calledFromOutside || referenced.contains(fn.name) { continue }
                return false
            }
            if let t = key.typeName {
                if types[t]?.isEntry == true || referenced.contains(t) || bindings[key] != nil { continue }
                // A type only extended here, declared by a library (BoardID, MotherboardType…).
                if types[t] == nil || types[t]?.kind == "extension" { continue }
                return false
            }
        }
        return true
    }

    /// Why `used(chain)` is false, in words.
    private func unusedWhy(_ chain: OwnerChain) -> String {
        for key in chain {
            if let k = key.functionKey, let fn = functionsByKey[k], !(Self.frameworkEntry.contains(fn.name) || fn.calledFromOutside || referenced.contains(fn.name)) {
                return "in \(key.shown), a function nothing calls"
            }
            if let t = key.typeName, types[t]?.kind != "extension", types[t] != nil, !(types[t]?.isEntry == true || referenced.contains(t) || bindings[key] != nil) {
                return "in \(t), a type nothing names"
            }
        }
        return "in code nothing runs"
    }

    private func isEntry(_ chain: OwnerChain) -> Bool {
        chain.isEmpty || chain.contains { o in o.typeName.map { types[$0]?.isEntry == true || isLauncher($0) } ?? false }
    }

    private func isLauncher(_ t: String) -> Bool {
        types[t]?.inherits.contains { ["LauncherPlugin", "URLOpenerPlugin", "GuaranteedURLOpenerPlugin"].contains(baseName($0)) || baseName($0).hasSuffix("URLOpenerPlugin") } ?? false
    }

    /// The boards whose code `chain` is (the innermost bound owner), else through the callers of
    /// its innermost function. `nil` with `entry` when the launcher or app delegate runs it.
    private func runners(_ chain: OwnerChain, depth: Int = 0) -> (boards: [String], entry: Bool) {
        for key in chain { if let b = bindings[key] { return (b, false) } }
        if isEntry(chain) { return ([], true) }
        // Code in a board class that no registration binds is an unregistered board's: nobody
        // runs it. Framework methods (activate, init…) are called by Boardy, not by callers we
        // could follow.
        if let t = chain.lazy.compactMap(\.typeName).first(where: { self.kindOf($0) != nil }) {
            // A root board the app delegate makes and activates itself starts the app.
            return ([], constructedByEntry.contains(t))
        }
        guard depth < 4, let fnOwner = chain.first(where: { $0.functionKey != nil }), let fn = functionsByKey[fnOwner.functionKey!],
              !Self.frameworkEntry.contains(fn.name) else { return ([], false) }
        var out: [String] = []
        var entry = false
        for callerChain in (calledFrom[fn.name] ?? []).sorted(by: { $0.map(\.shown).joined(separator: "|") < $1.map(\.shown).joined(separator: "|") }) where callerChain.first != fnOwner {
            let r = runners(callerChain, depth: depth + 1)
            for b in r.boards where !out.contains(b) { out.append(b) }
            entry = entry || r.entry
        }
        return (out, entry)
    }

    // MARK: Boards

    mutating func resolveBoards() {
        findEntryConstructions()
        var regs: [(reg: RegFact, file: Int)] = []
        for (i, f) in files.enumerated() { for r in f.registrations { regs.append((r, i)) } }
        var reported = Set<CodeLocation>()
        // Outer registrations bind the code of inner ones' parents: repeat until nothing changes.
        for _ in 0..<6 {
            var newBindings: [Owner: [String]] = [:]
            var newBoards: [String: ImportedBoard] = [:]
            var newOrder: [String] = []
            var newWarnings: [ImportWarning] = []
            var newUnresolved: [UnresolvedItem] = []
            for (reg, fi) in regs {
                let src = loc(fi, reg.line)
                guard used(reg.owners) else { continue }
                let plugin = reg.owners.lazy.compactMap(\.typeName).first(where: isPlugin)
                let pluginModule = reg.owners.first { $0.typeName == plugin }.flatMap { if case .type(_, let m) = $0 { m } else { nil } }
                var instances: [(service: String?, ids: [String], source: CodeLocation?)] = [(nil, [], nil)]
                if let plugin { instances = pluginInstances(plugin) }
                // The continuous board whose producer this is.
                var parent: String?
                for key in reg.owners where key != reg.maker {
                    if let b = bindings[key]?.first { parent = b; break }
                }
                if parent == nil, let plugin, reg.owners.contains(.function("F:\(plugin).internalContinuousRegistrations", module: pluginModule)) {
                    parent = bindings[.function("F:\(plugin).build", module: pluginModule)]?.first
                }
                // In a plugin, a registration in an inner producer puts its board under the
                // instance's public board.
                for inst in instances {
                    if let c = inst.service, let cs = reg.serviceCases, !cs.contains(c) { continue }
                    var parent = parent
                    if parent == nil, plugin != nil, reg.inner, inst.ids.count == 1 { parent = inst.ids[0] }
                    var ctx = Ctx(file: fi, module: files[fi].module, owners: reg.owners)
                    if plugin != nil { ctx.pluginID = inst.ids; ctx.plugin = inst.service }
                    let ids: [String]
                    switch evalString(reg.id, ctx) {
                    case .values(let vs, _): ids = vs
                    case .failed(let why):
                        if !reported.contains(src) {
                            newUnresolved.append(UnresolvedItem(source: src, why: "board registered with an id that cannot be resolved: \(why)", cause: .registration, reason: why.reason, ids: mentionedIDs(reg.id, ctx)))
                        }
                        continue
                    }
                    let made = make(reg.maker, module: files[fi].module, serviceCase: inst.service)
                    for id in ids {
                        if let old = newBoards[id] {
                            if old.source != src {
                                newWarnings.append(ImportWarning(source: src, message: "`\(id)` is registered again (first at \(old.source)); the first registration is kept"))
                            }
                            continue
                        }
                        let keys = made?.keys ?? [reg.maker]
                        for k in keys + [reg.maker] where !(newBindings[k]?.contains(id) ?? false) { newBindings[k, default: []].append(id) }
                        let kind = made?.kind ?? .board
                        let bypass = kind.bypassesGatewayByDefault || keys.contains { k in
                            k.typeName.map { functionsByKey["F:\($0).shouldBypassGatewayBarrier"]?.returns?.text == "true" } ?? false
                        }
                        var chain = ["registered at \(src) with id `\(reg.id.text)`"]
                        if let plugin {
                            chain.append("in plugin \(plugin)\(inst.service.map { ", service case .\($0)" } ?? "")\(inst.source.map { ", an instance made at \($0)" } ?? "")")
                            chain.append("`identifier` of that instance is \"\(id)\"")
                        }
                        if let parent, parent != id { chain.append("in the inner producer of \(parent)") }
                        let madeTypes = keys.compactMap(\.typeName)
                        chain.append("made as \(madeTypes.first ?? "its registration's code") (\(kind.rawValue))")
                        newBoards[id] = ImportedBoard(id: id, kind: kind, module: files[fi].module, parent: parent == id ? nil : parent, source: src, bypassesGateway: bypass, chain: chain)
                        newOrder.append(id)
                    }
                }
            }
            // Boards installed as instances: their ids are their own (an argument, an init default
            // or the id the class's init fixes); the code around them is their motherboard's owner.
            for (x, fi) in instances {
                let src = loc(fi, x.line)
                guard used(x.owners) else { continue }
                let ctx = Ctx(file: fi, module: files[fi].module, owners: x.owners)
                guard let inst = instanceBoard(x.board, ctx) else { continue }
                let ids: [String]
                switch inst.ids {
                case .values(let vs, _): ids = vs
                case .failed(let why):
                    if x.how != .activatedDirectly, !reported.contains(src) {
                        newUnresolved.append(UnresolvedItem(source: src, why: "board \(inst.type) installed with an id that cannot be resolved: \(why)", cause: .registration, reason: why.reason, ids: mentionedIDs(x.board, ctx)))
                    }
                    continue
                }
                var parent: String?
                if x.how != .activatedDirectly { for key in x.owners { if let b = bindings[key]?.first { parent = b; break } } }
                // An instance in a plugin's inner producer lives under the plugin's own board (its
                // first instance's, as for registrations).
                if parent == nil, x.how != .activatedDirectly, let plugin = x.owners.lazy.compactMap(\.typeName).first(where: isPlugin),
                   let own = pluginInstances(plugin).first(where: { i in i.ids.count == 1 && (x.serviceCases == nil || i.service.map { x.serviceCases!.contains($0) } ?? true) }) {
                    parent = own.ids[0]
                }
                let keys = inst.types.map { Owner.type($0, module: declModule($0, from: files[fi].module)) }
                for id in ids {
                    for k in keys where !(newBindings[k]?.contains(id) ?? false) { newBindings[k, default: []].append(id) }
                    guard newBoards[id] == nil else { continue }
                    let bypass = inst.kind.bypassesGatewayByDefault || keys.contains { k in
                        k.typeName.map { functionsByKey["F:\($0).shouldBypassGatewayBarrier"]?.returns?.text == "true" } ?? false
                    }
                    var chain = ["\(x.how == .activatedDirectly ? "activated by hand" : x.how == .built ? "put in a registration builder" : "installed") at \(src) as `\(x.board.text)`"]
                    chain.append(inst.fixedAt.map { "its id \"\(id)\" is fixed by \(inst.type)'s initializer at \($0)" } ?? "its id \"\(id)\" is given where it is made")
                    if let parent, parent != id { chain.append("in the motherboard of \(parent)") }
                    chain.append("made as \(inst.type) (\(inst.kind.rawValue))")
                    let module = typeModule[inst.type] ?? files[fi].module
                    newBoards[id] = ImportedBoard(id: id, kind: inst.kind, module: module, parent: parent == id ? nil : parent, source: src, bypassesGateway: bypass, chain: chain)
                    newOrder.append(id)
                }
            }
            let changed = newBindings != bindings || newBoards != boards
            bindings = newBindings
            boards = newBoards
            order = newOrder
            if !changed {
                warnings += newWarnings
                unresolved += newUnresolved
                for u in newUnresolved { reported.insert(u.source) }
                break
            }
        }
        // Board classes that fix their ids, which nothing the import sees installs: the reason a
        // board is missing, where `import --explain` can point.
        let boundTypes = Set(bindings.keys.compactMap(\.typeName))
        for (type, list) in fixedIDs.sorted(by: { $0.key < $1.key }) where !boundTypes.contains(type) && kindOf(type) != nil {
            for (f, fi) in list {
                if case .param = f.id { continue }
                guard case .values(let ids, _) = evalString(f.id, Ctx(file: fi, module: files[fi].module, owners: [])) else { continue }
                let missing = ids.filter { boards[$0] == nil }
                guard !missing.isEmpty else { continue }
                unresolved.append(UnresolvedItem(
                    source: loc(fi, f.line),
                    why: "board class \(type) fixes its id \(missing.map { "\"\($0)\"" }.joined(separator: ", ")) here, but nothing the import reads installs one (Motherboard(boards:), extended(boards:), installBoard, a registration builder)",
                    cause: .notInstalled, reason: .other, ids: missing))
            }
        }
    }

    // MARK: Edges

    mutating func resolveEdges() {
        collectPayloads()
        var gatewayDefs: [Int: (gates: [String], file: Int)] = [:]
        var installs: [(fact: CallFact, file: Int)] = []
        var broadcasts: [Broadcast] = []
        var completes = Set<String>()
        var outputs = Set<String>()

        func add(_ from: String, _ to: String, _ kind: ImportedEdge.Kind, on: String? = nil, _ src: CodeLocation, note: String? = nil, byOutput: Bool = false, chain: [String] = []) {
            guard boards[to] != nil else {
                unresolved.append(UnresolvedItem(source: src, why: "\(kind.rawValue) `\(to)`, which no producer of the app registers", cause: .unregisteredTarget, ids: [to]))
                return
            }
            edges.append(ImportedEdge(from: from, to: to, kind: kind, on: on, source: src, note: note, byOutput: byOutput, chain: chain))
        }
        /// Whose code a call is, in words.
        func runnerWhy(_ c: CallFact, _ from: String) -> String {
            if let h = c.handler { return h.sources.isEmpty ? "in a handler matched by type, of \(from)'s outputs" : "in a handler of \(from)'s outputs" }
            guard let key = c.owners.first(where: { bindings[$0] != nil }) else { return "in code that \(from)'s code calls" }
            if let t = key.typeName { return "in \(t), the class \(from) is made of" }
            if key.functionKey != nil { return "in \(key.shown), which makes \(from)" }
            return "in the code that makes \(from)"
        }

        // Broadcast actions first: type-matched handlers need them.
        for f in files {
            for c in f.calls {
                guard case .broadcast(let type) = c.kind, used(c.owners) else { continue }
                let t = type ?? actionType(of: c.target)
                for b in runners(c.owners).boards { broadcasts.append(Broadcast(board: b, type: t ?? boardAlias(b, "FlowActionType"), action: c.target?.lastName)) }
            }
        }

        for (fi, f) in files.enumerated() {
            for c in f.calls {
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
                    continue
                }
                guard used(c.owners) else {
                    if isActivation { unreach(c, fi, src, why: unusedWhy(c.owners)) }
                    continue
                }
                let ctx = Ctx(file: fi, module: f.module, owners: c.owners)
                let own = runners(c.owners)
                // The code of a board class whose maker no registration the app runs reaches (a
                // service case no instance has): counted and listed, no edge. A board class made
                // nowhere we can see stays unresolved.
                if own.boards.isEmpty, !own.entry, let t = c.owners.lazy.compactMap(\.typeName).first(where: { self.kindOf($0) != nil }),
                   constructedAnywhere.contains(t) {
                    if isActivation { unreach(c, fi, src, why: "in \(t), a board class no registration the import resolved makes") }
                    continue
                }
                // Who runs it: the handled boards inside a handler, else the code's own boards.
                var froms = own.boards
                var fromNote: String?
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
                switch c.kind {
                case .activate, .barrier, .gatewayGate:
                    guard let target = c.target else { continue }
                    let tos: [String]
                    var note: String?
                    switch evalDestination(target, ctx) {
                    case .values(let vs, let n): tos = vs; note = n
                    case .failed(let why):
                        unresolved.append(UnresolvedItem(source: src, why: "target depends on data: \(why)", cause: .target, reason: why.reason, ids: mentionedIDs(target, ctx)))
                        tally(f.module, .unresolved)
                        continue
                    }
                    // A type-matched handler no board feeds is not a call site that runs.
                    if !(froms.isEmpty && c.handler?.matchType != nil) {
                        let runs = !froms.isEmpty || (own.entry && c.handler == nil)
                        tally(f.module, !runs ? .unresolved : note?.contains("caller") == true ? .throughCallers : .direct)
                    }
                    if case .gatewayGate(let def) = c.kind {
                        gatewayDefs[def, default: ([], fi)].gates += tos.filter { !(gatewayDefs[def]?.gates.contains($0) ?? false) }
                        continue
                    }
                    if case .barrier = c.kind {
                        for to in tos { gates.insert(to) }
                        for b in own.boards { for g in tos { add(g, b, .barrier, src, note: note) } }
                        continue
                    }
                    if froms.isEmpty {
                        if c.handler?.matchType != nil { continue }
                        if own.entry && c.handler == nil {
                            for t in tos where boards[t] != nil { entries.append(EntryPoint(board: t, source: src)) }
                        } else {
                            unresolved.append(UnresolvedItem(source: src, why: "activates \(tos.joined(separator: ", ")) in code no board runs", cause: .noRunner, ids: tos))
                        }
                        continue
                    }
                    for from in froms {
                        for to in tos {
                            let chain = ["call at \(src): `\(target.text.replacingOccurrences(of: "__input", with: "activate"))`", "target \"\(to)\": \(note ?? "from what is written at the call")",
                                         "runs as \(from): \(fromNote ?? runnerWhy(c, from))"]
                            add(from, to, .activates, on: c.handler?.outputCase, src, note: note ?? fromNote, byOutput: c.handler != nil, chain: chain)
                        }
                    }
                case .flowHandler, .flowBind:
                    if c.target == nil, let t = c.matchType {
                        // A general handler, matched by type: the boards whose output or
                        // broadcast action has it.
                        for h in handledByType(t, broadcasts: broadcasts) { for r in own.boards where r != h { add(h, r, .flow, src, note: "matched by type \(t)") } }
                        continue
                    }
                    guard let target = c.target else { continue }
                    guard case .values(let handled, let note) = evalDestination(target, ctx) else {
                        if case .failed(let why) = evalDestination(target, ctx) { unresolved.append(UnresolvedItem(source: src, why: "handled board depends on data: \(why)", cause: .handledBoard, reason: why.reason, ids: mentionedIDs(target, ctx))) }
                        continue
                    }
                    for h in handled {
                        for r in own.boards where r != h {
                            let chain = ["handler registered at \(src) for `\(target.text)`", "handled board \"\(h)\": \(note ?? "from what is written at the call")", "registered by \(r): \(runnerWhy(c, r))"]
                            if c.cases.isEmpty { add(h, r, .flow, src, note: note, chain: chain) } else { for k in c.cases { add(h, r, .flow, on: k, src, note: note, chain: chain) } }
                        }
                    }
                case .steps(let parts):
                    var ids: [[String]] = []
                    for p in parts {
                        switch evalDestination(p, ctx) {
                        case .values(let vs, _): ids.append(vs)
                        case .failed(let why): unresolved.append(UnresolvedItem(source: src, why: "flow step depends on data: \(why)", cause: .flowStep, reason: why.reason, ids: mentionedIDs(p, ctx))); ids.append([])
                        }
                    }
                    for (a, b) in zip(ids, ids.dropFirst()) { for x in a where boards[x] != nil { for y in b { add(x, y, .activates, src, note: "flow step", byOutput: true) } } }
                case .broadcast:
                    break
                case .complete:
                    completes.formUnion(own.boards)
                case .sendOutput:
                    outputs.formUnion(own.boards)
                    if c.inGatewayFlows { completes.formUnion(own.boards) }
                case .gatewayInstall:
                    installs.append((c, fi))
                }
            }
        }

        // Boards activated by hand (`rootBoard.activate()`): entries from the app's entry code,
        // edges from a board's.
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
            for from in own.boards { for to in ids where to != from { add(from, to, .activates, src, note: "activated by hand") } }
        }

        // Gateways: the gate activated in `registerWithActivation`, in front of the boards
        // guarded (`for:` one id, else every board of the main producer that neither is exempt
        // nor bypasses).
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
                for b in guarded { add(g, b, exempt ? .exempt : .gateway, src) }
            }
        }
        // Gates whose code never completes (nor sends a resolving output, for gateways).
        gatesWithoutCompletion = gates.sorted().compactMap { g in
            guard let b = boards[g] else { return nil }
            if b.kind.bypassesGatewayByDefault { return nil }
            if completes.contains(g) { return nil }
            return b
        }

        // One edge per (from, to, kind, on), at its first place in the sources.
        var seen = Set<String>()
        edges.sort { ($0.source, $0.from, $0.to, $0.kind.rawValue) < ($1.source, $1.from, $1.to, $1.kind.rawValue) }
        edges = edges.filter { seen.insert("\($0.from)\u{0}\($0.to)\u{0}\($0.kind.rawValue)\u{0}\($0.on ?? "")").inserted }
        var seenU = Set<UnresolvedItem>()
        unresolved = unresolved.sorted { ($0.source, $0.why) < ($1.source, $1.why) }.filter { seenU.insert($0).inserted }
        var seenE = Set<String>()
        entries = entries.sorted { $0.source < $1.source }.filter { seenE.insert($0.board).inserted }
    }

    private(set) var gatesWithoutCompletion: [ImportedBoard] = []

    /// Activation call sites in code no registration reaches (counted, not resolved).
    private(set) var unreached: [UnreachedSite] = []

    /// The names of Boardy's activation calls an app may overload for its own target types.
    private static let activationVerbs: Set<String> = ["nextToBoard", "activateBoard", "continueBoard"]

    private mutating func unreach(_ c: CallFact, _ fi: Int, _ src: CodeLocation, why: String) {
        let owner = c.owners.lazy.compactMap(\.typeName).first ?? c.owners.first?.shown ?? ""
        unreached.append(UnreachedSite(source: src, owner: owner, why: why))
        tally(files[fi].module, .unreached)
    }

    /// Activation call sites per module: resolved where written, resolved through callers (or
    /// the inputs they hand a board), unresolved.
    private(set) var resolution: [String: ImportResolution] = [:]

    private enum Outcome { case direct, throughCallers, unresolved, unreached }

    private mutating func tally(_ module: String?, _ o: Outcome) {
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
    private func boardAlias(_ id: String, _ alias: String) -> String? {
        for (key, ids) in bindings.sorted(by: { $0.key.shown < $1.key.shown }) where ids.contains(id) {
            if let t = key.typeName, let a = types[t]?.aliases[alias] { return resolveType(a) }
        }
        return nil
    }

    /// The type of an action written as an implicit member (`.webReturn`): the parameter type
    /// of the app's own `broadcastAction(_:)` wrapper when there is one, else the one enum that
    /// declares that case.
    private func actionType(of target: Sym?) -> String? {
        guard case .member(nil, let name)? = target else { return nil }
        let wrappers = (functions["broadcastAction"] ?? []) + (functions["sendFlowAction"] ?? []) + (functions["sendAction"] ?? [])
        let typed = Set(wrappers.compactMap { $0.fact.params.first.map { resolveType($0.type) } }.filter { t in types[t]?.cases.contains(name) ?? false })
        if typed.count == 1 { return typed.first }
        let declaring = Set(types.values.filter { $0.kind == "enum" && $0.cases.contains(name) }.map(\.name))
        return declaring.count == 1 ? declaring.first : nil
    }

    /// A `broadcastAction(…)`: the board, the action's type and case.
    private struct Broadcast {
        var board: String
        var type: String?
        var action: String?
    }

    /// The boards whose outputs (or broadcast actions) have type `t` (and, when given, that
    /// broadcast `action`).
    private func handledByType(_ t: String, broadcasts: [Broadcast], action: String? = nil) -> [String] {
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

extension Array where Element: Hashable {
    /// The elements in order, each once.
    var uniqued: [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
