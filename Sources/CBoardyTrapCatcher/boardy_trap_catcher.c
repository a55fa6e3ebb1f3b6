// A trap catcher for POSIX systems (Linux first): Swift's traps are machine traps (x86_64's
// `ud2` raises SIGILL, arm64's `brk` raises SIGTRAP). The guarded body runs on a thread of its
// own; a trap there jumps back to that thread's start with siglongjmp, and the thread ends.
//
// Written by hand because no listed package does it on Linux: CwlPreconditionTesting catches
// Mach exceptions (Apple platforms only), and its POSIX variant uses Darwin's ucontext64_t.
// As with CwlPreconditionTesting, the abandoned frames are not unwound: what they held (memory,
// a lock) stays held. It is for tests that expect a trap, not for production code.
#define _GNU_SOURCE
#include "boardy_trap_catcher.h"

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif

static pthread_mutex_t catcher_lock = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local sigjmp_buf *guarded_jump = NULL;
static struct sigaction previous_ill, previous_trap;

static void on_trap(int signal, siginfo_t *info, void *ucontext) {
    (void)info;
    (void)ucontext;
    sigjmp_buf *jump = guarded_jump;
    if (jump != NULL) {
        guarded_jump = NULL;
        siglongjmp(*jump, 1);
    }
    // A trap on a thread nobody guards: the default action (the process stops, as it would
    // have without the catcher) when the instruction runs again.
    struct sigaction fallback;
    memset(&fallback, 0, sizeof fallback);
    fallback.sa_handler = SIG_DFL;
    sigaction(signal, &fallback, NULL);
}

struct guarded_call {
    void (*body)(void *);
    void *context;
    int trapped;
};

static void *run_guarded(void *argument) {
    struct guarded_call *call = argument;
    sigjmp_buf jump;
    if (sigsetjmp(jump, 1) == 0) {
        guarded_jump = &jump;
        call->body(call->context);
        guarded_jump = NULL;
        call->trapped = 0;
    } else {
        call->trapped = 1;
    }
    return NULL;
}

int boardy_catch_trap(void (*body)(void *context), void *context) {
    // One guarded call at a time: the signal actions are the process's.
    pthread_mutex_lock(&catcher_lock);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_trap;
    action.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    if (sigaction(SIGILL, &action, &previous_ill) != 0 || sigaction(SIGTRAP, &action, &previous_trap) != 0) {
        pthread_mutex_unlock(&catcher_lock);
        return -1;
    }
    struct guarded_call call = {body, context, 0};
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    // A debug build's deep calls need more than a secondary thread's default on some systems.
    pthread_attr_setstacksize(&attributes, 8 * 1024 * 1024);
    pthread_t thread;
    int result = pthread_create(&thread, &attributes, run_guarded, &call);
    pthread_attr_destroy(&attributes);
    if (result == 0) {
        pthread_join(thread, NULL);
        result = call.trapped;
    } else {
        result = -1;
    }
    sigaction(SIGILL, &previous_ill, NULL);
    sigaction(SIGTRAP, &previous_trap, NULL);
    pthread_mutex_unlock(&catcher_lock);
    return result;
}

int boardy_die_with_parent(void) {
#if defined(__linux__)
    pid_t parent = getppid();
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    // The parent may have gone before the call took hold: the process was re-parented.
    return getppid() != parent ? 1 : 0;
#else
    return 0;
#endif
}
