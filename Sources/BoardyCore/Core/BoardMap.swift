import Foundation

/// A map from board ids to values for the engine's hot lookups (the boards installed, the flows
/// by source): every activation looks up its board and every output its flows.
///
/// Written by hand rather than a `Dictionary`: Swift's hashing seeds and finalizes a SipHash per
/// lookup, a tenth of an activation here, where ids are short strings hashed by two words. A
/// removed id keeps its place (its value is nil), so ids come back where they were and
/// iteration follows first insertion: deterministic, unlike a dictionary's order. Once removed
/// ids outnumber the live ones (an app that makes boards under ever new ids), the map is
/// rebuilt from the live ones, in the same order.
struct BoardMap<Value> {
    /// Ids in order of first insertion, with their values (nil once removed).
    private(set) var keys: [BoardID] = []
    private var slotsValues: [Value?] = []
    /// Open addressing: a slot holds an index into `keys` + 1, or 0 when empty. Allocated on
    /// the first insert (an explorer builds thousands of motherboards, many with empty maps).
    private var slots: [Int32] = []
    /// How many ids have a value.
    private(set) var count = 0
    /// How many ids are kept without a value.
    private var removed = 0

    init() {}

    var isEmpty: Bool { count == 0 }

    /// The values, in order of first insertion.
    var values: [Value] { slotsValues.compactMap { $0 } }

    /// The ids that have a value, in order of first insertion.
    var liveKeys: [BoardID] { keys.indices.compactMap { slotsValues[$0] == nil ? nil : keys[$0] } }

    /// The id and value pairs, in order of first insertion.
    var entries: [(key: BoardID, value: Value)] { keys.indices.compactMap { i in slotsValues[i].map { (keys[i], $0) } } }

    @inline(__always)
    subscript(key: BoardID) -> Value? {
        get {
            guard let i = index(of: key) else { return nil }
            return slotsValues[i]
        }
        set { _ = updateValue(newValue, forKey: key) }
    }

    /// Sets the value of `key` (nil removes it); returns the value it had.
    @discardableResult
    mutating func updateValue(_ value: Value?, forKey key: BoardID) -> Value? {
        if slots.isEmpty {
            guard value != nil else { return nil }
            slots = Array(repeating: 0, count: 16)
        }
        let h = Self.hash(key)
        var s = Int(truncatingIfNeeded: h) & (slots.count - 1)
        while slots[s] != 0 {
            let i = Int(slots[s] - 1)
            if keys[i] == key {
                let old = slotsValues[i]
                slotsValues[i] = value
                let delta = (old == nil ? 0 : -1) + (value == nil ? 0 : 1)
                count += delta
                removed -= delta
                if removed > 64 && removed > count { compact() }
                return old
            }
            s = (s + 1) & (slots.count - 1)
        }
        guard let value else { return nil }
        keys.append(key)
        slotsValues.append(value)
        slots[s] = Int32(keys.count)
        count += 1
        if keys.count * 2 > slots.count { grow() }
        return nil
    }

    /// Removes `key`'s value and returns it.
    @discardableResult
    mutating func removeValue(forKey key: BoardID) -> Value? { updateValue(nil, forKey: key) }

    /// Removes every id.
    mutating func removeAll() { self = BoardMap() }

    /// Rebuilt from the ids with a value, in their order.
    private mutating func compact() {
        var fresh = BoardMap()
        for (k, v) in entries { fresh[k] = v }
        self = fresh
    }

    @inline(__always)
    private func index(of key: BoardID) -> Int? {
        if slots.isEmpty { return nil }
        let h = Self.hash(key)
        let mask = slots.count - 1
        var s = Int(truncatingIfNeeded: h) & mask
        while true {
            let k = slots[s]
            if k == 0 { return nil }
            let i = Int(k - 1)
            if keys[i] == key { return i }
            s = (s + 1) & mask
        }
    }

    private mutating func grow() {
        let size = slots.count * 2
        var fresh = [Int32](repeating: 0, count: size)
        for (i, key) in keys.enumerated() {
            var s = Int(truncatingIfNeeded: Self.hash(key)) & (size - 1)
            while fresh[s] != 0 { s = (s + 1) & (size - 1) }
            fresh[s] = Int32(i + 1)
        }
        slots = fresh
    }

    /// The id's UTF-8 bytes as words, multiplied and folded (not a secure hash: ids are the
    /// app's own, not an attacker's). Ids compare as Swift strings do, by canonical equivalence
    /// (`"caf\u{E9}"` is `"cafe\u{301}"`, the Kelvin sign is `K`), so an id with a byte outside
    /// ASCII is hashed in its composed form (NFC), the form equal ids share; ASCII is NFC already.
    @inline(__always)
    static func hash(_ key: BoardID) -> UInt64 {
        var s = key.rawValue
        if let h = s.withUTF8({ hashASCII($0) }) { return h }
        var composed = s.precomposedStringWithCanonicalMapping
        return composed.withUTF8 { hashBytes($0) }
    }

    /// ``hashBytes(_:)`` of ASCII bytes; nil when a byte is outside ASCII.
    @inline(__always)
    private static func hashASCII(_ u: UnsafeBufferPointer<UInt8>) -> UInt64? {
        for b in u where b >= 0x80 { return nil }
        return hashBytes(u)
    }

    @inline(__always)
    private static func hashBytes(_ u: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(u.count)
        var w: UInt64 = 0
        var shift: UInt64 = 0
        for b in u {
            w |= UInt64(b) << shift
            shift += 8
            if shift == 64 {
                h = (h ^ w) &* 0xBF58_476D_1CE4_E5B9
                h ^= h >> 31
                w = 0
                shift = 0
            }
        }
        h = (h ^ w) &* 0x94D0_49BB_1331_11EB
        return h ^ (h >> 29)
    }
}
