import BoardyCore

/// Tealium's JSON barrier settings: `{"<key>": {"barrier_id": …, "scopes": […], "configuration": {…}}}`.
///
/// Parsing is lenient, as Tealium's is: an invalid entry is ignored with a warning that names its
/// key and says what was wrong (Tealium rule 6; Tealium itself ignores it silently).
public struct BarrierSettings: Sendable, Hashable {
    /// The fields of one entry of Tealium's barrier settings (docs/contract.md §1.1, "barrier
    /// setting"); others are warned about and ignored, as Tealium does.
    public static let entryKeys = ["barrier_id", "scopes", "configuration"]

    /// One valid entry.
    public struct Entry: Sendable, Hashable {
        /// The entry's key in the settings.
        public var key: String
        /// `barrier_id`: the factory that creates the barrier.
        public var barrierID: String
        /// `scopes`.
        public var scopes: [BarrierScope]
        /// `configuration` (`{}` when absent).
        public var configuration: JSONObject
    }

    /// The valid entries, in the order given.
    public var entries: [Entry]
    /// One line per ignored entry or field.
    public var warnings: [String]

    /// No entries.
    public init() {
        entries = []
        warnings = []
    }

    /// The entry for barrier `id` (looked up by `barrier_id`).
    public func entry(for id: String) -> Entry? { entries.first { $0.barrierID == id } }

    /// Parses the `barriers` object of Tealium's settings.
    public static func parse(_ value: JSONValue) -> BarrierSettings {
        var settings = BarrierSettings()
        guard case let .object(object) = value else {
            settings.warnings.append("barriers: must be an object of barrier entries, found \(value.typeName); ignored")
            return settings
        }
        for member in object.members {
            let key = member.key
            guard case let .object(entry) = member.value else {
                settings.warnings.append("barriers.\(key): must be an object, found \(member.value.typeName); entry ignored")
                continue
            }
            guard let idValue = entry["barrier_id"] else {
                settings.warnings.append("barriers.\(key): has no \"barrier_id\"; entry ignored")
                continue
            }
            guard case let .string(barrierID) = idValue, !barrierID.isEmpty else {
                settings.warnings.append("barriers.\(key).barrier_id: must be a non-empty string, found \(idValue.typeName); entry ignored")
                continue
            }
            guard let scopesValue = entry["scopes"] else {
                settings.warnings.append("barriers.\(key): has no \"scopes\"; entry ignored")
                continue
            }
            let names = scopesValue.arrayValue?.compactMap(\.stringValue) ?? []
            guard case let .array(items) = scopesValue, names.count == items.count else {
                settings.warnings.append("barriers.\(key).scopes: must be an array of strings (\"all\" or dispatcher ids); entry ignored")
                continue
            }
            var configuration = JSONObject()
            if let c = entry["configuration"] {
                guard case let .object(o) = c else {
                    settings.warnings.append("barriers.\(key).configuration: must be an object, found \(c.typeName); entry ignored")
                    continue
                }
                configuration = o
            }
            for extra in entry.keys where !Self.entryKeys.contains(extra) {
                settings.warnings.append("barriers.\(key).\(extra): unknown field; ignored")
            }
            settings.entries.append(Entry(key: key, barrierID: barrierID, scopes: names.map(BarrierScope.init), configuration: configuration))
        }
        return settings
    }
}
