/// Substring search by UTF-8 bytes, without Foundation: the library builds where Foundation is
/// not there, and a byte search is what a log's ASCII markers need (a match always starts on a
/// character boundary, since the needle starts with a whole character).
extension StringProtocol {
    /// The first range where `needle` occurs, or nil.
    func range(of needle: String) -> Range<Index>? { find(needle, backwards: false) }

    /// The last range where `needle` occurs, or nil.
    func lastRange(of needle: String) -> Range<Index>? { find(needle, backwards: true) }

    /// Whether `needle` occurs.
    func contains(_ needle: String) -> Bool { find(needle, backwards: false) != nil }

    private func find(_ needle: String, backwards: Bool) -> Range<Index>? {
        var needle = needle
        return needle.withUTF8 { n -> Range<Index>? in
            guard !n.isEmpty else { return startIndex..<startIndex }
            let u = utf8
            let found: Int?? = u.withContiguousStorageIfAvailable { Self.search(n, in: $0, backwards: backwards) }
            let offset = found ?? Self.search(n, in: Array(u), backwards: backwards)
            guard let offset else { return nil }
            let a = u.index(u.startIndex, offsetBy: offset), b = u.index(a, offsetBy: n.count)
            return a..<b
        }
    }

    private static func search<C: RandomAccessCollection>(_ n: UnsafeBufferPointer<UInt8>, in buf: C, backwards: Bool) -> Int?
    where C.Element == UInt8, C.Index == Int {
        let count = buf.count
        guard count >= n.count else { return nil }
        let base = buf.startIndex
        let first = n[0]
        var o = backwards ? count - n.count : 0
        while backwards ? o >= 0 : o <= count - n.count {
            if buf[base + o] == first {
                var k = 1
                while k < n.count, buf[base + o + k] == n[k] { k += 1 }
                if k == n.count { return o }
            }
            o += backwards ? -1 : 1
        }
        return nil
    }
}
