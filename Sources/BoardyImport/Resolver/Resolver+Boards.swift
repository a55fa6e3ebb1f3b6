import BoardyTrace

/// Which code runs, as which boards; the boards the registrations and instances make.
extension Resolver {
    // MARK: Use

    static let frameworkEntry: Set<String> = [
        "activate", "activationBarrier", "interact", "init", "deinit", "apply", "build", "internalContinuousRegistrations", "produceBoard",
        "prepareForLaunching", "shouldBypassGatewayBarrier", "mainboard", "willOpen", "application", "scene", "sceneDidBecomeActive",
        "viewDidLoad", "body", "putIntoContext", "registrationsBuilder", "makeBoard", "registerFlows",
    ]

    /// Whether the code of `chain` runs at all: functions that nothing calls and types nothing
    /// names are unused (no boards, no edges).
    func used(_ chain: OwnerChain) -> Bool {
        for key in chain {
            if let k = key.functionKey {
                guard let fn = functionsByKey[k] else { continue }
                if Self.frameworkEntry.contains(fn.name) || fn.calledFromOutside || referenced.contains(fn.name) { continue }
                return false
            }
            if let t = key.typeName {
                if types[t]?.isEntry == true || referenced.contains(t) || bindings[key] != nil { continue }
                // A type only extended here, declared by a library (BoardID, MotherboardType…).
                if types[t] == nil || types[t]?.kind == .extension { continue }
                return false
            }
        }
        return true
    }

    /// Why `used(chain)` is false, in words.
    func unusedWhy(_ chain: OwnerChain) -> String {
        for key in chain {
            if let k = key.functionKey, let fn = functionsByKey[k], !(Self.frameworkEntry.contains(fn.name) || fn.calledFromOutside || referenced.contains(fn.name)) {
                return "in \(key.shown), a function nothing calls"
            }
            if let t = key.typeName, types[t]?.kind != .extension, types[t] != nil, !(types[t]?.isEntry == true || referenced.contains(t) || bindings[key] != nil) {
                return "in \(t), a type nothing names"
            }
        }
        return "in code nothing runs"
    }

    func isEntry(_ chain: OwnerChain) -> Bool {
        chain.isEmpty || chain.contains { o in o.typeName.map { types[$0]?.isEntry == true || isLauncher($0) } ?? false }
    }

    func isLauncher(_ t: String) -> Bool {
        types[t]?.inherits.contains { ["LauncherPlugin", "URLOpenerPlugin", "GuaranteedURLOpenerPlugin"].contains(baseName($0)) || baseName($0).hasSuffix("URLOpenerPlugin") } ?? false
    }

    /// The boards whose code `chain` is (the innermost bound owner), else through the callers of
    /// its innermost function. `nil` with `entry` when the launcher or app delegate runs it.
    func runners(_ chain: OwnerChain, depth: Int = 0) -> (boards: [String], entry: Bool) {
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
        for t in types.keys where isPlugin(t) { pluginInstanceCache[t] = pluginInstances(t) }
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
                if let plugin { instances = pluginInstanceCache[plugin] ?? pluginInstances(plugin) }
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
                   let own = (pluginInstanceCache[plugin] ?? pluginInstances(plugin)).first(where: { i in i.ids.count == 1 && (x.serviceCases == nil || i.service.map { x.serviceCases!.contains($0) } ?? true) }) {
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
}
