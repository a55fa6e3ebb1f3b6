import BoardyCore
import BoardyTrace

/// An outside input to the dispatch pipeline, as the engine's `Stimulus` is to boards: a
/// network change, a tracked event, a flush, new barrier settings. Recorded as a `stimulus` event
/// (action `network`, `track`, `flush`, `configure`) that causes everything it starts, which is
/// what a replay feeds back in.
public enum DispatchStimulus: Sendable, Hashable {
    /// The network changes (`"network": "cellular"`).
    case network(NetworkConnection)
    /// `event` is tracked, for one dispatcher or (nil) all of them.
    case track(JSONValue, dispatcher: String?)
    /// A flush is requested.
    case flush
    /// Tealium's barrier settings JSON is applied.
    case configure(JSONValue)

    /// The `action` recorded for it.
    public var action: StimulusAction {
        switch self {
        case .network: return .network
        case .track: return .track
        case .flush: return .flush
        case .configure: return .configure
        }
    }

    /// The fields recorded beside `action`.
    public var fields: JSONObject {
        switch self {
        case let .network(c): return ["network": .string(c.rawValue)]
        case let .track(event, dispatcher):
            var fields: JSONObject = ["event": event]
            if let dispatcher { fields["dispatcher"] = .string(dispatcher) }
            return fields
        case .flush: return JSONObject()
        case let .configure(settings): return ["settings": settings]
        }
    }

    /// Reads a recorded stimulus's `action` and fields back: nil when the action is not one of
    /// these, an error message when a field is missing or mistyped.
    public static func from(action: String, fields all: JSONObject) -> Result<DispatchStimulus, DispatchStimulusError>? {
        func fail(_ message: String) -> Result<DispatchStimulus, DispatchStimulusError> { .failure(DispatchStimulusError(message: message)) }
        switch StimulusAction(rawValue: action) {
        case .network:
            guard let s = all["network"]?.stringValue, let c = NetworkConnection(rawValue: s) else {
                return fail(
                    "a \"network\" stimulus needs \"network\": one of \(NetworkConnection.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return .success(.network(c))
        case .track:
            guard let e = all["event"] else { return fail("a \"track\" stimulus needs an \"event\"") }
            let d = all["dispatcher"]
            if let d, d.stringValue == nil { return fail("a \"track\" stimulus's \"dispatcher\" must be a string") }
            return .success(.track(e, dispatcher: d?.stringValue))
        case .flush:
            return .success(.flush)
        case .configure:
            guard let settings = all["settings"] else { return fail("a \"configure\" stimulus needs \"settings\"") }
            return .success(.configure(settings))
        default:
            return nil
        }
    }
}

/// A recorded dispatch stimulus that cannot be read back.
public struct DispatchStimulusError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public var message: String
    public var description: String { message }
}

extension DispatchManager {
    /// Applies an outside stimulus: records it on `runtime` (at `mb`), then performs it with the
    /// stimulus as its cause. With no manager (a flow without dispatch) it is recorded and has no
    /// effect.
    public static func stimulate(_ stimulus: DispatchStimulus, on manager: DispatchManager?, runtime: BoardyRuntime, mb: MotherboardPath = .main) {
        let seq = runtime.recordStimulus(stimulus.action, fields: stimulus.fields, mb: mb)
        guard let manager else {
            // Nothing vanishes: an event tracked where there is no dispatch layer says so.
            if case let .track(event, _) = stimulus {
                runtime.recordEvent(mb: mb, cause: seq, .dispatchDropped(fields: ["event": event, "reason": "no-dispatcher"]))
            }
            return
        }
        runtime.withCause(seq) {
            switch stimulus {
            case let .network(c): manager.network.set(c)
            case let .track(event, dispatcher): manager.track(event, dispatcher: dispatcher)
            case .flush: manager.flush()
            case let .configure(settings): manager.configure(BarrierSettings.parse(settings))
            }
        }
    }
}
