import Foundation

/// A few threads working through a list: each takes the next index until none is left, so a
/// slow item holds up one thread only. The one pool of the package (fleet statistics read trace
/// files with it, the importer parses sources with it). Threads of our own, not Dispatch's
/// pool: the importer needs a large stack (the parser recurses as deep as code nests), which
/// Dispatch's threads cannot be given.
package enum WorkerThreads {
    /// How many threads for `items` items: one per active core, at most one per item, at least one.
    package static func count(for items: Int) -> Int {
        max(1, min(ProcessInfo.processInfo.activeProcessorCount, items))
    }

    /// Runs `work(worker, next)` on `workers` threads (`worker` in `0..<workers`), each calling
    /// `next()` for the next index of `0..<items` (nil when none is left: every index is handed
    /// out once), and returns when every thread is done. `stackSize` in bytes, when given.
    package static func run(
        items: Int, workers: Int, stackSize: Int? = nil, _ work: @escaping @Sendable (_ worker: Int, _ next: @Sendable () -> Int?) -> Void
    ) {
        let cursor = LockedValue(0)
        let next: @Sendable () -> Int? = {
            cursor.withLockedValue { c -> Int? in
                guard c < items else { return nil }
                defer { c += 1 }
                return c
            }
        }
        let done = DispatchGroup()
        for w in 0..<max(1, workers) {
            done.enter()
            let thread = Thread {
                work(w, next)
                done.leave()
            }
            if let stackSize { thread.stackSize = stackSize }
            thread.start()
        }
        done.wait()
    }
}
