#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif os(Windows)
import WinSDK
#endif

// Written by hand, as swift-log keeps its own: the toolchain's Synchronization.Mutex needs
// macOS 15 / iOS 18 (an app recording traces cannot raise its deployment target for a debugging
// library), and on Linux it locks through atomics that ThreadSanitizer cannot see (`make tsan`
// reported the state it guards as racing); swift-nio's lock would pull an event-loop framework
// into every app that records a trace. This is the platform's own mutex and nothing more.

/// A mutual-exclusion lock: `os_unfair_lock` on Apple's systems, a `pthread_mutex_t` elsewhere
/// (an `SRWLOCK` on Windows). Not recursive.
@usableFromInline
package final class Lock: @unchecked Sendable {
    #if canImport(Darwin)
    @usableFromInline let mutex: UnsafeMutablePointer<os_unfair_lock>
    #elseif os(Windows)
    @usableFromInline let mutex: UnsafeMutablePointer<SRWLOCK>
    #elseif canImport(Glibc) || canImport(Musl) || canImport(Android)
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    #endif

    /// A new, unlocked lock.
    @usableFromInline
    package init() {
        #if canImport(Darwin)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: os_unfair_lock())
        #elseif os(Windows)
        mutex = .allocate(capacity: 1)
        InitializeSRWLock(mutex)
        #elseif canImport(Glibc) || canImport(Musl) || canImport(Android)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let rc = pthread_mutex_init(mutex, nil)
        precondition(rc == 0, "pthread_mutex_init failed: \(rc)")
        #endif
    }

    deinit {
        #if canImport(Darwin) || os(Windows)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
        #elseif canImport(Glibc) || canImport(Musl) || canImport(Android)
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
        #endif
    }

    /// Takes the lock, waiting while another thread holds it.
    @inlinable @inline(__always)
    package func lock() {
        #if canImport(Darwin)
        os_unfair_lock_lock(mutex)
        #elseif os(Windows)
        AcquireSRWLockExclusive(mutex)
        #elseif canImport(Glibc) || canImport(Musl) || canImport(Android)
        pthread_mutex_lock(mutex)
        #endif
    }

    /// Releases the lock taken by this thread.
    @inlinable @inline(__always)
    package func unlock() {
        #if canImport(Darwin)
        os_unfair_lock_unlock(mutex)
        #elseif os(Windows)
        ReleaseSRWLockExclusive(mutex)
        #elseif canImport(Glibc) || canImport(Musl) || canImport(Android)
        pthread_mutex_unlock(mutex)
        #endif
    }

    /// Runs `body` with the lock held.
    @inlinable @inline(__always)
    package func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A value that is only read or changed with its lock held.
package final class LockedValue<Value>: @unchecked Sendable {
    @usableFromInline let lock = Lock()
    @usableFromInline var value: Value

    /// Guards `value`.
    package init(_ value: Value) { self.value = value }

    /// Runs `body` on the value with the lock held.
    @inlinable
    package func withLockedValue<T, E: Error>(_ body: (inout Value) throws(E) -> T) throws(E) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
