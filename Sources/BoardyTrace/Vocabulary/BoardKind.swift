/// What kind of engine board a board is: a scenario's `kind`, an imported board's kind, a flow
/// graph's board (docs/contract.md §1.2).
public enum BoardKind: String, Sendable, CaseIterable {
    /// A plain activatable board.
    case board
    /// ComponentKit's `TaskBoard`.
    case task
    /// ComponentKit's `BlockTaskBoard`.
    case blockTask
    /// ComponentKit's `ResultTaskBoard`.
    case resultTask
    /// ComponentKit's flow board (a continuous board with its own flows).
    case flow
    /// ComponentKit's barrier board.
    case barrier
    /// A continuous board: a board with an inner motherboard.
    case continuous

    /// Task, result, block, flow and barrier boards bypass the gateway by default (Boardy rule 10).
    public var bypassesGatewayByDefault: Bool { self != .board && self != .continuous }

    /// A board with an inner motherboard (continuous and flow boards).
    public var hasInnerMotherboard: Bool { self == .continuous || self == .flow }
}
