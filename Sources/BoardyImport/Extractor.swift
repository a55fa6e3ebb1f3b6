import BoardyTrace
import SwiftParser
import SwiftSyntax

/// Reads one file's syntax tree into ``FileFacts``: declarations (ids, IO helpers, board
/// classes), registrations and the calls that make edges, each with the chain of code that holds
/// it. A syntax visitor keeps the context (type, function, handler closure, `switch` case) on
/// stacks as it walks.
final class Extractor: SyntaxVisitor {
    private(set) var facts: FileFacts
    private let converter: SourceLocationConverter

    /// What a closure is, decided by the call it is handed to.
    private enum ClosureRole {
        case maker(Owner)
        case handler(HandlerCtx)
        case gatewayActivation(Int)
        case gatewayFlows
        /// A registration builder (`Motherboard(…) { producer in … }`): a bare board statement in
        /// it installs that board.
        case builder
    }

    /// Modules whose names qualify library types in extensions.
    private static let libraryModules: Set<String> = ["Boardy", "Swift", "Foundation", "UIKit", "SwiftUI", "ComponentKit"]

    /// Per function or closure: whether it is a registration builder.
    private var builderFrames: [Bool] = []
    private static let builderCalls: Set<String> = ["Motherboard", "BoardProducer", "ComposableMotherboard", "FlowMotherboard", "UIMotherboard"]

    private var closureRoles: [SyntaxIdentifier: ClosureRole] = [:]
    private var owners: [Owner] = []
    private var typeNames: [String] = []
    /// Per enclosing type: its inheritance (for plugin and board detection).
    private var typeInherits: [[String]] = []
    /// Functions: key, name, parameter names.
    private var functions: [(key: String, name: String, params: [String])] = []
    /// Local `let`/`var` bindings per function or closure scope.
    private var scopes: [[String: Sym]] = []
    /// Closure parameter names per closure.
    private var closureParams: [Set<String>] = []
    private var handlers: [HandlerCtx] = []
    private var gatewayGates: [Int] = []
    private var gatewayFlowsDepth = 0
    /// `switch` cases: the switch's subject text and the case names.
    private var caseStack: [(subject: String, names: [String])] = []
    /// Pending roles for nodes (an `if case .x = output` body).
    private var blockCases: [SyntaxIdentifier: String] = [:]
    private var pushedBlocks: Set<SyntaxIdentifier> = []

    init(path: String, module: String?, tree: SourceFileSyntax) {
        facts = FileFacts(path: path, module: module)
        converter = SourceLocationConverter(fileName: path, tree: tree)
        super.init(viewMode: .sourceAccurate)
    }

    /// Parses `source` and extracts its facts; syntax errors become located warnings and the
    /// rest of the file still counts.
    static func extract(path: String, module: String?, source: String) -> FileFacts {
        let tree = Parser.parse(source: source)
        let x = Extractor(path: path, module: module, tree: tree)
        if tree.hasError, let bad = Self.firstError(in: Syntax(tree)) {
            let line = x.line(bad)
            x.facts.warnings.append(ImportWarning(source: CodeLocation(file: path, line: line), message: "syntax error near `\(bad.trimmedDescription.prefix(40))`; the rest of the file was read as far as it parses"))
        }
        x.walk(tree)
        return x.facts
    }

    private static func firstError(in node: Syntax) -> Syntax? {
        if node.is(UnexpectedNodesSyntax.self) || (node.as(TokenSyntax.self)?.presence == .missing) { return node }
        guard node.hasError else { return nil }
        for child in node.children(viewMode: .all) { if let e = firstError(in: child) { return e } }
        return nil
    }

    private func line(_ node: some SyntaxProtocol) -> Int {
        converter.location(for: node.positionAfterSkippingLeadingTrivia).line
    }

    private func column(_ node: some SyntaxProtocol) -> Int {
        converter.location(for: node.positionAfterSkippingLeadingTrivia).column
    }

    /// `line:column`: two closures on one line are two makers.
    private func place(_ node: Syntax) -> String {
        let l = converter.location(for: node.positionAfterSkippingLeadingTrivia)
        return "\(l.line):\(l.column)"
    }

    private var chain: OwnerChain { owners.reversed() }
    private var currentType: String? { typeNames.last }
    private var serviceCases: [String]? {
        caseStack.last(where: { $0.subject == "service" || $0.subject == "self.service" })?.names
    }

    // MARK: Declarations

    override func visit(_ node: IfConfigClauseSyntax) -> SyntaxVisitorContinueKind {
        // `#if false` (and `#if 0`) is commented-out code: no edges.
        if let c = node.condition?.trimmedDescription, c == "false" || c == "0" { return .skipChildren }
        return .visitChildren
    }

    private func inherited(_ clause: InheritanceClauseSyntax?) -> [String] {
        clause?.inheritedTypes.map { $0.type.trimmedDescription } ?? []
    }

    private func isPublic(_ modifiers: DeclModifierListSyntax) -> Bool {
        modifiers.contains { $0.name.text == "public" || $0.name.text == "open" }
    }

    private func pushType(_ name: String, kind: DeclKind, inherits: [String], attributes: AttributeListSyntax?, node: some SyntaxProtocol, cases: [String] = []) {
        let attrs = attributes?.compactMap { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription } ?? []
        let entryTypes: Set<String> = ["UIApplicationDelegate", "UIWindowSceneDelegate", "UISceneDelegate", "App", "NSApplicationDelegate", "UIResponder"]
        let isEntry = attrs.contains("main") || attrs.contains("UIApplicationMain") || inherits.contains { entryTypes.contains(baseName($0)) }
        // Nested types are named with their parents (`AuthPlugin.ServiceType`): two plugins
        // each have a ServiceType.
        let name = kind == .extension ? name : (typeNames.last.map { $0 + "." } ?? "") + name
        facts.types.append(TypeFact(name: name, kind: kind, inherits: inherits, isEntry: isEntry, cases: cases, aliases: [:], line: line(node)))
        typeNames.append(name)
        typeInherits.append(inherits)
        publicContext.append(false)
        owners.append(.type(name, module: facts.module))
    }

    private func popType() {
        typeNames.removeLast()
        typeInherits.removeLast()
        publicContext.removeLast()
        owners.removeLast()
    }

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        pushType(node.name.text, kind: .class, inherits: inherited(node.inheritanceClause), attributes: node.attributes, node: node)
        return .visitChildren
    }
    override func visitPost(_ node: ClassDeclSyntax) { popType() }
    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
        pushType(node.name.text, kind: .actor, inherits: inherited(node.inheritanceClause), attributes: node.attributes, node: node)
        return .visitChildren
    }
    override func visitPost(_ node: ActorDeclSyntax) { popType() }
    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        pushType(node.name.text, kind: .struct, inherits: inherited(node.inheritanceClause), attributes: node.attributes, node: node)
        return .visitChildren
    }
    override func visitPost(_ node: StructDeclSyntax) { popType() }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
        var cases: [String] = []
        for m in node.memberBlock.members {
            if let c = m.decl.as(EnumCaseDeclSyntax.self) { cases += c.elements.map { $0.name.text.trimmingBackticks } }
        }
        pushType(node.name.text, kind: .enum, inherits: inherited(node.inheritanceClause), attributes: node.attributes, node: node, cases: cases)
        return .visitChildren
    }
    override func visitPost(_ node: EnumDeclSyntax) { popType() }
    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        // `extension Payment.DefaultMap` names a nested type (each module's service map has a
        // `DefaultMap`); `extension Boardy.BoardID` names a library's type by its module.
        let written = node.extendedType.trimmedDescription
        let parts = written.split(separator: "<")[0].split(separator: ".").map(String.init)
        let name = parts.count > 1 && !Self.libraryModules.contains(parts[0]) ? parts.joined(separator: ".").trimmingBackticks : baseName(written)
        pushType(name, kind: .extension, inherits: inherited(node.inheritanceClause), attributes: node.attributes, node: node)
        publicContext[publicContext.count - 1] = isPublic(node.modifiers)
        return .visitChildren
    }
    override func visitPost(_ node: ExtensionDeclSyntax) { popType() }
    override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind {
        let value = node.initializer.value.trimmedDescription
        if let i = facts.types.lastIndex(where: { $0.name == currentType }), currentType != nil, ["OutputType", "FlowActionType", "InputType", "CommandType"].contains(node.name.text) {
            facts.types[i].aliases[node.name.text] = value
        } else if currentType == nil {
            facts.typealiases[node.name.text] = value
        }
        return .skipChildren
    }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        let name = node.name.text.trimmingBackticks
        let key = "F:" + (currentType.map { $0 + "." } ?? "") + name
        enterFunction(key: key, name: name, params: node.signature.parameterClause.parameters, node: node, modifiers: node.modifiers, attributes: node.attributes, body: node.body)
        // A ModuleBuilderPlugin's build(with:…) makes the plugin's board for its identifier.
        if name == "build", node.signature.parameterClause.parameters.first?.firstName.text == "with",
           isPlugin(typeInherits.last ?? []) {
            facts.registrations.append(RegFact(id: .name("identifier"), maker: .function(key, module: facts.module), owners: chain, serviceCases: nil, line: line(node)))
        }
        return .visitChildren
    }
    override func visitPost(_ node: FunctionDeclSyntax) { leaveFunction() }

    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind {
        let key = "F:" + (currentType.map { $0 + "." } ?? "") + "init"
        enterFunction(key: key, name: "init", params: node.signature.parameterClause.parameters, node: node, modifiers: node.modifiers, attributes: node.attributes, body: node.body)
        return .visitChildren
    }
    override func visitPost(_ node: InitializerDeclSyntax) { leaveFunction() }


    private func isPlugin(_ inherits: [String]) -> Bool {
        inherits.contains { ["ModulePlugin", "ModuleBuilderPlugin"].contains(baseName($0)) }
    }

    private func enterFunction(key: String, name: String, params: FunctionParameterListSyntax, node: some SyntaxProtocol, modifiers: DeclModifierListSyntax, attributes: AttributeListSyntax, body: CodeBlockSyntax?) {
        var ps: [(label: String, name: String, type: String, defaultValue: Sym?)] = []
        for p in params {
            let label = p.firstName.text
            let pname = (p.secondName ?? p.firstName).text
            ps.append((label, pname, p.type.trimmedDescription, p.defaultValue.map { sym($0.value) }))
        }
        // A private function is called only from its own file, where we see every call.
        let isPrivate = modifiers.contains { $0.name.text == "private" || $0.name.text == "fileprivate" }
        let outside = modifiers.contains { $0.name.text == "override" } || attributes.contains { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "objc" }
            || (!isPrivate && (typeInherits.last.map { !$0.isEmpty } ?? false))
        var returns: Sym?
        functions.append((key, name, ps.map(\.name)))
        builderFrames.append(name == "internalContinuousRegistrations" || name == "registrationsBuilder"
            || attributes.contains { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "BoardRegistrationBuilder" })
        owners.append(.function(key, module: facts.module))
        scopes.append([:])
        if let stmts = body?.statements, stmts.count == 1, let item = stmts.first?.item {
            if let e = item.as(ExprSyntax.self) { returns = sym(e) } else if let r = item.as(ReturnStmtSyntax.self), let e = r.expression { returns = sym(e) }
        }
        facts.functions.append(FuncFact(key: key, name: name, owner: currentType, params: ps, returns: returns, isPublic: isPublic(modifiers) || publicTypeContext, calledFromOutside: outside, line: line(node)))
    }

    /// Per enclosing type: declared in a `public extension`.
    private var publicContext: [Bool] = []
    private var publicTypeContext: Bool { publicContext.last ?? false }

    private func leaveFunction() {
        functions.removeLast()
        builderFrames.removeLast()
        owners.removeLast()
        scopes.removeLast()
    }

    /// Type-level properties being visited (a construction inside `bundledPlugins`).
    private var propertyNames: [String] = []
    override func visitPost(_ node: VariableDeclSyntax) {
        if scopes.isEmpty, node.bindings.count == 1, node.bindings.first?.pattern.as(IdentifierPatternSyntax.self) != nil { propertyNames.removeLast() }
    }

    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        if scopes.isEmpty, node.bindings.count == 1, let n = node.bindings.first?.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
            propertyNames.append(n.trimmingBackticks)
        }
        let pub = isPublic(node.modifiers)
        for b in node.bindings {
            guard let name = b.pattern.as(IdentifierPatternSyntax.self)?.identifier.text.trimmingBackticks else { continue }
            // `let login: LoginBoard = container.resolve()`: an instance of the declared type.
            let annotated = b.typeAnnotation.map { baseName($0.type.trimmedDescription.replacingOccurrences(of: "?", with: "").replacingOccurrences(of: "!", with: "")) }
            if let value = b.initializer?.value {
                var s = sym(value)
                if let t = annotated, t.first?.isUppercase == true, let c = value.as(FunctionCallExprSyntax.self),
                   Self.calleeName(c).first?.isLowercase == true {
                    s = .call(.name(t), [])
                }
                if !scopes.isEmpty {
                    scopes[scopes.count - 1][name] = s
                } else {
                    facts.constants.append(ConstFact(name: name, owner: currentType, value: s, isPublic: pub, line: line(b)))
                }
            } else if b.accessorBlock == nil, scopes.isEmpty, let t = annotated, let owner = currentType {
                facts.storedTypes[owner + "." + name] = t
            } else if let acc = b.accessorBlock, scopes.isEmpty {
                var items: CodeBlockItemListSyntax?
                switch acc.accessors {
                case .getter(let list): items = list
                case .accessors(let list): items = list.first(where: { $0.accessorSpecifier.text == "get" })?.body?.statements
                }
                guard let items, items.count == 1, let item = items.first?.item else { continue }
                var expr: ExprSyntax?
                if let e = item.as(ExprSyntax.self) { expr = e } else if let r = item.as(ReturnStmtSyntax.self) { expr = r.expression } else if let s = item.as(ExpressionStmtSyntax.self) { expr = s.expression }
                if let sw = expr?.as(SwitchExprSyntax.self) ?? item.as(ExpressionStmtSyntax.self)?.expression.as(SwitchExprSyntax.self) {
                    facts.properties.append(PropFact(name: name, owner: currentType, value: nil, cases: switchTable(sw), isPublic: pub, line: line(b), type: annotated))
                } else if let expr {
                    facts.properties.append(PropFact(name: name, owner: currentType, value: sym(expr), cases: [], isPublic: pub, line: line(b), type: annotated))
                }
            }
        }
        return .visitChildren
    }

    /// `switch self { case .a, .b(let x): value }` as a table.
    private func switchTable(_ sw: SwitchExprSyntax) -> [(names: [String], bindings: [String], value: Sym)] {
        var out: [(names: [String], bindings: [String], value: Sym)] = []
        for c in sw.cases {
            guard let sc = c.as(SwitchCaseSyntax.self) else { continue }
            let (names, bindings) = caseNames(sc)
            guard sc.statements.count == 1, let item = sc.statements.first?.item else { continue }
            var e: ExprSyntax?
            if let x = item.as(ExprSyntax.self) { e = x } else if let r = item.as(ReturnStmtSyntax.self) { e = r.expression }
            if let e { out.append((names, bindings, sym(e))) }
        }
        return out
    }

    /// The case names of a `case` label (`default` for `default:`) and the names its patterns bind.
    private func caseNames(_ sc: SwitchCaseSyntax) -> ([String], [String]) {
        guard case .case(let label) = sc.label else { return (["default:"], []) }
        var names: [String] = []
        var bindings: [String] = []
        for item in label.caseItems {
            var p = item.pattern.as(ExpressionPatternSyntax.self)?.expression
            if let call = p?.as(FunctionCallExprSyntax.self) {
                for a in call.arguments {
                    if let b = a.expression.as(PatternExprSyntax.self)?.pattern.as(ValueBindingPatternSyntax.self)?.pattern.as(IdentifierPatternSyntax.self) {
                        bindings.append(b.identifier.text)
                    } else if let b = a.expression.as(PatternExprSyntax.self)?.pattern.as(IdentifierPatternSyntax.self) {
                        bindings.append(b.identifier.text)
                    }
                }
                p = call.calledExpression
            }
            if let m = p?.as(MemberAccessExprSyntax.self) { names.append(m.declName.baseName.text.trimmingBackticks) }
            if let vb = item.pattern.as(ValueBindingPatternSyntax.self), let call = vb.pattern.as(ExpressionPatternSyntax.self)?.expression.as(FunctionCallExprSyntax.self) {
                if let m = call.calledExpression.as(MemberAccessExprSyntax.self) { names.append(m.declName.baseName.text.trimmingBackticks) }
                for a in call.arguments { if let b = a.expression.as(PatternExprSyntax.self)?.pattern.as(IdentifierPatternSyntax.self) { bindings.append(b.identifier.text) } }
            }
        }
        return (names, bindings)
    }

    // MARK: Switches and `if case`

    override func visit(_ node: SwitchCaseSyntax) -> SyntaxVisitorContinueKind {
        let subject = node.parent?.parent?.as(SwitchExprSyntax.self)?.subject.trimmedDescription ?? ""
        let (names, _) = caseNames(node)
        caseStack.append((subject, names))
        // A custom producer's `produceBoard(identifier:)` switching over the id: each case
        // registers the ids its patterns name, made by the case's code.
        if let f = functions.last, f.name == "produceBoard", f.params.contains(subject), case .case(let label) = node.label {
            let key = Owner.maker("K:\(facts.path):" + place(Syntax(node)))
            for item in label.caseItems {
                guard let e = item.pattern.as(ExpressionPatternSyntax.self)?.expression else { continue }
                facts.registrations.append(RegFact(id: sym(e), maker: key, owners: chain, serviceCases: nil, line: line(item)))
            }
            owners.append(key)
            producerCases.insert(node.id)
        }
        // A handler switching over its output: the code in each case runs for that case.
        if var h = handlers.last, h.outputCase == nil, let param = handlerOutputParams.last, subject == param {
            h.outputCase = names.first(where: { $0 != "default:" })
            if names.first != "default:" {
                facts.calls[h.handlerFact].cases += names
            }
            handlers.append(h)
            handlerCasePushed.insert(node.id)
        }
        return .visitChildren
    }
    override func visitPost(_ node: SwitchCaseSyntax) {
        caseStack.removeLast()
        if producerCases.remove(node.id) != nil { owners.removeLast() }
        if handlerCasePushed.remove(node.id) != nil { handlers.removeLast() }
    }
    private var producerCases: Set<SyntaxIdentifier> = []
    private var handlerCasePushed: Set<SyntaxIdentifier> = []
    private var handlerOutputParams: [String] = []

    override func visit(_ node: IfExprSyntax) -> SyntaxVisitorContinueKind {
        guard handlers.last != nil, let param = handlerOutputParams.last else { return .visitChildren }
        for c in node.conditions {
            if case .matchingPattern(let m) = c.condition, m.initializer.value.trimmedDescription == param {
                var p = m.pattern.as(ExpressionPatternSyntax.self)?.expression
                if let call = p?.as(FunctionCallExprSyntax.self) { p = call.calledExpression }
                if let name = p?.as(MemberAccessExprSyntax.self)?.declName.baseName.text { blockCases[node.body.id] = name }
            }
        }
        return .visitChildren
    }

    override func visit(_ node: CodeBlockSyntax) -> SyntaxVisitorContinueKind {
        if let name = blockCases.removeValue(forKey: node.id), var h = handlers.last {
            h.outputCase = name
            facts.calls[h.handlerFact].cases.append(name)
            handlers.append(h)
            pushedBlocks.insert(node.id)
        }
        return .visitChildren
    }
    override func visitPost(_ node: CodeBlockSyntax) {
        if pushedBlocks.remove(node.id) != nil { handlers.removeLast() }
    }

    // `guard let target = pendingTarget` / `if let x = y`: the name stands for the value.
    override func visit(_ node: OptionalBindingConditionSyntax) -> SyntaxVisitorContinueKind {
        if !scopes.isEmpty, let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, let value = node.initializer?.value {
            scopes[scopes.count - 1][name] = sym(value)
        }
        return .visitChildren
    }

    // `x = value` / `self.x = value` in a type's code: the stored property `x` may hold `value`.
    override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
        let els = Array(node.elements)
        guard els.count == 3, els[1].is(AssignmentExprSyntax.self), let type = currentType, !functions.isEmpty else { return .visitChildren }
        var name: String?
        if let r = els[0].as(DeclReferenceExprSyntax.self) {
            let n = r.baseName.text
            if !scopes.contains(where: { $0[n] != nil }), !(functions.last?.params.contains(n) ?? false), !closureParams.contains(where: { $0.contains(n) }) { name = n }
        } else if let m = els[0].as(MemberAccessExprSyntax.self), m.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "self" {
            name = m.declName.baseName.text
        }
        if let name { facts.assignments.append(AssignFact(owner: type, name: name, value: sym(els[2]), owners: chain, line: line(node))) }
        return .visitChildren
    }

    // `for id in [a, b]`: the loop variable is each element.
    override func visit(_ node: ForStmtSyntax) -> SyntaxVisitorContinueKind {
        scopes.append([:])
        if let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, let array = node.sequence.as(ArrayExprSyntax.self) {
            scopes[scopes.count - 1][name] = .oneOf(array.elements.map { sym($0.expression) })
        }
        return .visitChildren
    }
    override func visitPost(_ node: ForStmtSyntax) { scopes.removeLast() }

    // MARK: Closures

    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
        var params: [String] = []
        var types: [String?] = []
        switch node.signature?.parameterClause {
        case .simpleInput(let list)?: params = list.map(\.name.text); types = params.map { _ in nil }
        case .parameterClause(let clause)?:
            params = clause.parameters.map { ($0.secondName ?? $0.firstName).text }
            types = clause.parameters.map { $0.type?.trimmedDescription }
        case nil: break
        }
        closureParams.append(Set(params))
        scopes.append([:])
        switch closureRoles.removeValue(forKey: node.id) {
        case .maker(let key)?: owners.append(key); pushed.append(1)
        case .handler(var h)?:
            if h.sources.isEmpty && h.matchType == nil, let t = types.last ?? nil { h.matchType = baseName(t) }
            if h.sources.isEmpty, facts.calls[h.handlerFact].matchType == nil { facts.calls[h.handlerFact].matchType = h.matchType }
            handlers.append(h)
            handlerOutputParams.append(params.last ?? "$1")
            pushed.append(2)
        case .gatewayActivation(let def)?: gatewayGates.append(def); pushed.append(3)
        case .gatewayFlows?: gatewayFlowsDepth += 1; pushed.append(4)
        case .builder?: pushed.append(0); builderFrames.append(true); return .visitChildren
        case nil: pushed.append(0)
        }
        builderFrames.append(false)
        return .visitChildren
    }
    private var pushed: [Int] = []
    override func visitPost(_ node: ClosureExprSyntax) {
        closureParams.removeLast()
        builderFrames.removeLast()
        scopes.removeLast()
        switch pushed.removeLast() {
        case 1: owners.removeLast()
        case 2: handlers.removeLast(); handlerOutputParams.removeLast()
        case 3: gatewayGates.removeLast()
        case 4: gatewayFlowsDepth -= 1
        default: break
        }
    }

    // MARK: Calls

    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
        facts.referenced.insert(node.baseName.text)
        return .visitChildren
    }

    override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
        facts.referenced.insert(node.declName.baseName.text)
        // `P.bundledPlugins`: the qualified name too (a plugin whose list nothing installs is not the app's).
        if let base = node.base?.as(DeclReferenceExprSyntax.self)?.baseName.text, base.first?.isUppercase == true {
            facts.referenced.insert(base + "." + node.declName.baseName.text.trimmingBackticks)
        }
        return .visitChildren
    }

    /// The closures handed to a call: its trailing closures and closure arguments.
    private func closures(of node: FunctionCallExprSyntax, labels: Set<String>? = nil) -> [ClosureExprSyntax] {
        var out: [ClosureExprSyntax] = []
        for a in node.arguments {
            if let c = a.expression.as(ClosureExprSyntax.self), labels == nil || labels!.contains(a.label?.text ?? "") { out.append(c) }
        }
        if let t = node.trailingClosure { out.append(t) }
        for t in node.additionalTrailingClosures where labels == nil || labels!.contains(t.label.text) { out.append(t.closure) }
        return out
    }

    private func record(_ kind: CallFact.Kind, target: Sym?, node: some SyntaxProtocol) -> Int {
        var h = handlers.last
        if gatewayFlowsDepth > 0 { h = nil }
        if case .activate = kind, let def = gatewayGates.last {
            facts.calls.append(CallFact(kind: .gatewayGate(def: def), target: target, owners: chain, handler: nil, serviceCases: serviceCases, cases: [], inGatewayFlows: false, line: line(node)))
            return facts.calls.count - 1
        }
        facts.calls.append(CallFact(kind: kind, target: target, owners: chain, handler: h, serviceCases: serviceCases, cases: [], inGatewayFlows: gatewayFlowsDepth > 0, line: line(node), column: column(node)))
        return facts.calls.count - 1
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        let callee = node.calledExpression
        let member = callee.as(MemberAccessExprSyntax.self)
        let name = member?.declName.baseName.text ?? callee.as(DeclReferenceExprSyntax.self)?.baseName.text
            ?? callee.as(GenericSpecializationExprSyntax.self)?.expression.trimmedDescription ?? ""
        let baseMember = member?.base?.as(MemberAccessExprSyntax.self)?.declName.baseName.text
        let destination = member?.base?.as(MemberAccessExprSyntax.self)?.base.map { sym($0) }
        let args = node.arguments.map { SymArg(label: $0.label?.text, value: sym($0.expression)) }
        // A chained call's line is its name's (`.install(…)` on its own line), not the chain's start.
        let at: Syntax = member.map { Syntax($0.declName) } ?? Syntax(node)

        switch name {
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
        case "registerFlowSteps":
            for a in node.arguments {
                let parts = steps(a.expression)
                if parts.count > 1 { _ = record(.steps(parts), target: nil, node: at) }
            }
        case "broadcastAction", "sendFlowAction", "sendAction":
            var type: String?
            if let a = node.arguments.first?.expression {
                if let m = a.as(MemberAccessExprSyntax.self), let b = m.base { type = baseName(b.trimmedDescription) }
                if let c = a.as(FunctionCallExprSyntax.self) {
                    if let m = c.calledExpression.as(MemberAccessExprSyntax.self), let b = m.base { type = baseName(b.trimmedDescription) } else { type = baseName(c.calledExpression.trimmedDescription) }
                }
            }
            _ = record(.broadcast(type), target: args.first?.value, node: at)
        case "complete" where member == nil || node.arguments.count <= 1:
            _ = record(.complete, target: nil, node: at)
        case "sendOutput", "sendToMotherboard":
            _ = record(.sendOutput, target: nil, node: at)
        case "nextToBoard", "continueBoard", "activateBoard":
            if let first = args.first { _ = record(.activate, target: .call(.name("__input"), [first]), node: at) }
        case "install":
            guard let first = node.arguments.first, first.label?.text == "gatewayBarrier" else { break }
            let g = first.expression
            let text = g.trimmedDescription
            let exempt = text == ".exempt" || text.hasSuffix(".exempt")
            let forID = node.arguments.first(where: { $0.label?.text == "for" }).map { sym($0.expression) }
            var def: Int?
            if let tok = g.tokens(viewMode: .sourceAccurate).first(where: { $0.text == "registerWithActivation" }) { def = line(tok) }
            _ = record(.gatewayInstall(exempt: exempt, forID: forID, def: def), target: nil, node: at)
        case "registerWithActivation":
            let def = member.map { line($0.declName) } ?? line(node)
            for c in closures(of: node) { closureRoles[c.id] = .gatewayActivation(def) }
        case "withFlowRegistration":
            for c in closures(of: node) { closureRoles[c.id] = .gatewayFlows }
        case "BoardRegistration":
            if let id = args.first?.value {
                let cs = closures(of: node)
                let key = Owner.maker("C:\(facts.path):" + place(cs.first.map { Syntax($0) } ?? Syntax(node)))
                facts.registrations.append(RegFact(id: id, maker: key, owners: chain, serviceCases: serviceCases, line: line(node), inner: true))
                if let c = cs.first { closureRoles[c.id] = .maker(key) } else if args.count > 1 {
                    facts.makes.append(MakeFact(owner: key, callee: args[1].value, serviceCases: serviceCases, line: line(node)))
                }
            }
        case "registerBoard":
            // Without a closure, a registration forwarded from a BoardRegistration (already counted).
            if let id = args.first(where: { $0.label == nil })?.value, !closures(of: node).isEmpty {
                let cs = closures(of: node)
                let key = Owner.maker("C:\(facts.path):" + place(cs.first.map { Syntax($0) } ?? Syntax(node)))
                facts.registrations.append(RegFact(id: id, maker: key, owners: chain, serviceCases: serviceCases, line: line(node), inner: !Self.isMainProducer(member?.base.map { sym($0) })))
                if let c = cs.first { closureRoles[c.id] = .maker(key) }
            }
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
        if name == "registerBoard", closures(of: node).isEmpty, let first = node.arguments.first, first.label == nil,
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
        if Self.builderCalls.contains(name) || node.arguments.contains(where: { $0.label?.text == "registrationsBuilder" }) {
            for c in closures(of: node) where closureRoles[c.id] == nil { closureRoles[c.id] = .builder }
        }

        // Constructions and factory calls: what makers make.
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
        return .visitChildren
    }

    private static let handlerBases: Set<String> = ["flow", "completion", "action", "flowAction"]

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

    // A bare board statement in a registration builder installs it (every board is a
    // `BoardRegistrationsConvertible`).
    override func visit(_ node: CodeBlockItemSyntax) -> SyntaxVisitorContinueKind {
        guard builderFrames.last == true, let c = node.item.as(ExprSyntax.self)?.as(FunctionCallExprSyntax.self) ?? node.item.as(ExpressionStmtSyntax.self)?.expression.as(FunctionCallExprSyntax.self)
        else { return .visitChildren }
        let n = Self.calleeName(c)
        if n.first?.isUppercase == true, n != "BoardRegistration" {
            facts.instances.append(InstanceFact(board: sym(ExprSyntax(c)), how: .built, owners: chain, serviceCases: serviceCases, line: line(c)))
        }
        return .visitChildren
    }

    private static func idLike(_ s: Sym) -> Bool {
        switch s {
        case .str, .param: return true
        case .member(let b, _): return b == nil || (b.map(idLike) ?? false) || (b.map { if case .name(let n) = $0 { n.first?.isUppercase ?? false } else { false } } ?? false)
        case .call(let c, let a): return idLike(c) || a.contains { idLike($0.value) }
        default: return false
        }
    }

    private func assignHandler(_ node: FunctionCallExprSyntax, _ h: HandlerCtx) {
        for c in closures(of: node, labels: ["", "action", "handler", "nextHandler", "flowHandler"]) { closureRoles[c.id] = .handler(h) }
    }

    /// `a ->> b ->> c` as its parts (the parser leaves operators unfolded).
    private func steps(_ e: ExprSyntax) -> [Sym] {
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

    // MARK: Expressions → Sym

    func sym(_ e: ExprSyntax) -> Sym {
        if let s = e.as(StringLiteralExprSyntax.self) {
            var parts: [StrPart] = []
            for seg in s.segments {
                if let t = seg.as(StringSegmentSyntax.self) { parts.append(.text(t.content.text)) } else if let x = seg.as(ExpressionSegmentSyntax.self), let first = x.expressions.first {
                    parts.append(.expr(sym(first.expression)))
                }
            }
            return .str(parts)
        }
        if let r = e.as(DeclReferenceExprSyntax.self) {
            let n = r.baseName.text
            if closureParams.last?.contains(n) == true { return .name(n) }
            for scope in scopes.reversed() {
                if let s = scope[n] {
                    return s
                }
            }
            if let f = functions.last, let i = f.params.firstIndex(of: n), !(closureParams.contains { $0.contains(n) }) {
                return .param(function: f.key, index: i, name: n)
            }
            return .name(n)
        }
        if let m = e.as(MemberAccessExprSyntax.self) {
            return .member(m.base.map { sym($0) }, m.declName.baseName.text.trimmingBackticks)
        }
        if let c = e.as(FunctionCallExprSyntax.self) {
            return .call(sym(c.calledExpression), c.arguments.map { SymArg(label: $0.label?.text, value: sym($0.expression)) })
        }
        if let o = e.as(OptionalChainingExprSyntax.self) { return sym(o.expression) }
        if let o = e.as(ForceUnwrapExprSyntax.self) { return sym(o.expression) }
        if let g = e.as(GenericSpecializationExprSyntax.self) { return sym(g.expression) }
        if let t = e.as(TupleExprSyntax.self), t.elements.count == 1, let only = t.elements.first { return sym(only.expression) }
        if let t = e.as(TryExprSyntax.self) { return sym(t.expression) }
        if let a = e.as(AwaitExprSyntax.self) { return sym(a.expression) }
        if let a = e.as(AsExprSyntax.self) { return sym(a.expression) }
        if e.is(SuperExprSyntax.self) { return .name("super") }
        return .other(String(e.trimmedDescription.prefix(60)))
    }
}

/// The name of a type without generic arguments or module (`Boardy.TaskBoard<A, B>` → `TaskBoard`).
func baseName(_ type: String) -> String {
    var t = Substring(type)
    if let i = t.firstIndex(of: "<") { t = t[..<i] }
    if let i = t.lastIndex(of: ".") { t = t[t.index(after: i)...] }
    return t.trimmingCharacters(in: .whitespaces).trimmingBackticks
}

extension StringProtocol {
    var trimmingBackticks: String { String(self).replacingOccurrences(of: "`", with: "") }
    func replacingSuffix(_ s: String) -> String { hasSuffix(s) ? String(dropLast(s.count)) : String(self) }
}

import Foundation
