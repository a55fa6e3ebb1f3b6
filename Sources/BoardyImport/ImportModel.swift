import BoardyTrace

/// A board the app registers in a producer it builds.
public struct ImportedBoard: Sendable, Hashable {
    /// The board's id, resolved to its string.
    public var id: String
    /// `board`, `continuous`, `task`, `blockTask`, `resultTask`, `flow` or `barrier`: from the
    /// class it is made of (through subclasses and typealiases) or the ComponentKit factory.
    public var kind: BoardKind
    /// Its module: the target whose sources register it (else the top folder).
    public var module: String?
    /// The continuous board whose inner producer registers it; nil for the main producer.
    public var parent: String?
    /// Where it is registered.
    public var source: CodeLocation
    /// Overrides `shouldBypassGatewayBarrier` to return true (or is a kind that bypasses).
    public var bypassesGateway: Bool
    /// Why it was found: its registration chain, one step a line (`import --explain`).
    public var chain: [String] = []
}

/// A link between two boards, found in the code.
public struct ImportedEdge: Sendable, Hashable {
    /// What the code does.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// `from`'s code (or a handler of `from`'s outputs) activates `to`.
        case activates
        /// `to` handles `from`'s outputs (it registered the handler).
        case flow
        /// `from` is the activation barrier's gate in front of `to`.
        case barrier
        /// `from` is the gateway's gate in front of `to`.
        case gateway
        /// `to` is exempt from the gateway whose gate is `from`.
        case exempt
    }
    /// From (a board id).
    public var from: String
    /// To (a board id).
    public var to: String
    /// What the code does.
    public var kind: Kind
    /// The output case the handler matches, where it matches one.
    public var on: String?
    /// The call that makes it.
    public var source: CodeLocation
    /// How the target was found, when not written at the call (through the only caller, say).
    public var note: String?
    /// For `activates`: made when `from` sends an output (in a handler of its outputs, or a flow
    /// step), not by `from`'s own code.
    public var byOutput = false
    /// How it was found: from the call to its target, one step a line (`import --explain`).
    public var chain: [String] = []
}

/// Something the import could not resolve statically: never guessed, never dropped.
public struct UnresolvedItem: Sendable, Hashable {
    /// What could not be resolved.
    public enum Cause: String, Sendable, Hashable {
        /// A registration's (or an installed instance's) id.
        case registration
        /// An activation's target.
        case target
        /// The board a flow handler handles.
        case handledBoard
        /// A part of a flow step.
        case flowStep
        /// A target no producer of the app registers.
        case unregisteredTarget
        /// An activation in code no board runs.
        case noRunner
        /// A gateway's gate or guarded board.
        case gateway
        /// A board class that fixes its id, made nowhere the import sees.
        case notInstalled
    }

    /// Why, in kind: what the suggested fix is made from.
    public enum Reason: String, Sendable, Hashable {
        /// A value computed at run time.
        case runtimeValue
        /// A name no declaration the import reads gives.
        case noConstant
        /// A name declared with different values.
        case ambiguous
        /// A value defined through more steps than the import follows.
        case tooManySteps
        /// A parameter some caller passes data to.
        case parameter
        /// A board given no id (Boardy gives it a random one).
        case noID
        /// A plugin's `identifier` read where no service case is known.
        case outsidePlugin
        /// The input a board is handed, which no activation hands a `BoardInput`.
        case input
        /// Something else (the words say what).
        case other
    }

    /// Where.
    public var source: CodeLocation
    /// Why.
    public var why: String
    /// What could not be resolved.
    public var cause: Cause
    /// Why, in kind.
    public var reason: Reason
    /// The board ids it concerns, where the import can tell (the ids the names in the expression
    /// stand for): `import --explain ID` lists it under that id.
    public var ids: [String]

    /// An item; `reason` and `ids` when known.
    public init(source: CodeLocation, why: String, cause: Cause, reason: Reason = .runtimeValue, ids: [String] = []) {
        self.source = source
        self.why = why
        self.cause = cause
        self.reason = reason
        self.ids = ids
    }

    /// What a person could change in the code to make it resolvable.
    public var fix: String {
        switch cause {
        case .noRunner:
            return "register the board whose code this is (a BoardRegistration, a producer's case, a plugin's registerBoard, or an instance in Motherboard(boards:)), or call this code from a registered board"
        case .unregisteredTarget: return "register that id in a producer the app installs, or correct its spelling"
        case .notInstalled:
            return "install the board where the import can see it: Motherboard(boards: [\u{2026}]), extended(boards:), installBoard(_:), or a BoardRegistration in a producer the app installs"
        default: break
        }
        switch reason {
        case .input: return "activate the board with BoardInput(target:input:) whose input is a BoardInput built from a constant id"
        case .noConstant: return "declare the id as a constant in a target the import reads (`extension BoardID { static let x: BoardID = \"\u{2026}\" }`)"
        case .ambiguous: return "give each id one declaration (or one helper), so the name means one board"
        case .tooManySteps: return "name the id through fewer steps (a constant, or a helper that returns one)"
        case .noID: return "give the board a fixed id: pass identifier: where it is made, or fix it in its initializer (super.init(identifier: .x))"
        case .outsidePlugin: return "read the service's identifier inside the plugin's switch over its service, where the case is known"
        case .parameter: return "pass a constant id at every call of the function (or give the parameter a default), instead of a value computed at run time"
        case .runtimeValue, .other:
            return "pass a constant id (`.x` declared in `extension BoardID`), or a BoardInput or IO helper built from one, instead of a value computed at run time"
        }
    }
}

/// How much of an app's code the import understood: activation call sites (activations,
/// barriers, gateway gates) resolved where they are written, resolved through callers (a
/// parameter, or the input a board is handed), unresolved, and in code no registration the
/// import resolved reaches (a board class nothing registers as far as it sees, a function
/// nothing calls): those count as not understood.
public struct ImportResolution: Sendable, Hashable {
    /// The module (target); empty for the total.
    public var module: String
    /// Resolved from what is written at the call (constants, helpers, plugins).
    public var direct = 0
    /// Resolved through the function's callers or the inputs the board is handed.
    public var throughCallers = 0
    /// Not resolved (listed in ``ImportedApp/unresolved``).
    public var unresolved = 0
    /// In code no registration reaches (listed in ``ImportedApp/unreached``).
    public var unreached = 0

    /// A module's counts.
    public init(module: String, direct: Int = 0, throughCallers: Int = 0, unresolved: Int = 0, unreached: Int = 0) {
        self.module = module
        self.direct = direct
        self.throughCallers = throughCallers
        self.unresolved = unresolved
        self.unreached = unreached
    }

    /// All call sites counted.
    public var total: Int { direct + throughCallers + unresolved + unreached }

    /// The share resolved (either way), in percent; 100 when there is nothing to resolve.
    public var percentResolved: Double { total == 0 ? 100 : Double(direct + throughCallers) * 100 / Double(total) }

    /// `{"module", "direct", "throughCallers", "unresolved", "unreached", "percentResolved"}`.
    public var json: JSONValue {
        ["module": .string(module), "direct": .int(Int64(direct)), "throughCallers": .int(Int64(throughCallers)),
         "unresolved": .int(Int64(unresolved)), "unreached": .int(Int64(unreached)), "percentResolved": .double((percentResolved * 10).rounded() / 10)]
    }
}

/// An activation call site in code no registration the import resolved reaches: counted as not
/// understood, with the class (or function) it belongs to.
public struct UnreachedSite: Sendable, Hashable {
    /// Where.
    public var source: CodeLocation
    /// The class (or function) whose code it is.
    public var owner: String
    /// Why no registration reaches it.
    public var why: String
}

/// A warning about the sources (a syntax error, a file that is not UTF-8 or too large, a target
/// whose sources are missing): the rest still imports.
public struct ImportWarning: Sendable, Hashable, CustomStringConvertible {
    /// Where.
    public var source: CodeLocation
    /// What.
    public var message: String
    /// `file:line: warning: message`.
    public var description: String { "\(source): warning: \(message)" }
}

/// An activation made by the launcher or the app delegate: where the app starts.
public struct EntryPoint: Sendable, Hashable {
    /// The board activated.
    public var board: String
    /// The call.
    public var source: CodeLocation
}

/// A Boardy app's flow model, read from its sources.
public struct ImportedApp: Sendable {
    /// The app's name (the folder's name).
    public var name: String
    /// Boards, by module, parent and id.
    public var boards: [ImportedBoard]
    /// Edges, by source location.
    public var edges: [ImportedEdge]
    /// Activations that start the app.
    public var entries: [EntryPoint]
    /// What could not be resolved.
    public var unresolved: [UnresolvedItem]
    /// Warnings about the sources.
    public var warnings: [ImportWarning]
    /// Swift files read (in app targets).
    public var filesRead: Int
    /// Swift files skipped (test targets, no target).
    public var filesSkipped: Int
    /// Gates (barrier or gateway) whose code has no reachable `complete` or resolving output.
    public var gatesWithoutCompletion: [ImportedBoard]
    /// Activation call sites resolved and unresolved, per module (by name).
    public var resolution: [ImportResolution] = []
    /// Activation call sites in code no registration the import resolved reaches.
    public var unreached: [UnreachedSite] = []

    /// The share of activation call sites below which `check` says that what it found is on the
    /// understood part only (docs/contract.md §3.1).
    public static let understoodThreshold = 80.0

    /// Whether the import understood too little of the app for a finding-free check to mean
    /// anything: less than ``understoodThreshold`` percent of its activation call sites, or no
    /// board at all (whatever the sources hold, nothing was checked).
    public var understoodTooLittle: Bool {
        totalResolution.percentResolved < Self.understoodThreshold || boards.isEmpty
    }

    /// The counts over every module.
    public var totalResolution: ImportResolution {
        resolution.reduce(into: ImportResolution(module: "")) { t, r in
            t.direct += r.direct
            t.throughCallers += r.throughCallers
            t.unresolved += r.unresolved
            t.unreached += r.unreached
        }
    }

    /// The model as JSON: `{"boards", "edges", "unresolved"}` (docs/contract.md §3.1), plus `entries` and
    /// `warnings`.
    public var json: JSONValue {
        func src(_ s: CodeLocation) -> JSONValue { .string(s.description) }
        let b: [JSONValue] = boards.map { b in
            var o: JSONObject = ["id": .string(b.id), "kind": .string(b.kind.rawValue), "module": b.module.map(JSONValue.string) ?? .null,
                                 "parent": b.parent.map(JSONValue.string) ?? .null, "source": src(b.source)]
            if b.bypassesGateway, !b.kind.bypassesGatewayByDefault { o["bypassGateway"] = true }
            return .object(o)
        }
        let e: [JSONValue] = edges.map { e in
            var o: JSONObject = ["from": .string(e.from), "to": .string(e.to), "kind": .string(e.kind.rawValue)]
            if let on = e.on { o["on"] = .string(on) }
            o["source"] = src(e.source)
            if let n = e.note { o["note"] = .string(n) }
            return .object(o)
        }
        return [
            "boards": .array(b), "edges": .array(e),
            "unresolved": .array(unresolved.map { ["source": src($0.source), "why": .string($0.why), "cause": .string($0.cause.rawValue), "fix": .string($0.fix)] }),
            "unreached": .array(unreached.map { ["source": src($0.source), "owner": .string($0.owner), "why": .string($0.why)] }),
            "entries": .array(entries.map { ["board": .string($0.board), "source": src($0.source)] }),
            "warnings": .array(warnings.map { ["source": src($0.source), "message": .string($0.message)] }),
            "resolution": ["total": totalResolution.json, "modules": .array(resolution.map(\.json))],
        ]
    }
}
