import Boardy
import BoardySimulation
import BoardyTestSupport
import Foundation
import Testing

let samplesDir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("samples")

@Suite("Simulator")
struct SimulatorTests {
    @Test("debug: print the checkout trace")
    func printCheckout() throws {
        let s = try ScenarioLoader.load(path: samplesDir.appendingPathComponent("checkout.json").path)
        let r = Simulator.run(s)
        print(r.trace.jsonl)
        print(r.summary, r.warnings)
        for e in s.expectations { print(e.check(r.trace.events)) }
    }
}
