/// One registered reaction of a motherboard: to a board's outputs, flow actions or completion.
///
/// Flow steps (`A ->> B`), IO handlers (`io.flow.addTarget`) and completion handlers are all
/// `FlowRoute`s. A motherboard runs every flow matching a message in registration order, on a
/// snapshot taken when the message is processed (Boardy rule 2).
public struct FlowRoute {
    /// What a flow reacts to.
    public enum Trigger {
        /// An output of `source` for which `matches` is true.
        case output(matches: (Any?) -> Bool)
        /// A flow action of `source` for which `matches` is true.
        case flowAction(matches: (Any?) -> Bool)
        /// The completion of `source` (with `isDone` if given, else any).
        case completion(isDone: Bool?)
    }

    /// The board whose messages the flow reacts to.
    public var source: BoardID
    /// What it reacts to.
    public var trigger: Trigger
    /// How the trace names the reaction (`activate`, `complete`, `relay`, `handler`, `completion`).
    public var action: FlowAction
    /// The board the reaction addresses, when there is one (for the trace and the graph).
    public var destination: BoardID?
    /// A short description of the match (`on` in scenarios), for definitions and graphs.
    public var label: String?
    /// The reaction; it runs with the output (or the completion's `isDone`) as its argument.
    public var perform: (Motherboard, Any?) -> Void
    /// Set for flow steps: the output goes on as the destination's input, and so does its trace
    /// JSON (converted once per value, not once per event).
    var stepDestination: BoardID?

    /// A flow.
    public init(
        source: BoardID, trigger: Trigger, action: FlowAction, destination: BoardID? = nil, label: String? = nil,
        perform: @escaping (Motherboard, Any?) -> Void
    ) {
        self.source = source
        self.trigger = trigger
        self.action = action
        self.destination = destination
        self.label = label
        self.perform = perform
    }

    /// How the flow appears in a definition fingerprint.
    var definition: JSONValue {
        var o = JSONObject([JSONMember(key: "from", value: .string(source.rawValue))])
        switch trigger {
        case .output: o["on"] = .string("output")
        case .flowAction: o["on"] = .string("flowAction")
        case .completion(let isDone): o["on"] = .string(isDone.map { "completion:\($0)" } ?? "completion")
        }
        if let label { o["match"] = .string(label) }
        o["action"] = .string(action.rawValue)
        if let destination { o["to"] = .string(destination.rawValue) }
        return .object(o)
    }
}

extension FlowRoute {
    /// A flow step `source ->> destination`.
    static func step(_ source: BoardID, _ destination: BoardID) -> FlowRoute {
        var flow = FlowRoute(source: source, trigger: .output(matches: { _ in true }), action: "activate", destination: destination) {
            mb, output in
            mb.activate(destination, with: output)
        }
        flow.stepDestination = destination
        return flow
    }
}

/// A registered route as one of Boardy's ``BoardFlow``s (what ``Motherboard/flows`` lists):
/// made when the list is read, so the routing hot path holds no weak reference to the
/// motherboard (a weakly referenced object retains through a slower path).
struct RouteFlow: BoardFlow {
    let registered: RegisteredFlow
    weak var motherboard: Motherboard?

    /// `route-<n>`, its place among the motherboard's flows.
    var identifier: String { registered.identifier }

    /// Whether `output` comes from the route's source and matches its trigger.
    func match(with output: any BoardOutputModel) -> Bool {
        guard output.identifier == registered.flow.source else { return false }
        if let done = output.data as? CompleteAction { return registered.matchesCompletion(done.isDone) }
        return registered.matchesOutput(output.data, flowAction: output.data is any BoardFlowAction)
    }

    /// Runs the route's reaction outside the engine's routing (a flow run by hand).
    func doNext(with output: any BoardOutputModel) {
        guard let motherboard else { return }
        registered.flow.perform(motherboard, (output.data as? CompleteAction).map(\.isDone) ?? output.data)
    }
}

/// A registered route, boxed so the work stack moves one reference instead of its closures.
final class RegisteredFlow {
    let flow: FlowRoute
    /// Its place among the motherboard's flows.
    let order: Int
    /// Flow steps match every output: no closure call.
    private let matchesEveryOutput: Bool

    init(_ flow: FlowRoute, order: Int) {
        self.flow = flow
        self.order = order
        matchesEveryOutput = flow.stepDestination != nil
    }

    /// `route-<n>`, its place among the motherboard's flows.
    var identifier: String { "route-\(order)" }

    func matchesOutput(_ value: Any?, flowAction: Bool) -> Bool {
        if matchesEveryOutput { return !flowAction }
        switch flow.trigger {
        case .output(let m): return !flowAction && m(value)
        case .flowAction(let m): return flowAction && m(value)
        case .completion: return false
        }
    }

    func matchesCompletion(_ isDone: Bool) -> Bool {
        if case .completion(let want) = flow.trigger { return want == nil || want == isDone }
        return false
    }
}
