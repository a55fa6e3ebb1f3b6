/// An app's map of its modules' IO helpers (Boardy's `ServiceMap`): apps extend it with one
/// property per module (`mainboard.serviceMap.modAuthentication.ioLogin`).
///
/// ```swift
/// extension ServiceMap {
///     var modAuthentication: AuthenticationServiceMap { link() }
/// }
/// final class AuthenticationServiceMap: ServiceMap {
///     var ioLogin: MainboardGenericDestination<Void, Bool, Void, BoardFlowNoneAction> {
///         MainboardGenericDestination(destinationID: .pubLogin, mainboard: mainboard)
///     }
/// }
/// ```
open class ServiceMap {
    /// The motherboard the helpers act on.
    public let mainboard: any FlowMotherboard

    /// A map over `mainboard`.
    public required init(mainboard: any FlowMotherboard) {
        self.mainboard = mainboard
    }

    /// The same motherboard seen through another map type.
    public func link<MapType: ServiceMap>(_: MapType.Type = MapType.self) -> MapType {
        MapType(mainboard: mainboard)
    }
}

extension MotherboardType where Self: FlowManageable {
    /// This motherboard's service map.
    public var serviceMap: ServiceMap { ServiceMap(mainboard: self) }
}

extension IdentifiableBoard {
    /// The service map of the motherboard this board is installed in. As Boardy's, it traps
    /// (a precondition: every build) when the board is not installed, after a `misuse` event
    /// where the board was installed before. Under ``MisusePolicy/record`` or
    /// ``MisusePolicy/ignore`` it is a map over an empty motherboard of its own (`unattached`
    /// in traces), where every activation is traced as unregistered.
    public var serviceMap: ServiceMap {
        if let motherboard = delegate as? any FlowMotherboard { return motherboard.serviceMap }
        let (runtime, path) = (self as? any ActivatableBoard)?.misuseHome ?? (nil, nil)
        BoardyMisuse(
            .serviceMapWithoutMotherboard, board: identifier, trap: .precondition,
            message: "❌ [Boardy] Cannot be found `serviceMap` due to the board \(identifier) was not installed into any motherboard!"
        ).report(runtime: runtime, mb: path)
        return ServiceMap(mainboard: Motherboard(identifier: "unattached"))
    }
}
