/// One connection to a ``Bus`` (Boardy's `BusCable`): it carries each transport to its handler
/// until it is invalidated.
open class BusCable<Input> {
    /// What a cable runs with each transport.
    public typealias Handler = (Input) -> Void
    private let handler: Handler
    private var valid = true

    /// A cable running `transportHandler` with each transport.
    public init(transportHandler: @escaping Handler) { handler = transportHandler }

    /// Carries `input` to the handler.
    open func transport(input: Input) { handler(input) }

    /// Whether the cable still carries transports.
    open var isValid: Bool { valid }

    /// Stops the cable; the bus drops it.
    open func invalidate() { valid = false }
}

/// A cable to a target held weakly (Boardy's `TargetBusCable`): valid while the target lives.
public final class TargetBusCable<Target: AnyObject, Input>: BusCable<Input> {
    private weak var target: Target?

    /// A cable running `handler` with `target` and each transport.
    public init(target: Target, handler: @escaping (Target, Input) -> Void) {
        self.target = target
        super.init { [weak target] input in if let target { handler(target, input) } }
    }

    /// Whether the target lives and the cable was not invalidated.
    public override var isValid: Bool { target != nil && super.isValid }

    /// Stops the cable and lets the target go.
    public override func invalidate() {
        target = nil
        super.invalidate()
    }
}

/// An event bus inside a board (Boardy's `Bus<T>`): delivers each transport to a snapshot of its
/// cables in connection order, skipping any invalidated meanwhile; targets are held weakly, and
/// a cable connected during a delivery gets the next transport only (Boardy rule 28).
public final class Bus<Input> {
    private var cables: [BusCable<Input>] = []

    /// An empty bus.
    public init() {}

    /// Connects `cable`.
    public func connect(_ cable: BusCable<Input>) {
        cables.append(cable)
    }

    /// Connects `target`; `handler` runs for each transport while `target` lives.
    public func connect<Target: AnyObject>(target: Target, handler: @escaping (Target, Input) -> Void) {
        connect(TargetBusCable(target: target, handler: handler))
    }

    /// Connects `target`; `handler` runs on each transport while `target` lives.
    public func connect<Target: AnyObject>(target: Target, handler: @escaping (Target) -> Void) {
        connect(TargetBusCable(target: target) { t, _ in handler(t) })
    }

    /// Connects `handler` for as long as the bus lives.
    public func deliver(handler: @escaping (Input) -> Void) {
        connect(BusCable(transportHandler: handler))
    }

    /// How many valid cables are connected.
    public var connectionCount: Int { cables.filter(\.isValid).count }

    /// Delivers `input` to the valid cables, in connection order.
    public func transport(input: Input) {
        cables.removeAll { !$0.isValid }
        let snapshot = cables
        for cable in snapshot where cable.isValid { cable.transport(input: input) }
    }
}

extension Bus where Input == Void {
    /// Delivers a transport that carries nothing.
    public func transport() { transport(input: ()) }
}
