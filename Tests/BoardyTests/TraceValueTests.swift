import Boardy
@testable import BoardyCore
import Testing

/// ``TraceValue/json(_:)``: what each kind of untyped value a board sends appears as in a trace.
/// The common types take a fast path (the value opened, no dynamic cast); each row holds for
/// the value as it is and wrapped in an optional.
@Suite("Trace values")
struct TraceValueTests {
    struct Order: Encodable { let id: Int; let total: Double }
    /// Too large for an existential's inline buffer: the `Any` holds it in a box.
    struct Wide: Encodable { let a, b, c, d, e: Int }
    struct Shown: TraceValueConvertible { var traceValue: JSONValue { "shown" } }
    enum Step { case start }
    final class Thing: CustomStringConvertible { var description: String { "a thing" } }

    static var rows: [(String, Any, JSONValue)] { [
        ("String", "cart-1", "cart-1"),
        ("empty String", "", ""),
        ("long String", String(repeating: "é", count: 40), .string(String(repeating: "é", count: 40))),
        ("Int", 42, 42),
        ("negative Int", -7, -7),
        ("Int.max", Int.max, .int(Int64.max)),
        ("Bool", true, true),
        ("JSONValue", JSONValue.object(["order": 3, "ok": true]), .object(["order": 3, "ok": true])),
        ("JSONValue null", JSONValue.null, .null),
        ("Double", 1.5, 1.5),
        ("Int64", Int64(9), 9),
        ("Int32", Int32(-3), -3),
        ("UInt", UInt(5), 5),
        ("Float", Float(0.5), 0.5),
        ("Substring", "abc".dropFirst(), "bc"),
        ("Character", Character("x"), "x"),
        ("Void", (), .null),
        ("array", [1, "a"] as [Any], [1, "a"]),
        ("dictionary", ["b": 1, "a": "x"] as [String: Any], .object(["a": "x", "b": 1])),
        ("Encodable", Order(id: 1, total: 2.5), .object(["id": 1, "total": 2.5])),
        ("boxed Encodable", Wide(a: 1, b: 2, c: 3, d: 4, e: 5), .object(["a": 1, "b": 2, "c": 3, "d": 4, "e": 5])),
        ("optional Int", Int?.some(4) as Any, 4),
        ("TraceValueConvertible", Shown(), "shown"),
        ("enum case", Step.start, "start"),
        ("class", Thing(), "a thing"),
    ] }

    @Test("each kind of value, as it is and inside an optional", arguments: rows.indices)
    func conversion(row: Int) {
        let (name, value, expected) = Self.rows[row]
        #expect(TraceValue.json(value) == expected, "\(name)")
        // An optional inside the `Any` (what a board sends when its value is `T?`).
        #expect(TraceValue.json(Optional<Any>.some(value) as Any) == expected, "\(name) in an optional")
    }

    @Test("nil, and an optional holding nil, are absent or null")
    func nils() {
        #expect(TraceValue.json(nil) == nil)
        let none: Int? = nil
        #expect(TraceValue.json(none as Any) == .null)
        let some: String? = "x"
        #expect(TraceValue.json(some as Any) == "x")
    }

    /// The types ``TraceValue/InPlace`` reads where the `Any?` holds them.
    static let readInPlace: Set<String> = [
        "String", "empty String", "long String", "Int", "negative Int", "Int.max", "Bool", "JSONValue", "JSONValue null", "Double",
    ]

    @Test("the five common types are read in place, with what the general path gives; no other type is")
    func inPlace() throws {
        // The layout it reads is Swift's on every 64-bit platform: where the probe fails here,
        // every payload would silently take the slow path.
        #if _pointerBitWidth(_64)
            #expect(TraceValue.InPlace.isUsable)
        #endif
        try #require(TraceValue.InPlace.isUsable)
        for (name, value, expected) in Self.rows {
            let read = withUnsafePointer(to: Optional<Any>.some(value), TraceValue.InPlace.common)
            if Self.readInPlace.contains(name) {
                #expect(read == expected, "\(name)")
                #expect(read == TraceValue.convert(value), "\(name)")
            } else {
                #expect(read == nil, "\(name) is not one of the five")
            }
        }
        #expect(withUnsafePointer(to: Optional<Any>.none, TraceValue.InPlace.common) == nil)
    }

    @Test("a string read in place is a copy: it outlives the value it was read from")
    func inPlaceCopies() {
        var json: JSONValue?
        do {
            let heap = String(repeating: "board-", count: 20)  // on the heap, counted
            var value: Any? = heap
            json = TraceValue.json(value)
            value = nil
            _ = value
        }
        #expect(json == .string(String(repeating: "board-", count: 20)))
        var nested: JSONValue?
        do {
            let value: Any? = JSONValue.array([.string(String(repeating: "x", count: 50)), .object(["k": 1])])
            nested = TraceValue.json(value)
        }
        #expect(nested == .array([.string(String(repeating: "x", count: 50)), .object(["k": 1])]))
    }
}
