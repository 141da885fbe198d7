/* SPDX-License-Identifier: MIT */
/* lock.h — internal: the connection's futex mutex and condition, and deadlines. */
#ifndef XW_SRC_LOCK_H
#define XW_SRC_LOCK_H

#include "base.h"

/* ---- lock: a futex mutex and condition. Cheaper than pthread's because the
 * uncontended path is one inline compare-exchange and one exchange. ---- */
struct xw_mutex {
    int v; /* 0 free, 1 held, 2 held and someone may sleep on it */
};

struct xw_cond {
    unsigned seq;    /* bumped by every broadcast; sleepers wait for it to change */
    int waiters;     /* changed only under the mutex, so broadcast can skip the syscall */
    unsigned handed; /* seq of the last xw__lock_hand_all (set under the mutex) */
};

void xw__lock_acquire_slow(struct xw_mutex *m);
void xw__lock_wake(struct xw_mutex *m);
/* Waits until broadcast or deadline (CLOCK_MONOTONIC ns, -1: none). Mutex held on
 * entry and exit. Returns 0 or -ETIMEDOUT. */
int xw__lock_wait(struct xw_cond *cv, struct xw_mutex *m, int64_t deadline);
void xw__lock_wake_all(struct xw_cond *cv);
/* Inline: nearly always nobody waits, and waiters says so in one load. */
static inline void xw__lock_broadcast(struct xw_cond *cv)
{
    if (cv->waiters)
        xw__lock_wake_all(cv);
}

/* Mutex m held. Wakes cv's waiters as xw__lock_broadcast does, but through m: they
 * are moved to m's queue and get it one at a time as it is released, instead of all
 * waking at once to find it held (the reader's, for the routing and its own claim
 * that follow the read) and sleeping again on it. */
void xw__lock_hand_all(struct xw_cond *cv, struct xw_mutex *m);
static inline void xw__lock_broadcast_held(struct xw_cond *cv, struct xw_mutex *m)
{
    if (cv->waiters)
        xw__lock_hand_all(cv, m);
}

/* While the process has a single thread (glibc's __libc_single_threaded, as its
 * own pthread_mutex uses), nobody can contend, so plain stores do. It turns false
 * when a second thread starts (and may turn true again in a fork's child, which has
 * one thread), never while a thread is inside a critical section of ours. */
#if defined(__has_include)
#if __has_include(<sys/single_threaded.h>)
#include <sys/single_threaded.h>
#define XW_PROCESS_SINGLE_THREADED() __libc_single_threaded
#endif
#endif
#ifndef XW_PROCESS_SINGLE_THREADED
#define XW_PROCESS_SINGLE_THREADED() 0
#endif

static inline void xw__lock_acquire(struct xw_mutex *m)
{
    if (XW_PROCESS_SINGLE_THREADED()) {
        m->v = 1;
        return;
    }
    int z = 0;
    if (XW_LIKELY(__atomic_compare_exchange_n(&m->v, &z, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)))
        return;
    xw__lock_acquire_slow(m);
}

static inline void xw__lock_release(struct xw_mutex *m)
{
    if (XW_PROCESS_SINGLE_THREADED()) {
        m->v = 0;
        return;
    }
    if (XW_UNLIKELY(__atomic_exchange_n(&m->v, 0, __ATOMIC_RELEASE) == 2))
        xw__lock_wake(m);
}

/* The lock's halves for fast paths that must stay leaves (no call, so no registers
 * to save): they never sleep or wake anyone themselves. try: 1 when taken, else
 * the caller goes to a path that takes the lock with xw__lock_acquire. drop: 0 when
 * a sleeper must be woken: the lock is free then, and the caller ends by
 * returning xw__lock_wake_ret (a tail call). */
static inline int xw__lock_try(struct xw_mutex *m)
{
    if (XW_PROCESS_SINGLE_THREADED()) {
        m->v = 1;
        return 1;
    }
    int z = 0;
    return __atomic_compare_exchange_n(&m->v, &z, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static inline int xw__lock_drop(struct xw_mutex *m)
{
    if (XW_PROCESS_SINGLE_THREADED()) {
        m->v = 0;
        return 1;
    }
    return __atomic_exchange_n(&m->v, 0, __ATOMIC_RELEASE) != 2;
}

/* Wakes a sleeper of the lock just released, then returns v. */
uint64_t xw__lock_wake_ret(struct xw_mutex *m, uint64_t v);

#endif
