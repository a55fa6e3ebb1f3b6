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
