/// A gate in front of a board (Boardy's `ActivationBarrier`): before the board activates, the
/// gate board runs, and only its `complete(true)` lets the activation through.
///
/// ```swift
/// final class SomeBoard: Board, GuaranteedBoard {
///     typealias InputType = String
///     func activationBarrier(withGuaranteedInput input: String) -> ActivationBarrier? {
///         motherboard?.io("pubAuth", input: Void.self, output: Bool.self, command: Void.self).activation.barrier()
///     }
///     func activate(withGuaranteedInput input: String) { ... }
/// }
/// ```
///
/// The barrier's identifier is the gate plus the option. Activations requested on the same
/// identifier while its cycle runs share one run of the gate and are released together, in
/// request order (Boardy rule 12).
public struct ActivationBarrier {
    /// The gate board.
    public var gate: BoardID
    /// Where the barrier lives.
    public var scope: ActivationBarrierScope
    /// What distinguishes barriers on the same gate.
    public var option: ActivationBarrierOption
    /// The gate's input when this request starts a cycle.
    public var input: Any?

    /// A barrier on `gate`, in `scope` (``ActivationBarrierScope/mainboard`` by default, as
    /// Boardy's documentation says; its IO helpers default to `.application`).
    public init(gate: BoardID, scope: ActivationBarrierScope = .mainboard, option: ActivationBarrierOption = .void, input: Any? = nil) {
        self.gate = gate
        self.scope = scope
        self.option = option
        self.input = input
    }

    /// The barrier identifier: the gate id for `.void`, `gate:key` for `.unique(key)`.
    public var identifier: String {
        switch option {
        case .void: return gate.rawValue
        case let .unique(key): return "\(gate.rawValue):\(key)"
        }
    }
}

/// Where an activation barrier lives (Boardy rule 16).
public enum ActivationBarrierScope: String, Sendable, Hashable {
    /// In the motherboard of the board it guards.
    case mainboard
    /// One per identifier for the whole app: every motherboard of a runtime shares it.
    case application
}

/// What distinguishes barriers on the same gate.
public enum ActivationBarrierOption: Sendable, Hashable {
    /// One barrier per gate.
    case void
    /// One barrier per gate and key.
    case unique(String)
}

extension ActivationHandle {
    /// A barrier whose gate is this board (Boardy's `ioX().activation.barrier()`).
    public func barrier(scope: ActivationBarrierScope = .mainboard, option: ActivationBarrierOption = .void, with input: Input)
        -> ActivationBarrier
    {
        ActivationBarrier(gate: identifier, scope: scope, option: option, input: input)
    }
}

extension ActivationHandle where Input == Void {
    /// A barrier whose gate is this board, which takes no input.
    public func barrier(scope: ActivationBarrierScope = .mainboard, option: ActivationBarrierOption = .void) -> ActivationBarrier {
        ActivationBarrier(gate: identifier, scope: scope, option: option)
    }
}
