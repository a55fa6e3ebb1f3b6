import BoardyTrace

/// The first place a replay and its recorded trace differ.
public struct Divergence: Sendable, Hashable {
    /// How the two differ at ``seq``.
    public enum Kind: String, Sendable, Hashable {
        /// Both have an event at this place, and they differ.
        case differs
        /// The trace has an event here; the replay ended before it.
        case missing
        /// The replay recorded an event here; the trace ends before it.
        case extra
    }

    /// The place in the run, counted as `seq` is: the first event that differs is the one the
    /// engine recorded as this `seq` (or would have).
    public var seq: Int
    /// How they differ.
    public var kind: Kind
    /// The trace's event at this place (nil when the trace ended).
    public var expected: TraceEvent?
    /// The replay's event at this place (nil when the replay ended).
    public var actual: TraceEvent?
    /// The fields that differ, in the trace's field order, then the replay's extra ones.
    public var fields: [FieldDifference]
    /// The events just before it, the same in both (oldest first).
    public var context: [TraceEvent]
    /// The trace event's chain of `cause`, back to its stimulus (nearest first).
    public var expectedCauses: [TraceEvent]
    /// The replay event's chain of `cause`, back to its stimulus (nearest first).
    public var actualCauses: [TraceEvent]
    /// An explanation found on the way (a stimulus that could not be fed, events out of order).
    public var note: String?
}

/// One field that differs between the trace's event and the replay's.
public struct FieldDifference: Sendable, Hashable {
    /// The field's name (`board`, `t`, `cause`, ...).
    public var name: String
    /// Its value in the trace (nil: absent).
    public var expected: JSONValue?
    /// Its value in the replay (nil: absent).
    public var actual: JSONValue?

    /// A difference in field `name`.
    public init(name: String, expected: JSONValue?, actual: JSONValue?) {
        self.name = name
        self.expected = expected
        self.actual = actual
    }

    /// The differing fields of two events, in `a`'s field order, then `b`'s extra ones.
    static func between(_ a: TraceEvent, _ b: TraceEvent) -> [FieldDifference] {
        let x = a.jsonObject
        let y = b.jsonObject
        var out: [FieldDifference] = []
        for m in x.members where y[m.key] != m.value {
            out.append(FieldDifference(name: m.key, expected: m.value, actual: y[m.key]))
        }
        for m in y.members where x[m.key] == nil {
            out.append(FieldDifference(name: m.key, expected: nil, actual: m.value))
        }
        return out
    }
}

/// Why a replay came out as it did.
public enum ReplayVerdict: String, Sendable, Hashable {
    /// The replay recorded the same events as the trace.
    case same
    /// The definition fingerprints differ: the flow was changed since the trace was recorded.
    case definitionChanged = "definition-changed"
    /// Same definition, different events: non-determinism, or a change in the engine.
    case differentBehaviour = "different-behaviour"
    /// One side has no definition fingerprint, so the cause cannot be told.
    case unknownDefinition = "unknown-definition"
    /// A `--flip` run: the divergence is the one that was asked for.
    case counterfactual
    /// The trace's own order is broken (a `seq` out of place, time going back): the file was
    /// damaged (edited, two lines swapped), so the divergence says nothing about the flow.
    case damagedTrace = "damaged-trace"
    /// The trace was recorded from another scenario than the one replayed.
    case otherScenario = "other-scenario"

    /// One line for people.
    public var explanation: String {
        switch self {
        case .same: return "same: the replay recorded every event of the trace, and nothing more"
        case .definitionChanged:
            return "the flow definition changed since the trace was recorded (its fingerprint differs): re-record the trace if the new behaviour is right"
        case .differentBehaviour:
            return "same definition, different behaviour: non-determinism, or a change in the engine"
        case .unknownDefinition: return "unknown: the trace or the replay has no definition fingerprint to compare"
        case .counterfactual: return "counterfactual: the run diverges where the flip takes it"
        case .damagedTrace: return "damaged trace: its events are out of order (a seq out of place or time going back); the file was changed after it was recorded"
        case .otherScenario: return "the trace was recorded from another scenario: replay it on the scenario it names"
        }
    }
}
