/// A point on a trace's clock: integer microseconds since the run started. Virtual time never
/// drifts, so the same run always prints the same `t`.
public struct TraceTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Microseconds since the start of the run.
    public var microseconds: Int64

    /// A time of `microseconds`.
    public init(microseconds: Int64) { self.microseconds = microseconds }

    /// The start of a run.
    public static let zero = TraceTime(microseconds: 0)

    /// A time of `seconds`, rounded to the microsecond; clamped to ``TraceTime/limit`` either way
    /// (use `init(exactSeconds:)` to refuse what does not fit).
    public static func seconds(_ seconds: Double) -> TraceTime {
        TraceTime(exactSeconds: min(max(seconds, -TraceTime.limitSeconds), TraceTime.limitSeconds)) ?? .zero
    }

    /// The largest time (and delay) a run takes, in seconds: 10^12 s (about 31,700 years), well
    /// inside what integer microseconds hold (9.2 × 10^12 s), so that sums of a few such values
    /// are still checked rather than wrapped.
    public static let limitSeconds: Double = 1e12
    /// ``limitSeconds`` as a time.
    public static let limit = TraceTime(microseconds: 1_000_000_000_000 * 1_000_000)

    /// A time of `seconds` rounded to the microsecond, exactly: the whole seconds and the
    /// fraction are converted apart, so `999999999999` is 999999999999 s and not the nearest
    /// double of its microseconds (999999999999.000064). Nil when it is not finite or does not
    /// fit in integer microseconds (a reader takes every time a run can write; inputs and flags
    /// are held to ``limitSeconds`` by their own checks).
    public init?(exactSeconds seconds: Double) {
        guard seconds.isFinite, abs(seconds) < 9.2e12 else { return nil }
        let whole = seconds.rounded(.towardZero)
        // `seconds - whole` is exact (Sterbenz), so only the fraction is rounded.
        let fraction = Int64(((seconds - whole) * 1_000_000).rounded())
        let (sum, overflow) = (Int64(whole) * 1_000_000).addingReportingOverflow(fraction)
        guard !overflow else { return nil }
        self.init(microseconds: sum)
    }

    /// A time of whole `seconds`; nil when it does not fit in integer microseconds.
    public init?(exactSeconds seconds: Int64) {
        let (us, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
        guard !overflow else { return nil }
        self.init(microseconds: us)
    }

    /// A time of `value` seconds (an integer or a number), exactly; nil when `value` is not a
    /// number, is negative, or is past ``limitSeconds``.
    public init?(checkedSeconds value: JSONValue) {
        switch value {
        case .int(let s) where s >= 0 && Double(s) <= Self.limitSeconds: self.init(exactSeconds: s)
        case .double(let d) where d >= 0 && d <= Self.limitSeconds: self.init(exactSeconds: d)
        default: return nil
        }
    }

    /// `self + other`, or nil when the sum is past ``limit`` (or does not fit at all).
    public func adding(_ other: TraceTime) -> TraceTime? {
        let (sum, overflow) = microseconds.addingReportingOverflow(other.microseconds)
        guard !overflow, sum.magnitude <= Self.limit.microseconds.magnitude else { return nil }
        return TraceTime(microseconds: sum)
    }

    /// The time in seconds.
    public var seconds: Double { Double(microseconds) / 1_000_000 }

    /// Times order by their microseconds.
    public static func < (a: TraceTime, b: TraceTime) -> Bool { a.microseconds < b.microseconds }
    /// The sum, saturating at the ends of `Int64` rather than trapping (a runaway flow may keep
    /// adding delays; its run is stopped by a bound, never by a crash).
    public static func + (a: TraceTime, b: TraceTime) -> TraceTime {
        let (sum, overflow) = a.microseconds.addingReportingOverflow(b.microseconds)
        return TraceTime(microseconds: overflow ? (b.microseconds > 0 ? .max : .min) : sum)
    }
    /// The difference, saturating as ``+(_:_:)`` does.
    public static func - (a: TraceTime, b: TraceTime) -> TraceTime {
        let (diff, overflow) = a.microseconds.subtractingReportingOverflow(b.microseconds)
        return TraceTime(microseconds: overflow ? (b.microseconds < 0 ? .max : .min) : diff)
    }

    /// The shortest decimal spelling in seconds, as the trace writes it.
    public var description: String {
        var w = JSONWriter(capacity: 16)
        w.writeTime(self)
        return w.string
    }
}
