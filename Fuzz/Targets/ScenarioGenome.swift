/// Valid scenarios from arbitrary bytes, for whole-pipeline fuzzing and the generative tests: every
/// byte string decodes to a scenario the loader accepts (all board kinds, a continuous board's
/// nesting, activation barriers, the gateway, dispatch, every script action), so a failure is in
/// the pipeline, never in the generator. Written by hand: the bytes come from libFuzzer or from
/// PropertyBased's generators (which shrink them), and neither knows our scenario format.
public struct ScenarioGenome {
    private let bytes: [UInt8]
    private var cursor = 0

    /// A genome over `bytes` (read in order; zeros once they run out).
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    private mutating func next(_ n: Int) -> Int {
        guard n > 1 else { return 0 }
        defer { cursor += 1 }
        return cursor < bytes.count ? Int(bytes[cursor]) % n : 0
    }

    private mutating func chance(_ percent: Int) -> Bool { next(100) < percent }

    /// The scenario as JSON text.
    public mutating func scenarioJSON() -> String {
        let kinds = ["board", "board", "task", "blockTask", "resultTask", "barrier", "continuous"]
        let count = 1 + next(6)
        let ids = (0..<count).map { "b\($0)" }
        var boards: [String] = []
        var outputs: [String: [String]] = [:]
        for (i, id) in ids.enumerated() {
            let kind = kinds[next(kinds.count)]
            var fields = [#""id":"\#(id)""#, #""kind":"\#(kind)""#, #""module":"m\#(next(3))""#]
            var steps: [String] = []
            var inner: [String] = []
            var innerFlows: [String] = []
            if kind == "continuous" {
                let innerCount = 1 + next(2)
                for k in 0..<innerCount {
                    let innerID = "\(id)i\(k)"
                    var innerSteps = [#"{"after":\#(next(3)),"output":"o\#(next(3))"}"#]
                    if chance(40) { innerSteps.append(#"{"complete":\#(chance(70))}"#) }
                    if chance(20) { innerSteps.append(#"{"after":\#(next(2)),"flowAction":"a\#(next(2))"}"#) }
                    inner.append(#"{"id":"\#(innerID)","onActivate":[\#(innerSteps.joined(separator: ","))]}"#)
                    if chance(60) { innerFlows.append(#"{"from":"\#(innerID)","relay":"r\#(next(2))"}"#) }
                }
                if innerCount > 1, chance(50) { innerFlows.append(#""\#(id)i0 ->> \#(id)i1""#) }
                steps.append(#"{"activate":"\#(id)i0"}"#)
                outputs[id] = ["r0", "r1"]
            }
            for _ in 0..<next(4) {
                let after = next(3)
                // Sometimes a range, which `explore` varies.
                let delay =
                    after > 0 ? (chance(15) ? #""after":[\#(after),\#(after + 1 + next(2))],"# : #""after":\#(after),"#) : ""
                switch next(kind == "continuous" ? 2 : 4) {
                case 0, 1:
                    let o = "o\(next(3))"
                    outputs[id, default: []].append(o)
                    steps.append(#"{\#(delay)"output":"\#(o)"}"#)
                case 2:
                    steps.append(chance(15) ? #"{\#(delay)"complete":"either"}"# : #"{\#(delay)"complete":\#(chance(75))}"#)
                default:
                    let target = ids[next(count)]
                    steps.append(#"{\#(delay)"activate":"\#(target)","input":\#(next(5))}"#)
                }
            }
            if kind == "resultTask", chance(50) { steps.insert(#"{"progress":\#(next(10))}"#, at: 0) }
            fields.append(#""onActivate":[\#(steps.joined(separator: ","))]"#)
            if kind == "blockTask", chance(50) {
                fields.append(#""executing":"\#(["default", "latest", "only", "onlyResult", "queue", "concurrent:2"][next(6)])""#)
            }
            if !inner.isEmpty {
                fields.append(#""boards":[\#(inner.joined(separator: ","))]"#)
                if !innerFlows.isEmpty { fields.append(#""flows":[\#(innerFlows.joined(separator: ","))]"#) }
            }
            if chance(25) {
                let gate = ids[next(count)]
                let option = [#""void""#, #""unique:k\#(next(2))""#, #""unidentified:v\#(next(2))""#, #"{"unidentified":\#(next(3))}"#][next(4)]
                fields.append(#""activationBarrier":{"board":"\#(gate)","scope":"\#(chance(80) ? "mainboard" : "application")","option":\#(option)}"#)
            }
            if chance(20) { fields.append(#""bypassGateway":\#(chance(50))"#) }
            _ = i
            boards.append("{" + fields.joined(separator: ",") + "}")
        }
        var flows: [String] = []
        for _ in 0..<next(5) {
            let a = ids[next(count)]
            let b = ids[next(count)]
            switch next(4) {
            case 0: flows.append(#""\#(a) ->> \#(b)""#)
            case 3: flows.append(#"{"from":"\#(a)","flowAction":true,\#(chance(50) ? #""on":"a0","# : "")"activate":"\#(b)"}"#)
            case 1:
                let on = outputs[a].flatMap { $0.isEmpty ? nil : $0[next($0.count)] }
                flows.append(#"{"from":"\#(a)",\#(on.map { #""on":"\#($0)","# } ?? "")"activate":"\#(b)"}"#)
            default:
                flows.append(#"{"from":"\#(a)","complete":"\#(b)","with":\#(chance(50))}"#)
            }
        }
        var top = [#""scenario":"gen\#(next(100))""#, #""boards":[\#(boards.joined(separator: ","))]"#]
        if !flows.isEmpty { top.append(#""flows":[\#(flows.joined(separator: ","))]"#) }
        if chance(30) {
            let gate = ids[next(count)]
            let exempt = ids.filter { _ in chance(40) }.map { #""\#($0)""# }
            let instance = chance(30) ? #","gateInstance":"shared""# : ""
            top.append(#""gateway":{"barrier":"\#(gate)","exempt":[\#(exempt.joined(separator: ","))],"resolveOn":{"o0":true,"o1":false}\#(instance)}"#)
        }
        let dispatch = chance(40)
        if dispatch {
            var d = [#""dispatchers":[{"id":"collect","dispatchLimit":\#(1 + next(3)),"delay":\#(next(2))}]"#]
            if chance(50) {
                d.append(#""barriers":{"BatchingBarrier":{"barrier_id":"BatchingBarrier","scopes":["all"],"configuration":{"batch_size":\#(1 + next(3))}}}"#)
            }
            if chance(50) { d.append(#""trackOutputs":["\#(ids[next(count)])"]"#) }
            top.append(#""dispatch":{\#(d.joined(separator: ","))}"#)
        }
        var script = [#"{"at":0,"activate":"\#(ids[next(count)])","input":\#(next(4))}"#]
        if chance(20) {
            // A second root motherboard, as a launcher creates them.
            let rootFlow = chance(50) ? #","flows":["s0 ->> s1"]"# : ""
            top.append(
                #""roots":[{"mb":"settings","boards":[{"id":"s0","onActivate":[{"after":\#(next(2)),"output":"x"}]},{"id":"s1"}]\#(rootFlow)}]"#)
            script.append(#"{"at":\#(next(6)),"mb":"settings","activate":"s0"}"#)
        }
        for _ in 0..<next(5) {
            let from = next(12)
            let at = chance(20) ? "[\(from),\(from + 1 + next(4))]" : "\(from)"
            switch next(dispatch ? 6 : 2) {
            case 0: script.append(#"{"at":\#(at),"activate":"\#(ids[next(count)])"}"#)
            case 1: script.append(#"{"at":\#(at),"complete":"\#(ids[next(count)])","with":\#(chance(50))}"#)
            case 2: script.append(#"{"at":\#(at),"network":"\#(["none", "wifi", "cellular", "ethernet"][next(4)])"}"#)
            case 3: script.append(#"{"at":\#(at),"track":"e\#(next(9))"}"#)
            case 4: script.append(#"{"at":\#(at),"flush":true}"#)
            default: script.append(#"{"at":\#(at),"track":{"n":\#(next(9))},"dispatcher":"collect"}"#)
            }
        }
        top.append(#""script":[\#(script.joined(separator: ","))]"#)
        return "{" + top.joined(separator: ",") + "}"
    }
}
