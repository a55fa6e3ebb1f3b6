import CBoardyTrapCatcher

// CwlPreconditionTesting's API (mattgallagher/CwlPreconditionTesting) for the systems its own
// package does not reach: it catches Mach exceptions, so it runs on Apple's platforms only, and
// Boardy's tests that need it are skipped elsewhere. This module gives those tests the same two
// names (`catchBadInstruction(block:)`, `BadInstructionException`), so they compile unchanged
// and run here. The catcher is POSIX signals (CBoardyTrapCatcher), written by hand for that
// reason.

/// What ``catchBadInstruction(block:)`` returns when its block trapped. Like
/// CwlPreconditionTesting's POSIX variant, it carries nothing more: a trap was caught.
public final class BadInstructionException: Sendable {
    /// A caught trap.
    public init() {}
}

/// Runs `block` and returns a ``BadInstructionException`` if it trapped (a failed `assert`,
/// `assertionFailure` in a debug build, `precondition`, `preconditionFailure`, `fatalError`),
/// nil if it returned.
///
/// The block runs on a thread of its own while the caller waits. A trap ends that thread where
/// it stood: frames are abandoned, not unwound, so what they held (memory, a lock) stays held.
/// Catch traps in tests that expect them, never in production code.
public func catchBadInstruction(block: @escaping () -> Void) -> BadInstructionException? {
    final class Box {
        let block: () -> Void
        init(_ block: @escaping () -> Void) { self.block = block }
    }
    let box = Unmanaged.passRetained(Box(block))
    let result = boardy_catch_trap({ context in
        Unmanaged<Box>.fromOpaque(context!).takeUnretainedValue().block()
    }, box.toOpaque())
    box.release()
    precondition(result >= 0, "catchBadInstruction: could not start the guarded thread or set its signal actions")
    return result == 1 ? BadInstructionException() : nil
}
