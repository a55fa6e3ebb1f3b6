import BoardyTestSupport
import BoardyTrace
import BoardyVizCore
import Testing

/// Flow models built from what the engine hands out (a definition value) and weighed by traces,
/// without a scenario, an engine or Graphviz.
@Suite("Flow models")
struct FlowModelTests {
    /// A live motherboard's definition, as `Motherboard.definition` writes it.
    let definition: JSONValue = [
        "boards": [
            ["id": "cart", "type": "CartBoard"],
            ["id": "pay", "type": "PaymentBoard", "motherboard": ["boards": [["id": "charge", "type": "ChargeTask"]]]],
        ],
        "produced": ["cart", "later"],
        "flows": [["from": "cart", "to": "pay", "on": "output"]],
    ]

    @Test("a definition value gives boards with their Swift types, inner motherboards, produced-only boards and flows")
    func fromDefinition() {
        let model = FlowModel(definition: definition, path: "main", title: "live")
        #expect(model.boards.map(\.key) == ["cart", "pay", "pay/charge", "later"])
        #expect(model.boards.map(\.kindLabel) == ["CartBoard", "PaymentBoard", "ChargeTask", "produced"])
        #expect(model.boards.first { $0.id == "later" }?.kind == nil)
        #expect(model.boards.first { $0.id == "pay" }?.inner == "main/pay")
        #expect(model.links.map { "\($0.from)→\($0.to) \($0.label)" } == ["cart→pay any output"])
    }

    @Test("weigh(by:) counts each link by the routings a trace records, and each board's activations")
    func weights() throws {
        var model = FlowModel(title: "checkout", source: "scenario")
        model.boards = ["pubShoppingCart", "pubOrdering", "pubPayment"].map { FlowModel.Board(id: $0) }
        model.links = [
            FlowModel.Link(from: "pubShoppingCart", to: "pubOrdering", kind: .flow, label: "any output"),
            FlowModel.Link(from: "pubOrdering", to: "pubShoppingCart", kind: .flow, label: "any output"),
        ]
        let trace = try sampleTrace("checkout")
        model.weigh(by: [trace, trace])
        #expect(model.coverage)
        let observed = FlowModel(trace: trace)
        let routed = observed.links.first { $0.from == "pubShoppingCart" && $0.to == "pubOrdering" && $0.kind == .flow }?.count ?? 0
        #expect(routed > 0, "the sample routes the cart to ordering")
        #expect(model.links[0].count == 2 * routed, "two copies of the trace count twice")
        #expect(model.links[1].count == 0, "a link no trace exercised weighs nothing")
        let performed = observed.boards.first { $0.key == "pubOrdering" }?.count ?? 0
        #expect(model.boards[1].count == 2 * performed)
    }

    @Test("a trace's track stimuli are counted as dispatches made directly (a stimulus case before them once hid them)", arguments: sampleNames)
    func directTracks(name: String) throws {
        let trace = try sampleTrace(name)
        let tracks = trace.events.filter { e in
            if case .stimulus(let action, _) = e.body { return StimulusAction(rawValue: action) == .track }
            return false
        }.count
        let observed = FlowModel(trace: trace)
        #expect((observed.dispatch?.directTracks ?? 0) == tracks)
        if name == "checkout" || name == "analytics-dispatch" { #expect(tracks > 0) }
    }
}

/// A definition value comes from outside the module (a motherboard of any app, or JSON read
/// back): shapes it does not expect are skipped, never a crash.
@Suite("Flow models from malformed definitions")
struct MalformedDefinitionTests {
    @Test("not an object, boards without ids, ids and flows of the wrong type: skipped, the rest kept", arguments: [
        JSONValue.null, .array([]), .string("boards"), .int(3),
        ["boards": "not a list"], ["boards": [.int(1), ["type": "NoID"], ["id": .int(7)]]],
        ["boards": [["id": "a", "motherboard": .int(1)]], "produced": [.null, "b"], "flows": [.int(1), ["from": "a"], ["from": "a", "to": .int(2)]]],
    ])
    func malformed(_ definition: JSONValue) {
        let model = FlowModel(definition: definition, path: "main", title: "odd")
        #expect(model.links.isEmpty)
        #expect(model.boards.allSatisfy { ["a", "b"].contains($0.id) })
    }
}
