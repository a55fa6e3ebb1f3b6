import Foundation
import Testing

@testable import BoardyTrace

/// One event of every kind, as the engine writes them.
let everyKind: [TraceEvent] = {
    let bodies: [TraceEvent.Body] = [
        .stimulus(action: "activate", fields: ["board": "pubWelcome", "input": "x"]),
        .activationRequested(board: "pubCart", source: "pubWelcome", input: "cart-1"),
        .gatewayChecked(board: "pubCart", barrier: "pubAuth", result: .wait),
        .barrierChecked(board: "pubPayment", barrier: "pubOtp", scope: "mainboard", result: .pass),
        .barrierStarted(barrier: "pubAuth", board: "pubAuth"),
        .barrierResolved(barrier: "pubAuth", passed: true, released: 2),
        .barrierLoop(board: "pubAuth", cycle: ["pubAuth"]),
        .activationPerformed(board: "pubCart", input: ["items": [1, 2]]),
        .activationCancelled(board: "pubCart", reason: .barrierFailed),
        .outputSent(board: "pubCart", output: "checkout"),
        .flowRouted(from: "pubCart", output: "checkout", to: "pubOrdering", action: "activate"),
        .commandSent(board: "pubCart", command: ["refresh": true]),
        .boardCompleted(board: "pubCart", success: true),
        .dispatchQueued(dispatcher: "collect", event: "purchase"),
        .dispatchBlocked(dispatcher: "collect", barriers: ["ConnectivityBarrier"]),
        .dispatchSent(dispatcher: "collect", events: 2, flush: false),
        .dispatchBarrier(barrier: "BatchingBarrier", dispatcher: "collect", state: "open", flushable: true),
        .stuckBarrier(barrier: "pubOtp", gate: "pubOtp", waiting: ["pubPayment"]),
        .stuckDispatcher(dispatcher: "collect", waiting: ["purchase"]),
        .dispatchDropped(fields: ["dispatcher": "collect", "reason": "expired", "events": 1]),
        .runaway(fields: ["bound": "horizon", "horizon": 120, "next": 121]),
        .choice(fields: ["point": "script[1].at", "value": 2, "board": "pubCart"]),
        .unknown(kind: "future.kind", fields: ["anything": [1, "two"]]),
    ]
    return bodies.enumerated().map { i, body in
        TraceEvent(
            seq: i + 1, t: TraceTime(microseconds: Int64(i) * 250_000), mb: i % 2 == 0 ? "main" : "main/pubPayment",
            cause: i == 0 ? nil : i, body: body)
    }
}()

@Suite("Trace event codec")
struct TraceEventCodecTests {
    @Test("the contract's example line reads and writes back byte for byte")
    func contractExample() throws {
        let line =
            #"{"seq":12,"t":4,"kind":"gateway.checked","mb":"main","board":"pubPayment","barrier":"pubAuth","result":"wait","cause":11}"#
        guard case .object(let o) = try JSONValue(parsing: line) else {
            Issue.record("not an object")
            return
        }
        let e = try TraceEvent(jsonObject: o)
        #expect(e.body == .gatewayChecked(board: "pubPayment", barrier: "pubAuth", result: .wait))
        #expect(e.jsonLine == line)
    }

    @Test("every kind round-trips through its JSON line")
    func everyKindRoundTrips() throws {
        for e in everyKind {
            guard case .object(let o) = try JSONValue(parsing: e.jsonLine) else {
                Issue.record("not an object")
                continue
            }
            let back = try TraceEvent(jsonObject: o)
            #expect(back == e, "\(e.kind)")
            #expect(back.jsonLine == e.jsonLine)
            #expect(JSONValue.object(e.jsonObject).jsonText == e.jsonLine)
        }
    }

    @Test("cause reads back as set, nil included, and the event stays 128 bytes")
    func causeStorage() {
        var e = TraceEvent(seq: 5, t: .zero, mb: "main", cause: nil, body: .boardCompleted(board: "b", success: nil))
        #expect(e.cause == nil)
        #expect(!e.jsonLine.contains("cause"))
        for c in [1, 4, Int.max, -1, 0, Int.min + 1] {
            e.cause = c
            #expect(e.cause == c)
        }
        e.cause = nil
        #expect(e.cause == nil)
        #expect(TraceEvent(seq: 2, t: .zero, mb: "main", cause: 1, body: .boardCompleted(board: "b", success: true)).cause == 1)
        // Every recorded event is kept at this size (an `Int?` cause padded it to 136 bytes).
        #if arch(x86_64) || arch(arm64)
            #expect(MemoryLayout<TraceEvent>.stride == 128)
        #endif
    }

    @Test("unknown fields on known kinds are kept and written back in order")
    func unknownFieldsKept() throws {
        let line = #"{"seq":1,"t":0,"kind":"output.sent","mb":"main","board":"a","output":1,"zeta":[1],"alpha":{"b":2}}"#
        guard case .object(let o) = try JSONValue(parsing: line) else { return }
        let e = try TraceEvent(jsonObject: o)
        #expect(e.extra.keys == ["zeta", "alpha"])
        #expect(e.jsonLine == line)
    }

    @Test("a duplicate key is an error, not a silently dropped value")
    func duplicateKey() throws {
        let line = #"{"seq":1,"t":0,"kind":"output.sent","mb":"main","board":"a","output":1,"board":"b"}"#
        guard case .object(let o) = try JSONValue(parsing: line) else { return }
        #expect(throws: TraceFieldError("duplicate key \"board\"")) { try TraceEvent(jsonObject: o) }
    }

    @Test("missing and mistyped fields name the field")
    func fieldErrors() throws {
        func error(_ line: String) throws -> String {
            guard case .object(let o) = try JSONValue(parsing: line) else { return "" }
            do {
                _ = try TraceEvent(jsonObject: o)
                return "no error"
            } catch { return error.message }
        }
        #expect(try error(#"{"t":0,"kind":"x","mb":"main"}"#) == "event has no \"seq\"")
        #expect(try error(#"{"seq":1,"t":0,"kind":"output.sent","mb":"main","output":1}"#) == "output.sent event has no \"board\"")
        #expect(
            try error(#"{"seq":1,"t":0,"kind":"barrier.resolved","mb":"main","barrier":"b","passed":"yes","released":1}"#)
                == "\"passed\" must be true or false, found a string")
        #expect(try error(#"{"seq":1,"t":-1,"kind":"x","mb":"main"}"#).hasPrefix("\"t\" must be a non-negative number"))
        #expect(try error(#"{"seq":3,"t":0,"kind":"x","mb":"main","cause":3}"#).hasPrefix("\"cause\" must be the seq of an earlier event"))
    }
}
