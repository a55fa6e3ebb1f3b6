import BoardyTrace

/// What one Swift file says that the import needs, extracted in one pass over its syntax tree and
/// kept instead of the tree: the tree is dropped as soon as the file is read, so memory follows
/// the model, not the sources.

/// A symbolic value: what an expression in the app's source denotes, as far as the import follows
/// it. Ids, destinations and makers are all expressions of this small language.
indirect enum Sym: Hashable, Sendable {
    /// A string literal; interpolated parts are expressions.
    case str([StrPart])
    /// An identifier (`pubLogin`, `self`, `BoardID`), after local `let`s were substituted.
    case name(String)
    /// A member access; base nil for an implicit member (`.pubLogin`).
    case member(Sym?, String)
    /// A call (trailing closures dropped).
    case call(Sym, [SymArg])
    /// A parameter of the function `function` (its key), at `index`: resolved through its callers.
    case param(function: String, index: Int, name: String)
    /// Any of these (a loop variable over a literal array).
    case oneOf([Sym])
    /// Anything not followed, with its text (shortened) for messages.
    case other(String)

    /// The source-like text, for messages.
    var text: String {
        switch self {
        case .str(let parts): return "\"" + parts.map { if case .text(let t) = $0 { t } else if case .expr(let e) = $0 { "\\(\(e.text))" } else { "" } }.joined() + "\""
        case .name(let n): return n
        case .member(let b, let n): return (b?.text ?? "") + "." + n
        case .call(let c, let args): return c.text + "(" + args.map { ($0.label.map { $0 + ": " } ?? "") + $0.value.text }.joined(separator: ", ") + ")"
        case .param(_, _, let n): return n
        case .oneOf(let xs): return "[" + xs.map(\.text).joined(separator: ", ") + "]"
        case .other(let t): return t
        }
    }

    /// The last name of a member chain or a name (`ioLogin` of `motherboard.ioLogin`).
    var lastName: String? {
        switch self {
        case .name(let n), .member(_, let n): return n
        case .call(let c, _): return c.lastName
        default: return nil
        }
    }
}

/// Part of a string literal.
enum StrPart: Hashable, Sendable {
    case text(String)
    case expr(Sym)
}

/// A call argument.
struct SymArg: Hashable, Sendable {
    var label: String?
    var value: Sym
}

/// A `static let`/`let` constant (ids, prefixes) or a plain stored default.
struct ConstFact: Sendable {
    var name: String
    /// The type it is declared in (`BoardID` for `extension BoardID`), nil at file level.
    var owner: String?
    var value: Sym
    var isPublic: Bool
    var line: Int
}

/// A function (or initializer) declaration.
struct FuncFact: Sendable {
    /// `Type.name` or `name`.
    var key: String
    var name: String
    var owner: String?
    /// Parameter labels (`_` for none), names and default values.
    var params: [(label: String, name: String, type: String, defaultValue: Sym?)]
    /// The expression it returns when its body is one expression (or one `return`).
    var returns: Sym?
    var isPublic: Bool
    /// Declared in an extension that adds a conformance, or with `override`/`@objc`: called by
    /// something we do not see.
    var calledFromOutside: Bool
    var line: Int
}

/// A computed property with a one-expression body, or a `switch self` over cases.
struct PropFact: Sendable {
    var name: String
    var owner: String?
    var value: Sym?
    /// `switch self { case .a, .b(let x): expr }`: case names, bound names, expression.
    var cases: [(names: [String], bindings: [String], value: Sym)]
    var isPublic: Bool
    var line: Int
    /// Its declared type (`var payment: PaymentServiceMap { link() }`): tells apart members of the
    /// same name on different types (every module's service map has a `default`).
    var type: String?
}

/// What a type declaration is.
enum DeclKind: String, Sendable {
    case `class`, `struct`, `enum`, `extension`, actor
}

/// A type declaration or extension.
struct TypeFact: Sendable {
    var name: String
    var kind: DeclKind
    var inherits: [String]
    /// The app delegate, a scene delegate or `@main`: its activations start the app.
    var isEntry: Bool
    var cases: [String]
    /// `typealias OutputType = X` / `FlowActionType = X` inside it.
    var aliases: [String: String]
    var line: Int
}

/// Who holds a piece of code. Types and functions carry the module of the file they are written
/// in (the resolver maps it to the module that declares the type): two modules may each have a
/// `RootBoard`, and each one's code runs as its own module's boards.
enum Owner: Hashable, Sendable {
    /// A type's code (its declaration or an extension).
    case type(String, module: String?)
    /// A function's or initializer's code, by its key (`F:Type.name`, as in ``Sym/param(function:index:name:)``).
    case function(String, module: String?)
    /// A registration's maker closure or a custom producer's `case`, by its place
    /// (`C:file:line:column`, `K:file:line:column`).
    case maker(String)

    /// The type's name, for a type.
    var typeName: String? { if case .type(let t, _) = self { t } else { nil } }
    /// The function's key, for a function.
    var functionKey: String? { if case .function(let k, _) = self { k } else { nil } }
    /// The name a message gives it (`LoginBoard`, `LoginBoard.didLogin`).
    var shown: String {
        switch self {
        case .type(let t, _): return t
        case .function(let k, _): return String(k.dropFirst(2))
        case .maker(let k): return k
        }
    }
}

/// Who holds a piece of code: types, functions, properties and maker closures, innermost first.
typealias OwnerChain = [Owner]

/// A registration: a board id put in a producer (or a plugin's build, or a producer's switch).
struct RegFact: Sendable {
    var id: Sym
    /// The code that makes the board (the closure, case or function).
    var maker: Owner
    /// Where the registration is written.
    var owners: OwnerChain
    /// Enclosing `switch service` case names, in a plugin.
    var serviceCases: [String]?
    var line: Int
    /// Put in an inner producer (a `BoardRegistration`, or `registerBoard` on a producer other
    /// than the main component's): in a plugin, its board lives under the plugin's own board.
    var inner = false
}

/// A construction (`XBoard(...)`, `TaskBoard<…>(…)`, `XFactory.make(…)`) inside some code.
struct MakeFact: Sendable {
    var owner: Owner
    var callee: Sym
    var serviceCases: [String]?
    var line: Int
}

/// A flow handler's context: whose outputs it handles.
struct HandlerCtx: Hashable, Sendable {
    /// Handled boards' destinations or ids; empty for a general (type-matched) handler.
    var sources: [Sym]
    /// For general handlers: the output or action type matched.
    var matchType: String?
    /// The output case matched where the code is (a `switch`/`if case` on the output).
    var outputCase: String?
    /// The handler's own fact index (for the flow edge), set when recorded.
    var handlerFact: Int
}

/// A call that may make an edge (or a gateway, or a completion).
struct CallFact: Sendable {
    enum Kind: Hashable, Sendable {
        case activate, barrier, flowHandler, flowBind, steps([Sym]), broadcast(String?), complete, sendOutput
        case gatewayInstall(exempt: Bool, forID: Sym?, def: Int?)
        case gatewayGate(def: Int)
    }
    var kind: Kind
    var target: Sym?
    var owners: OwnerChain
    var handler: HandlerCtx?
    var serviceCases: [String]?
    /// Output cases the handler's body matches (for `flowHandler`).
    var cases: [String]
    /// For general handlers registered with no identifiers: the matched type.
    var matchType: String?
    /// Inside a gateway's `withFlowRegistration` (the proxy's own flows: no edges).
    var inGatewayFlows: Bool
    var line: Int
    var column = 1
}

/// A call to a user function with arguments (for resolving parameters through callers).
struct UserCallFact: Sendable {
    var name: String
    var args: [SymArg]
    var owners: OwnerChain
    var handler: HandlerCtx?
    var line: Int
}

/// A stored property set in a type's code (`pendingTarget = input`): the property's value is
/// whatever is assigned to it, wherever that is.
struct AssignFact: Sendable {
    /// The type whose property it is.
    var owner: String
    var name: String
    var value: Sym
    /// The code that assigns it (its parameters resolve there).
    var owners: OwnerChain
    var line: Int
}

/// A board instance installed somewhere: an element of `Motherboard(boards:)`, `extended(boards:)`,
/// `UIMotherboard(uiboards:)`, `installBoard(_:)`, a `registerBoard(_:)` autoclosure, a bare board
/// in a registration builder, or a board the code activates directly (`rootBoard.activate()`).
struct InstanceFact: Sendable {
    enum How: String, Sendable {
        case installed, built, activatedDirectly
    }
    /// The board expression (a construction, or a name bound to one).
    var board: Sym
    var how: How
    var owners: OwnerChain
    var serviceCases: [String]?
    var line: Int
}

/// `super.init(identifier: x)` (or `self.init`) in a class's initializer: the id the class
/// fixes for every instance.
struct FixedIDFact: Sendable {
    /// The class.
    var type: String
    /// The initializer's key (its parameters bind the id's names).
    var initKey: String
    var id: Sym
    var line: Int
}

/// A construction with arguments (`ProductListBoard(identifier: id, accountID: ids.account)`):
/// the values an initializer's parameters take, and the members a made value has.
struct InitCallFact: Sendable {
    var type: String
    var args: [SymArg]
    var owners: OwnerChain
    var line: Int
}

/// Everything the import keeps of one file.
struct FileFacts: Sendable {
    var path: String
    var module: String?
    var constants: [ConstFact] = []
    var functions: [FuncFact] = []
    var properties: [PropFact] = []
    var types: [TypeFact] = []
    var typealiases: [String: String] = [:]
    var registrations: [RegFact] = []
    var makes: [MakeFact] = []
    var calls: [CallFact] = []
    var userCalls: [UserCallFact] = []
    var assignments: [AssignFact] = []
    var instances: [InstanceFact] = []
    var initCalls: [InitCallFact] = []
    var fixedIDs: [FixedIDFact] = []
    /// Stored properties declared with a type and no value (`@LazyInjected var login: LoginBoard`),
    /// by `Type.name`: an injected instance of that type.
    var storedTypes: [String: String] = [:]
    /// Types constructed in the code of each owner key (a board made by the app delegate).
    var constructedIn: [Owner: Set<String>] = [:]
    /// Plugin constructions (`P(service: .x)`), by type name.
    var constructions: [(type: String, args: [SymArg], line: Int, inProperty: String?)] = []
    /// Every name the file refers to (to tell unused functions).
    var referenced: Set<String> = []
    /// Who calls what: a function's name → the chains of code that call it (to run a helper's
    /// activations on behalf of the boards that call it).
    var calledFrom: [String: Set<OwnerChain>] = [:]
    var warnings: [ImportWarning] = []
}
