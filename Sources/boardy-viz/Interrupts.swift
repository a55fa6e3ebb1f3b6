import ArgumentParser
import BoardyFiles
import BoardyGraphviz
import BoardyImport
import BoardyLock
import BoardySimulation
import BoardyTrace
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif


/// Ctrl-C (or SIGTERM, SIGHUP) during a long run removes the temporary files not yet renamed
/// into place, then ends the process by the same signal, as users and scripts expect: the target
/// is left as it was, and no `.boardy-viz-*` file stays behind.
enum Interrupts {
    struct State {
        var temporaries: [String] = []
        var sources: [any DispatchSourceSignal] = []
    }

    static let state = LockedValue(State())

    /// Creates a temporary file with `create` (which returns its path, or nil when it made
    /// none) and tracks it, under the lock the handlers take: an interrupt between the file's
    /// creation and its tracking waits for the tracking, then removes the file, instead of
    /// finding nothing to remove.
    static func creatingTracked(_ create: () -> String?) -> String? {
        install()
        return state.withLockedValue { s in
            let path = create()
            if let path { s.temporaries.append(path) }
            return path
        }
    }

    /// Installs the handlers, once, before any temporary file exists: a signal that comes while
    /// they are being installed (its default action off, its source not yet running) is lost,
    /// so the window must close before there is anything to clean up.
    static func install() {
        state.withLockedValue { s in
            guard s.sources.isEmpty else { return }
            // A parent may have started us with these signals blocked (Foundation's Process
            // does): unblock them, or an interrupt would wait for the end of the run.
            var set = sigset_t()
            sigemptyset(&set)
            for sig in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&set, sig) }
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
            // `resume()` returns before a source is registered with the kernel; until it is, a
            // signal finds its action off and is lost (a Ctrl-C right after the start, on a busy
            // machine, let the run go on to its end). Wait until all three are registered: a
            // generous bound, so a starved queue delays the start but never hangs it.
            let registered = DispatchSemaphore(value: 0)
            for sig in [SIGINT, SIGTERM, SIGHUP] {
                signal(sig, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
                source.setEventHandler {
                    for p in state.withLockedValue({ $0.temporaries }) { unlink(p) }
                    signal(sig, SIG_DFL)
                    kill(getpid(), sig)
                }
                source.setRegistrationHandler { registered.signal() }
                source.resume()
                s.sources.append(source)
            }
            let deadline = DispatchTime.now() + .seconds(30)
            for _ in 0..<3 {
                if registered.wait(timeout: deadline) == .timedOut { break }
            }
        }
    }

    static func untrack(_ path: String) {
        state.withLockedValue { s in s.temporaries.removeAll { $0 == path } }
    }
}
