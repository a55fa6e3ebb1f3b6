#ifndef BOARDY_TRAP_CATCHER_H
#define BOARDY_TRAP_CATCHER_H

/// Runs `body(context)` on a thread of its own. Returns 1 when it trapped (a Swift
/// `assertionFailure`, `preconditionFailure`, `fatalError`: SIGILL on x86_64, SIGTRAP on arm64),
/// 0 when it returned, -1 when the catcher could not run it (no thread, no signal action).
int boardy_catch_trap(void (*body)(void *context), void *context);

/// Makes the calling process die (SIGKILL) when its parent does (Linux's PR_SET_PDEATHSIG;
/// nothing elsewhere): a helper process a test starts must not outlive a crashed test run.
/// Returns 1 when the parent is gone already, else 0.
int boardy_die_with_parent(void);

#endif
