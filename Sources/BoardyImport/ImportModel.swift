import BoardyTrace

/// A place in the app's sources: a path relative to the folder imported, and a 1-based line.
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The file, relative to the imported folder.
    public var file: String
    /// The line (1-based).
    public var line: Int

    /// A location.
    public init(file: String, line: Int) {
        self.file = file
        self.line = line
    }

    /// `file:line`.
    public var description: String { "\(file):\(line)" }

    /// File order, then line order.
    public static func < (a: SourceLocation, b: SourceLocation) -> Bool { (a.file, a.line) < (b.file, b.line) }
}

/// A board the app registers in a producer it builds.
public struct ImportedBoard: Sendable, Hashable {
    /// The board's id, resolved to its string.
    public var id: String
    /// `board`, `continuous`, `task`, `blockTask`, `resultTask`, `flow` or `barrier`: from the
    /// class it is made of (through subclasses and typealiases) or the ComponentKit factory.
    public var kind: String
    /// Its module: the target whose sources register it (else the top folder).
    public var module: String?
    /// The continuous board whose inner producer registers it; nil for the main producer.
    public var parent: String?
    /// Where it is registered.
    public var source: SourceLocation
    /// Overrides `shouldBypassGatewayBarrier` to return true (or is a kind that bypasses).
    public var bypassesGateway: Bool
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
    public var source: SourceLocation
    /// How the target was found, when not written at the call (through the only caller, say).
    public var note: String?
    /// For `activates`: made when `from` sends an output (in a handler of its outputs, or a flow
    /// step), not by `from`'s own code.
    public var byOutput = false
}

/// Something the import could not resolve statically: never guessed, never dropped.
public struct UnresolvedItem: Sendable, Hashable {
    /// Where.
    public var source: SourceLocation
    /// Why.
    public var why: String
}

/// A warning about the sources (a syntax error, a file that is not UTF-8 or too large, a target
/// whose sources are missing): the rest still imports.
public struct ImportWarning: Sendable, Hashable, CustomStringConvertible {
    /// Where.
    public var source: SourceLocation
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
    public var source: SourceLocation
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

    /// The model as JSON: `{"boards", "edges", "unresolved"}` (contract §3), plus `entries` and
    /// `warnings`.
    public var json: JSONValue {
        func src(_ s: SourceLocation) -> JSONValue { .string(s.description) }
        let b: [JSONValue] = boards.map { b in
            var o: JSONObject = ["id": .string(b.id), "kind": .string(b.kind), "module": b.module.map(JSONValue.string) ?? .null,
                                 "parent": b.parent.map(JSONValue.string) ?? .null, "source": src(b.source)]
            if b.bypassesGateway, b.kind == "board" || b.kind == "continuous" { o["bypassGateway"] = true }
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
            "unresolved": .array(unresolved.map { ["source": src($0.source), "why": .string($0.why)] }),
            "entries": .array(entries.map { ["board": .string($0.board), "source": src($0.source)] }),
            "warnings": .array(warnings.map { ["source": src($0.source), "message": .string($0.message)] }),
        ]
    }
}
