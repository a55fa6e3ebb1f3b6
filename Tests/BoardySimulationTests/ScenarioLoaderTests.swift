import BoardyTestSupport
import Foundation
import Boardy
@testable import BoardySimulation
import Testing

/// Malformed scenarios: each must fail with a located, specific message.
@Suite("Scenario loader: malformed input")
struct ScenarioLoaderTests {
    static let corpus: [(String, String, String)] = [
        ("syntax", "{\"scenario\": \"x\",\n \"boards\": [ }", "s.json:2:14: not valid JSON: expected a value, found '}'"),
        ("not an object", "[1]", "s.json:1:1: a scenario must be an object, found an array"),
        ("missing name", #"{"boards":[]}"#, #"s.json: scenario: "scenario" (the scenario's name) is required"#),
        ("unknown top key", "{\"scenario\":\"x\",\"boards\":[],\n\"flowz\":[]}", #"s.json:2:1: flowz: unknown key "flowz" in a scenario (did you mean "flows"?)"#),
        ("unknown board key", #"{"scenario":"x","boards":[{"id":"a","kindd":"task"}]}"#, #"s.json:1:37: boards[0].kindd: unknown key "kindd" in a board (did you mean "kind"?)"#),
        ("wrong type", #"{"scenario":"x","boards":[{"id":7}]}"#, #"s.json:1:33: boards[0].id: a board's "id" must be a non-empty string, found a number"#),
        ("unknown kind", #"{"scenario":"x","boards":[{"id":"a","kind":"tsak"}]}"#, #"s.json:1:44: boards[0].kind: unknown kind "tsak" (did you mean "task"?); expected one of board, task, blockTask, resultTask, flow, barrier, continuous"#),
        ("duplicate id", #"{"scenario":"x","boards":[{"id":"a"},{"id":"a"}]}"#, #"s.json:1:44: boards[1].id: duplicate board id "a" (first declared at boards[0]); ids are unique within a motherboard"#),
        ("undeclared in flow", #"{"scenario":"x","boards":[{"id":"pubCart"}],"flows":["pubCart ->> pubCrat"]}"#, #"s.json:1:54: flows[0]: undeclared board "pubCrat" (did you mean "pubCart"?)"#),
        ("undeclared in script", #"{"scenario":"x","boards":[{"id":"a"}],"script":[{"at":0,"activate":"b"}]}"#, #"s.json:1:68: script[0].activate: undeclared board "b""#),
        ("negative delay", #"{"scenario":"x","boards":[{"id":"a","onActivate":[{"after":-1,"output":"o"}]}]}"#, #"s.json:1:60: boards[0].onActivate[0].after: "after" cannot be negative (-1)"#),
        ("negative at", #"{"scenario":"x","boards":[{"id":"a"}],"script":[{"at":-2,"activate":"a"}]}"#, #"s.json:1:55: script[0].at: "at" cannot be negative (-2)"#),
        ("step does two things", #"{"scenario":"x","boards":[{"id":"a","onActivate":[{"output":"o","complete":true}]}]}"#, "s.json:1:51: boards[0].onActivate[0]: a step does one thing; found output and complete"),
        ("inner id from outside", #"{"scenario":"x","boards":[{"id":"p","kind":"continuous","boards":[{"id":"in"}]}],"flows":["p ->> in"]}"#, #"s.json:1:91: flows[0]: undeclared board "in" (it is declared inside a continuous board: address it from there)"#),
        ("relay outside", #"{"scenario":"x","boards":[{"id":"a"}],"flows":[{"from":"a","relay":"x"}]}"#, #"s.json:1:68: flows[0].relay: "relay" sends an output out of a continuous board: it belongs in a continuous board's flows"#),
        ("bad network", #"{"scenario":"x","boards":[],"script":[{"at":0,"network":"wfi"}]}"#, #"s.json:1:57: script[0].network: unknown network "wfi" (did you mean "wifi"?); expected none, wifi, cellular or ethernet"#),
        ("bad executing", #"{"scenario":"x","boards":[{"id":"a","kind":"blockTask","executing":"concurrent:0"}]}"#, #"s.json:1:68: boards[0].executing: unknown executing type "concurrent:0"; expected default, latest, only, onlyResult, queue or concurrent:N (N ≥ 1)"#),
        ("sent to unknown dispatcher", #"{"scenario":"x","boards":[],"expect":[{"sent":"colect","events":1}]}"#, #"s.json:1:47: expect[0].sent: undeclared dispatcher "colect""#),
    ]

    @Test("malformed scenarios fail at their location with a clear message", arguments: corpus)
    func malformed(name: String, text: String, message: String) {
        #expect {
            try ScenarioLoader.load(json: text, file: "s.json")
        } throws: { error in
            let ok = "\(error)" == message
            if !ok { print("\(name): \(error)") }
            return ok
        }
    }

    @Test("YAML errors carry their line and column too")
    func yamlErrors() {
        #expect {
            try ScenarioLoader.load(yaml: "scenario: x\nboards:\n  - id: a\n    kindd: task\n", file: "s.yaml")
        } throws: { error in
            "\(error)" == #"s.yaml:4:5: boards[0].kindd: unknown key "kindd" in a board (did you mean "kind"?)"#
        }
        #expect {
            try ScenarioLoader.load(yaml: "scenario: [x\n", file: "s.yaml")
        } throws: { error in
            "\(error)".hasPrefix("s.yaml:2:1: not valid YAML")
        }
    }
}

/// Every sample scenario, damaged: always a ScenarioError naming the file and a line, or another
/// valid scenario; never a crash.
@Suite("Corrupted scenarios")
struct CorruptedScenarioTests {
    static let samples = ["checkout", "barrier-loop", "stuck-gate", "add-to-cart", "analytics-dispatch"]

    static func load(_ bytes: [UInt8]) -> String? {
        do {
            _ = try ScenarioLoader.load(json: String(decoding: bytes, as: UTF8.self), file: "damaged.json")
            return nil
        } catch {
            return error.description
        }
    }

    @Test("cuts and flipped bytes: a located error or a valid scenario", arguments: samples)
    func damaged(name: String) throws {
        let bytes = Array(try Data(contentsOf: repoRoot.appendingPathComponent("samples/\(name).json")))
        let located = #/^damaged\.json:\d+(:\d+)?: /#
        var errors = 0
        // Cut at every line end and in the middle of every line.
        var cuts: [Int] = [0]
        var start = 0
        for (i, b) in bytes.enumerated() where b == 0x0A {
            cuts.append((start + i) / 2)
            cuts.append(i)
            start = i + 1
        }
        for cut in cuts where cut < bytes.count - 1 {
            let message = try #require(Self.load(Array(bytes[..<cut])), "a cut at byte \(cut) loaded")
            #expect(message.contains(located) || message.hasPrefix("damaged.json: "), "\(message)")
            errors += 1
        }
        // One flipped byte per line (the first non-blank one, and one in the middle).
        start = 0
        for (i, b) in bytes.enumerated() where b == 0x0A {
            for p in Set([start + (bytes[start..<i].firstIndex { $0 != 0x20 } ?? start) - start, (start + i) / 2]) where p < i {
                var damaged = bytes
                damaged[p] ^= 0x01
                if let message = Self.load(damaged) {
                    #expect(message.contains(located), "\(message)")
                    errors += 1
                }
            }
            start = i + 1
        }
        #expect(errors > 0)
    }
}

@Suite("YAML integers")
struct YAMLIntegerTests {
    @Test("YAML 1.1 integers read as Yams reads them, and overflow is no crash (found by make fuzz)")
    func integers() throws {
        #expect(YAMLDocument.integer("42") == 42)
        #expect(YAMLDocument.integer("-1_000") == -1000)
        #expect(YAMLDocument.integer("0x1F") == 31)
        #expect(YAMLDocument.integer("0o17") == 15)
        #expect(YAMLDocument.integer("017") == 15)
        #expect(YAMLDocument.integer("0b101") == 5)
        #expect(YAMLDocument.integer("1:30") == 90)
        #expect(YAMLDocument.integer("-1:00:00") == -3600)
        #expect(YAMLDocument.integer("-222311022222223110:55") == nil)
        #expect(YAMLDocument.integer("99999999999999999999") == nil)
        #expect(throws: ScenarioError.self) { try ScenarioLoader.load(yaml: "-222311022222223110:55", file: "x.yaml") }
        // In a field that takes a number, the value that does not fit is a located type error.
        #expect {
            try ScenarioLoader.load(yaml: "scenario: s\nboards: [{id: a}]\nscript: [{at: 9999999999999999:00:00, activate: a}]\n", file: "x.yaml")
        } throws: { error in
            "\(error)".hasPrefix("x.yaml:3:")
        }
    }
}
