/// A dictionary of board factories (Boardy's `BoardContainer`, the producer a `PluginLauncher`
/// fills): unlike ``BoardProducer``, registering an id again replaces its factory unless told
/// otherwise; gateway boards are registered once per id (`*` for every id without one).
public final class BoardContainer: BoardDynamicProducer {
    private let externalProducer: (any ActivatableBoardProducer)?
    private var container: [BoardID: BoardConstructor] = [:]
    private var gatewayContainer: [BoardID: BoardConstructor] = [:]

    /// A container that falls back to `externalProducer` for ids it does not know.
    public init(externalProducer: (any ActivatableBoardProducer)? = nil) {
        self.externalProducer = externalProducer
    }

    /// Registers `factory` for `identifier`, replacing any earlier one.
    public func registerBoard(_ identifier: BoardID, factory: @escaping BoardConstructor) {
        if container[identifier] != nil {
            BoardyConsole.warn(
                "⚠️ [BoardContainer] Board with identifier \(identifier) is already registered. The existing factory is replaced. Use registerBoard(_:replacingExisting:factory:) to state which one you want."
            )
        }
        registerBoard(identifier, replacingExisting: true, factory: factory)
    }

    /// Registers `factory` for `identifier`; an earlier one is kept unless `replacingExisting`.
    public func registerBoard(_ identifier: BoardID, replacingExisting: Bool, factory: @escaping BoardConstructor) {
        guard container[identifier] == nil || replacingExisting else { return }
        container[identifier] = factory
    }

    /// Registers one factory for every id of `identifiers`.
    public func registerBoards(_ identifiers: [BoardID], factory: @escaping BoardConstructor) {
        for id in identifiers { registerBoard(id, factory: factory) }
    }

    /// Registers one factory for every id of `identifiers`.
    public func registerBoards(_ identifiers: BoardID..., factory: @escaping BoardConstructor) {
        registerBoards(identifiers, factory: factory)
    }

    /// Registers the gateway board of `identifier` (`*` for every id), once: a second
    /// registration is ignored.
    public func registerGatewayBoard(_ identifier: BoardID, factory: @escaping (BoardID) -> any ActivatableBoard) {
        let id = identifier.gateway
        if gatewayContainer[id] == nil { gatewayContainer[id] = factory }
    }

    /// A new board for `identifier`, else the external producer's.
    public func produceBoard(identifier: BoardID) -> (any ActivatableBoard)? {
        if let factory = container[identifier] { return factory(identifier) }
        return externalProducer?.produceBoard(identifier: identifier)
    }

    /// The gateway board for `identifier` (its own, else `*`'s), else the external producer's.
    public func produceGatewayBoard(identifier: BoardID) -> (any ActivatableBoard)? {
        let id = identifier.gateway
        if let factory = gatewayContainer[id] { return factory(id) }
        let wildcard = BoardID.wildcard.gateway
        if let factory = gatewayContainer[wildcard] { return factory(wildcard) }
        return externalProducer?.produceGatewayBoard(identifier: identifier)
    }

    /// The board `identifier`'s factory makes, under `anotherIdentifier`.
    public func matchBoard(withIdentifier identifier: BoardID, to anotherIdentifier: BoardID) -> (any ActivatableBoard)? {
        if let factory = container[identifier] { return factory(anotherIdentifier) }
        return externalProducer?.matchBoard(withIdentifier: identifier, to: anotherIdentifier)
    }
}

/// A producer held without retaining it (Boardy's `boxed`): what a board hands the producer of
/// its own motherboard, so the two do not keep each other alive.
public struct BoardDynamicProducerBox: BoardDynamicProducer {
    /// The producer, while it lives.
    public weak var producer: (any BoardDynamicProducer & AnyObject)?

    /// A box around `producer`.
    public init(producer: (any BoardDynamicProducer & AnyObject)?) { self.producer = producer }

    /// The producer's board, while it lives.
    public func produceBoard(identifier: BoardID) -> (any ActivatableBoard)? { producer?.produceBoard(identifier: identifier) }
    /// The producer's gateway board, while it lives.
    public func produceGatewayBoard(identifier: BoardID) -> (any ActivatableBoard)? { producer?.produceGatewayBoard(identifier: identifier) }
    /// The producer's board under another id, while it lives.
    public func matchBoard(withIdentifier identifier: BoardID, to anotherIdentifier: BoardID) -> (any ActivatableBoard)? {
        producer?.matchBoard(withIdentifier: identifier, to: anotherIdentifier)
    }
    /// Registers with the producer, while it lives.
    public func registerBoard(_ identifier: BoardID, factory: @escaping (BoardID) -> any ActivatableBoard) {
        producer?.registerBoard(identifier, factory: factory)
    }
    /// Registers a gateway board with the producer, while it lives.
    public func registerGatewayBoard(_ identifier: BoardID, factory: @escaping (BoardID) -> any ActivatableBoard) {
        producer?.registerGatewayBoard(identifier, factory: factory)
    }
    /// Registers with the producer, while it lives.
    public func registerBoard(_ identifier: BoardID, replacingExisting: Bool, factory: @escaping (BoardID) -> any ActivatableBoard) {
        producer?.registerBoard(identifier, replacingExisting: replacingExisting, factory: factory)
    }
}

/// A producer held without retaining it (see ``BoardDynamicProducerBox``).
struct BoardProducerBox: ActivatableBoardProducer {
    weak var producer: (any ActivatableBoardProducer & AnyObject)?

    func produceBoard(identifier: BoardID) -> (any ActivatableBoard)? { producer?.produceBoard(identifier: identifier) }
    func produceGatewayBoard(identifier: BoardID) -> (any ActivatableBoard)? { producer?.produceGatewayBoard(identifier: identifier) }
    func matchBoard(withIdentifier identifier: BoardID, to anotherIdentifier: BoardID) -> (any ActivatableBoard)? {
        producer?.matchBoard(withIdentifier: identifier, to: anotherIdentifier)
    }
}

extension BoardDynamicProducer where Self: AnyObject {
    /// This producer, held without retaining it.
    public var boxed: any BoardDynamicProducer { BoardDynamicProducerBox(producer: self) }
}

extension ActivatableBoardProducer where Self: AnyObject {
    /// This producer, held without retaining it.
    public var boxed: any ActivatableBoardProducer { BoardProducerBox(producer: self) }
}
