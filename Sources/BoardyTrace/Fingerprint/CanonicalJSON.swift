// CryptoKit where the platform has it; swift-crypto's API-compatible Crypto elsewhere.
#if canImport(CryptoKit)
    import CryptoKit
#else
    import Crypto
#endif

extension JSONValue {
    /// The canonical JSON text of RFC 8785 (JCS): members sorted by their names' UTF-16 code units,
    /// no insignificant white space, minimal string escapes, numbers as ECMAScript prints them.
    public var canonicalText: String {
        var w = JSONWriter()
        Self.writeCanonical(self, to: &w)
        return w.string
    }

    private static func writeCanonical(_ v: JSONValue, to w: inout JSONWriter) {
        switch v {
        case .double(let d) where Int64(exactly: d) == nil:
            w.bytes.append(contentsOf: ecmaScriptNumber(d).utf8)
        case .array(let a):
            w.byte(UInt8(ascii: "["))
            for (i, e) in a.enumerated() {
                if i > 0 { w.byte(UInt8(ascii: ",")) }
                writeCanonical(e, to: &w)
            }
            w.byte(UInt8(ascii: "]"))
        case .object(let o):
            w.byte(UInt8(ascii: "{"))
            let sorted = o.members.sorted { $0.key.utf16.lexicographicallyPrecedes($1.key.utf16) }
            for (i, m) in sorted.enumerated() {
                if i > 0 { w.byte(UInt8(ascii: ",")) }
                w.writeString(m.key)
                w.byte(UInt8(ascii: ":"))
                writeCanonical(m.value, to: &w)
            }
            w.byte(UInt8(ascii: "}"))
        default:
            w.writeValue(v)
        }
    }

    /// ECMAScript's Number::toString for a finite, non-integral double, from Swift's shortest
    /// round-tripping digits.
    static func ecmaScriptNumber(_ d: Double) -> String {
        guard d.isFinite else { return "null" }
        // Swift prints the shortest digits; split them into digits and a decimal exponent.
        let text = d.magnitude.description  // e.g. "0.001", "1.5e-07", "1e+21", "123.25"
        var mantissa = Substring(text)
        var exp = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<e]
            exp = Int(text[text.index(after: e)...]) ?? 0
        }
        var digits = mantissa.replacingOccurrences(of: ".", with: "")
        let pointIndex = mantissa.firstIndex(of: ".").map { mantissa.distance(from: mantissa.startIndex, to: $0) } ?? mantissa.count
        // value = 0.DIGITS × 10^n
        var n = pointIndex + exp
        while digits.hasPrefix("0") && digits.count > 1 {
            digits.removeFirst()
            n -= 1
        }
        while digits.hasSuffix("0") && digits.count > 1 { digits.removeLast() }
        let k = digits.count
        var out: String
        if k <= n && n <= 21 {
            out = digits + String(repeating: "0", count: n - k)
        } else if 0 < n && n <= 21 {
            let i = digits.index(digits.startIndex, offsetBy: n)
            out = digits[..<i] + "." + digits[i...]
        } else if -6 < n && n <= 0 {
            out = "0." + String(repeating: "0", count: -n) + digits
        } else {
            let e = n - 1
            let sign = e < 0 ? "-" : "+"
            out = k == 1 ? digits : String(digits.first!) + "." + digits.dropFirst()
            out += "e\(sign)\(abs(e))"
        }
        return d < 0 ? "-" + out : out
    }
}

extension String {
    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: Character(target), omittingEmptySubsequences: false).joined(separator: replacement)
    }
}

extension Substring {
    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        String(self).replacingOccurrences(of: target, with: replacement)
    }
}

/// The fingerprint of a flow definition: `sha256:` and the hex SHA-256 of its canonical JSON
/// (RFC 8785). A trace's header carries it so a replay can tell "the definition changed" from
/// "the run behaved differently".
public enum DefinitionFingerprint {
    /// `sha256:<hex>` of `definition`'s canonical JSON text.
    public static func of(_ definition: JSONValue) -> String {
        let digest = SHA256.hash(data: Array(definition.canonicalText.utf8))
        let hex = digest.map { b -> String in
            let s = String(b, radix: 16)
            return s.count == 1 ? "0" + s : s
        }.joined()
        return "sha256:" + hex
    }
}
