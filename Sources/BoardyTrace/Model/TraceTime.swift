/// A point on a trace's clock: integer microseconds since the run started. Virtual time never
/// drifts, so the same run always prints the same `t`.
public struct TraceTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Microseconds since the start of the run.
    public var microseconds: Int64

    /// A time of `microseconds`.
    public init(microseconds: Int64) { self.microseconds = microseconds }

    /// The start of a run.
    public static let zero = TraceTime(microseconds: 0)

    /// A time of `seconds`, rounded to the microsecond.
    public static func seconds(_ seconds: Double) -> TraceTime {
        TraceTime(microseconds: Int64((seconds * 1_000_000).rounded()))
    }

    /// The time in seconds.
    public var seconds: Double { Double(microseconds) / 1_000_000 }

    public static func < (a: TraceTime, b: TraceTime) -> Bool { a.microseconds < b.microseconds }
    public static func + (a: TraceTime, b: TraceTime) -> TraceTime { TraceTime(microseconds: a.microseconds + b.microseconds) }
    public static func - (a: TraceTime, b: TraceTime) -> TraceTime { TraceTime(microseconds: a.microseconds - b.microseconds) }

    /// The shortest decimal spelling in seconds, as the trace writes it.
    public var description: String {
        var w = JSONWriter(capacity: 16)
        w.writeTime(self)
        return w.string
    }
}
