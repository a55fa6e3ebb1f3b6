#if canImport(Glibc)
    import Glibc
#endif

/// A run of recorded events in memory the segment owns: `count` events from `base`, room for
/// `capacity`. A ``TraceRecorder`` fills segments under its lock and hands them to a
/// ``RecordedEvents``, which only reads them.
///
/// Written by hand rather than kept as arrays: a recorder of a large run holds a hundred
/// megabytes of events, and on Linux a segment of a few megabytes is mapped on its own, on
/// huge pages where the system has them, and filled in one call. An array's memory comes from
/// `malloc` four kilobytes at a time, and the kernel's work for those pages was a fifth of a
/// simulation.
@usableFromInline final class EventSegment: @unchecked Sendable {
    // Sendable: written only under the recorder's lock, before the segment is handed to a
    // `RecordedEvents`, which never writes it.
    @usableFromInline let base: UnsafeMutablePointer<TraceEvent>
    @usableFromInline let capacity: Int
    /// Events `0 ..< count` are initialized.
    @usableFromInline @exclusivity(unchecked) var count = 0
    /// The whole mapping, when the segment has one of its own.
    private let mapping: (start: UnsafeMutableRawPointer, length: Int)?

    /// The first segment's size, in events.
    static let firstCapacity = 256
    /// Huge pages are 2 MiB on the systems we map them on (x86-64 and arm64 Linux).
    static let hugePage = 2 << 20
    /// The largest segment: two huge pages of events.
    static let largestCapacity = 2 * hugePage / MemoryLayout<TraceEvent>.stride

    /// The size of the segment after one of `capacity` events: twice as large, up to
    /// ``largestCapacity``, so a recorder wastes at most about half of what it holds.
    static func capacity(after capacity: Int) -> Int {
        capacity == 0 ? firstCapacity : min(largestCapacity, capacity * 2)
    }

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        let bytes = self.capacity * MemoryLayout<TraceEvent>.stride
        #if canImport(Glibc)
            if bytes >= Self.hugePage, let mapped = Self.mapAligned(bytes) {
                mapping = mapped.mapping
                base = mapped.base.bindMemory(to: TraceEvent.self, capacity: self.capacity)
                return
            }
        #endif
        mapping = nil
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deinitialize(count: count)
        #if canImport(Glibc)
            if let mapping {
                munmap(mapping.start, mapping.length)
                return
            }
        #endif
        base.deallocate()
    }

    /// Destroys the events, keeping the memory.
    func removeAll() {
        base.deinitialize(count: count)
        count = 0
    }

    #if canImport(Glibc)
        /// `bytes` of fresh memory starting on a huge-page boundary, advised for huge pages and
        /// mapped in one call (`MADV_POPULATE_WRITE`, Linux 5.14; where the kernel says no, pages
        /// come as they are first written). Nil when the system has no memory to map.
        private static func mapAligned(_ bytes: Int) -> (base: UnsafeMutableRawPointer, mapping: (start: UnsafeMutableRawPointer, length: Int))? {
            let length = bytes + hugePage
            guard let start = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), start != MAP_FAILED else {
                return nil
            }
            let aligned = (Int(bitPattern: start) + hugePage - 1) & ~(hugePage - 1)
            guard let base = UnsafeMutableRawPointer(bitPattern: aligned) else {
                munmap(start, length)
                return nil
            }
            _ = madvise(base, bytes, 14)  // MADV_HUGEPAGE
            _ = madvise(base, bytes, 23)  // MADV_POPULATE_WRITE
            return (base, (start, length))
        }
    #endif
}
