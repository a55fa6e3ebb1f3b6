/// A gate in front of a board (Boardy's `ActivationBarrier`): before the board activates, the
/// gate board runs, and only its `complete(true)` lets the activation through.
///
/// ```swift
/// final class SomeBoard: Board, GuaranteedBoard {
///     typealias InputType = String
///     func activationBarrier(withGuaranteedInput input: String) -> ActivationBarrier? {
///         motherboard.ioAuthentication().activation.barrier()
///     }
///     func activate(withGuaranteedInput input: String) { ... }
/// }
/// ```
///
/// Activations requested on the same barrier while its cycle runs share one run of the gate and
/// are released together, in request order (Boardy rule 12). The gate is activated with the
/// option's value: nothing for ``ActivationBarrierOption/void``, the key for
/// ``ActivationBarrierOption/unique(_:)``, the value for
/// ``ActivationBarrierOption/unidentified(_:)``.
public struct ActivationBarrier {
    /// The gate board (Boardy names it `identifier`; ``gate`` says the same).
    public let identifier: BoardID
    /// Where the barrier lives.
    public let scope: ActivationBarrierScope
    /// What distinguishes barriers on the same gate, and the gate's input.
    public let option: ActivationBarrierOption

    /// A barrier on the gate `identifier`, in `scope` (``ActivationBarrierScope/mainboard`` by
    /// default, as Boardy's documentation says; its IO helpers default to `.application`).
    /// Boardy keeps this initializer internal; here it is public, so a barrier can be built
    /// without an IO helper.
    public init(identifier: BoardID, scope: ActivationBarrierScope = .mainboard, option: ActivationBarrierOption = .void) {
        self.identifier = identifier
        self.scope = scope
        self.option = option
        if case .fresh = option.identity {
            instance = Self.instances.withLock { n in
                n += 1
                return n
            }
        } else {
            instance = 0
        }
    }

    /// For a one-of-a-kind barrier (a fresh `.unidentified` one): which one, so that its barrier
    /// identifier is its own and the same on every read (Boardy gives it a UUID). Never traced:
    /// the trace numbers fresh runs itself, in the order they are checked, so traces stay the
    /// same on every run.
    private let instance: Int
    private static let instances = Locked(0)

    /// A barrier on `gate` (the same as ``init(identifier:scope:option:)``).
    public init(gate: BoardID, scope: ActivationBarrierScope = .mainboard, option: ActivationBarrierOption = .void) {
        self.init(identifier: gate, scope: scope, option: option)
    }

    /// The gate board.
    public var gate: BoardID { identifier }

    /// The identifier of the barrier board that guards the activation, in Boardy's form
    /// (`<gate>.___PRIVATE_BARRIER___`, then the option). Boardy appends a `.unique` key's
    /// `hashValue`, which changes from one process to the next; this appends the key itself, so
    /// the identifier is the same on every run. A fresh `.unidentified` barrier's identifier is
    /// its own: two such barriers never share one (see ``ActivationBarrierOption/unidentified(_:)``).
    public var barrierIdentifier: BoardID {
        let base = identifier.privateBarrier
        switch option.identity {
        case .shared: return base
        case let .keyed(key): return base.appending(String(describing: key.base))
        case .none: return base.appending("none")
        case .fresh: return base.appending("unidentified").appending(String(instance))
        }
    }

    /// The barrier identifier as traced (docs/contract.md §1): the gate id for `.void`, `gate:key` for
    /// `.unique(key)`, `gate#none` for `.unidentified(nil)`; a fresh `.unidentified` run is
    /// numbered by the runtime (`gate#1`, `gate#2`, ...).
    var traceIdentifier: String {
        // The gate and the key are percent-encoded (`%`, `/`, `#`, `:`): a gate named `g#none`
        // or `g:k` never shares a name with gate `g`'s runs (docs/contract.md §1.2).
        let gate = MotherboardPath.encode(identifier.rawValue)
        switch option.identity {
        case .shared: return gate
        case let .keyed(key): return "\(gate):\(MotherboardPath.encode(String(describing: key.base)))"
        case .none: return "\(gate)#none"
        case .fresh: return "\(gate)#"
        }
    }

    /// What the gate is activated with (Boardy rule 12: the option's value; nil for `.void`,
    /// which Boardy passes as `()`, so a `Void` gate accepts it either way).
    var gateInput: Any? {
        switch option {
        case .void: return nil
        case let .unique(key): return key.base
        case let .unidentified(value): return value
        }
    }
}

/// Where an activation barrier lives (Boardy rule 16).
public enum ActivationBarrierScope: String, Sendable, Hashable {
    /// In the motherboard of the board it guards.
    case mainboard
    /// One per identifier for the whole app: every motherboard of a runtime shares it.
    case application

    /// Boardy's former name of ``mainboard``.
    @available(*, deprecated, renamed: "mainboard", message: "Use .mainboard instead")
    public static var inMain: ActivationBarrierScope { .mainboard }
    /// Boardy's former name of ``application``.
    @available(*, deprecated, renamed: "application", message: "Use .application instead")
    public static var global: ActivationBarrierScope { .application }
}

/// What distinguishes barriers on the same gate, and what the gate is activated with (Boardy's
/// `ActivationBarrierOption`).
public enum ActivationBarrierOption {
    /// One barrier per gate; the gate gets no input. The default.
    case void
    /// One barrier per gate and key; the gate gets the key.
    case unique(AnyHashable)
    /// A fresh barrier for every request: requests never share a run, and the gate gets the value.
    /// With a nil (or `Void`) value it behaves as ``void``, except that a nil barrier is one
    /// barrier of its own, as in Boardy.
    case unidentified(Any?)

    /// The option's value, as Boardy hands it to the gate (`()` for ``void``).
    public var value: Any? {
        switch self {
        case .void: return ()
        case let .unique(value): return value
        case let .unidentified(value): return value
        }
    }

    /// How requests with this option share runs.
    enum Identity {
        /// Every request on the gate shares one run.
        case shared
        /// Requests with an equal key share a run.
        case keyed(AnyHashable)
        /// `.unidentified(nil)`: one run of its own, shared by every nil request.
        case none
        /// Every request starts its own run.
        case fresh
    }

    var identity: Identity {
        switch self {
        case .void: return .shared
        case let .unique(key): return .keyed(key)
        case let .unidentified(value):
            guard let value else { return .none }
            return value is Void ? .shared : .fresh
        }
    }
}

extension ActivationHandle {
    /// A barrier whose gate is this board, activated with `input`: a fresh barrier for every
    /// request (Boardy's `barrier(scope:with:)`, which makes `.unidentified(input)`).
    public func barrier(scope: ActivationBarrierScope = .mainboard, with input: Input) -> ActivationBarrier {
        ActivationBarrier(identifier: identifier, scope: scope, option: .unidentified(input))
    }

    /// A barrier whose gate is this board, shared by every request with an equal `input`, which
    /// the gate gets (Boardy's `uniqueBarrier(scope:with:)`).
    public func uniqueBarrier(scope: ActivationBarrierScope = .mainboard, with input: Input) -> ActivationBarrier where Input: Hashable {
        ActivationBarrier(identifier: identifier, scope: scope, option: .unique(input))
    }

    /// A barrier whose gate is this board (Boardy's `ioX().activation.barrier()`).
    public func barrier(scope: ActivationBarrierScope = .mainboard, option: ActivationBarrierOption = .void) -> ActivationBarrier {
        ActivationBarrier(identifier: identifier, scope: scope, option: option)
    }
}
