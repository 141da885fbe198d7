/* SPDX-License-Identifier: MIT */
/* lock.c — the connection's futex mutex and condition variable. */
#include "lock.h"

#include <limits.h>
#include <linux/futex.h>
#include <poll.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Absolute CLOCK_MONOTONIC timeouts via FUTEX_WAIT_BITSET, so a woken waiter that
 * goes back to sleep keeps its original deadline. */
static int futex_wait(int *addr, int val, int64_t deadline)
{
    struct timespec ts, *tsp = NULL;
    if (deadline >= 0) {
        ts.tv_sec = deadline / 1000000000;
        ts.tv_nsec = deadline % 1000000000;
        tsp = &ts;
    }
    long r = syscall(SYS_futex, addr, FUTEX_WAIT_BITSET_PRIVATE, val, tsp, NULL, FUTEX_BITSET_MATCH_ANY);
    return r < 0 ? -errno : 0;
}

static void futex_wake(int *addr, int n)
{
    syscall(SYS_futex, addr, FUTEX_WAKE_PRIVATE, n, NULL, NULL, 0);
}

void xw__lock_acquire_slow(struct xw_mutex *m)
{
    /* A short spin first: the lock is mostly held for a few hundred nanoseconds. */
    for (int i = 0; i < 64; i++) {
        int z = 0;
        if (__atomic_load_n(&m->v, __ATOMIC_RELAXED) == 0 &&
            __atomic_compare_exchange_n(&m->v, &z, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
            return;
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    }
    /* Mark it contended before sleeping, so the holder's unlock wakes us. */
    while (__atomic_exchange_n(&m->v, 2, __ATOMIC_ACQUIRE) != 0)
        futex_wait(&m->v, 2, -1);
}

void xw__lock_wake(struct xw_mutex *m)
{
    futex_wake(&m->v, 1);
}

uint64_t xw__lock_wake_ret(struct xw_mutex *m, uint64_t v)
{
    futex_wake(&m->v, 1);
    return v;
}

/* Takes m marked contended: other waiters moved to m's queue with this one
 * (xw__lock_hand_all) sleep there until its release wakes the next. */
static void acquire_contended(struct xw_mutex *m)
{
    while (__atomic_exchange_n(&m->v, 2, __ATOMIC_ACQUIRE) != 0)
        futex_wait(&m->v, 2, -1);
}

int xw__lock_wait(struct xw_cond *cv, struct xw_mutex *m, int64_t deadline)
{
    unsigned seq = __atomic_load_n(&cv->seq, __ATOMIC_RELAXED);
    cv->waiters++;
    xw__lock_release(m);
    int r = futex_wait((int *)&cv->seq, (int)seq, deadline);
    /* handed m since it slept (xw__lock_hand_all), this thread may have been woken
     * from m's queue, and others may sleep there still; else it takes m as anyone.
     * A handed waiter was woken, even if its deadline passed while it sat on m's
     * queue: it reports a wake, so its caller looks at what the read brought.
     * Handed since: handed in (seq, now], counted from seq, so a hand-off of long
     * ago (or none: a condition never handed) never passes for one however far
     * the counter has gone since; a signed difference would after 2^31. */
    unsigned handed = __atomic_load_n(&cv->handed, __ATOMIC_ACQUIRE);
    unsigned now = __atomic_load_n(&cv->seq, __ATOMIC_RELAXED);
    if (handed - seq - 1 < now - seq) {
        acquire_contended(m);
        r = 0;
    } else {
        xw__lock_acquire(m);
    }
    cv->waiters--;
    return r == -ETIMEDOUT ? -ETIMEDOUT : 0;
}

void xw__lock_wake_all(struct xw_cond *cv)
{
    __atomic_fetch_add(&cv->seq, 1, __ATOMIC_RELEASE);
    futex_wake((int *)&cv->seq, INT_MAX);
}

/* The waiters wake from m's futex, each when the one before releases m: marking m
 * contended (the caller holds it) makes the caller's release wake the first. If the
 * requeue fails (an old kernel), they are woken as by xw__lock_wake_all. */
void xw__lock_hand_all(struct xw_cond *cv, struct xw_mutex *m)
{
    unsigned seq = __atomic_add_fetch(&cv->seq, 1, __ATOMIC_RELEASE);
    __atomic_store_n(&cv->handed, seq, __ATOMIC_RELEASE);
    __atomic_store_n(&m->v, 2, __ATOMIC_RELAXED);
    if (syscall(SYS_futex, &cv->seq, FUTEX_CMP_REQUEUE_PRIVATE, 0L, (long)INT_MAX, &m->v, (long)seq) < 0)
        futex_wake((int *)&cv->seq, INT_MAX);
}
