// Extractor: places, the type and function context stacks, switch cases, and expressions read as Sym.

import SwiftSyntax

extension Extractor {
    // MARK: Places

    /// The first node under `node` (depth first) that did not parse: unexpected or missing.
    static func firstError(in node: Syntax) -> Syntax? {
        if node.is(UnexpectedNodesSyntax.self) || (node.as(TokenSyntax.self)?.presence == .missing) { return node }
        guard node.hasError else { return nil }
        for child in node.children(viewMode: .all) { if let e = firstError(in: child) { return e } }
        return nil
    }

    /// The line `node` starts on (after its leading trivia).
    func line(_ node: some SyntaxProtocol) -> Int {
        converter.location(for: node.positionAfterSkippingLeadingTrivia).line
    }

    /// The column `node` starts at (after its leading trivia).
    func column(_ node: some SyntaxProtocol) -> Int {
        converter.location(for: node.positionAfterSkippingLeadingTrivia).column
    }

    /// `line:column`: two closures on one line are two makers.
    func place(_ node: Syntax) -> String {
        let l = converter.location(for: node.positionAfterSkippingLeadingTrivia)
        return "\(l.line):\(l.column)"
    }

    // MARK: The context stacks

    /// The types an inheritance clause names, as written.
    func inherited(_ clause: InheritanceClauseSyntax?) -> [String] {
        clause?.inheritedTypes.map { $0.type.trimmedDescription } ?? []
    }

    /// Whether the modifiers make a declaration `public` or `open`.
    func isPublic(_ modifiers: DeclModifierListSyntax) -> Bool {
        modifiers.contains { $0.name.text == "public" || $0.name.text == "open" }
    }

    /// Enters a type (or an extension): its fact, named with its parents, and its context.
    func pushType(_ name: String, kind: DeclKind, inherits: [String], attributes: AttributeListSyntax?, node: some SyntaxProtocol, cases: [String] = []) {
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

    /// Leaves the type entered last.
    func popType() {
        typeNames.removeLast()
        typeInherits.removeLast()
        publicContext.removeLast()
        owners.removeLast()
    }

    /// Whether a type inheriting `inherits` is a module plugin.
    func isPlugin(_ inherits: [String]) -> Bool {
        inherits.contains { ["ModulePlugin", "ModuleBuilderPlugin"].contains(baseName($0)) }
    }

    /// Enters a function (or an initializer): its fact, and its context (owner, scope, builder).
    func enterFunction(key: String, name: String, params: FunctionParameterListSyntax, node: some SyntaxProtocol, modifiers: DeclModifierListSyntax, attributes: AttributeListSyntax, body: CodeBlockSyntax?) {
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

    /// Leaves the function entered last.
    func leaveFunction() {
        functions.removeLast()
        builderFrames.removeLast()
        owners.removeLast()
        scopes.removeLast()
    }

    // MARK: Switch cases

    /// `switch self { case .a, .b(let x): value }` as a table.
    func switchTable(_ sw: SwitchExprSyntax) -> [(names: [String], bindings: [String], value: Sym)] {
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
    func caseNames(_ sc: SwitchCaseSyntax) -> ([String], [String]) {
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
