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

#if canImport(Darwin)
@usableFromInline typealias PlatformMutex = os_unfair_lock
#elseif os(Windows)
@usableFromInline typealias PlatformMutex = SRWLOCK
#else
@usableFromInline typealias PlatformMutex = pthread_mutex_t
#endif

/// The mutex stored inline in one heap object (as swift-nio's lock stores it): taking the lock
/// is one load of the object and a call, with no second pointer to follow.
@usableFromInline
final class LockStorage: ManagedBuffer<Void, PlatformMutex> {
    @usableFromInline
    static func make() -> LockStorage {
        let buffer = create(minimumCapacity: 1) { _ in () }
        let storage = unsafeDowncast(buffer, to: LockStorage.self)
        storage.withUnsafeMutablePointerToElements { m in
            #if canImport(Darwin)
            m.initialize(to: os_unfair_lock())
            #elseif os(Windows)
            InitializeSRWLock(m)
            #else
            m.initialize(to: pthread_mutex_t())
            let rc = pthread_mutex_init(m, nil)
            precondition(rc == 0, "pthread_mutex_init failed: \(rc)")
            #endif
        }
        return storage
    }

    deinit {
        withUnsafeMutablePointerToElements { m in
            #if !canImport(Darwin) && !os(Windows)
            pthread_mutex_destroy(m)
            #endif
            _ = m.deinitialize(count: 1)
        }
    }
}

/// A mutual-exclusion lock: `os_unfair_lock` on Apple's systems, a `pthread_mutex_t` elsewhere
/// (an `SRWLOCK` on Windows). Not recursive. Copies share one lock.
///
/// `@unchecked Sendable`: its only state is the mutex, which is only ever touched through the
/// platform's lock and unlock calls, themselves safe from any thread.
@usableFromInline
package struct Lock: @unchecked Sendable {
    @usableFromInline let storage: LockStorage

    /// A new, unlocked lock.
    @inlinable
    package init() { storage = LockStorage.make() }

    /// Takes the lock, waiting while another thread holds it.
    @inlinable @inline(__always)
    package func lock() {
        _ = storage.withUnsafeMutablePointerToElements { m in
            #if canImport(Darwin)
            os_unfair_lock_lock(m)
            #elseif os(Windows)
            AcquireSRWLockExclusive(m)
            #else
            pthread_mutex_lock(m)
            #endif
        }
    }

    /// Releases the lock taken by this thread.
    @inlinable @inline(__always)
    package func unlock() {
        _ = storage.withUnsafeMutablePointerToElements { m in
            #if canImport(Darwin)
            os_unfair_lock_unlock(m)
            #elseif os(Windows)
            ReleaseSRWLockExclusive(m)
            #else
            pthread_mutex_unlock(m)
            #endif
        }
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
///
/// `@unchecked Sendable`: `value` is reached only inside `withLockedValue`, under `lock`; nothing
/// hands out a reference to it that outlives the call.
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
