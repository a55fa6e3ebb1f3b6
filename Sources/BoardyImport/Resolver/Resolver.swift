import BoardyTrace

/// Turns every file's facts into the app's model: resolves ids through constants, interpolations,
/// enum cases, IO helpers (with their defaults), ServiceMap properties and callers; binds each
/// registered board to the code that makes it; attributes each call to the boards that run it.
struct Resolver {
    let files: [FileFacts]
    var constants: [String: [(fact: ConstFact, module: String?)]] = [:]
    var functions: [String: [(fact: FuncFact, module: String?)]] = [:]
    var functionsByKey: [String: FuncFact] = [:]
    var properties: [String: [(fact: PropFact, module: String?)]] = [:]
    var types: [String: TypeFact] = [:]
    var typealiases: [String: String] = [:]
    var nestedShort: [String: String] = [:]
    var makes: [Owner: [MakeFact]] = [:]
    var userCalls: [String: [(fact: UserCallFact, file: Int)]] = [:]
    var calledFrom: [String: Set<OwnerChain>] = [:]
    var referenced: Set<String> = []
    var constructions: [String: [(args: [SymArg], file: Int, line: Int)]] = [:]
    /// Stored properties' assignments, by `Type.name`.
    var assignments: [String: [(fact: AssignFact, file: Int)]] = [:]
    /// Types the app delegate or launcher constructs (a root board it activates).
    var constructedByEntry = Set<String>()
    /// Types constructed anywhere in the sources.
    var constructedAnywhere = Set<String>()
    /// What the activations of each board hand it (a `BoardInput`'s `input:`), for boards that
    /// activate their own input later.
    var payloads: [String: [Bound]] = [:]

    /// Owner → the boards whose code it is.
    var bindings: [Owner: [String]] = [:]
    var boards: [String: ImportedBoard] = [:]
    var order: [String] = []
    var edges: [ImportedEdge] = []
    var unresolved: [UnresolvedItem] = []
    var entries: [EntryPoint] = []
    var warnings: [ImportWarning] = []
    var gates = Set<String>()
    var gatewayGates = Set<String>()
    /// Gates (barrier or gateway) whose code has no reachable completion.
    var gatesWithoutCompletion: [ImportedBoard] = []
    /// Activation call sites in code no registration reaches (counted, not resolved).
    var unreached: [UnreachedSite] = []
    /// Activation call sites per module: resolved where written, resolved through callers (or
    /// the inputs they hand a board), unresolved.
    var resolution: [String: ImportResolution] = [:]
    /// The module that declares each type.
    var typeModule: [String: String?] = [:]
    /// The modules that declare each type.
    var declaring: [String: Set<String>] = [:]
    /// Board instances installed or activated by hand, with their files.
    var instances: [(fact: InstanceFact, file: Int)] = []
    /// Ids classes fix in their initializers, by class.
    var fixedIDs: [String: [(fact: FixedIDFact, file: Int)]] = [:]
    /// Constructions with arguments, by type name.
    var initCalls: [String: [(fact: InitCallFact, file: Int)]] = [:]
    /// Initializers by their type.
    var initsByType: [String: [(fact: FuncFact, module: String?)]] = [:]
    /// The `identifier` switch of each enum that declares a case, by case name.
    var identifierTables: [String: [(fact: PropFact, module: String?)]] = [:]
    /// Each plugin type's instances, worked out once (they do not change as boards are found).
    var pluginInstanceCache: [String: [(service: String?, ids: [String], source: CodeLocation?)]] = [:]
    /// Injected stored properties' types, by `Type.name`.
    var storedTypes: [String: String] = [:]

    init(files unnormalised: [FileFacts]) {
        // The modules that declare each type, so that every owner names its type's module.
        var declaring: [String: Set<String>] = [:]
        for f in unnormalised { for t in f.types where t.kind != .extension { declaring[t.name, default: []].insert(f.module ?? "") } }
        let files = unnormalised.map { Self.normalised($0, declaring) }
        self.files = files
        self.declaring = declaring
        for f in files {
            for c in f.constants { constants[c.name, default: []].append((c, f.module)) }
            for fn in f.functions {
                functions[fn.name, default: []].append((fn, f.module))
                if fn.name == "init", let o = fn.owner { initsByType[o, default: []].append((fn, f.module)) }
                functionsByKey[fn.key] = fn
            }
            for p in f.properties { properties[p.name, default: []].append((p, f.module)) }
            for t in f.types {
                if var old = types[t.name] {
                    old.inherits += t.inherits
                    old.isEntry = old.isEntry || t.isEntry
                    old.cases += t.cases
                    old.aliases.merge(t.aliases) { a, _ in a }
                    if old.kind == .extension { old.kind = t.kind; old.line = t.line }
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
            for t in f.types where t.kind != .extension && typeModule[t.name] == nil { typeModule[t.name] = f.module }
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
        // Enums' `identifier` tables by case name (an app enum's case as a target).
        for (p, module) in properties["identifier"] ?? [] where !p.cases.isEmpty {
            guard let owner = p.owner, let t = types[owner], t.kind == .enum else { continue }
            for c in Set(t.cases) { identifierTables[c, default: []].append((p, module)) }
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
    func declModule(_ type: String, from module: String?) -> String? {
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
    mutating func findEntryConstructions() {
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

    struct Ctx {
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
    struct Bound {
        var sym: Sym
        var ctx: Ctx
    }

    /// One activation a value makes: its target and the input handed to it (a `BoardInput`'s
    /// `input:`), kept symbolic for the target to forward.
    struct Activation {
        var target: String
        var payload: Bound?
    }

    enum InputEval {
        case values([Activation], note: Note?)
        case failed(Why)
    }

    func loc(_ file: Int, _ line: Int, _ column: Int = 1) -> CodeLocation { CodeLocation(file: files[file].path, line: line, column: column) }

    /// How a value was found, said in words on an edge: where it is written, or through the
    /// callers (or constructions) of the code that holds it. The report counts by `throughCallers`,
    /// never by the words.
    struct Note: ExpressibleByStringInterpolation, CustomStringConvertible, Sendable, Equatable {
        var text: String
        var throughCallers: Bool
        init(_ text: String, throughCallers: Bool) { self.text = text; self.throughCallers = throughCallers }
        init(stringLiteral value: String) { self.init(value, throughCallers: false) }
        init(stringInterpolation: DefaultStringInterpolation) { self.init(String(stringInterpolation: stringInterpolation), throughCallers: false) }
        var description: String { text }
    }

    enum Eval {
        case values([String], note: Note?)
        case failed(Why)
    }

}

extension Array where Element: Hashable {
    /// The elements in order, each once.
    var uniqued: [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
