/// Where text stops being UTF-8. Written by hand because Foundation's and the standard library's
/// decoders say only that the data is invalid, not where.
package enum UTF8Position {
    /// The index of the first byte of `b` that does not begin a well-formed UTF-8 sequence
    /// (overlong forms and surrogates included), or nil when all of `b` is UTF-8.
    package static func firstInvalid(_ b: ArraySlice<UInt8>) -> Int? {
        var i = b.startIndex
        while i < b.endIndex {
            let c = b[i]
            if c < 0x80 {
                i += 1
                continue
            }
            let (n, lo, hi): (Int, UInt8, UInt8)
            switch c {
            case 0xC2...0xDF: (n, lo, hi) = (1, 0x80, 0xBF)
            case 0xE0: (n, lo, hi) = (2, 0xA0, 0xBF)
            case 0xED: (n, lo, hi) = (2, 0x80, 0x9F)
            case 0xE1...0xEC, 0xEE...0xEF: (n, lo, hi) = (2, 0x80, 0xBF)
            case 0xF0: (n, lo, hi) = (3, 0x90, 0xBF)
            case 0xF1...0xF3: (n, lo, hi) = (3, 0x80, 0xBF)
            case 0xF4: (n, lo, hi) = (3, 0x80, 0x8F)
            default: return i
            }
            guard i + n < b.endIndex else { return i }
            guard b[i + 1] >= lo && b[i + 1] <= hi else { return i }
            for k in stride(from: 2, through: n, by: 1) where b[i + k] & 0xC0 != 0x80 { return i }
            i += n + 1
        }
        return nil
    }

    /// The 1-based line and column (in bytes) of `offset` in `bytes`.
    package static func lineAndColumn(of offset: Int, in bytes: ArraySlice<UInt8>) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = bytes.startIndex
        for i in bytes.startIndex..<offset where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        return (line, offset - lineStart + 1)
    }
}
