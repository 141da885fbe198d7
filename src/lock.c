/* SPDX-License-Identifier: MIT */
/* lock.c — the connection's futex mutex and condition variable, and deadline helpers. */
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

void xw__mutex_lock_slow(struct xw_mutex *m)
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

void xw__mutex_wake(struct xw_mutex *m)
{
    futex_wake(&m->v, 1);
}

uint64_t xw__mutex_wake_ret(struct xw_mutex *m, uint64_t v)
{
    futex_wake(&m->v, 1);
    return v;
}

int xw__cond_wait(struct xw_cond *cv, struct xw_mutex *m, int64_t deadline)
{
    unsigned seq = __atomic_load_n(&cv->seq, __ATOMIC_RELAXED);
    cv->waiters++;
    xw__mutex_unlock(m);
    int r = futex_wait((int *)&cv->seq, (int)seq, deadline);
    xw__mutex_lock(m);
    cv->waiters--;
    return r == -ETIMEDOUT ? -ETIMEDOUT : 0;
}

void xw__cond_wake_all(struct xw_cond *cv)
{
    __atomic_fetch_add(&cv->seq, 1, __ATOMIC_RELEASE);
    futex_wake((int *)&cv->seq, INT_MAX);
}

int64_t xw__now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t xw__deadline(int timeout_ms)
{
    if (timeout_ms < 0)
        return -1;
    return xw__now() + (int64_t)timeout_ms * 1000000;
}

/* poll() timeout in ms for a deadline, rounded up so we never wake just short of it. */
int xw__poll_timeout(int64_t deadline)
{
    if (deadline < 0)
        return -1;
    int64_t left = deadline - xw__now();
    if (left <= 0)
        return 0;
    int64_t ms = (left + 999999) / 1000000;
    return ms > INT_MAX ? INT_MAX : (int)ms;
}
