/// A dictionary shared across threads (Boardy's `SafeDictionary`, internal there and public here
/// because Boardy's tests reach it): every read and write holds one lock.
///
/// `@unchecked Sendable`: the storage is only reached under its lock.
public final class SafeDictionary<Key: Hashable, Value>: @unchecked Sendable {
    private let storage = Locked<[Key: Value]>([:])

    /// An empty dictionary.
    public init() {}

    /// The value for `key`; setting nil removes it.
    public subscript(key: Key) -> Value? {
        get { storage.withLock { $0[key] } }
        set { storage.withLock { $0[key] = newValue } }
    }

    /// The value for `key`, or `makeValue()` stored under it when there is none. Every caller
    /// gets the one stored value, even when several race to make it. `makeValue` runs without the
    /// lock held, so it may itself read or fill this dictionary (a factory that reenters for the
    /// same key does not deadlock; the first value stored wins).
    public func value(forKey key: Key, orInsert makeValue: () -> Value) -> Value {
        if let existing = storage.withLock({ $0[key] }) { return existing }
        let made = makeValue()
        return storage.withLock { dictionary in
            if let existing = dictionary[key] { return existing }
            dictionary[key] = made
            return made
        }
    }

    /// How many values are stored.
    public var count: Int { storage.withLock { $0.count } }
}
