/// One entry of dynamic registration: an id and the factory that builds its board.
public struct BoardRegistration {
    /// The id the factory builds.
    public let identifier: BoardID
    /// Builds the board, given its id.
    public let constructor: (BoardID) -> any ActivatableBoard

    /// A registration of `identifier`.
    public init(_ identifier: BoardID, constructor: @escaping (BoardID) -> any ActivatableBoard) {
        self.identifier = identifier
        self.constructor = constructor
    }
}

/// Builds a list of registrations in Boardy's style.
@resultBuilder
public enum BoardRegistrationBuilder {
    public static func buildExpression(_ r: BoardRegistration) -> [BoardRegistration] { [r] }
    public static func buildExpression(_ r: [BoardRegistration]) -> [BoardRegistration] { r }
    public static func buildBlock(_ parts: [BoardRegistration]...) -> [BoardRegistration] { parts.flatMap { $0 } }
    public static func buildOptional(_ r: [BoardRegistration]?) -> [BoardRegistration] { r ?? [] }
    public static func buildEither(first r: [BoardRegistration]) -> [BoardRegistration] { r }
    public static func buildEither(second r: [BoardRegistration]) -> [BoardRegistration] { r }
    public static func buildArray(_ r: [[BoardRegistration]]) -> [BoardRegistration] { r.flatMap { $0 } }
}

/// Produces boards on demand from registrations (Boardy's `BoardProducer`). The first
/// registration of an id wins; later ones are ignored (Boardy rule 7).
///
/// ```swift
/// let motherboard = Motherboard(boardProducer: BoardProducer(registrationsBuilder: { producer in
///     BoardRegistration(.modShoppingCart) { id in ShoppingCartBoard(identifier: id) }
///     BoardRegistration(.modPayment) { id in PaymentBoard(identifier: id) }
/// }))
/// ```
public final class BoardProducer {
    private var registrations: [BoardID: BoardRegistration] = [:]
    /// The ids in registration order (first registrations only).
    public private(set) var registeredIDs: [BoardID] = []
    /// Registrations ignored because their id was already registered.
    public private(set) var ignoredDuplicates: [BoardID] = []

    /// A producer of `registrations`.
    public init(registrations: [BoardRegistration] = []) {
        for r in registrations { add(registration: r) }
    }

    /// A producer whose registrations are built by `registrationsBuilder`, which receives the
    /// producer itself (boards that produce their own children keep it).
    public convenience init(@BoardRegistrationBuilder registrationsBuilder: (BoardProducer) -> [BoardRegistration]) {
        self.init()
        for r in registrationsBuilder(self) { add(registration: r) }
    }

    /// Adds a registration, unless its id is registered already.
    public func add(registration: BoardRegistration) {
        guard registrations[registration.identifier] == nil else {
            ignoredDuplicates.append(registration.identifier)
            return
        }
        registrations[registration.identifier] = registration
        registeredIDs.append(registration.identifier)
    }

    /// Whether `id` is registered.
    public func canProduceBoard(identifier id: BoardID) -> Bool { registrations[id] != nil }

    /// A new board for `id`, or nil when it is not registered.
    public func produceBoard(identifier id: BoardID) -> (any ActivatableBoard)? {
        registrations[id]?.constructor(id)
    }
}
