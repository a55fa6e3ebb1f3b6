import BoardyLock
import Dispatch
import Testing

/// The platform's mutex every shared structure of the engine and the trace stands on.
@Suite("Lock")
struct LockTests {
    @Test("8 threads adding 20,000 each through withLockedValue lose no update")
    func mutualExclusion() {
        let counter = LockedValue(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<20_000 { counter.withLockedValue { $0 += 1 } }
        }
        #expect(counter.withLockedValue { $0 } == 160_000)
    }

    @Test("withLock returns the body's value, rethrows its typed error, and unlocks either way")
    func returnsAndRethrows() {
        struct Boom: Error, Equatable {}
        let lock = Lock()
        #expect(lock.withLock { 42 } == 42)
        #expect(throws: Boom()) { try lock.withLock { () throws(Boom) -> Int in throw Boom() } }
        // Still usable: a lock left held would deadlock here (the test would time out).
        #expect(lock.withLock { "free" } == "free")
    }

    @Test("lock and unlock pair across a critical section shared by threads")
    func explicitLockUnlock() {
        let lock = Lock()
        // Shared across threads on purpose: only ever touched between lock() and unlock(), which
        // is what the test checks (ThreadSanitizer in `make tsan` would report a slip).
        nonisolated(unsafe) var log: [Int] = []
        DispatchQueue.concurrentPerform(iterations: 4) { i in
            for _ in 0..<1_000 {
                lock.lock()
                log.append(i)
                lock.unlock()
            }
        }
        #expect(lock.withLock { log.count } == 4_000)
    }
}
