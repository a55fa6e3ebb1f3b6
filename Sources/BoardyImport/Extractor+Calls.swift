// Extractor: the calls that make facts (activations, flows, gateways, registrations, constructions).

import SwiftSyntax

extension Extractor {
    /// A call's parts, read once for the rules that follow.
    struct CallSite {
        let node: FunctionCallExprSyntax
        /// The called member, when the call is `base.name(…)`.
        let member: MemberAccessExprSyntax?
        /// The call's own name (`activate` of `a.activation.activate()`, `LoginBoard` of `LoginBoard()`).
        let name: String
        /// The member the called one is read from (`activation` of `a.activation.activate()`).
        let baseMember: String?
        /// What that member is read from (`a` of `a.activation.activate()`): the board the call is about.
        let destination: Sym?
        let args: [SymArg]
        /// Where the call is: a chained call's line is its name's (`.install(…)` on its own line),
        /// not the chain's start.
        let at: Syntax

        init(_ node: FunctionCallExprSyntax, in x: Extractor) {
            self.node = node
            let callee = node.calledExpression
            member = callee.as(MemberAccessExprSyntax.self)
            name = member?.declName.baseName.text ?? callee.as(DeclReferenceExprSyntax.self)?.baseName.text
                ?? callee.as(GenericSpecializationExprSyntax.self)?.expression.trimmedDescription ?? ""
            baseMember = member?.base?.as(MemberAccessExprSyntax.self)?.declName.baseName.text
            destination = member?.base?.as(MemberAccessExprSyntax.self)?.base.map { x.sym($0) }
            args = node.arguments.map { SymArg(label: $0.label?.text, value: x.sym($0.expression)) }
            at = member.map { Syntax($0.declName) } ?? Syntax(node)
        }
    }

    // MARK: Calls, by rule

    /// Boardy's calls, by name: activations (of an id, by an IO helper, by hand), barriers, flow
    /// handlers and bindings, flow steps, broadcasts, completions and outputs, gateways,
    /// registrations, installed boards, and ids classes fix in their initializers.
    func recordBoardyCall(_ call: CallSite) {
        let node = call.node, member = call.member, baseMember = call.baseMember, destination = call.destination, args = call.args, at = call.at
        switch call.name {
        case "activate" where baseMember == "activation" || baseMember == "blockActivation":
            _ = record(.activate, target: destination, node: at)
        case "activate" where member?.base?.as(FunctionCallExprSyntax.self).map({ Self.calleeName($0).hasPrefix("io") }) == true:
            // A task board's IO helper that returns the activation itself: `ioSignIn(id).activate(with:)`.
            _ = record(.activate, target: member?.base.map { sym($0) }, node: at)
        case "activate" where member?.base != nil:
            // A board instance activated by hand (`rootBoard.activate()`): a board when its type is one.
            if let b = member?.base, !["self", "super"].contains(b.trimmedDescription) {
                facts.instances.append(InstanceFact(board: sym(b), how: .activatedDirectly, owners: chain, serviceCases: serviceCases, line: line(at)))
            }
        case "barrier" where baseMember == "activation":
            _ = record(.barrier, target: destination, node: at)
        case "ActivationBarrier":
            if let id = args.first(where: { $0.label == "identifier" || $0.label == "barrierIdentifier" || $0.label == nil })?.value {
                _ = record(.barrier, target: id, node: at)
            }
        case "addTarget" where member?.base?.as(FunctionCallExprSyntax.self).map({ Self.calleeName($0).hasPrefix("io") && Self.calleeName($0).hasSuffix("Flow") }) == true:
            // A task board's flow helper: `ioSignInFlow(id).addTarget(self) { … }`.
            let d = member?.base.map { sym($0) }
            let i = record(.flowHandler, target: d, node: at)
            if let d { assignHandler(node, HandlerCtx(sources: [d], matchType: nil, outputCase: nil, handlerFact: i)) }
        case "addTarget" where Self.handlerBases.contains(baseMember ?? ""), "handle" where Self.handlerBases.contains(baseMember ?? ""):
            let i = record(.flowHandler, target: destination, node: at)
            if let d = destination { assignHandler(node, HandlerCtx(sources: [d], matchType: nil, outputCase: nil, handlerFact: i)) }
        case "bind" where baseMember == "flow" || baseMember == "completion", "sendOutput" where baseMember == "flow":
            // `flow.bind(to: bus)`, `flow.sendOutput(through: self)`: the board handles the outputs.
            _ = record(.flowBind, target: destination, node: at)
        case "activate" where baseMember == "flow":
            // `ioA().flow.activate(motherboard.ioB().activation)`: A's outputs activate B.
            let i = record(.flowBind, target: destination, node: at)
            if let d = destination, var next = args.first?.value {
                if case .member(let b?, "activation") = next { next = b }
                facts.calls.append(CallFact(kind: .activate, target: next, owners: chain, handler: HandlerCtx(sources: [d], matchType: nil, outputCase: nil, handlerFact: i),
                                            serviceCases: serviceCases, cases: [], inGatewayFlows: false, line: line(at), column: column(at)))
            }
        case "registerGuaranteedFlow", "registerGeneralFlow", "registerFlow":
            recordFlowRegistration(call)
        case "registerFlowSteps":
            for a in node.arguments {
                let parts = steps(a.expression)
                if parts.count > 1 { _ = record(.steps(parts), target: nil, node: at) }
            }
        case "broadcastAction", "sendFlowAction", "sendAction":
            recordBroadcast(call)
        case "complete" where member == nil || node.arguments.count <= 1:
            _ = record(.complete, target: nil, node: at)
        case "sendOutput", "sendToMotherboard":
            _ = record(.sendOutput, target: nil, node: at)
        case "nextToBoard", "continueBoard", "activateBoard":
            if let first = args.first { _ = record(.activate, target: .call(.name("__input"), [first]), node: at) }
        case "install":
            recordGatewayInstall(call)
        case "registerWithActivation":
            let def = member.map { line($0.declName) } ?? line(node)
            for c in closures(of: node) { closureRoles[c.id] = .gatewayActivation(def) }
        case "withFlowRegistration":
            for c in closures(of: node) { closureRoles[c.id] = .gatewayFlows }
        case "BoardRegistration":
            recordBoardRegistration(call)
        case "registerBoard":
            recordRegisterBoard(call)
        case "installBoard":
            if let b = args.first?.value { facts.instances.append(InstanceFact(board: b, how: .installed, owners: chain, serviceCases: serviceCases, line: line(at))) }
        case "init" where ["super", "self"].contains(member?.base?.trimmedDescription ?? ""):
            // `super.init(identifier: .login)`: the class fixes its id.
            if let id = args.first(where: { $0.label == "identifier" })?.value, let t = currentType, let f = functions.last, f.name == "init" {
                facts.fixedIDs.append(FixedIDFact(type: t, initKey: f.key, id: id, line: line(node)))
            }
        default:
            break
        }
    }

    /// `registerFlow(matchedIdentifiers:…)` and its kin: a flow handler per matched identifier,
    /// or one matched by its output type when it names none.
    func recordFlowRegistration(_ call: CallSite) {
        let node = call.node, at = call.at
        var sources: [Sym] = []
        var collecting = false
        var matchType: String?
        for a in node.arguments {
            if a.label?.text == "matchedIdentifiers" || a.label?.text == "matchedIdentifier" { collecting = true } else if a.label != nil { collecting = false }
            if collecting { sources.append(sym(a.expression)) }
            if a.label?.text == "uniqueOutputType" || a.label?.text == "outputType" {
                matchType = baseName(a.expression.trimmedDescription.replacingSuffix(".self"))
            }
        }
        let i = record(.flowHandler, target: sources.first, node: at)
        facts.calls[i].matchType = sources.isEmpty ? matchType : nil
        if sources.count > 1 {
            // One fact per matched identifier beyond the first, sharing the handler's code.
            for s in sources.dropFirst() { _ = record(.flowHandler, target: s, node: at) }
        }
        assignHandler(node, HandlerCtx(sources: sources, matchType: sources.isEmpty ? matchType : nil, outputCase: nil, handlerFact: i))
    }

    /// `broadcastAction(…)` and its kin: a broadcast of the action's type, where it is written.
    func recordBroadcast(_ call: CallSite) {
        let node = call.node, args = call.args, at = call.at
        var type: String?
        if let a = node.arguments.first?.expression {
            if let m = a.as(MemberAccessExprSyntax.self), let b = m.base { type = baseName(b.trimmedDescription) }
            if let c = a.as(FunctionCallExprSyntax.self) {
                if let m = c.calledExpression.as(MemberAccessExprSyntax.self), let b = m.base { type = baseName(b.trimmedDescription) } else { type = baseName(c.calledExpression.trimmedDescription) }
            }
        }
        _ = record(.broadcast(type), target: args.first?.value, node: at)
    }

    /// `install(gatewayBarrier:…)`: a gateway (or an exempt id), with the line of the
    /// `registerWithActivation` that defines its gate.
    func recordGatewayInstall(_ call: CallSite) {
        let node = call.node, at = call.at
        guard let first = node.arguments.first, first.label?.text == "gatewayBarrier" else { return }
        let g = first.expression
        let text = g.trimmedDescription
        let exempt = text == ".exempt" || text.hasSuffix(".exempt")
        let forID = node.arguments.first(where: { $0.label?.text == "for" }).map { sym($0.expression) }
        var def: Int?
        if let tok = g.tokens(viewMode: .sourceAccurate).first(where: { $0.text == "registerWithActivation" }) { def = line(tok) }
        _ = record(.gatewayInstall(exempt: exempt, forID: forID, def: def), target: nil, node: at)
    }

    /// `BoardRegistration(id) { … }`: an inner registration, made by its closure (or by the
    /// function handed to it).
    func recordBoardRegistration(_ call: CallSite) {
        let node = call.node, args = call.args
        if let id = args.first?.value {
            let cs = closures(of: node)
            let key = Owner.maker("C:\(facts.path):" + place(cs.first.map { Syntax($0) } ?? Syntax(node)))
            facts.registrations.append(RegFact(id: id, maker: key, owners: chain, serviceCases: serviceCases, line: line(node), inner: true))
            if let c = cs.first { closureRoles[c.id] = .maker(key) } else if args.count > 1 {
                facts.makes.append(MakeFact(owner: key, callee: args[1].value, serviceCases: serviceCases, line: line(node)))
            }
        }
    }

    /// `registerBoard(id) { … }`: a registration made by its closure, inner unless the producer is
    /// the main component's.
    func recordRegisterBoard(_ call: CallSite) {
        let node = call.node, member = call.member, args = call.args
        // Without a closure, a registration forwarded from a BoardRegistration (already counted).
        if let id = args.first(where: { $0.label == nil })?.value, !closures(of: node).isEmpty {
            let cs = closures(of: node)
            let key = Owner.maker("C:\(facts.path):" + place(cs.first.map { Syntax($0) } ?? Syntax(node)))
            facts.registrations.append(RegFact(id: id, maker: key, owners: chain, serviceCases: serviceCases, line: line(node), inner: !Self.isMainProducer(member?.base.map { sym($0) })))
            if let c = cs.first { closureRoles[c.id] = .maker(key) }
        }
    }

    /// Boards a call installs: `registerBoard(LoginBoard())` and each element of a `boards:` or
    /// `uiboards:` list.
    func recordInstalledBoards(_ call: CallSite) {
        let node = call.node, at = call.at
        if call.name == "registerBoard", closures(of: node).isEmpty, let first = node.arguments.first, first.label == nil,
           let c = first.expression.as(FunctionCallExprSyntax.self), Self.calleeName(c).first?.isUppercase == true {
            // `registerBoard(LoginBoard())`: an autoclosure making the board, its id its own.
            facts.instances.append(InstanceFact(board: sym(first.expression), how: .installed, owners: chain, serviceCases: serviceCases, line: line(at)))
        }
        // `Motherboard(boards: [a, b])`, `extended(boards:)`, `UIMotherboard(uiboards:)`: each element installed.
        for a in node.arguments where ["boards", "uiboards"].contains(a.label?.text ?? "") {
            let elements = a.expression.as(ArrayExprSyntax.self).map { $0.elements.map(\.expression) } ?? [a.expression]
            for e in elements {
                facts.instances.append(InstanceFact(board: sym(e), how: .installed, owners: chain, serviceCases: serviceCases, line: line(e)))
            }
        }
    }

    /// The closures of a registration builder call (`Motherboard(…) { producer in … }`, a
    /// `registrationsBuilder:` argument) are builders, unless a rule gave them another role.
    func markBuilderClosures(_ call: CallSite) {
        let node = call.node
        if Self.builderCalls.contains(call.name) || node.arguments.contains(where: { $0.label?.text == "registrationsBuilder" }) {
            for c in closures(of: node) where closureRoles[c.id] == nil { closureRoles[c.id] = .builder }
        }
    }

    /// Constructions and factory calls (what makers make, the arguments types are made with,
    /// plugins' constructions); any other named call: the user calls handed ids, and where
    /// each function is called from.
    func recordConstructions(_ call: CallSite) {
        let node = call.node, member = call.member, name = call.name, args = call.args
        let callee = node.calledExpression
        if let first = name.first, first.isUppercase || (member?.base.map { $0.trimmedDescription.first?.isUppercase ?? false } ?? false) {
            if first.isUppercase, let owner = owners.last { facts.constructedIn[owner, default: []].insert(name) }
            if first.isUppercase, !args.isEmpty, args.count <= 16 { facts.initCalls.append(InitCallFact(type: name, args: args, owners: chain, line: line(node))) }
            if let owner = owners.last, owner.typeName == nil {
                facts.makes.append(MakeFact(owner: owner, callee: sym(callee), serviceCases: serviceCases, line: line(node)))
            }
            if first.isUppercase, args.contains(where: { $0.label == "service" || $0.label == "identifier" }) || (args.isEmpty && propertyNames.last == "bundledPlugins") {
                facts.constructions.append((name, args, line(node), propertyNames.last.flatMap { p in currentType.map { $0 + "." + p } }))
            }
        } else if !name.isEmpty {
            if !args.isEmpty, args.contains(where: { Self.idLike($0.value) }) {
                facts.userCalls.append(UserCallFact(name: name, args: args, owners: chain, handler: handlers.last, line: line(node)))
            }
            if !owners.isEmpty { facts.calledFrom[name, default: []].insert(chain) }
        }
    }

    // MARK: Call helpers

    /// The closures handed to a call: its trailing closures and closure arguments.
    func closures(of node: FunctionCallExprSyntax, labels: Set<String>? = nil) -> [ClosureExprSyntax] {
        var out: [ClosureExprSyntax] = []
        for a in node.arguments {
            if let c = a.expression.as(ClosureExprSyntax.self), labels == nil || labels!.contains(a.label?.text ?? "") { out.append(c) }
        }
        if let t = node.trailingClosure { out.append(t) }
        for t in node.additionalTrailingClosures where labels == nil || labels!.contains(t.label.text) { out.append(t.closure) }
        return out
    }

    /// Records a call fact of `kind` at `node`, in the handler being visited (none inside a
    /// gateway's flows), and returns its index; an activation inside a gateway's
    /// `registerWithActivation` is that gateway's gate.
    func record(_ kind: CallFact.Kind, target: Sym?, node: some SyntaxProtocol) -> Int {
        var h = handlers.last
        if gatewayFlowsDepth > 0 { h = nil }
        if case .activate = kind, let def = gatewayGates.last {
            facts.calls.append(CallFact(kind: .gatewayGate(def: def), target: target, owners: chain, handler: nil, serviceCases: serviceCases, cases: [], inGatewayFlows: false, line: line(node)))
            return facts.calls.count - 1
        }
        facts.calls.append(CallFact(kind: kind, target: target, owners: chain, handler: h, serviceCases: serviceCases, cases: [], inGatewayFlows: gatewayFlowsDepth > 0, line: line(node), column: column(node)))
        return facts.calls.count - 1
    }

    /// Whether a `registerBoard` receiver is the main component's producer (`main.producer`, a
    /// local bound to it, `mainProducer`), not an inner one.
    static func isMainProducer(_ s: Sym?) -> Bool {
        switch s {
        case nil: return true
        case .member(.param?, "producer")?, .member(.name?, "producer")?, .member(.member?, "producer")?: return true
        case .name(let n)?: return n.lowercased().contains("main")
        default: return false
        }
    }

    /// A call's own name (`resolve` of `container.resolve()`, `LoginBoard` of `LoginBoard()`).
    static func calleeName(_ c: FunctionCallExprSyntax) -> String {
        let e = c.calledExpression
        return e.as(MemberAccessExprSyntax.self)?.declName.baseName.text ?? e.as(DeclReferenceExprSyntax.self)?.baseName.text
            ?? e.as(GenericSpecializationExprSyntax.self)?.expression.trimmedDescription ?? ""
    }

    /// Whether a value looks like a board id (a string, a parameter, an enum case or a member
    /// of a type, or a call on one).
    static func idLike(_ s: Sym) -> Bool {
        switch s {
        case .str, .param: return true
        case .member(let b, _): return b == nil || (b.map(idLike) ?? false) || (b.map { if case .name(let n) = $0 { n.first?.isUppercase ?? false } else { false } } ?? false)
        case .call(let c, let a): return idLike(c) || a.contains { idLike($0.value) }
        default: return false
        }
    }

    /// The handler closures handed to a call get the role of flow handler `h`.
    func assignHandler(_ node: FunctionCallExprSyntax, _ h: HandlerCtx) {
        for c in closures(of: node, labels: ["", "action", "handler", "nextHandler", "flowHandler"]) { closureRoles[c.id] = .handler(h) }
    }

    /// `a ->> b ->> c` as its parts (the parser leaves operators unfolded).
    func steps(_ e: ExprSyntax) -> [Sym] {
        guard let seq = e.as(SequenceExprSyntax.self) else { return [] }
        var parts: [Sym] = []
        var ok = true
        for (i, el) in seq.elements.enumerated() {
            if i % 2 == 1 {
                if el.as(BinaryOperatorExprSyntax.self)?.operator.text != "->>" { ok = false }
            } else {
                parts.append(sym(el))
            }
        }
        return ok ? parts : []
    }
}
