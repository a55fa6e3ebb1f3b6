/// What produces boards on demand (Boardy's `ActivatableBoardProducer`).
public protocol ActivatableBoardProducer {
    /// A new board for `identifier`, or nil when it is not registered.
    func produceBoard(identifier: BoardID) -> (any ActivatableBoard)?
    /// The gateway board registered for `identifier` (Boardy's per-destination gateway), if any.
    func produceGatewayBoard(identifier: BoardID) -> (any ActivatableBoard)?
    /// A board for `identifier` produced under `anotherIdentifier`, if any.
    func matchBoard(withIdentifier identifier: BoardID, to anotherIdentifier: BoardID) -> (any ActivatableBoard)?
}

extension ActivatableBoardProducer {
    /// No board is produced under another id unless the producer says so.
    public func matchBoard(withIdentifier _: BoardID, to anotherIdentifier: BoardID) -> (any ActivatableBoard)? { nil }
    /// No gateway boards unless the producer registers them.
    public func produceGatewayBoard(identifier _: BoardID) -> (any ActivatableBoard)? { nil }
}

/// Boardy's older name of ``ActivatableBoardProducer``.
public typealias ActivableBoardProducer = ActivatableBoardProducer

/// A producer boards can be registered into (Boardy's `BoardDynamicProducer`).
public protocol BoardDynamicProducer: ActivatableBoardProducer {
    /// Registers `factory` for `identifier` (a registered id keeps its first factory).
    func registerBoard(_ identifier: BoardID, factory: @escaping (BoardID) -> any ActivatableBoard)
    /// Registers the gateway board for `identifier` (`*` for every id without one of its own).
    func registerGatewayBoard(_ identifier: BoardID, factory: @escaping (BoardID) -> any ActivatableBoard)
    /// Registers `factory` for `identifier`, replacing an earlier factory if `replacingExisting`.
    func registerBoard(_ identifier: BoardID, replacingExisting: Bool, factory: @escaping (BoardID) -> any ActivatableBoard)
}

extension BoardDynamicProducer {
    /// Registers one board instance, produced as itself.
    public func registerBoard(_ boardCreator: @autoclosure () -> any ActivatableBoard) {
        let board = boardCreator()
        registerBoard(board.identifier) { _ in board }
    }
}

/// Builds a board for an id (Boardy's `BoardConstructor`).
public typealias BoardConstructor = (BoardID) -> any ActivatableBoard

/// The end of a chain of producers (Boardy's `NoBoardProducer`): answers every id with a
/// ``NoBoard`` placeholder, as Boardy's does, so a lookup (`produceBoard(identifier:)`) never
/// returns nil; test `is NoBoard` to ask whether an id is registered. A motherboard does not
/// install such a placeholder: it records the activation as cancelled, `unregistered` (rule 1).
public final class NoBoardProducer: ActivatableBoardProducer {
    /// The empty producer.
    public init() {}
    /// A ``NoBoard`` placeholder for `identifier`.
    public func produceBoard(identifier: BoardID) -> (any ActivatableBoard)? { NoBoard(placeholderFor: identifier) }
    /// A ``NoBoard`` placeholder for `anotherIdentifier`.
    public func matchBoard(withIdentifier _: BoardID, to anotherIdentifier: BoardID) -> (any ActivatableBoard)? {
        NoBoard(placeholderFor: anotherIdentifier)
    }
}

/// One entry of dynamic registration: an id and the factory that builds its board. Equal when
/// their ids are (as in Boardy).
public struct BoardRegistration: Hashable {
    /// The id the factory builds.
    public let identifier: BoardID
    /// Builds the board, given its id (nil: not this time).
    public let constructor: (BoardID) -> (any ActivatableBoard)?

    /// A registration of `identifier`.
    public init(_ identifier: BoardID, constructor: @escaping (BoardID) -> (any ActivatableBoard)?) {
        self.identifier = identifier
        self.constructor = constructor
    }

    /// Registrations are equal when their ids are.
    public static func == (a: BoardRegistration, b: BoardRegistration) -> Bool { a.identifier == b.identifier }
    /// Hashes the id alone, as `==` compares.
    public func hash(into hasher: inout Hasher) { hasher.combine(identifier) }
}

/// What a registration builder accepts (Boardy's `BoardRegistrationsConvertible`).
public protocol BoardRegistrationsConvertible {
    /// The registrations it stands for.
    func asBoardRegistrations() -> [BoardRegistration]
}

extension BoardRegistration: BoardRegistrationsConvertible {
    /// Itself.
    public func asBoardRegistrations() -> [BoardRegistration] { [self] }
}

extension Array: BoardRegistrationsConvertible where Element == BoardRegistration {
    /// Itself.
    public func asBoardRegistrations() -> [BoardRegistration] { self }
}

/// Builds a list of registrations in Boardy's style: registrations, lists of them, and board
/// instances (registered as themselves).
@resultBuilder
public enum BoardRegistrationBuilder {
    /// A registration or a list of them.
    public static func buildExpression(_ r: any BoardRegistrationsConvertible) -> [BoardRegistration] { r.asBoardRegistrations() }
    /// A board instance, registered under its own id: every production returns that instance.
    public static func buildExpression(_ board: any ActivatableBoard) -> [BoardRegistration] { [BoardRegistration(board.identifier) { _ in board }] }
    /// The parts' registrations, in order.
    public static func buildBlock(_ parts: [BoardRegistration]...) -> [BoardRegistration] { parts.flatMap { $0 } }
    /// An `if` without `else`: nothing when it is false.
    public static func buildOptional(_ r: [BoardRegistration]?) -> [BoardRegistration] { r ?? [] }
    /// An `if` without `else` (Boardy's older builder spelling).
    public static func buildIf(_ r: [BoardRegistration]?) -> [BoardRegistration] { r ?? [] }
    /// The `if` branch of an `if`/`else` or a `switch` case.
    public static func buildEither(first r: [BoardRegistration]) -> [BoardRegistration] { r }
    /// The `else` branch of an `if`/`else` or a `switch` case.
    public static func buildEither(second r: [BoardRegistration]) -> [BoardRegistration] { r }
    /// A `for` loop: each pass's registrations, in order.
    public static func buildArray(_ r: [[BoardRegistration]]) -> [BoardRegistration] { r.flatMap { $0 } }
}

/// Produces boards on demand from registrations (Boardy's `BoardProducer`). The first
/// registration of an id wins; later ones are ignored (Boardy rule 7). An id it does not know is
/// asked of its external producer.
///
/// ```swift
/// let motherboard = Motherboard(boardProducer: BoardProducer(registrationsBuilder: { producer in
///     BoardRegistration(.modShoppingCart) { id in ShoppingCartBoard(identifier: id) }
///     BoardRegistration(.modPayment) { id in PaymentBoard(identifier: id) }
/// }))
/// ```
public final class BoardProducer: BoardDynamicProducer {
    private var table: [BoardID: BoardRegistration] = [:]
    private var gatewayTable: [BoardID: BoardRegistration] = [:]
    /// The ids in registration order (first registrations only).
    public private(set) var registeredIDs: [BoardID] = []
    /// Registrations ignored because their id was already registered.
    public private(set) var ignoredDuplicates: [BoardID] = []
    /// Where ids this producer does not know are looked up.
    public let externalProducer: any ActivatableBoardProducer

    /// A producer of `registrations` and `gatewayRegistrations`, falling back on
    /// `externalProducer`.
    public init(
        externalProducer: any ActivatableBoardProducer = NoBoardProducer(), registrations: [BoardRegistration] = [],
        gatewayRegistrations: [BoardRegistration] = []
    ) {
        self.externalProducer = externalProducer
        for r in registrations { add(registration: r) }
        for r in gatewayRegistrations where gatewayTable[r.identifier] == nil { gatewayTable[r.identifier] = r }
    }

    /// A producer whose registrations are built by `registrationsBuilder`, which receives the
    /// producer itself (boards that produce their own children keep it).
    public convenience init(
        externalProducer: any ActivatableBoardProducer = NoBoardProducer(),
        @BoardRegistrationBuilder registrationsBuilder: (_ producer: any ActivatableBoardProducer) -> [BoardRegistration]
    ) {
        self.init(externalProducer: externalProducer)
        for r in registrationsBuilder(self) { add(registration: r) }
    }

    /// The registrations.
    public var registrations: Set<BoardRegistration> { Set(table.values) }
    /// The gateway registrations.
    public var gatewayRegistrations: Set<BoardRegistration> { Set(gatewayTable.values) }

    /// Adds a registration, unless its id is registered already; true when added.
    @discardableResult
    public func add(registration: BoardRegistration) -> Bool {
        guard table[registration.identifier] == nil else {
            ignoredDuplicates.append(registration.identifier)
            return false
        }
        table[registration.identifier] = registration
        registeredIDs.append(registration.identifier)
        return true
    }

    /// Removes a registration; true when it was there.
    @discardableResult
    public func remove(registration: BoardRegistration) -> Bool {
        guard table.removeValue(forKey: registration.identifier) != nil else { return false }
        registeredIDs.removeAll { $0 == registration.identifier }
        return true
    }

    /// Registers `factory` for `identifier` (Boardy's `registerBoard(_:factory:)`).
    public func registerBoard(_ identifier: BoardID, factory: @escaping BoardConstructor) {
        if table[identifier] != nil {
            BoardyConsole.warn(
                "⚠️ [BoardProducer] Board with identifier \(identifier) is already registered. The existing factory is kept and this registration is ignored. Use registerBoard(_:replacingExisting:factory:) to state which one you want."
            )
        }
        add(registration: BoardRegistration(identifier) { factory($0) })
    }

    /// Registers `factory` for `identifier`, replacing an earlier one if `replacingExisting`.
    public func registerBoard(_ identifier: BoardID, replacingExisting: Bool, factory: @escaping BoardConstructor) {
        if replacingExisting, let old = table[identifier] { remove(registration: old) }
        add(registration: BoardRegistration(identifier) { factory($0) })
    }

    /// Registers the gateway board of `identifier` (`*` for every id without one of its own).
    public func registerGatewayBoard(_ identifier: BoardID, factory: @escaping (BoardID) -> any ActivatableBoard) {
        guard gatewayTable[identifier] == nil else {
            BoardyConsole.warn(
                identifier == .wildcard
                    ? "⚠️ [GatewayBarrier] is already registered. The registration will be ignored."
                    : "⚠️ [GatewayBarrier] with identifier \(identifier) is already registered. The registration will be ignored.")
            return
        }
        gatewayTable[identifier] = BoardRegistration(identifier) { factory($0) }
    }

    /// Whether any gateway board is registered.
    public var hasGatewayRegistrations: Bool { !gatewayTable.isEmpty }

    /// Whether `id` is registered here or with the external producer it has.
    public func canProduceBoard(identifier id: BoardID) -> Bool {
        table[id] != nil || (externalProducer as? BoardProducer)?.canProduceBoard(identifier: id) == true
            || !(externalProducer is NoBoardProducer || externalProducer is BoardProducer)
    }

    /// A new board for `id`, or nil when neither this producer nor its external one knows it.
    public func produceBoard(identifier id: BoardID) -> (any ActivatableBoard)? {
        if let r = table[id] { return r.constructor(id) }
        return externalProducer.produceBoard(identifier: id)
    }

    /// The gateway board for `id` (its own, else the `*` one), named `<id>.___GATEWAY___`.
    public func produceGatewayBoard(identifier id: BoardID) -> (any ActivatableBoard)? {
        guard !id.isGatewayProxy else { return nil }
        let gatewayID = id.gateway
        if let r = gatewayTable[id] ?? gatewayTable["*"] { return r.constructor(gatewayID) }
        return externalProducer.produceGatewayBoard(identifier: id)
    }
}
