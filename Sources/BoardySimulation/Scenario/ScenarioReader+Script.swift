// ScenarioReader: a scenario's script (the stimuli) and its expectations.

import BoardyCore
import BoardyComponentKit
import BoardyDispatch
import Foundation

extension ScenarioReader {
    // MARK: Script, expect

    func scriptList(_ value: JSONValue, _ path: String, scope mainScope: IDScope, roots: [String: IDScope] = [:]) throws(ScenarioError) -> [ScriptStep] {
        var steps: [ScriptStep] = []
        for (i, v) in try array(value, path, what: "\"script\"").enumerated() {
            let p = "\(path)[\(i)]"
            let o = try object(
                v, p, allowed: Self.stimulusKeys,
                what: "a script step")
            var scope = mainScope
            let mb = try o["mb"].map { v throws(ScenarioError) in try string(v, join(p, "mb"), what: "\"mb\" (a root motherboard)") }
            if let mb, mb != MotherboardPath.main.rawValue {
                guard let rs = roots[mb] else {
                    throw fail(join(p, "mb"), "undeclared root motherboard \"\(mb)\"\(didYouMean(mb, Array(roots.keys).sorted() + ["main"]))")
                }
                scope = rs
            }
            guard let atValue = o["at"] else { throw fail(p, "a script step needs \"at\" (virtual seconds)") }
            let (at, atUpTo) = try secondsOrRange(atValue, join(p, "at"), what: "\"at\"")
            let actions = ["activate", "network", "track", "flush", "configure", "complete"].filter { o[$0] != nil }
            guard actions.count == 1 else {
                throw fail(p, actions.isEmpty ? "a script step needs one of activate, network, track, flush, configure or complete" : "a script step does one thing; found \(actions.joined(separator: " and "))")
            }
            let action: ScriptStep.Action
            switch actions[0] {
            case "activate":
                let id = BoardID(try string(o["activate"], join(p, "activate"), what: "\"activate\""))
                try scope.check(id, join(p, "activate"))
                action = .activate(id, input: o["input"])
            case "network":
                let n = try string(o["network"], join(p, "network"), what: "\"network\"")
                guard let c = NetworkConnection(rawValue: n) else {
                    throw fail(join(p, "network"), "unknown network \"\(n)\"\(didYouMean(n, NetworkConnection.allCases.map(\.rawValue))); expected none, wifi, cellular or ethernet")
                }
                action = .network(c)
            case "track":
                let d = try o["dispatcher"].map { v throws(ScenarioError) in try string(v, join(p, "dispatcher"), what: "\"dispatcher\"") }
                if let d, !scope.dispatchers.contains(d) {
                    throw fail(join(p, "dispatcher"), "undeclared dispatcher \"\(d)\"\(didYouMean(d, scope.dispatchers))")
                }
                action = .track(o["track"]!, dispatcher: d)
            case "flush":
                guard try bool(o["flush"]!, join(p, "flush"), what: "\"flush\"") else { throw fail(join(p, "flush"), "\"flush\" takes true") }
                action = .flush
            case "configure":
                guard case .object = o["configure"]! else { throw fail(join(p, "configure"), "\"configure\" takes Tealium barrier settings (an object)") }
                action = .configure(o["configure"]!)
            default:
                let id = BoardID(try string(o["complete"], join(p, "complete"), what: "\"complete\""))
                try scope.check(id, join(p, "complete"))
                let with = try o["with"].map { v throws(ScenarioError) in try bool(v, join(p, "with"), what: "\"with\"") } ?? true
                action = .complete(id, with: with)
            }
            if o["input"] != nil, actions[0] != "activate" { throw fail(join(p, "input"), "\"input\" goes with \"activate\"") }
            if o["dispatcher"] != nil, actions[0] != "track" { throw fail(join(p, "dispatcher"), "\"dispatcher\" goes with \"track\"") }
            if o["with"] != nil, actions[0] != "complete" { throw fail(join(p, "with"), "\"with\" goes with \"complete\"") }
            if o["mb"] != nil, actions[0] != "activate" && actions[0] != "complete" {
                throw fail(join(p, "mb"), "\"mb\" goes with \"activate\" or \"complete\" (dispatch stimuli are the app's)")
            }
            var step = ScriptStep(at: at, action: action, path: p)
            step.atUpTo = atUpTo
            step.mb = mb == MotherboardPath.main.rawValue ? nil : mb
            steps.append(step)
        }
        return steps
    }

    func expectList(_ value: JSONValue, _ path: String, scope: IDScope) throws(ScenarioError) -> [Expectation] {
        var list: [Expectation] = []
        for (i, v) in try array(value, path, what: "\"expect\"").enumerated() {
            let p = "\(path)[\(i)]"
            let o = try object(v, p, allowed: Self.expectationKeys, what: "an expectation")
            let kinds = ["performed", "never", "stuck", "loop", "sent"].filter { o[$0] != nil }
            guard kinds.count == 1 else {
                throw fail(p, kinds.isEmpty ? "an expectation needs one of performed, never, stuck, loop or sent" : "an expectation checks one thing; found \(kinds.joined(separator: " and "))")
            }
            switch kinds[0] {
            case "performed":
                let id = BoardID(try string(o["performed"], join(p, "performed"), what: "\"performed\""))
                try scope.checkAnywhere(id, join(p, "performed"))
                let times = try o["times"].map { v throws(ScenarioError) in try integer(v, join(p, "times"), what: "\"times\"", minimum: 0) }
                let at = try o["at"].map { v throws(ScenarioError) in try seconds(v, join(p, "at"), what: "\"at\"") }
                list.append(.performed(id, times: times, at: at, input: o["input"]))
            case "never":
                let id = BoardID(try string(o["never"], join(p, "never"), what: "\"never\""))
                try scope.checkAnywhere(id, join(p, "never"))
                let cancelled = try o["cancelled"].map { v throws(ScenarioError) in try bool(v, join(p, "cancelled"), what: "\"cancelled\"") } ?? false
                list.append(.never(id, cancelled: cancelled))
            case "stuck": list.append(.stuck(try bool(o["stuck"]!, join(p, "stuck"), what: "\"stuck\"")))
            case "loop": list.append(.loop(try bool(o["loop"]!, join(p, "loop"), what: "\"loop\"")))
            default:
                let d = try string(o["sent"], join(p, "sent"), what: "\"sent\" (a dispatcher id)")
                guard scope.dispatchers.contains(d) else { throw fail(join(p, "sent"), "undeclared dispatcher \"\(d)\"\(didYouMean(d, scope.dispatchers))") }
                guard let e = o["events"] else { throw fail(p, "a \"sent\" expectation needs \"events\" (the total)") }
                list.append(.sent(dispatcher: d, events: try integer(e, join(p, "events"), what: "\"events\"", minimum: 0)))
            }
            let allowed: [String: [String]] = ["performed": ["times", "at", "input"], "never": ["cancelled"], "sent": ["events"]]
            for key in o.keys where key != kinds[0] && !(allowed[kinds[0]] ?? []).contains(key) {
                throw fail(join(p, key), "\"\(key)\" does not go with \"\(kinds[0])\"", atKey: true)
            }
        }
        return list
    }
}
