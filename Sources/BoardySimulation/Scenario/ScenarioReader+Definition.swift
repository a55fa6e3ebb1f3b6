// ScenarioReader: a scenario's definition (roots, boards and their steps and barriers, flows, gateway, dispatch).

import BoardyCore
import BoardyComponentKit
import BoardyDispatch
import Foundation

extension ScenarioReader {
    // MARK: Roots

    /// `roots`: more root motherboards, each `{"mb", "boards", "flows"}`.
    func rootList(_ value: JSONValue, _ path: String) throws(ScenarioError) -> [RootSpec] {
        var roots: [RootSpec] = []
        for (i, v) in try array(value, path, what: "\"roots\"").enumerated() {
            let p = "\(path)[\(i)]"
            let o = try object(v, p, allowed: Self.rootKeys, what: "a root motherboard")
            let name = try string(o["mb"], join(p, "mb"), what: "a root motherboard's \"mb\" (its name in traces)")
            guard name != MotherboardPath.main.rawValue else { throw fail(join(p, "mb"), "\"main\" is the scenario's own root; name this one otherwise") }
            guard !name.contains("/") else { throw fail(join(p, "mb"), "a root motherboard's name has no \"/\" (that separates inner motherboards)") }
            guard !roots.contains(where: { $0.name == name }) else { throw fail(join(p, "mb"), "duplicate root motherboard \"\(name)\"") }
            guard let boardsValue = o["boards"] else { throw fail(p, "a root motherboard needs \"boards\"") }
            let boards = try boardList(boardsValue, join(p, "boards"))
            try checkTargets(boards)
            let scope = IDScope(boards: boards, reader: self)
            let flows = try o["flows"].map { v throws(ScenarioError) in try flowList(v, join(p, "flows"), scope: scope) } ?? []
            roots.append(RootSpec(name: name, boards: boards, flows: flows, path: p))
        }
        return roots
    }

    // MARK: Boards

    func boardList(_ value: JSONValue, _ path: String) throws(ScenarioError) -> [BoardSpec] {
        var boards: [BoardSpec] = []
        var seen: [BoardID: Int] = [:]
        let values = try array(value, path, what: "\"boards\"")
        boards.reserveCapacity(values.count)
        seen.reserveCapacity(values.count)
        for (i, v) in values.enumerated() {
            let b = try board(v, "\(path)[\(i)]")
            if let first = seen[b.id] {
                throw fail("\(path)[\(i)].id", "duplicate board id \"\(b.id)\" (first declared at \(path)[\(first)]); ids are unique within a motherboard")
            }
            seen[b.id] = i
            boards.append(b)
        }
        return boards
    }

    func board(_ value: JSONValue, _ path: String) throws(ScenarioError) -> BoardSpec {
        let o = try object(
            value, path, allowed: Self.boardKeys,
            what: "a board")
        try sourceKey(o, path)
        let id = BoardID(try string(o["id"], join(path, "id"), what: "a board's \"id\""))
        var kind = BoardKind.board
        if let k = o["kind"] {
            let name = try string(k, join(path, "kind"), what: "\"kind\"")
            guard let parsed = BoardKind(rawValue: name) else {
                throw fail(join(path, "kind"), "unknown kind \"\(name)\"\(didYouMean(name, BoardKind.allCases.map(\.rawValue))); expected one of \(BoardKind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            kind = parsed
        }
        let module = try o["module"].map { v throws(ScenarioError) in try string(v, join(path, "module"), what: "\"module\"") }
        let steps = try o["onActivate"].map { v throws(ScenarioError) in try stepList(v, join(path, "onActivate"), kind: kind) } ?? []
        let bypass = try o["bypassGateway"].map { v throws(ScenarioError) in try bool(v, join(path, "bypassGateway"), what: "\"bypassGateway\"") }
        let barrier = try o["activationBarrier"].map { v throws(ScenarioError) in try barrierSpec(v, join(path, "activationBarrier")) }
        var executing: BlockTaskExecutingType?
        if let e = o["executing"] {
            guard kind == .blockTask else { throw fail(join(path, "executing"), "\"executing\" applies to kind \"blockTask\" only") }
            executing = try executingType(e, join(path, "executing"))
        }
        var inner: [BoardSpec] = []
        var innerFlows: [FlowSpec] = []
        if o["boards"] != nil || o["flows"] != nil {
            guard kind == .continuous || kind == .flow else {
                throw fail(join(path, o["boards"] != nil ? "boards" : "flows"), "nested \"boards\" and \"flows\" need kind \"continuous\" or \"flow\"")
            }
        }
        if let b = o["boards"] { inner = try boardList(b, join(path, "boards")) }
        if let f = o["flows"] { innerFlows = try flowList(f, join(path, "flows"), scope: IDScope(boards: inner, reader: self, inContinuous: true)) }
        return BoardSpec(
            id: id, module: module, kind: kind, onActivate: steps, bypassGateway: bypass, activationBarrier: barrier, executing: executing,
            boards: inner, flows: innerFlows, path: path)
    }

    /// Steps and barriers name boards of the right motherboard: a board's siblings, or, for a
    /// continuous board's own steps, its inner boards.
    func checkTargets(_ siblings: [BoardSpec]) throws(ScenarioError) {
        let siblingScope = IDScope(boards: siblings, reader: self)
        for b in siblings {
            let stepScope = b.kind.hasInnerMotherboard ? IDScope(boards: b.boards, reader: self, inContinuous: true) : siblingScope
            for (i, step) in b.onActivate.enumerated() {
                switch step.action {
                case let .activate(id, _): try stepScope.check(id, "\(b.path).onActivate[\(i)].activate")
                case let .command(_, to): try stepScope.check(to, "\(b.path).onActivate[\(i)].to")
                default: break
                }
            }
            if let gate = b.activationBarrier?.gate { try siblingScope.check(gate, "\(b.path).activationBarrier.board") }
            try checkTargets(b.boards)
        }
    }

    func executingType(_ value: JSONValue, _ path: String) throws(ScenarioError) -> BlockTaskExecutingType {
        let s = try string(value, path, what: "\"executing\"")
        switch s {
        case "default": return .default
        case "latest": return .latest
        case "only": return .only
        case "onlyResult": return .onlyResult
        case "queue": return .queue
        default:
            if s.hasPrefix("concurrent:"), let n = Int(s.dropFirst("concurrent:".count)), n >= 1 { return .concurrent(max: n) }
            throw fail(path, "unknown executing type \"\(s)\"; expected default, latest, only, onlyResult, queue or concurrent:N (N ≥ 1)")
        }
    }

    func barrierSpec(_ value: JSONValue, _ path: String) throws(ScenarioError) -> BarrierSpec {
        let o = try object(value, path, allowed: Self.activationBarrierKeys, what: "an activation barrier")
        try sourceKey(o, path)
        let gate = BoardID(try string(o["board"], join(path, "board"), what: "the barrier's gate \"board\""))
        var scope = ActivationBarrierScope.mainboard
        if let s = o["scope"] {
            let name = try string(s, join(path, "scope"), what: "\"scope\"")
            guard let parsed = ActivationBarrierScope(rawValue: name) else {
                throw fail(join(path, "scope"), "unknown scope \"\(name)\"; expected \"mainboard\" or \"application\"")
            }
            scope = parsed
        }
        var option = BarrierOptionSpec.void
        let expected = "expected \"void\", \"unique:KEY\", \"unidentified:VALUE\" or {\"unidentified\": VALUE}"
        if let op = o["option"] {
            if let members = op.objectValue {
                guard members.count == 1, let value = members[Self.optionKeys[0]] else {
                    throw fail(join(path, "option"), "an option object has the one key \"unidentified\"; \(expected)")
                }
                option = .unidentified(value)
            } else {
                let name = try string(op, join(path, "option"), what: "\"option\"")
                if name == "void" {
                    option = .void
                } else if name.hasPrefix("unique:"), name.count > 7 {
                    option = .unique(String(name.dropFirst(7)))
                } else if name.hasPrefix("unidentified:"), name.count > 13 {
                    option = .unidentified(.string(String(name.dropFirst(13))))
                } else {
                    throw fail(join(path, "option"), "unknown option \"\(name)\"; \(expected)")
                }
            }
        }
        return BarrierSpec(gate: gate, scope: scope, option: option)
    }

    func stepList(_ value: JSONValue, _ path: String, kind: BoardKind) throws(ScenarioError) -> [Step] {
        var steps: [Step] = []
        // The delays add up on the virtual clock: their sum is held to the same limit as one
        // delay, so no activation can schedule past what the clock holds.
        var total = TraceTime.zero
        for (i, v) in try array(value, path, what: "\"onActivate\"").enumerated() {
            let p = "\(path)[\(i)]"
            let o = try object(v, p, allowed: Self.stepKeys, what: "a step")
            let (after, afterUpTo) = try o["after"].map { v throws(ScenarioError) in try secondsOrRange(v, join(p, "after"), what: "\"after\"") } ?? (.zero, nil)
            guard let sum = total.adding(afterUpTo ?? after), sum <= TraceTime.limit else {
                throw fail(
                    join(p, "after"),
                    "the steps' delays add up to more than 1000000000000 seconds here (\(total) s before this step, \(afterUpTo ?? after) s in it); "
                        + "shorten them")
            }
            total = sum
            let actions = ["output", "complete", "activate", "command", "progress", "flowAction"].filter { o[$0] != nil }
            guard actions.count <= 1 else { throw fail(p, "a step does one thing; found \(actions.joined(separator: " and "))") }
            let action: Step.Action
            switch actions.first {
            case "output": action = .output(o["output"]!)
            case "complete":
                if o["complete"] == .string("either") {
                    action = .completeEither
                } else {
                    guard case .bool = o["complete"]! else {
                        throw fail(join(p, "complete"), "\"complete\" must be true, false or \"either\" (an outcome an explorer varies), found \(o["complete"]!.jsonText)")
                    }
                    action = .complete(try bool(o["complete"]!, join(p, "complete"), what: "\"complete\""))
                }
            case "activate": action = .activate(BoardID(try string(o["activate"], join(p, "activate"), what: "\"activate\"")), input: o["input"])
            case "command":
                action = .command(o["command"]!, to: BoardID(try string(o["to"], join(p, "to"), what: "a command's \"to\" (the board it goes to)")))
            case "progress":
                guard kind == .resultTask else { throw fail(join(p, "progress"), "\"progress\" steps belong to kind \"resultTask\"") }
                action = .progress(o["progress"]!)
            case "flowAction": action = .flowAction(o["flowAction"]!)
            default:
                throw fail(p, "a step needs one of output, complete, activate, command, progress or flowAction")
            }
            if o["input"] != nil, actions.first != "activate" { throw fail(join(p, "input"), "\"input\" goes with \"activate\"") }
            if o["to"] != nil, actions.first != "command" { throw fail(join(p, "to"), "\"to\" goes with \"command\"") }
            steps.append(Step(after: after, afterUpTo: afterUpTo, action: action))
        }
        return steps
    }

    // MARK: Flows

    func flowList(_ value: JSONValue, _ path: String, scope: IDScope) throws(ScenarioError) -> [FlowSpec] {
        var flows: [FlowSpec] = []
        for (i, v) in try array(value, path, what: "\"flows\"").enumerated() {
            let p = "\(path)[\(i)]"
            if case let .string(text) = v {
                let ids = text.components(separatedBy: " ->> ").map { $0.trimmingCharacters(in: .whitespaces) }
                guard ids.count >= 2, !ids.contains(where: \.isEmpty) else {
                    throw fail(p, "a flow string is \"A ->> B\" (ids separated by \" ->> \"), found \"\(text)\"")
                }
                for id in ids { try scope.check(BoardID(id), p) }
                flows.append(.steps(ids.map { BoardID($0) }))
                continue
            }
            let o = try object(v, p, allowed: Self.flowKeys, what: "a flow")
            try sourceKey(o, p)
            if let stepsValue = o["steps"] {
                guard o.count == (o["source"] == nil ? 1 : 2) else { throw fail(p, "a \"steps\" flow has no other keys") }
                var ids: [BoardID] = []
                for (j, s) in try array(stepsValue, join(p, "steps"), what: "\"steps\"").enumerated() {
                    let id = BoardID(try string(s, "\(join(p, "steps"))[\(j)]", what: "a step id"))
                    try scope.check(id, "\(join(p, "steps"))[\(j)]")
                    ids.append(id)
                }
                guard ids.count >= 2 else { throw fail(join(p, "steps"), "flow steps need at least two boards") }
                flows.append(.steps(ids))
                continue
            }
            let from = BoardID(try string(o["from"], join(p, "from"), what: "a flow handler's \"from\""))
            try scope.check(from, join(p, "from"))
            let actions = ["activate", "complete", "relay"].filter { o[$0] != nil }
            guard actions.count == 1 else {
                throw fail(p, actions.isEmpty ? "a flow handler needs one of activate, complete or relay" : "a flow handler does one thing; found \(actions.joined(separator: " and "))")
            }
            let action: FlowSpec.HandlerAction
            switch actions[0] {
            case "activate":
                let to = BoardID(try string(o["activate"], join(p, "activate"), what: "\"activate\""))
                try scope.check(to, join(p, "activate"))
                action = .activate(to, input: o["input"])
            case "complete":
                let to = BoardID(try string(o["complete"], join(p, "complete"), what: "\"complete\""))
                try scope.check(to, join(p, "complete"))
                guard let w = o["with"] else { throw fail(p, "a \"complete\" handler needs \"with\" (true or false)") }
                action = .complete(to, with: try bool(w, join(p, "with"), what: "\"with\""))
            default:
                guard scope.inContinuous else { throw fail(join(p, "relay"), "\"relay\" sends an output out of a continuous board: it belongs in a continuous board's flows") }
                action = .relay(o["relay"]!)
            }
            if o["input"] != nil, actions[0] != "activate" { throw fail(join(p, "input"), "\"input\" goes with \"activate\"") }
            if o["with"] != nil, actions[0] != "complete" { throw fail(join(p, "with"), "\"with\" goes with \"complete\"") }
            if let f = o["flowAction"] {
                guard try bool(f, join(p, "flowAction"), what: "\"flowAction\" (true: the handler reacts to flow actions)") else {
                    throw fail(join(p, "flowAction"), "\"flowAction\": false is the default; leave it out")
                }
                flows.append(.flowActionHandler(from: from, on: o["on"], action: action))
            } else {
                flows.append(.handler(from: from, on: o["on"], action: action))
            }
        }
        return flows
    }

    // MARK: Gateway, dispatch

    func gatewaySpec(_ value: JSONValue, _ path: String, scope: IDScope) throws(ScenarioError) -> GatewaySpec {
        let o = try object(value, path, allowed: Self.gatewayKeys, what: "the gateway")
        try sourceKey(o, path)
        let gate = BoardID(try string(o["barrier"], join(path, "barrier"), what: "the gateway's \"barrier\" (its gate board)"))
        try scope.check(gate, join(path, "barrier"))
        var exempt: [BoardID] = []
        if let e = o["exempt"] {
            for (i, v) in try array(e, join(path, "exempt"), what: "\"exempt\"").enumerated() {
                let id = BoardID(try string(v, "\(join(path, "exempt"))[\(i)]", what: "an exempt board id"))
                try scope.check(id, "\(join(path, "exempt"))[\(i)]")
                exempt.append(id)
            }
        }
        var resolveOn: [(String, Bool)] = []
        if let r = o["resolveOn"] {
            guard case let .object(map) = r else { throw fail(join(path, "resolveOn"), "\"resolveOn\" must map gate outputs to true or false") }
            for m in map.members { resolveOn.append((m.key, try bool(m.value, join(join(path, "resolveOn"), m.key), what: "a resolveOn verdict"))) }
        }
        var instances = GatewayBarrier.GateInstances.perRun
        if let g = o["gateInstance"] {
            let name = try string(g, join(path, "gateInstance"), what: "\"gateInstance\"")
            guard let parsed = GatewayBarrier.GateInstances(rawValue: name) else {
                throw fail(join(path, "gateInstance"), "unknown gate instance \"\(name)\"; expected \"perRun\" (the default) or \"shared\"")
            }
            instances = parsed
        }
        return GatewaySpec(gate: gate, exempt: exempt, resolveOn: resolveOn, gateInstance: instances)
    }

    func dispatchSpec(_ value: JSONValue, _ path: String, scope: IDScope) throws(ScenarioError) -> DispatchSpec {
        let o = try object(value, path, allowed: Self.dispatchKeys, what: "\"dispatch\"")
        var dispatchers: [DispatchSpec.Dispatcher] = []
        if let ds = o["dispatchers"] {
            for (i, v) in try array(ds, join(path, "dispatchers"), what: "\"dispatchers\"").enumerated() {
                let p = "\(join(path, "dispatchers"))[\(i)]"
                let d = try object(v, p, allowed: Self.dispatcherKeys, what: "a dispatcher")
                let id = try string(d["id"], join(p, "id"), what: "a dispatcher's \"id\"")
                guard !dispatchers.contains(where: { $0.id == id }) else { throw fail(join(p, "id"), "duplicate dispatcher id \"\(id)\"") }
                let limit = try d["dispatchLimit"].map { v throws(ScenarioError) in try integer(v, join(p, "dispatchLimit"), what: "\"dispatchLimit\"", minimum: 1) } ?? 1
                let delay = try d["delay"].map { v throws(ScenarioError) in try seconds(v, join(p, "delay"), what: "\"delay\"") } ?? .zero
                dispatchers.append(.init(id: id, dispatchLimit: limit, delay: delay))
            }
        }
        var tracked: [BoardID] = []
        if let t = o["trackOutputs"] {
            for (i, v) in try array(t, join(path, "trackOutputs"), what: "\"trackOutputs\"").enumerated() {
                let id = BoardID(try string(v, "\(join(path, "trackOutputs"))[\(i)]", what: "a board id"))
                try scope.check(id, "\(join(path, "trackOutputs"))[\(i)]")
                tracked.append(id)
            }
        }
        return DispatchSpec(dispatchers: dispatchers, barriers: o["barriers"], trackOutputs: tracked)
    }
}
