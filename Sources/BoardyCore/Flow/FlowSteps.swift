infix operator ->> : AdditionPrecedence

/// A chain of boards, `A ->> B ->> C`: any output of each activates the next with that output as
/// its input (Boardy rule 19). Register it with `Motherboard.registerFlowSteps(_:)`.
public struct FlowSteps: Sendable, Hashable {
    /// The boards in order.
    public var boards: [BoardID]
    /// A chain of `boards`.
    public init(_ boards: [BoardID]) { self.boards = boards }

    /// The (source, destination) pairs: `A ->> B ->> C` is (A, B) and (B, C).
    public var steps: [(BoardID, BoardID)] {
        guard boards.count > 1 else { return [] }
        return (0..<(boards.count - 1)).map { (boards[$0], boards[$0 + 1]) }
    }
}

/// Starts a chain: `A ->> B`.
public func ->> (lhs: BoardID, rhs: BoardID) -> FlowSteps { FlowSteps([lhs, rhs]) }
/// Extends a chain: `A ->> B ->> C`.
public func ->> (lhs: FlowSteps, rhs: BoardID) -> FlowSteps { FlowSteps(lhs.boards + [rhs]) }

/// One step of a flow, from a board to the board its outputs activate (Boardy's `IDFlowStep`).
public struct IDFlowStep: Sendable, Hashable {
    /// The board whose outputs activate the destination.
    public let source: FlowStepID
    /// The board activated with each output of the source.
    public let destination: FlowStepID

    /// The step `source ->> destination`.
    public init(source: FlowStepID, destination: FlowStepID) {
        self.source = source
        self.destination = destination
    }
}

extension FlowManageable where Self: MotherboardType {
    /// Registers flow steps given one by one (Boardy's `registerFlowSteps(_:)` over
    /// ``IDFlowStep``s): each makes any output of its source activate its destination.
    @discardableResult
    public func registerFlowSteps(_ flowSteps: [IDFlowStep]) -> Self {
        for step in flowSteps { (self as? Motherboard)?.registerFlow(.step(step.source, step.destination)) }
        return self
    }
}
