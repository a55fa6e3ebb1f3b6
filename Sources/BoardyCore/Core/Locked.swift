import BoardyLock

/// A value only read or changed with its lock held (Boardy's `Locked`, public here because
/// Boardy's tests and apps' test doubles use it for counters shared across threads).
///
/// `@unchecked Sendable`: the value is reached only inside ``withLock(_:)``, under the lock.
public final class Locked<Value>: @unchecked Sendable {
    private let storage: LockedValue<Value>

    /// Guards `value`.
    public init(_ value: Value) { storage = LockedValue(value) }

    /// Runs `body` on the value with the lock held.
    @discardableResult
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withLockedValue { (v: inout Value) throws -> Result in try body(&v) }
    }
}
