import Boardy
import BoardySimulation
import BoardyReplay
import BoardyVizSimulation
import Foundation
import Testing

/// The behaviours measured on the real Boardy 1.63.1 (issue 18), as scenario files: what the
/// simulator records, on the virtual clock.
@Suite("Faithful to the real Boardy, in scenario files")
struct FidelityScenarioTests {
    /// `t board input` for every performed activation, with the motherboard when it is not main.
    static func performed(_ json: String) throws -> [String] {
        let s = try ScenarioLoader.load(json: json, file: "s.json")
        return Simulator.run(s).trace.events.compactMap { e in
            guard case let .activationPerformed(board, input) = e.body else { return nil }
            let t = Double(e.t.microseconds) / 1e6
            let at = t == t.rounded() ? String(Int(t)) : String(t)
            return "\(at) \(e.mb == "main" ? "" : "[\(e.mb)] ")\(board) \(input?.jsonText ?? "null")"
        }
    }

    static let gateway = #"""
        {"scenario": "g", "boards": [
          {"id": "pubAuth", "onActivate": [{"after": 2, "complete": true}]},
          {"id": "pubHome"}, {"id": "pubSettings"}],
         "gateway": {"barrier": "pubAuth", "exempt": ["pubAuth"] GATE},
         "script": [SCRIPT]}
        """#

    @Test("same destination, one gateway run: pubHome h1 at 0 and h2 at 1 run the gate once; both perform at 2, in order")
    func sameDestinationOneGatewayRun() throws {
        let json = Self.gateway.replacingOccurrences(of: " GATE", with: "")
            .replacingOccurrences(
                of: "SCRIPT", with: #"{"at": 0, "activate": "pubHome", "input": "h1"}, {"at": 1, "activate": "pubHome", "input": "h2"}"#)
        let performed = try Self.performed(json)
        #expect(performed.filter { $0.contains("pubAuth") }.count == 1)
        #expect(performed.filter { !$0.contains("pubAuth") } == [#"2 pubHome "h1""#, #"2 pubHome "h2""#])
    }

    @Test("each gateway run has its own gate: pubHome at 0 and pubSettings at 0.5 perform at 2 and 2.5; shared, both at 2")
    func eachGatewayRunHasItsOwnGate() throws {
        let script = #"{"at": 0, "activate": "pubHome"}, {"at": 0.5, "activate": "pubSettings"}"#
        let perRun = try Self.performed(
            Self.gateway.replacingOccurrences(of: " GATE", with: "").replacingOccurrences(of: "SCRIPT", with: script))
        #expect(perRun.filter { !$0.contains("pubAuth") } == ["2 pubHome null", "2.5 pubSettings null"])
        #expect(perRun.contains { $0.hasPrefix("0 [main/pubHome.___GATEWAY___] pubAuth") })
        #expect(perRun.contains { $0.hasPrefix("0.5 [main/pubSettings.___GATEWAY___] pubAuth") })
        let shared = try Self.performed(
            Self.gateway.replacingOccurrences(of: " GATE", with: #", "gateInstance": "shared""#).replacingOccurrences(of: "SCRIPT", with: script))
        #expect(shared.filter { !$0.contains("pubAuth") } == ["2 pubHome null", "2 pubSettings null"])
    }

    @Test("the gate's input is the barrier option's value: null for void, the key for unique:KEY, the value for unidentified")
    func gateInputIsTheOptionValue() throws {
        func run(_ option: String) throws -> [String] {
            try Self.performed(
                #"""
                {"scenario": "b", "boards": [
                  {"id": "pubOtp", "onActivate": [{"after": 1, "complete": true}]},
                  {"id": "pubPay", "activationBarrier": {"board": "pubOtp", "option": OPTION}}],
                 "script": [{"at": 0, "activate": "pubPay"}, {"at": 0, "activate": "pubPay"}]}
                """#.replacingOccurrences(of: "OPTION", with: option)
            ).filter { $0.contains("pubOtp") }
        }
        #expect(try run(#""void""#) == ["0 pubOtp null"])
        #expect(try run(#""unique:k1""#) == [#"0 pubOtp "k1""#])
        // A barrier per request: the gate runs for each, with the value.
        #expect(try run(#""unidentified:v""#) == [#"0 pubOtp "v""#, #"0 pubOtp "v""#])
        #expect(try run(#"{"unidentified": {"n": 1}}"#) == [#"0 pubOtp {"n":1}"#, #"0 pubOtp {"n":1}"#])
    }

    @Test("a flow action sent by an inner board goes up as its continuous board's own; a flowAction handler reacts to it")
    func flowActionFromAnInnerBoard() throws {
        let performed = try Self.performed(
            #"""
            {"scenario": "a", "boards": [
              {"id": "pubPayment", "kind": "continuous",
               "boards": [{"id": "pubConfirm", "onActivate": [{"after": 1, "flowAction": "cancel"}]}],
               "onActivate": [{"activate": "pubConfirm"}]},
              {"id": "pubCart"}],
             "flows": [{"from": "pubPayment", "flowAction": true, "on": "cancel", "activate": "pubCart"},
                       {"from": "pubPayment", "on": "cancel", "activate": "pubPayment"}],
             "script": [{"at": 0, "activate": "pubPayment"}]}
            """#)
        #expect(performed == [#"0 pubPayment null"#, "0 [main/pubPayment] pubConfirm null", #"1 pubCart "cancel""#])
    }

    @Test("bad option and gateway keys are refused with their place")
    func badKeys() {
        for (json, message) in [
            (#"{"scenario":"x","boards":[{"id":"g"},{"id":"a","activationBarrier":{"board":"g","option":"unidentified:"}}]}"#, "boards[1].activationBarrier.option"),
            (#"{"scenario":"x","boards":[{"id":"g"},{"id":"a","activationBarrier":{"board":"g","option":{"unique":"k"}}}]}"#, "boards[1].activationBarrier.option"),
            (#"{"scenario":"x","boards":[{"id":"g"}],"gateway":{"barrier":"g","gateInstance":"each"}}"#, "gateway.gateInstance"),
            (#"{"scenario":"x","boards":[{"id":"g"}],"flows":[{"from":"g","flowAction":false,"activate":"g"}]}"#, "flows[0].flowAction"),
        ] {
            #expect(throws: ScenarioError.self) { try ScenarioLoader.load(json: json, file: "s.json") }
            do {
                _ = try ScenarioLoader.load(json: json, file: "s.json")
            } catch {
                #expect(error.description.contains(message), "\(error.description)")
            }
        }
    }
}

@Suite("More than one root motherboard")
struct RootsScenarioTests {
    static let json = #"""
        {"scenario": "roots",
         "boards": [{"id": "pubHome", "onActivate": [{"output": "shown"}]}],
         "roots": [{"mb": "settings",
                    "boards": [{"id": "pubSettings", "onActivate": [{"after": 1, "output": "saved"}]},
                               {"id": "pubHome"}],
                    "flows": ["pubSettings ->> pubHome"]}],
         "script": [{"at": 0, "activate": "pubHome"},
                    {"at": 2, "mb": "settings", "activate": "pubSettings"}]}
        """#

    @Test("each root has its own mb name, boards and flows, on one clock; a script step names its root")
    func twoRoots() throws {
        let s = try ScenarioLoader.load(json: Self.json, file: "s.json")
        let events = Simulator.run(s).trace.events
        let performed = events.compactMap { e -> String? in
            if case let .activationPerformed(b, _) = e.body { return "\(e.t.microseconds / 1_000_000) \(e.mb) \(b)" }
            return nil
        }
        #expect(performed == ["0 main pubHome", "2 settings pubSettings", "3 settings pubHome"])
        #expect(events.contains { $0.mb == "settings" && $0.kind == "stimulus" })
        // The roots are part of the definition.
        let without = try ScenarioLoader.load(json: Self.json.replacingOccurrences(of: "\"pubSettings ->> pubHome\"", with: ""), file: "s.json")
        #expect(without.fingerprint != s.fingerprint)
    }

    @Test("a recorded run with two roots replays the same")
    func replay() throws {
        let s = try ScenarioLoader.load(json: Self.json, file: "s.json")
        let trace = Simulator.run(s).trace
        let result = try Replayer.replay(trace, scenario: s)
        #expect(result.isSame, "\(result.description)")
    }

    @Test("bad roots are refused with their place")
    func badRoots() {
        for (json, place) in [
            (#"{"scenario":"x","boards":[{"id":"a"}],"roots":[{"mb":"main","boards":[]}]}"#, "roots[0].mb"),
            (#"{"scenario":"x","boards":[{"id":"a"}],"roots":[{"mb":"a/b","boards":[]}]}"#, "roots[0].mb"),
            (#"{"scenario":"x","boards":[{"id":"a"}],"roots":[{"mb":"s","boards":[]},{"mb":"s","boards":[]}]}"#, "roots[1].mb"),
            (#"{"scenario":"x","boards":[{"id":"a"}],"roots":[{"mb":"s","boards":[{"id":"b"}],"flows":["b ->> a"]}]}"#, "roots[0].flows[0]"),
            (#"{"scenario":"x","boards":[{"id":"a"}],"script":[{"at":0,"mb":"nowhere","activate":"a"}]}"#, "script[0].mb"),
            (#"{"scenario":"x","boards":[{"id":"a"}],"roots":[{"mb":"s","boards":[{"id":"b"}]}],"script":[{"at":0,"mb":"s","activate":"a"}]}"#, "script[0].activate"),
            (#"{"scenario":"x","boards":[{"id":"a"}],"roots":[{"mb":"s","boards":[]}],"script":[{"at":0,"mb":"s","flush":true}]}"#, "script[0].mb"),
        ] {
            do {
                _ = try ScenarioLoader.load(json: json, file: "s.json")
                Issue.record("accepted: \(json)")
            } catch {
                #expect(error.description.contains(place), "\(error.description)")
            }
        }
    }
}

@Suite("Gateway proxies under load")
struct GatewayProxyRegressionTests {
    @Test("a gate that activates the board it guards nests proxies until a bound stops it; nothing is freed while its work is queued")
    func gateActivatesItsGatedBoard() throws {
        // Found by make fuzz-cli: each run's proxy motherboard was freed when its own run
        // resolved, while the activation it released still had work queued there.
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/corpus/scenario-loader/crash-gateway-proxy-released-with-work-queued.json")
        let s = try ScenarioLoader.load(path: url.path)
        let result = Simulator.run(s, bounds: RunBounds(horizon: .seconds(120), maxEvents: 2_000))
        let events = result.trace.events
        #expect(events.contains { if case .runaway = $0.body { return true } else { return false } })
        #expect(events.contains { $0.mb.hasPrefix("main/b2.___GATEWAY___/b2.___GATEWAY___") })
        #expect(events.filter { $0.kind == "barrier.resolved" }.count > 10)
    }
}
