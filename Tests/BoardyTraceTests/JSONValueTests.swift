import Foundation
import Testing

@testable import BoardyTrace

@Suite("JSON values")
struct JSONValueTests {
    @Test("every trace key is recognized without creating a string; near misses are not")
    func knownKeys() {
        for names in JSONParser.knownKeyNames {
            for name in names {
                let text = name.description
                let found = Array(text.utf8).withUnsafeBufferPointer { JSONParser.lookupKnown($0) }
                #expect(found == text)
                for miss in [text + "x", String(text.dropLast()) + "_", "X" + text.dropFirst()] {
                    #expect(Array(miss.utf8).withUnsafeBufferPointer { JSONParser.lookupKnown($0) } == nil, "\(miss)")
                }
            }
        }
    }

    @Test("parses and writes back every JSON type compactly")
    func roundTrip() throws {
        let text = #"{"a":[1,-2,3.5,true,false,null],"b":{"c":"d\n\"e\"\\"},"u":"é☃😀","z":1e-7}"#
        let v = try JSONValue(parsing: text)
        #expect(v.jsonText == #"{"a":[1,-2,3.5,true,false,null],"b":{"c":"d\n\"e\"\\"},"u":"é☃😀","z":1e-07}"#)
        #expect(try JSONValue(parsing: v.jsonText) == v)
    }

    @Test("integral numbers are one value whether written 5 or 5.0")
    func numbers() throws {
        #expect(try JSONValue(parsing: "5") == .int(5))
        #expect(try JSONValue(parsing: "5.0") == .int(5))
        #expect(JSONValue.double(5.0).jsonText == "5")
        #expect(try JSONValue(parsing: "-9223372036854775808") == .int(Int64.min))
        #expect(try JSONValue(parsing: "9223372036854775808") == .double(9223372036854775808.0))
        #expect(Set([JSONValue.int(2), .double(2.0)]).count == 1)
    }

    @Test("escapes control characters and decodes \\u escapes with surrogate pairs")
    func escapes() throws {
        #expect(JSONValue.string("a\u{0}b\u{1f}").jsonText == #""a\u0000b\u001f""#)
        #expect(try JSONValue(parsing: #""\ud83d\ude00\u00e9\/""#) == .string("😀é/"))
    }

    @Test(
        "rejects malformed JSON with the offset of the problem",
        arguments: [
            ("{\"a\":1,}", "expected a member name"),
            ("[1,2", "unterminated array"),
            ("tru", "invalid literal"),
            ("01", "leading zero"),
            ("\"abc", "unterminated string"),
            ("\"a\u{1}\"", "unescaped control character"),
            (#""\ud800""#, "lone surrogate"),
            ("{\"a\" 1}", "expected ':'"),
            ("1 2", "unexpected text after the value"),
            ("", "expected a value"),
        ])
    func malformed(text: String, message: String) {
        #expect {
            try JSONValue(parsing: text)
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    @Test("refuses nesting deeper than 512 instead of overflowing the stack")
    func deepNesting() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: deep) }
    }

    @Test("object equality ignores member order; the writer keeps it")
    func objectOrder() throws {
        let a = try JSONValue(parsing: #"{"x":1,"y":2}"#)
        let b = try JSONValue(parsing: #"{"y":2,"x":1}"#)
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(b.jsonText == #"{"y":2,"x":1}"#)
    }

    @Test("Codable through Foundation gives the same values as the fast parser")
    func codable() throws {
        let text = #"{"a":[1,2.25,"x",null,{"k":false}],"n":-3}"#
        let viaFoundation = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect(viaFoundation == (try JSONValue(parsing: text)))
        let encoded = try JSONEncoder().encode(viaFoundation)
        #expect(try JSONValue(parsing: String(decoding: encoded, as: UTF8.self)) == viaFoundation)
    }
}

@Suite("Trace time")
struct TraceTimeTests {
    @Test(
        "prints the shortest decimal number of seconds",
        arguments: [
            (Int64(4_000_000), "4"), (500_000, "0.5"), (2_000_001, "2.000001"), (0, "0"), (1_250_000, "1.25"), (10, "0.00001"),
        ])
    func shortestDecimal(us: Int64, text: String) throws {
        #expect(TraceTime(microseconds: us).description == text)
        #expect(TraceTime(jsonValue: try JSONValue(parsing: text)) == TraceTime(microseconds: us))
    }
}

@Suite("Definition fingerprint")
struct FingerprintTests {
    @Test("canonical JSON sorts keys by UTF-16 and prints numbers as ECMAScript does (RFC 8785)")
    func canonical() throws {
        let v = try JSONValue(parsing: #"{"b":[1.5e-7,100,1e21,0.001],"a":{"\u20ac":1,"\r":2,"1":3},"c":"x"}"#)
        #expect(v.canonicalText == #"{"a":{"\r":2,"1":3,"€":1},"b":[1.5e-7,100,1e+21,0.001],"c":"x"}"#)
    }

    @Test("the same definition in any key order has the same fingerprint")
    func stable() throws {
        let a = try JSONValue(parsing: #"{"boards":[{"id":"a"}],"flows":[]}"#)
        let b = try JSONValue(parsing: #"{"flows":[],"boards":[{"id":"a"}]}"#)
        #expect(DefinitionFingerprint.of(a) == DefinitionFingerprint.of(b))
        #expect(DefinitionFingerprint.of(a).hasPrefix("sha256:"))
        #expect(DefinitionFingerprint.of(a).count == 7 + 64)
        #expect(DefinitionFingerprint.of(.object([:])) == "sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a")
    }
}
