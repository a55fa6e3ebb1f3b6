import Foundation

/// What a combined flow expects of one board's output (Boardy's `OutputSpecifications`).
public protocol OutputSpecifications {
    /// The board.
    var identifier: BoardID { get }
    /// Whether `data` counts as this board's output.
    func validateOutput(_ data: Any?) -> Bool
}

/// Any output of a board, except Boardy's own messages (flow actions, activation and command
/// models, completions) unless `validation` says otherwise (Boardy's
/// `GeneralOutputSpecifications`).
public struct GeneralOutputSpecifications: OutputSpecifications {
    /// The board.
    public let identifier: BoardID
    /// What counts.
    public let validation: (Any?) -> Bool

    /// Specifications for `identifier`.
    public init(identifier: BoardID, validation: ((Any?) -> Bool)? = nil) {
        self.identifier = identifier
        self.validation = validation ?? { !isBoardyMessage($0) }
    }

    /// What `validation` says.
    public func validateOutput(_ data: Any?) -> Bool { validation(data) }
}

/// A board's outputs of type `Value` (Boardy's `GuaranteedOutputSpecifications`; a typed
/// ``FlowHandler`` gives them as ``FlowHandler/specifications``).
public struct GuaranteedOutputSpecifications<Value>: OutputSpecifications {
    /// The board.
    public let identifier: BoardID
    /// The output type.
    public let valueType: Value.Type

    /// Specifications for `identifier`'s `Value` outputs.
    public init(identifier: BoardID, valueType: Value.Type) {
        self.identifier = identifier
        self.valueType = valueType
    }

    /// Whether `data` is a `Value`.
    public func validateOutput(_ data: Any?) -> Bool { data is Value }
}

extension FlowHandler {
    /// This board's `Output`s, for a combined flow.
    public var specifications: GuaranteedOutputSpecifications<Output> { GuaranteedOutputSpecifications(identifier: matchedIdentifier, valueType: Output.self) }
}

/// Whether `data` is one of Boardy's messages rather than an output.
func isBoardyMessage(_ data: Any?) -> Bool {
    data is any BoardFlowAction || data is any BoardInputModel || data is any BoardCommandModel || data is CompleteAction || data is UIElementAction
}

/// A flow that waits for an output of every board it names and then runs its handler with
/// them, in the order of its specifications (Boardy's `OutputCombinedFlow`). With
/// `.batchOneByOne` it starts over after each run; with `.latestForever` each new output runs it
/// again with the latest of the others.
open class OutputCombinedFlow: BoardFlow {
    /// When the handler runs again.
    public enum Strategy {
        /// Each run needs a fresh output of every board.
        case batchOneByOne
        /// After the first run, every output runs it again with the latest of the others.
        case latestForever
    }

    /// The flow's identifier.
    public let identifier: String
    /// What each board's output must be.
    public let specifications: [any OutputSpecifications]
    /// When the handler runs again.
    public let strategy: Strategy
    let handler: ([Any]) -> Void
    private let latest = Locked<[BoardID: Any]>([:])

    /// The boards' ids, in order.
    public var matchedIdentifiers: [BoardID] { specifications.map(\.identifier) }

    /// A flow over any output of `matchedIdentifiers`.
    public init(identifier: String = UUID().uuidString, matchedIdentifiers: [BoardID], strategy: Strategy = .batchOneByOne, handler: @escaping ([Any]) -> Void) {
        self.identifier = identifier
        specifications = matchedIdentifiers.map { GeneralOutputSpecifications(identifier: $0) }
        self.strategy = strategy
        self.handler = handler
    }

    /// A flow over the outputs `specifications` accept.
    public init(identifier: String = UUID().uuidString, specifications: [any OutputSpecifications], strategy: Strategy, handler: @escaping ([Any]) -> Void) {
        self.identifier = identifier
        self.specifications = specifications
        self.strategy = strategy
        self.handler = handler
    }

    /// Whether `output` is from one of the boards and its specification accepts it.
    public func match(with output: any BoardOutputModel) -> Bool {
        specifications.first { $0.identifier == output.identifier }?.validateOutput(output.data) ?? false
    }

    /// Keeps the output; once every board has one, runs the handler (outside the lock).
    public func doNext(with output: any BoardOutputModel) {
        let ids = matchedIdentifiers
        let ready: [Any]? = latest.withLock { values in
            values[output.identifier] = output.data as Any
            guard ids.allSatisfy({ values[$0] != nil }) else { return nil }
            let batch = ids.map { values[$0]! }
            if case .batchOneByOne = strategy { values.removeAll() }
            return batch
        }
        if let ready { handler(ready) }
    }
}

/// A combined flow over outputs of one type (Boardy's `OutputCombinedCollectionFlow`).
open class OutputCombinedCollectionFlow<Value>: OutputCombinedFlow {
    /// A flow over `specs`, handing the values as `[Value]`.
    public init(identifier: String = UUID().uuidString, specs: [GuaranteedOutputSpecifications<Value>], strategy: Strategy, handler: @escaping ([Value]) -> Void) {
        super.init(identifier: identifier, specifications: specs, strategy: strategy) { values in
            let typed = values.compactMap { $0 as? Value }
            if typed.count == values.count { handler(typed) }
        }
    }
}

/// A combined flow over 2 boards' outputs of their own types (Boardy's `OutputCombined2Flow`):
/// the handler runs with one value of each, in order; values of another type are skipped.
open class OutputCombined2Flow<V1, V2>: OutputCombinedFlow {
    /// A flow over the outputs `spec1`…`spec2` name.
    public init(
        identifier: String = UUID().uuidString,
        spec1: GuaranteedOutputSpecifications<V1>,
        spec2: GuaranteedOutputSpecifications<V2>,
        strategy: Strategy,
        handler: @escaping (V1, V2) -> Void
    ) {
        super.init(identifier: identifier, specifications: [spec1, spec2], strategy: strategy) { values in
            if let v1 = values[0] as? V1, let v2 = values[1] as? V2 { handler(v1, v2) }
        }
    }
}

/// A combined flow over 3 boards' outputs of their own types (Boardy's `OutputCombined3Flow`):
/// the handler runs with one value of each, in order; values of another type are skipped.
open class OutputCombined3Flow<V1, V2, V3>: OutputCombinedFlow {
    /// A flow over the outputs `spec1`…`spec3` name.
    public init(
        identifier: String = UUID().uuidString,
        spec1: GuaranteedOutputSpecifications<V1>,
        spec2: GuaranteedOutputSpecifications<V2>,
        spec3: GuaranteedOutputSpecifications<V3>,
        strategy: Strategy,
        handler: @escaping (V1, V2, V3) -> Void
    ) {
        super.init(identifier: identifier, specifications: [spec1, spec2, spec3], strategy: strategy) { values in
            if let v1 = values[0] as? V1, let v2 = values[1] as? V2, let v3 = values[2] as? V3 { handler(v1, v2, v3) }
        }
    }
}

/// A combined flow over 4 boards' outputs of their own types (Boardy's `OutputCombined4Flow`):
/// the handler runs with one value of each, in order; values of another type are skipped.
open class OutputCombined4Flow<V1, V2, V3, V4>: OutputCombinedFlow {
    /// A flow over the outputs `spec1`…`spec4` name.
    public init(
        identifier: String = UUID().uuidString,
        spec1: GuaranteedOutputSpecifications<V1>,
        spec2: GuaranteedOutputSpecifications<V2>,
        spec3: GuaranteedOutputSpecifications<V3>,
        spec4: GuaranteedOutputSpecifications<V4>,
        strategy: Strategy,
        handler: @escaping (V1, V2, V3, V4) -> Void
    ) {
        super.init(identifier: identifier, specifications: [spec1, spec2, spec3, spec4], strategy: strategy) { values in
            if let v1 = values[0] as? V1, let v2 = values[1] as? V2, let v3 = values[2] as? V3, let v4 = values[3] as? V4 { handler(v1, v2, v3, v4) }
        }
    }
}

/// A combined flow over 5 boards' outputs of their own types (Boardy's `OutputCombined5Flow`):
/// the handler runs with one value of each, in order; values of another type are skipped.
open class OutputCombined5Flow<V1, V2, V3, V4, V5>: OutputCombinedFlow {
    /// A flow over the outputs `spec1`…`spec5` name.
    public init(
        identifier: String = UUID().uuidString,
        spec1: GuaranteedOutputSpecifications<V1>,
        spec2: GuaranteedOutputSpecifications<V2>,
        spec3: GuaranteedOutputSpecifications<V3>,
        spec4: GuaranteedOutputSpecifications<V4>,
        spec5: GuaranteedOutputSpecifications<V5>,
        strategy: Strategy,
        handler: @escaping (V1, V2, V3, V4, V5) -> Void
    ) {
        super.init(identifier: identifier, specifications: [spec1, spec2, spec3, spec4, spec5], strategy: strategy) { values in
            if let v1 = values[0] as? V1, let v2 = values[1] as? V2, let v3 = values[2] as? V3, let v4 = values[3] as? V4, let v5 = values[4] as? V5 { handler(v1, v2, v3, v4, v5) }
        }
    }
}

extension FlowManageable {
    /// Registers a combined flow over `specs` running `run` with the values, in order (the
    /// typed overloads cast them by position).
    private func combined(_ specs: [any OutputSpecifications], _ strategy: OutputCombinedFlow.Strategy, _ run: @escaping ([Any]) -> Void) -> Self {
        registerFlow(OutputCombinedFlow(specifications: specs, strategy: strategy, handler: run))
        return self
    }

    /// Runs `nextHandler` with one output of each board, in order.
    @discardableResult
    public func registerCombinedFlow<Output>(
        _ specs: [GuaranteedOutputSpecifications<Output>], strategy: OutputCombinedFlow.Strategy = .batchOneByOne, nextHandler: @escaping ([Output]) -> Void
    ) -> Self {
        registerFlow(OutputCombinedCollectionFlow(specs: specs, strategy: strategy, handler: nextHandler))
        return self
    }

    /// Runs `action` with `target` (held weakly when it is an object) and one output of each board.
    @discardableResult
    public func registerCombinedFlow<Target, Output>(
        _ specs: [GuaranteedOutputSpecifications<Output>], strategy: OutputCombinedFlow.Strategy = .batchOneByOne, target: Target,
        action: @escaping (Target, [Output]) -> Void
    ) -> Self {
        let box = TargetBox(target)
        return registerCombinedFlow(specs, strategy: strategy) { values in if let t = box.target { action(t, values) } }
    }

    /// Runs `nextHandler` with an output of each of two boards.
    @discardableResult
    public func registerCombinedFlow<O1, O2>(
        _ s1: GuaranteedOutputSpecifications<O1>, _ s2: GuaranteedOutputSpecifications<O2>, strategy: OutputCombinedFlow.Strategy = .batchOneByOne,
        nextHandler: @escaping (O1, O2) -> Void
    ) -> Self {
        combined([s1, s2], strategy) { v in
            if let a = v[0] as? O1, let b = v[1] as? O2 { nextHandler(a, b) }
        }
    }

    /// Runs `action` with `target` (held weakly when it is an object) and an output of each of two boards.
    @discardableResult
    public func registerCombinedFlow<Target, O1, O2>(
        _ s1: GuaranteedOutputSpecifications<O1>, _ s2: GuaranteedOutputSpecifications<O2>, strategy: OutputCombinedFlow.Strategy = .batchOneByOne,
        target: Target, action: @escaping (Target, O1, O2) -> Void
    ) -> Self {
        let box = TargetBox(target)
        return registerCombinedFlow(s1, s2, strategy: strategy) { a, b in if let t = box.target { action(t, a, b) } }
    }

    /// Runs `nextHandler` with an output of each of three boards.
    @discardableResult
    public func registerCombinedFlow<O1, O2, O3>(
        _ s1: GuaranteedOutputSpecifications<O1>, _ s2: GuaranteedOutputSpecifications<O2>, _ s3: GuaranteedOutputSpecifications<O3>,
        strategy: OutputCombinedFlow.Strategy = .batchOneByOne, nextHandler: @escaping (O1, O2, O3) -> Void
    ) -> Self {
        combined([s1, s2, s3], strategy) { v in
            if let a = v[0] as? O1, let b = v[1] as? O2, let c = v[2] as? O3 { nextHandler(a, b, c) }
        }
    }

    /// Runs `action` with `target` (held weakly when it is an object) and an output of each of three boards.
    @discardableResult
    public func registerCombinedFlow<Target, O1, O2, O3>(
        _ s1: GuaranteedOutputSpecifications<O1>, _ s2: GuaranteedOutputSpecifications<O2>, _ s3: GuaranteedOutputSpecifications<O3>,
        strategy: OutputCombinedFlow.Strategy = .batchOneByOne, target: Target, action: @escaping (Target, O1, O2, O3) -> Void
    ) -> Self {
        let box = TargetBox(target)
        return registerCombinedFlow(s1, s2, s3, strategy: strategy) { a, b, c in if let t = box.target { action(t, a, b, c) } }
    }

    /// Runs `nextHandler` with an output of each of four boards.
    @discardableResult
    public func registerCombinedFlow<O1, O2, O3, O4>(
        _ s1: GuaranteedOutputSpecifications<O1>, _ s2: GuaranteedOutputSpecifications<O2>, _ s3: GuaranteedOutputSpecifications<O3>,
        _ s4: GuaranteedOutputSpecifications<O4>, strategy: OutputCombinedFlow.Strategy = .batchOneByOne, nextHandler: @escaping (O1, O2, O3, O4) -> Void
    ) -> Self {
        combined([s1, s2, s3, s4], strategy) { v in
            if let a = v[0] as? O1, let b = v[1] as? O2, let c = v[2] as? O3, let d = v[3] as? O4 { nextHandler(a, b, c, d) }
        }
    }

    /// Runs `action` with `target` (held weakly when it is an object) and an output of each of four boards.
    @discardableResult
    public func registerCombinedFlow<Target, O1, O2, O3, O4>(
        _ s1: GuaranteedOutputSpecifications<O1>, _ s2: GuaranteedOutputSpecifications<O2>, _ s3: GuaranteedOutputSpecifications<O3>,
        _ s4: GuaranteedOutputSpecifications<O4>, strategy: OutputCombinedFlow.Strategy = .batchOneByOne, target: Target,
        action: @escaping (Target, O1, O2, O3, O4) -> Void
    ) -> Self {
        let box = TargetBox(target)
        return registerCombinedFlow(s1, s2, s3, s4, strategy: strategy) { a, b, c, d in if let t = box.target { action(t, a, b, c, d) } }
    }

    /// Runs `nextHandler` with an output of each of five boards.
    @discardableResult
    public func registerCombinedFlow<O1, O2, O3, O4, O5>(
        _ s1: GuaranteedOutputSpecifications<O1>, _ s2: GuaranteedOutputSpecifications<O2>, _ s3: GuaranteedOutputSpecifications<O3>,
        _ s4: GuaranteedOutputSpecifications<O4>, _ s5: GuaranteedOutputSpecifications<O5>, strategy: OutputCombinedFlow.Strategy = .batchOneByOne,
        nextHandler: @escaping (O1, O2, O3, O4, O5) -> Void
    ) -> Self {
        combined([s1, s2, s3, s4, s5], strategy) { v in
            if let a = v[0] as? O1, let b = v[1] as? O2, let c = v[2] as? O3, let d = v[3] as? O4, let e = v[4] as? O5 { nextHandler(a, b, c, d, e) }
        }
    }

    /// Runs `action` with `target` (held weakly when it is an object) and an output of each of five boards.
    @discardableResult
    public func registerCombinedFlow<Target, O1, O2, O3, O4, O5>(
        _ s1: GuaranteedOutputSpecifications<O1>, _ s2: GuaranteedOutputSpecifications<O2>, _ s3: GuaranteedOutputSpecifications<O3>,
        _ s4: GuaranteedOutputSpecifications<O4>, _ s5: GuaranteedOutputSpecifications<O5>, strategy: OutputCombinedFlow.Strategy = .batchOneByOne,
        target: Target, action: @escaping (Target, O1, O2, O3, O4, O5) -> Void
    ) -> Self {
        let box = TargetBox(target)
        return registerCombinedFlow(s1, s2, s3, s4, s5, strategy: strategy) { a, b, c, d, e in if let t = box.target { action(t, a, b, c, d, e) } }
    }
}
