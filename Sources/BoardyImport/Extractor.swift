import BoardyTrace
import SwiftParser
import SwiftSyntax

/// Reads one file's syntax tree into ``FileFacts``: declarations (ids, IO helpers, board
/// classes), registrations and the calls that make edges, each with the chain of code that holds
/// it. A syntax visitor keeps the context (type, function, handler closure, `switch` case) on
/// stacks as it walks.
final class Extractor: SyntaxVisitor {
    var facts: FileFacts
    let converter: SourceLocationConverter

    /// What a closure is, decided by the call it is handed to.
    enum ClosureRole {
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
    var builderFrames: [Bool] = []
    static let builderCalls: Set<String> = ["Motherboard", "BoardProducer", "ComposableMotherboard", "FlowMotherboard", "UIMotherboard"]
    /// The receivers (`flow.addTarget`, `completion.handle`, …) whose handlers are flow handlers.
    static let handlerBases: Set<String> = ["flow", "completion", "action", "flowAction"]

    var closureRoles: [SyntaxIdentifier: ClosureRole] = [:]
    var owners: [Owner] = []
    var typeNames: [String] = []
    /// Per enclosing type: its inheritance (for plugin and board detection).
    var typeInherits: [[String]] = []
    /// Functions: key, name, parameter names.
    var functions: [(key: String, name: String, params: [String])] = []
    /// Local `let`/`var` bindings per function or closure scope.
    var scopes: [[String: Sym]] = []
    /// Closure parameter names per closure.
    var closureParams: [Set<String>] = []
    var handlers: [HandlerCtx] = []
    var gatewayGates: [Int] = []
    var gatewayFlowsDepth = 0
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

    var chain: OwnerChain { owners.reversed() }
    var currentType: String? { typeNames.last }
    var serviceCases: [String]? {
        caseStack.last(where: { $0.subject == "service" || $0.subject == "self.service" })?.names
    }

    // MARK: Declarations

    override func visit(_ node: IfConfigClauseSyntax) -> SyntaxVisitorContinueKind {
        // `#if false` (and `#if 0`) is commented-out code: no edges.
        if let c = node.condition?.trimmedDescription, c == "false" || c == "0" { return .skipChildren }
        return .visitChildren
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

    /// Per enclosing type: declared in a `public extension`.
    var publicContext: [Bool] = []
    var publicTypeContext: Bool { publicContext.last ?? false }

    /// Type-level properties being visited (a construction inside `bundledPlugins`).
    var propertyNames: [String] = []
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

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        let call = CallSite(node, in: self)
        recordBoardyCall(call)
        recordInstalledBoards(call)
        markBuilderClosures(call)
        recordConstructions(call)
        return .visitChildren
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
