import Boardy
import BoardyDispatch
import BoardyTestSupport
import Testing

/// A dispatch pipeline on a virtual clock with a recorder.
struct Rig {
    let h = Harness()
    let manager: DispatchManager
    let dispatchers: [String: SimulatedDispatcher]

    init(_ specs: [(id: String, limit: Int)] = [("collect", 1)], delay: Int = 0, settings: String = "{}") throws {
        let ds = specs.map { SimulatedDispatcher(id: $0.id, dispatchLimit: $0.limit, delay: .seconds(delay)) }
        manager = DispatchManager(runtime: h.runtime, dispatchers: ds, settings: BarrierSettings.parse(try JSONValue(parsing: settings)))
        dispatchers = Dictionary(uniqueKeysWithValues: ds.map { ($0.id, $0) })
    }

    func track(_ n: Int, to dispatcher: String? = nil) {
        for i in 1...n { manager.track(.string("e\(i)"), dispatcher: dispatcher) }
    }

    /// Batch sizes received by `id`.
    func batches(_ id: String) -> [Int] { dispatchers[id]!.received.map(\.count) }

    /// The trace lines of one kind, compactly.
    func lines(_ kind: String) -> [String] {
        h.recorder.events.filter { $0.kind == kind }.map { e in
            switch e.body {
            case let .dispatchSent(d, n, flush): return "\(d) \(n)\(flush ? " flush" : "")"
            case let .dispatchBlocked(d, bs): return "\(d) \(bs.joined(separator: ","))"
            case let .dispatchBarrier(b, d, state, fl): return "\(b) \(d ?? "-") \(state)\(fl ? " flushable" : "")"
            case let .stuckDispatcher(d, w): return "\(d) \(w.count)"
            default: return e.jsonLine
            }
        }
    }
}

/// A barrier whose state the test sets.
final class ManualBarrier: Barrier {
    let id: String
    var onChange: (() -> Void)?
    var current: BarrierState { didSet { onChange?() } }
    var flushable: Bool { didSet { onChange?() } }
    init(_ id: String, _ state: BarrierState = .closed, flushable: Bool = false) {
        self.id = id
        current = state
        self.flushable = flushable
    }
    func state(for dispatcherID: String) -> BarrierState { current }
    var isFlushable: Bool { flushable }
}

@Suite("Tealium semantics: dispatch barriers")
struct DispatchRuleTests {
    @Test("rule 1: barriers apply to dispatchers their scopes name; empty scopes apply to nothing; none applicable means open")
    func rule01_applicability() throws {
        let r = try Rig([("collect", 1), ("other", 1)])
        let b = ManualBarrier("Gate")
        r.manager.registerScopedBarrier(b, scopes: [.dispatcher(id: "other")])
        let empty = ManualBarrier("Nothing")
        r.manager.registerScopedBarrier(empty, scopes: [])
        r.track(1)
        #expect(r.batches("collect") == [1])
        #expect(r.batches("other") == [])
        #expect(r.manager.barriers(for: "collect").map(\.id) == ["ConnectivityBarrier"])
        #expect(r.manager.barriers(for: "other").map(\.id) == ["Gate"])
    }

    @Test("rule 2: outside a flush a dispatcher is closed if any applicable barrier is closed")
    func rule02_anyClosedCloses() throws {
        let r = try Rig()
        let a = ManualBarrier("A", .open)
        let b = ManualBarrier("B", .closed)
        r.manager.registerScopedBarrier(a, scopes: [.all])
        r.manager.registerScopedBarrier(b, scopes: [.all])
        r.track(1)
        #expect(r.batches("collect").isEmpty)
        #expect(r.lines("dispatch.blocked") == ["collect B"])
        b.current = .open
        #expect(r.batches("collect") == [1])
    }

    @Test("rule 3: only changes count: no repeated open→open, no pull without a transition")
    func rule03_onlyChangesCount() throws {
        let r = try Rig()
        let a = ManualBarrier("A", .open)
        r.manager.registerScopedBarrier(a, scopes: [.all])
        let before = r.lines("dispatch.barrier").count
        a.current = .open
        a.current = .open
        #expect(r.lines("dispatch.barrier").count == before)
        a.current = .closed
        a.current = .open
        #expect(r.lines("dispatch.barrier").suffix(2) == ["A collect closed", "A collect open"])
    }

    @Test("rule 4: a flush ignores barriers flushable right now; a non-flushable closed barrier still blocks; flushability changes apply at once")
    func rule04_flushIgnoresFlushable() throws {
        let r = try Rig()
        let b = ManualBarrier("B", .closed, flushable: false)
        r.manager.registerScopedBarrier(b, scopes: [.all])
        r.track(2)
        r.manager.flush()
        #expect(r.batches("collect").isEmpty, "the reference's note: a closed non-flushable barrier stops a flush")
        b.flushable = true
        #expect(r.batches("collect") == [1, 1])
        #expect(r.lines("dispatch.sent") == ["collect 1 flush", "collect 1 flush"])
    }

    @Test("rule 5: scopes come from the settings entry, else the factory's defaults, else all; \"all\" in any case")
    func rule05_scopes() throws {
        let r = try Rig(
            [("collect", 1), ("Analytics", 1)],
            settings: #"{"BatchingBarrier":{"barrier_id":"BatchingBarrier","scopes":["Analytics"]},"ConnectivityBarrier":{"barrier_id":"ConnectivityBarrier","scopes":["ALL"]}}"#)
        #expect(r.manager.barriers(for: "Analytics").map(\.id) == ["ConnectivityBarrier", "BatchingBarrier"])
        #expect(r.manager.barriers(for: "collect").map(\.id) == ["ConnectivityBarrier"])
        #expect(BarrierScope("analytics") == .dispatcher(id: "analytics"))
        let defaults = try Rig([("collect", 1), ("x", 1)], settings: #"{"BatchingBarrier":{"barrier_id":"BatchingBarrier","scopes":[]}}"#)
        #expect(defaults.manager.barriers(for: "x").map(\.id).isEmpty, "JSON scopes replace the defaults, even when empty")
        let factoryDefault = try Rig([("collect", 1), ("x", 1)])
        #expect(factoryDefault.manager.barriers(for: "x").isEmpty, "connectivity defaults to collect only")
    }

    @Test("rule 6: an entry without barrier_id or scopes is ignored entirely, with a warning naming it")
    func rule06_incompleteEntriesIgnored() throws {
        let s = BarrierSettings.parse(try JSONValue(parsing: #"{"a":{"scopes":["all"]},"b":{"barrier_id":"BatchingBarrier"},"c":{"barrier_id":"BatchingBarrier","scopes":["all"]}}"#))
        #expect(s.entries.map(\.key) == ["c"])
        #expect(s.warnings == [#"barriers.a: has no "barrier_id"; entry ignored"#, #"barriers.b: has no "scopes"; entry ignored"#])
    }

    @Test("rule 7: every settings change reconfigures every configured barrier; a removed entry resets to the defaults")
    func rule07_settingsChanges() throws {
        let r = try Rig([("collect", 10)], settings: #"{"BatchingBarrier":{"barrier_id":"BatchingBarrier","scopes":["all"],"configuration":{"batch_size":3}}}"#)
        let batching = try #require(r.manager.configuredBarrier("BatchingBarrier") as? BatchingBarrier)
        #expect(batching.effectiveBatch(for: "collect") == 3)
        r.manager.configure(BarrierSettings.parse(try JSONValue(parsing: #"{"ConnectivityBarrier":{"barrier_id":"ConnectivityBarrier","scopes":["collect"],"configuration":{"wifi_only":true}}}"#)))
        #expect(batching.batchSize == nil)
        #expect(batching.effectiveBatch(for: "collect") == 10)
        #expect((r.manager.configuredBarrier("ConnectivityBarrier") as? ConnectivityBarrier)?.wifiOnly == true)
    }

    @Test("rule 8: registering an instance again replaces its scopes; unregistering removes it; registered barriers get no settings")
    func rule08_registry() throws {
        let r = try Rig([("collect", 1), ("my_dispatcher", 1)])
        let b = ManualBarrier("ConnectivityBarrier")  // same id as a configured one: still not configured
        r.manager.registerScopedBarrier(b, scopes: [.dispatcher(id: "my_dispatcher")])
        r.manager.registerScopedBarrier(b, scopes: [.dispatcher(id: "collect")])
        #expect(r.manager.barriers(for: "my_dispatcher").isEmpty)
        #expect(r.manager.barriers(for: "collect").count == 2)
        r.manager.configure(BarrierSettings.parse(try JSONValue(parsing: #"{"ConnectivityBarrier":{"barrier_id":"ConnectivityBarrier","scopes":["all"]}}"#)))
        #expect(b.current == .closed)
        r.manager.unregisterScopedBarrier(b)
        #expect(r.manager.barriers(for: "collect").map(\.id) == ["ConnectivityBarrier"])
    }

    @Test("rule 9: a connectivity barrier on collect is always present unless one with its id is supplied (the first wins)")
    func rule09_defaultConnectivity() throws {
        let r = try Rig([("collect", 1), ("other", 1)])
        #expect(r.manager.barriers(for: "collect").map(\.id) == ["ConnectivityBarrier"])
        let h = Harness()
        let custom = DispatchManager(
            runtime: h.runtime, dispatchers: [SimulatedDispatcher(id: "collect"), SimulatedDispatcher(id: "other")],
            factories: [ConnectivityBarrier.Factory(defaultScopes: [.all]), ConnectivityBarrier.Factory(defaultScopes: [])])
        #expect(custom.barriers(for: "other").map(\.id) == ["ConnectivityBarrier"])
    }

    @Test("rule 10: the batching barrier's effective batch: 1 unknown, dispatchLimit when absent, else max(min(batch_size, limit), 1)")
    func rule10_batching() throws {
        for (config, expected) in [("{}", 10), (#"{"batch_size":3}"#, 3), (#"{"batch_size":50}"#, 10), (#"{"batch_size":0}"#, 1), (#"{"batch_size":-4}"#, 1)] {
            let r = try Rig([("collect", 10)], settings: #"{"BatchingBarrier":{"barrier_id":"BatchingBarrier","scopes":["all"],"configuration":\#(config)}}"#)
            let b = try #require(r.manager.configuredBarrier("BatchingBarrier") as? BatchingBarrier)
            #expect(b.effectiveBatch(for: "collect") == expected, "\(config)")
            #expect(b.effectiveBatch(for: "unknown") == 1)
            #expect(b.isFlushable)
        }
        let r = try Rig([("collect", 10)], settings: #"{"BatchingBarrier":{"barrier_id":"BatchingBarrier","scopes":["all"],"configuration":{"batch_size":3}}}"#)
        r.track(2)
        #expect(r.batches("collect").isEmpty)
        r.track(1)
        #expect(r.batches("collect") == [3])
    }

    @Test("rule 11: connectivity is open when connected and not (wifi_only and cellular); flushable when connected; reopens by itself")
    func rule11_connectivity() throws {
        let r = try Rig(settings: #"{"ConnectivityBarrier":{"barrier_id":"ConnectivityBarrier","scopes":["collect"],"configuration":{"wifi_only":true}}}"#)
        let c = try #require(r.manager.configuredBarrier("ConnectivityBarrier"))
        for (net, state, flushable) in [(NetworkConnection.wifi, BarrierState.open, true), (.ethernet, .open, true), (.cellular, .closed, true), (.none, .closed, false)] {
            r.manager.network.set(net)
            #expect(c.state(for: "collect") == state, "\(net)")
            #expect(c.isFlushable == flushable, "\(net)")
        }
        r.track(1)
        #expect(r.batches("collect").isEmpty)
        r.manager.network.set(.wifi)
        #expect(r.batches("collect") == [1])
    }

    @Test("rule 12: the timer barrier opens every N seconds for one second, and the scheduled one by the hour, on the virtual clock")
    func rule12_timeBarriers() throws {
        let r = try Rig(settings: #"{"TimerBarrier":{"barrier_id":"TimerBarrier","scopes":["all"],"configuration":{"interval":10}}}"#)
        r.h.scheduler.advance(by: .seconds(3))
        r.track(2)
        r.h.scheduler.run()
        #expect(r.batches("collect") == [1, 1])
        let sent = r.h.recorder.events.filter { $0.kind == "dispatch.sent" }.map(\.t)
        #expect(sent == [.seconds(10), .seconds(10)])
        #expect(r.lines("dispatch.barrier").contains("TimerBarrier collect open flushable"))

        let s = try Rig(settings: #"{"ScheduledBarrier":{"barrier_id":"ScheduledBarrier","scopes":["all"],"configuration":{"start_hour":2,"end_hour":3}}}"#)
        s.track(1)
        s.h.scheduler.run()
        #expect(s.batches("collect") == [1])
        #expect(s.h.recorder.events.first { $0.kind == "dispatch.sent" }?.t == .seconds(7200))
    }

    @Test("rule 13: a flush lasts while something is pending, at most 5 s; a flush with nothing pending does nothing")
    func rule13_flushWindow() throws {
        let r = try Rig(settings: #"{"BatchingBarrier":{"barrier_id":"BatchingBarrier","scopes":["all"],"configuration":{"batch_size":5}}}"#)
        r.manager.flush()
        #expect(!r.manager.isFlushing("collect"))
        r.manager.network.set(.none)
        r.track(2)
        r.manager.flush()
        #expect(r.manager.isFlushing("collect"))
        r.h.scheduler.advance(by: .seconds(5))
        #expect(!r.manager.isFlushing("collect"))
        r.manager.network.set(.wifi)
        r.manager.flush()
        #expect(r.batches("collect") == [1, 1])
        #expect(!r.manager.isFlushing("collect"), "the flush ends when the queue is empty")
    }

    @Test("rule 14: pending counts queued, unexpired dispatches not in flight")
    func rule14_pending() throws {
        let r = try Rig(delay: 3)
        r.track(1)
        #expect(r.manager.pendingCount(for: "collect") == 0, "in flight")
        r.manager.network.set(.none)
        r.track(1)
        #expect(r.manager.pendingCount(for: "collect") == 1)
        r.manager.expiry = .seconds(10)
        r.h.scheduler.advance(by: .seconds(11))
        #expect(r.manager.pendingCount(for: "collect") == 0, "expired")
    }

    @Test("rule 15: an event is queued for every current dispatcher before any release")
    func rule15_queuedForAllFirst() throws {
        let r = try Rig([("collect", 1), ("other", 1)])
        r.track(1)
        #expect(r.h.recorder.events.map(\.kind).filter { $0.hasPrefix("dispatch.") && $0 != "dispatch.barrier" } == [
            "dispatch.queued", "dispatch.queued", "dispatch.sent", "dispatch.sent",
        ])
    }

    @Test("rule 16: a pull takes up to min(dispatchLimit, 50) oldest, repeats while full, stops at a partial batch")
    func rule16_pulls() throws {
        let r = try Rig([("collect", 3)])
        r.manager.network.set(.none)
        r.track(7)
        r.manager.network.set(.wifi)
        #expect(r.batches("collect") == [3, 3, 1])
        let big = try Rig([("collect", 60)])
        big.manager.network.set(.none)
        big.track(70)
        big.manager.network.set(.wifi)
        #expect(big.batches("collect") == [50], "a limit over 50 reads 50 as a partial batch and stalls the rest (a suspected Tealium defect, reproduced)")
    }

    @Test("rule 17: closing a barrier stops future pulls only; what is in flight goes on")
    func rule17_closingKeepsInFlight() throws {
        let r = try Rig([("collect", 2)], delay: 2)
        r.track(2)  // each enqueue while open pulls at once: two batches of 1, in flight for 2 s
        r.h.scheduler.advance(by: .seconds(1))
        r.manager.network.set(.none)
        r.track(2)
        r.h.scheduler.run()
        #expect(r.batches("collect") == [1, 1])
        #expect(r.manager.pendingCount(for: "collect") == 2, "the two in flight were delivered; the two later ones wait")
        #expect(r.manager.pendingEvents(for: "collect") == ["e1", "e2"])
    }

    @Test("rule 18: batches for a dispatcher go in ascending time order; dispatchers are independent")
    func rule18_order() throws {
        let r = try Rig(
            [("collect", 2), ("other", 3)], settings: #"{"ConnectivityBarrier":{"barrier_id":"ConnectivityBarrier","scopes":["all"]}}"#)
        r.manager.network.set(.none)
        r.track(5)
        r.manager.network.set(.wifi)
        #expect(r.dispatchers["collect"]!.received.flatMap { $0 } == (1...5).map { .string("e\($0)") })
        #expect(r.batches("other") == [3, 2])
        #expect(r.batches("collect") == [2, 2, 1])
    }

    @Test("rule 19: the global queue limit evicts the oldest (traced); a negative limit is unlimited")
    func rule19_queueLimit() throws {
        let r = try Rig()
        r.manager.queueLimit = 3
        r.manager.network.set(.none)
        r.track(5)
        r.manager.network.set(.wifi)
        #expect(r.dispatchers["collect"]!.received.flatMap { $0 } == ["e3", "e4", "e5"])
        #expect(r.h.recorder.events.filter { $0.kind == "dispatch.dropped" }.count == 2)
        let u = try Rig()
        u.manager.queueLimit = -1
        u.manager.network.set(.none)
        u.track(150)
        #expect(u.manager.pendingCount(for: "collect") == 150)
    }

    @Test("rule 20: removing a dispatcher deletes its queue")
    func rule20_removeDispatcher() throws {
        let r = try Rig([("collect", 1), ("other", 1)])
        r.manager.network.set(.none)
        let b = ManualBarrier("B")
        r.manager.registerScopedBarrier(b, scopes: [.dispatcher(id: "other")])
        r.track(2)
        r.manager.removeDispatcher("other")
        #expect(r.manager.pendingEvents(for: "other").isEmpty)
        #expect(r.manager.pendingCount(for: "collect") == 2)
    }

    @Test("the reference's settings example: connectivity with wifi_only on all, batching of 10 on two dispatchers")
    func referenceSettings() throws {
        let r = try Rig(
            [("analytics_dispatcher", 20), ("collect_dispatcher", 20)],
            settings: #"{"ConnectivityBarrier":{"barrier_id":"ConnectivityBarrier","scopes":["all"],"configuration":{"wifi_only":true}},"BatchingBarrier":{"barrier_id":"BatchingBarrier","scopes":["analytics_dispatcher","collect_dispatcher"],"configuration":{"batch_size":10}}}"#)
        r.manager.network.set(.cellular)
        r.track(10)
        #expect(r.batches("analytics_dispatcher").isEmpty)
        r.manager.network.set(.wifi)
        #expect(r.batches("analytics_dispatcher") == [10])
        #expect(r.batches("collect_dispatcher") == [10])
    }

    @Test("stuck: events still held at quiescence are reported per dispatcher")
    func stuckDispatches() throws {
        let r = try Rig()
        r.manager.network.set(.none)
        r.track(3)
        r.h.scheduler.run()
        #expect(r.lines("stuck") == ["collect 3"])
    }

    @Test("bad settings: wrong types, missing fields and unknown barrier ids are warnings naming the key; nothing crashes")
    func badSettings() throws {
        let json = #"""
            {"A":[1],"B":{"barrier_id":7,"scopes":["all"]},"C":{"barrier_id":"BatchingBarrier","scopes":"all"},
             "D":{"barrier_id":"BatchingBarrier","scopes":["all"],"configuration":[]},
             "E":{"barrier_id":"NoSuchBarrier","scopes":["all"]},
             "F":{"barrier_id":"BatchingBarrier","scopes":["all"],"configuration":{"batch_size":"ten"},"extra":1}}
            """#
        let r = try Rig(settings: json)
        #expect(r.manager.warnings == [
            "barriers.A: must be an object, found an array; entry ignored",
            "barriers.B.barrier_id: must be a non-empty string, found a number; entry ignored",
            #"barriers.C.scopes: must be an array of strings ("all" or dispatcher ids); entry ignored"#,
            "barriers.D.configuration: must be an object, found an array; entry ignored",
            "barriers.F.extra: unknown field; ignored",
            #"barriers.E: unknown barrier_id "NoSuchBarrier"; entry ignored"#,
            "BatchingBarrier: configuration.batch_size must be a whole number, found a string; ignored",
        ])
        #expect(BarrierSettings.parse("oops").warnings == ["barriers: must be an object of barrier entries, found a string; ignored"])
    }
}

@Suite("Dispatch golden traces")
struct DispatchGoldenTests {
    @Test("batching 3 with 7 events and a final flush")
    func batchingWithFlush() throws {
        let r = try Rig([("collect", 10)], settings: #"{"BatchingBarrier":{"barrier_id":"BatchingBarrier","scopes":["all"],"configuration":{"batch_size":3}}}"#)
        for i in 1...7 { r.h.scheduler.schedule(after: .seconds(i)) { r.manager.track(.string("e\(i)")) } }
        r.h.scheduler.schedule(after: .seconds(10)) { r.manager.flush() }
        r.h.scheduler.run()
        #expect(r.batches("collect") == [3, 3, 1])
        #expect(r.lines("dispatch.sent") == ["collect 3", "collect 3", "collect 1 flush"])
        try expectGolden(r.h.recorder.jsonl(header: TraceHeader(scenario: "batching-flush")), "batching-flush.jsonl")
    }

    @Test("wifi_only on cellular, then wifi")
    func wifiOnlyCellularThenWifi() throws {
        let r = try Rig(settings: #"{"ConnectivityBarrier":{"barrier_id":"ConnectivityBarrier","scopes":["collect"],"configuration":{"wifi_only":true}}}"#)
        r.h.scheduler.schedule(after: .seconds(1)) { r.manager.network.set(.cellular) }
        r.h.scheduler.schedule(after: .seconds(2)) { r.track(2) }
        r.h.scheduler.schedule(after: .seconds(5)) { r.manager.network.set(.wifi) }
        r.h.scheduler.run()
        #expect(r.lines("dispatch.sent") == ["collect 1", "collect 1"])
        #expect(r.h.recorder.events.first { $0.kind == "dispatch.sent" }?.t == .seconds(5))
        try expectGolden(r.h.recorder.jsonl(header: TraceHeader(scenario: "wifi-only")), "wifi-only.jsonl")
    }

    @Test("a flush on cellular with wifi_only sends (the barrier is flushable while connected)")
    func flushOnCellular() throws {
        let r = try Rig(settings: #"{"ConnectivityBarrier":{"barrier_id":"ConnectivityBarrier","scopes":["collect"],"configuration":{"wifi_only":true}}}"#)
        r.h.scheduler.schedule(after: .seconds(1)) { r.manager.network.set(.cellular) }
        r.h.scheduler.schedule(after: .seconds(2)) { r.track(2) }
        r.h.scheduler.schedule(after: .seconds(3)) { r.manager.flush() }
        r.h.scheduler.run()
        #expect(r.lines("dispatch.sent") == ["collect 1 flush", "collect 1 flush"])
        try expectGolden(r.h.recorder.jsonl(header: TraceHeader(scenario: "flush-on-cellular")), "flush-on-cellular.jsonl")
    }
}

@Suite("Dispatch and boards together")
struct TrackOutputsTests {
    @Test("a board's outputs become dispatches in the same trace, caused by the routing that tracked them")
    func trackOutputs() throws {
        let h = Harness()
        let receipt = ClosureBoard<String>(identifier: "pubReceipt") { b, order in b.sendOutput(["receipt": .string(order)] as JSONValue) }
        let mb = h.motherboard([receipt])
        let collect = SimulatedDispatcher(id: "collect")
        let dispatch = DispatchManager(runtime: h.runtime, dispatchers: [collect])
        let registry: any BarrierRegistry = dispatch
        registry.registerScopedBarrier(ManualBarrier("Hold", .open), scopes: [.all])
        mb.trackOutputs(of: ["pubReceipt"], into: dispatch)
        mb.stimulate(.activate("pubReceipt", input: "o-1"))
        #expect(collect.received == [[["receipt": "o-1"]]])
        let events = h.recorder.events
        let routed = try #require(events.first { $0.kind == "flow.routed" })
        #expect(routed.body == .flowRouted(from: "pubReceipt", output: ["receipt": "o-1"], to: nil, action: "track"))
        let queued = try #require(events.first { $0.kind == "dispatch.queued" })
        #expect(queued.cause == routed.seq)
        #expect(events.map(\.seq) == Array(1...events.count))
    }
}

@Suite("Dispatch stimuli")
struct DispatchStimulusTests {
    @Test("every dispatch stimulus reads back from what it records; bad fields are named")
    func roundTrip() throws {
        let all: [DispatchStimulus] = [
            .network(.cellular), .track("purchase", dispatcher: nil), .track(["id": 1], dispatcher: "collect"), .flush,
            .configure(["barriers": []]),
        ]
        for s in all {
            #expect(try DispatchStimulus.from(action: s.action.rawValue, fields: s.fields)?.get() == s)
        }
        #expect(DispatchStimulus.from(action: "activate", fields: [:]) == nil)
        let bad = DispatchStimulus.from(action: "network", fields: ["network": "5g"])
        guard case let .failure(e)? = bad else {
            Issue.record("a network stimulus with an unknown connection was accepted")
            return
        }
        #expect(e.message.contains("needs \"network\""))
    }
}
