import BoardyCore

/// Whether a dispatch barrier lets dispatches through (Tealium's `BarrierState`).
public enum BarrierState: String, Sendable, Hashable {
    /// Blocks dispatches.
    case closed
    /// Lets dispatches through.
    case open
}

/// Which dispatchers a barrier applies to (Tealium's `BarrierScope`).
public enum BarrierScope: Sendable, Hashable, CustomStringConvertible {
    /// Every dispatcher.
    case all
    /// One dispatcher.
    case dispatcher(id: String)

    /// A scope from its settings spelling: `"all"` in any letter case, else a dispatcher id (case
    /// kept) (Tealium rule 5).
    public init(_ text: String) {
        self = text.lowercased() == "all" ? .all : .dispatcher(id: text)
    }

    /// Whether the scope covers dispatcher `id`.
    public func applies(to id: String) -> Bool {
        switch self {
        case .all: return true
        case let .dispatcher(d): return d == id
        }
    }

    public var description: String {
        switch self {
        case .all: return "all"
        case let .dispatcher(id): return id
        }
    }
}

/// The network as the simulated monitor sees it.
public enum NetworkConnection: String, Sendable, Hashable, CaseIterable {
    /// No connection.
    case none
    /// Wi-Fi.
    case wifi
    /// Cellular.
    case cellular
    /// Wired.
    case ethernet

    /// Whether any connection is available.
    public var isConnected: Bool { self != .none }
}
