import Testing

@testable import BoardySimulation

/// The explorer's partial-order reduction skips one order of two actions only when `Footprints`
/// says they commute: too much independence loses schedules (bugs go unfound), too little only
/// costs time. These pin what each kind of link makes dependent.
@Suite("Footprints: what the explorer's reduction may skip")
struct FootprintsTests {
    func footprints(_ json: String) throws -> (Footprints, Scenario) {
        let s = try ScenarioLoader.load(json: json, file: "footprints.json")
        return (Footprints(s), s)
    }

    /// The footprint id of the declared board `id` (a board of `main`).
    func board(_ f: Footprints, _ s: Scenario, _ id: String) throws -> Int {
        let spec = try #require(s.boards.first { $0.id.rawValue == id })
        return try #require(f.boardIDs[spec.path])
    }

    @Test("two chains that share no board commute; a board and one it activates do not")
    func separateChains() throws {
        let (f, s) = try footprints(
            """
            {"scenario": "chains", "boards": [
              {"id": "a", "onActivate": [{"activate": "b"}]}, {"id": "b"},
              {"id": "c", "onActivate": [{"activate": "d"}]}, {"id": "d"}]}
            """)
        let (a, b, c, d) = (try board(f, s, "a"), try board(f, s, "b"), try board(f, s, "c"), try board(f, s, "d"))
        #expect(f.commute(a, c) && f.commute(c, a))
        #expect(f.commute(b, d))
        #expect(!f.commute(a, b) && !f.commute(b, a))
        #expect(!f.commute(c, d))
        // An action never commutes with itself: it touches what it touches.
        #expect(!f.commute(a, a))
    }

    @Test("a flow from one board's output to another makes them dependent")
    func flowsLink() throws {
        let (f, s) = try footprints(
            """
            {"scenario": "flow", "boards": [{"id": "a", "onActivate": [{"output": "x"}]}, {"id": "b"}, {"id": "c"}],
             "flows": [{"from": "a", "on": "x", "activate": "b"}]}
            """)
        #expect(!f.commute(try board(f, s, "a"), try board(f, s, "b")))
        #expect(f.commute(try board(f, s, "a"), try board(f, s, "c")))
    }

    @Test("a gate and the board behind it are dependent, and so is whatever completes the gate")
    func gates() throws {
        let (f, s) = try footprints(
            """
            {"scenario": "gate", "boards": [
              {"id": "login"}, {"id": "cart", "activationBarrier": {"board": "login"}},
              {"id": "promo", "onActivate": [{"output": "shown"}]}, {"id": "other"}],
             "flows": [{"from": "promo", "on": "shown", "complete": "login", "with": false}]}
            """)
        let (login, cart, promo, other) = (try board(f, s, "login"), try board(f, s, "cart"), try board(f, s, "promo"), try board(f, s, "other"))
        #expect(!f.commute(login, cart))
        #expect(!f.commute(promo, cart), "completing the gate releases the board behind it")
        #expect(f.commute(other, cart) && f.commute(other, promo))
    }

    @Test("a ComponentKit barrier board touches everything: it commutes with nothing")
    func barrierBoardTouchesAll() throws {
        let (f, s) = try footprints(
            """
            {"scenario": "barrier", "boards": [{"id": "wait", "kind": "barrier"}, {"id": "a"}, {"id": "b"}]}
            """)
        let wait = try board(f, s, "wait")
        #expect(!f.commute(wait, try board(f, s, "a")))
        #expect(!f.commute(try board(f, s, "b"), wait))
        #expect(f.commute(try board(f, s, "a"), try board(f, s, "b")))
        #expect(!f.isAlone(wait) && !f.isTimeless(wait))
    }

    @Test("dispatch stimuli share the pipeline; a tracked board's output joins it; an untracked board stays apart")
    func dispatch() throws {
        let (f, s) = try footprints(
            """
            {"scenario": "dispatch", "boards": [{"id": "home", "onActivate": [{"output": "seen"}]}, {"id": "quiet"}],
             "dispatch": {"dispatchers": [{"id": "collect"}], "trackOutputs": ["home"]},
             "script": [{"at": 0, "network": "wifi"}, {"at": 0, "track": "e"}, {"at": 0, "activate": "quiet"}]}
            """)
        let (network, track, activateQuiet) = (f.scriptIDs[0], f.scriptIDs[1], f.scriptIDs[2])
        #expect(!f.commute(network, track))
        #expect(!f.commute(try board(f, s, "home"), network), "a tracked output reaches the dispatch pipeline")
        #expect(f.commute(activateQuiet, network))
        #expect(!f.isTimeless(network), "what the dispatch pipeline does depends on time")
    }

    @Test("the gateway makes every board behind it dependent; exempt and bypassing boards are not behind it")
    func gateway() throws {
        let (f, s) = try footprints(
            """
            {"scenario": "gateway", "boards": [{"id": "auth"}, {"id": "a"}, {"id": "b"}, {"id": "task", "kind": "task"}],
             "gateway": {"barrier": "auth", "exempt": ["auth"]}}
            """)
        let (a, b, task) = (try board(f, s, "a"), try board(f, s, "b"), try board(f, s, "task"))
        #expect(!f.commute(a, b))
        #expect(f.commute(a, task), "task boards bypass the gateway (rule 10)")
    }

    @Test("a delayed step makes an action time-dependent; an isolated, immediate one stands alone")
    func timelessAndAlone() throws {
        let (f, s) = try footprints(
            """
            {"scenario": "time", "boards": [{"id": "slow", "onActivate": [{"after": 1, "output": "x"}]}, {"id": "quick"}],
             "script": [{"at": 0, "activate": "quick"}]}
            """)
        #expect(!f.isTimeless(try board(f, s, "slow")))
        #expect(f.isTimeless(try board(f, s, "quick")))
        #expect(f.isAlone(f.scriptIDs[0]), "nothing else touches quick")
    }

    @Test("ids the footprints do not know never commute")
    func unknownIDs() throws {
        let (f, s) = try footprints(#"{"scenario": "one", "boards": [{"id": "a"}]}"#)
        let a = try board(f, s, "a")
        #expect(!f.commute(a, -1) && !f.commute(-1, a) && !f.commute(a, 99))
        #expect(!f.isAlone(-1) && !f.isTimeless(99))
    }
}
