/// Strings interned per trace: every distinct `mb`, board and kind once, numbered from 0 in the
/// order first seen. A trace names a few thousand boards a million times; a column of numbers
/// into this table costs four bytes a row and compares as integers.
///
/// Written by hand rather than a `Dictionary<String, Int32>`: the lookup hashes the line's bytes
/// in place, so a string already seen costs no `String` at all.
public struct StringTable: @unchecked Sendable {
    // One reference, copied on write: a table is handed to a closure per row, and five arrays
    // would cost five retains each time. (Sendable: mutation copies unless uniquely held.)
    // Storage is only mutated through a uniquely held table (copy on write), so its fields
    // skip the dynamic exclusivity checks.
    final class Storage {
        /// The strings, by number.
        @exclusivity(unchecked) var strings: [String] = []
        /// Every string's bytes, one after another; `ends[i]` is where string `i` ends.
        @exclusivity(unchecked) var pool: [UInt8] = []
        @exclusivity(unchecked) var ends: [Int] = []
        @exclusivity(unchecked) var hashes: [UInt64] = []
        /// Open addressing: each occupied slot holds a string's number + 1 and, beside it, the
        /// string's key, so a short string is found with one load per probe and two compares,
        /// no walk of `pool`.
        @exclusivity(unchecked) var entries: [Entry] = Array(repeating: Entry(), count: 64)

        init() {}
        init(copying o: Storage) {
            strings = o.strings
            pool = o.pool
            ends = o.ends
            hashes = o.hashes
            entries = o.entries
        }
    }

    /// A slot of `entries`: a string of at most 16 bytes as its two zero-padded words and its
    /// length (`count` -1 for a longer one, found through `pool`), and its number + 1 (0: empty).
    struct Entry {
        var w0: UInt64 = 0
        var w1: UInt64 = 0
        var tag: Int32 = 0
        var count: Int32 = 0
    }
    private var storage = Storage()

    /// The strings, by number.
    public var strings: [String] { storage.strings }

    /// An empty table.
    public init() {}

    /// A table holding the known kinds as numbers 0 ..< `EventKind.allCases.count`.
    public static let withKnownKinds: StringTable = {
        var t = StringTable()
        for k in EventKind.allCases { _ = t.intern(k.rawValue) }
        return t
    }()

    /// How many distinct strings.
    public var count: Int { storage.strings.count }

    /// String `id`.
    public subscript(id: Int32) -> String { storage.strings[Int(id)] }

    /// The number of `string`, if interned.
    public func id(of string: String) -> Int32? {
        var s = string
        return s.withUTF8 { buf in lookup(buf.baseAddress, buf.count, hash: Self.hash(buf.baseAddress, buf.count)).found }
    }

    /// The number of the string whose UTF-8 bytes are `count` bytes at `p` (valid UTF-8),
    /// interning it when new.
    @inline(__always)
    mutating func intern(_ p: UnsafePointer<UInt8>?, _ count: Int) -> Int32 { intern(p, count, hash: Self.hash(p, count)) }

    /// Interns a string of the line the fast path reads (see ``hashInLine(_:_:)``).
    /// A string seen before costs two loads, a hash and two compares.
    @inline(__always)
    mutating func internInLine(_ p: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
        guard count <= 16 else { return intern(p, count, hash: Self.hash(p, count)) }
        let w = Self.words(p, count)
        let h = Self.mix(w.w0, w.w1, count)
        if let id = storage.lookupShort(w, count, hash: h) { return id }
        return intern(p, count, hash: h)
    }

    @inline(__always)
    mutating func intern(_ p: UnsafePointer<UInt8>?, _ count: Int, hash h: UInt64) -> Int32 {
        let (found, slot) = lookup(p, count, hash: h)
        if let found { return found }
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(copying: storage) }
        let storage = self.storage
        let id = Int32(storage.strings.count)
        storage.strings.append(String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self))
        if let p { storage.pool.append(contentsOf: UnsafeBufferPointer(start: p, count: count)) }
        storage.ends.append(storage.pool.count)
        storage.hashes.append(h)
        if count <= 16 {
            let w = Self.paddedWords(p, count)
            storage.entries[slot] = Entry(w0: w.w0, w1: w.w1, tag: id + 1, count: Int32(count))
        } else {
            storage.entries[slot] = Entry(tag: id + 1, count: -1)
        }
        if storage.strings.count * 2 > storage.entries.count { storage.grow() }
        return id
    }

    /// Interns `string`.
    public mutating func intern(_ string: String) -> Int32 {
        var s = string
        return s.withUTF8 { intern($0.baseAddress, $0.count) }
    }

    /// The number found, or the empty slot where it belongs.
    @inline(__always)
    private func lookup(_ p: UnsafePointer<UInt8>?, _ count: Int, hash: UInt64) -> (found: Int32?, slot: Int) {
        storage.lookup(p, count, hash: hash)
    }
}

extension StringTable.Storage {
    @inline(__always)
    func lookup(_ p: UnsafePointer<UInt8>?, _ count: Int, hash: UInt64) -> (found: Int32?, slot: Int) {
        let mask = entries.count - 1
        var i = Int(truncatingIfNeeded: hash) & mask
        return entries.withUnsafeBufferPointer { entries in
            pool.withUnsafeBufferPointer { pool in
                while true {
                    let s = entries[i].tag
                    if s == 0 { return (nil, i) }
                    let id = Int(s - 1)
                    if hashes[id] == hash {
                        let start = id == 0 ? 0 : ends[id - 1]
                        if ends[id] - start == count && (count == 0 || LineScanner.memcmpEqual(pool.baseAddress! + start, p!, count)) {
                            return (Int32(id), i)
                        }
                    }
                    i = (i + 1) & mask
                }
            }
        }
    }

    /// The number of the short string `w` (of `count` bytes), if interned.
    @inline(__always)
    func lookupShort(_ w: StringTable.Words, _ count: Int, hash: UInt64) -> Int32? {
        let mask = entries.count - 1
        var i = Int(truncatingIfNeeded: hash) & mask
        return entries.withUnsafeBufferPointer { entries in
            while true {
                let e = entries[i]
                if e.tag == 0 { return nil }
                if e.w0 == w.w0 && e.w1 == w.w1 && Int(e.count) == count { return e.tag - 1 }
                i = (i + 1) & mask
            }
        }
    }

    func grow() {
        let size = entries.count * 2
        var fresh = [StringTable.Entry](repeating: StringTable.Entry(), count: size)
        for e in entries where e.tag != 0 {
            var i = Int(truncatingIfNeeded: hashes[Int(e.tag - 1)]) & (size - 1)
            while fresh[i].tag != 0 { i = (i + 1) & (size - 1) }
            fresh[i] = e
        }
        entries = fresh
    }

}

extension StringTable {
    /// The hash of `count` bytes at `p`. Up to 16 bytes (every board name we have seen): the
    /// bytes as two zero-padded words, mixed; longer: FNV-1a over words.
    @inline(__always)
    static func hash(_ p: UnsafePointer<UInt8>?, _ count: Int) -> UInt64 {
        guard let p else { return mix(0, 0, count) }
        if count <= 16 {
            let w = paddedWords(p, count)
            return mix(w.w0, w.w1, count)
        }
        var h: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(count)
        var i = 0
        let raw = UnsafeRawPointer(p)
        while count - i >= 8 {
            h = (h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0x0000_0100_0000_01b3
            h ^= h >> 29
            i += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while i < count {
            tail |= UInt64(p[i]) << shift
            shift += 8
            i += 1
        }
        h = (h ^ tail) &* 0x9E37_79B9_7F4A_7C15
        return h ^ (h >> 32)
    }

    /// At most 16 bytes as two zero-padded words, read byte by byte (`p` need not have 8
    /// readable bytes before it, as ``words(_:_:)`` needs).
    @inline(__always) static func paddedWords(_ p: UnsafePointer<UInt8>?, _ count: Int) -> Words {
        guard let p else { return Words(0, 0) }
        var w0: UInt64 = 0
        var w1: UInt64 = 0
        for i in 0..<min(count, 8) { w0 |= UInt64(p[i]) << (UInt64(i) * 8) }
        if count > 8 { for i in 8..<count { w1 |= UInt64(p[i]) << (UInt64(i - 8) * 8) } }
        return Words(w0, w1)
    }

    @inline(__always) static func mix(_ w0: UInt64, _ w1: UInt64, _ count: Int) -> UInt64 {
        var h = (w0 &* 0x9E37_79B9_7F4A_7C15) ^ (w1 &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(count)
        h ^= h >> 29
        h &*= 0xBF58_476D_1CE4_E5B9
        return h ^ (h >> 32)
    }

    /// Up to 16 bytes as two zero-padded words.
    struct Words: Equatable {
        var w0: UInt64, w1: UInt64
        init(_ w0: UInt64, _ w1: UInt64) {
            self.w0 = w0
            self.w1 = w1
        }
    }

    /// The words of a string of at most 16 bytes inside a line (see ``hashInLine(_:_:)``).
    @inline(__always)
    static func words(_ p: UnsafePointer<UInt8>, _ count: Int) -> Words {
        let raw = UnsafeRawPointer(p)
        if count <= 8 {
            return Words(raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) >> (UInt64(8 - count) * 8), 0)
        }
        return Words(raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) >> (UInt64(16 - count) * 8))
    }

    /// ``hash(_:_:)`` of a string inside a line, for the fast path: the caller guarantees that
    /// the 8 bytes before `p + count` are readable (they belong to the same line), so a short
    /// string is two loads and shifts, not a loop.
    @inline(__always)
    static func hashInLine(_ p: UnsafePointer<UInt8>, _ count: Int) -> UInt64 {
        guard count <= 16 else { return hash(p, count) }
        let w = words(p, count)
        return mix(w.w0, w.w1, count)
    }
}
