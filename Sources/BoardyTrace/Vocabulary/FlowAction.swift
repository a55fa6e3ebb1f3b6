/// How a `flow.routed` event names what a flow did with an output (docs/contract.md §2.3): the engine's
/// own actions are listed; an app's flow may name its own (any string reads and writes as is).
public struct FlowAction: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The name as written in the trace's `action` field.
    public var rawValue: String
    /// An action named `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// An action written as a string literal.
    public init(stringLiteral value: String) { rawValue = value }
    /// The name.
    public var description: String { rawValue }

    /// A flow step: the output activates the destination (as its input).
    public static let activate: FlowAction = "activate"
    /// The output completes the destination board.
    public static let complete: FlowAction = "complete"
    /// Out of a continuous board: the output goes on as the continuous board's own.
    public static let relay: FlowAction = "relay"
    /// A handler registered on the source's outputs (`flow.bind`, IO interfaces).
    public static let handler: FlowAction = "handler"
    /// A completion handler of the source.
    public static let completion: FlowAction = "completion"
    /// A dispatch track made by the output (Tealium's `track`).
    public static let track: FlowAction = "track"
}

/// What a `stimulus` event's `action` says came from outside (docs/contract.md §2.3): the engine's
/// stimuli (`Stimulus`) and Tealium's (`DispatchStimulus`).
public enum StimulusAction: String, Sendable, CaseIterable {
    /// A board was activated from outside.
    case activate
    /// An installed board was completed from outside.
    case complete
    /// A command was sent to an installed board.
    case command
    /// The network connection changed (Tealium).
    case network
    /// An event was tracked (Tealium).
    case track
    /// The dispatch queue was flushed (Tealium).
    case flush
    /// Tealium's barrier settings were applied.
    case configure
}
