import BoardyTestSupport
import Testing

@testable import BoardyCore

/// The engine's board-id map behaves as a dictionary, iterates in first-insertion order, and
/// does not grow with ids that come and go.
@Suite("Board map")
struct BoardMapTests {
    @Test("agrees with a dictionary over random inserts, updates and removals; order is first insertion")
    func againstDictionary() {
        var map = BoardMap<Int>()
        var dict: [BoardID: Int] = [:]
        var order: [BoardID] = []
        var rng = SplitMix(seed: 7)
        for step in 0..<20_000 {
            let id = BoardID("b\(rng.next() % 300)")
            if rng.next() % 3 == 0 {
                #expect(map.removeValue(forKey: id) == dict.removeValue(forKey: id))
            } else {
                #expect(map.updateValue(step, forKey: id) == dict.updateValue(step, forKey: id))
                if !order.contains(id) { order.append(id) }
            }
            #expect(map.count == dict.count)
            if step % 997 == 0 {
                for (k, v) in dict { #expect(map[k] == v) }
                #expect(Set(map.liveKeys) == Set(dict.keys))
            }
        }
        // Live ids in the order they were first inserted since the last rebuild: a subsequence
        // of first-insertion order.
        var it = order.makeIterator()
        for k in map.liveKeys { while let o = it.next(), o != k {} }
        #expect(map.values.count == dict.count)
    }

    @Test("ids that come and go once each leave no trace: the map stays small")
    func churn() {
        var map = BoardMap<Int>()
        for i in 0..<100_000 {
            map[BoardID("task-\(i)")] = i
            map[BoardID("task-\(i)")] = nil
        }
        map["kept"] = 1
        #expect(map.count == 1)
        #expect(map.keys.count < 200)
        #expect(map["kept"] == 1 && map["task-5"] == nil)
    }
}

extension BoardMapTests {
    @Test("ids equal as Swift strings are one id, whatever their spelling (canonical equivalence)")
    func canonicalEquivalence() {
        var map = BoardMap<Int>()
        map[BoardID("caf\u{E9}")] = 1
        #expect(map[BoardID("cafe\u{301}")] == 1)
        map[BoardID("K")] = 2
        #expect(map[BoardID("\u{212A}")] == 2)
        map[BoardID("\u{212A}x")] = 3
        #expect(map[BoardID("Kx")] == 3)
        #expect(map.count == 3)
        // As a dictionary keys them.
        let dict: [BoardID: Int] = [BoardID("caf\u{E9}"): 1, BoardID("K"): 2, BoardID("\u{212A}x"): 3]
        for (k, v) in dict { #expect(map[k] == v) }
    }
}

/// The app may drop its last reference to a motherboard from code the engine runs (a flow, a
/// board's activate): the engine holds the motherboard until that work is done.
@Suite("A motherboard released during its own work")
struct ReleasedDuringWorkTests {
    final class Holder: @unchecked Sendable { var mb: Motherboard? }

    @Test("a board that drops the app's last reference to its motherboard while it runs: the run goes on, recorded, no crash")
    func droppedWhileRunning() {
        let recorder = TraceRecorder()
        let holder = Holder()
        weak var weakMB: Motherboard?
        do {
            let first = ClosureBoard<Int>(identifier: "first") { board, value in
                holder.mb = nil  // the app lets go, from inside the run
                board.sendOutput(value + 1)
            }
            let second = ClosureBoard<Int>(identifier: "second") { board, value in board.sendOutput(value + 1) }
            let mb = Motherboard(boards: [first, second], runtime: BoardyRuntime(observer: recorder))
            mb.registerFlowSteps(BoardID("first") ->> BoardID("second"))
            holder.mb = mb
            weakMB = mb
        }
        holder.mb?.activate("first", with: 1)
        let kinds = recorder.events.map(\.kind)
        #expect(kinds.filter { $0 == "activation.performed" }.count == 2, "\(kinds)")
        #expect(kinds.last == "output.sent")
        #expect(weakMB == nil, "released once the work is done")
    }
}
