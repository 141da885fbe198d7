/* SPDX-License-Identifier: MIT */
/* test_lock.c — the connection's futex mutex and condition: waiters handed the mutex one at a time
 * (xw__lock_hand_all) all get it, none is lost, and each holds it alone; a timed wait still times out. */
#include <check.h>
#include <pthread.h>
#include <sched.h>

#include "clock.h"
#include "lock.h"
#include "xwtest.h"

enum { WAITERS = 6, ROUNDS = 200 };

static struct xw_mutex mu;
static struct xw_cond cv;
static long generation; /* bumped under mu by the hander; waiters wait for it to change */
static int inside;      /* threads holding mu: never more than one */
static long woke;

static void *waiter(void *arg)
{
    (void)arg;
    for (long seen = 0; seen < ROUNDS;) {
        xw__lock_acquire(&mu);
        while (generation == seen)
            xw__lock_wait(&cv, &mu, -1);
        ck_assert_int_eq(++inside, 1);
        seen = generation;
        woke++;
        inside--;
        xw__lock_release(&mu);
    }
    return NULL;
}

/* Each round waits until every waiter sleeps on cv, then hands them all the mutex
 * at once: a waiter left asleep on the mutex hangs the test (its timeout fails it). */
START_TEST(handed_waiters_all_get_the_mutex)
{
    pthread_t t[WAITERS];
    for (int i = 0; i < WAITERS; i++)
        ck_assert_int_eq(pthread_create(&t[i], NULL, waiter, NULL), 0);
    for (long r = 1; r <= ROUNDS; r++) {
        for (;;) {
            xw__lock_acquire(&mu);
            if (cv.waiters == WAITERS && woke == (r - 1) * WAITERS)
                break;
            xw__lock_release(&mu);
            sched_yield();
        }
        generation = r;
        xw__lock_broadcast_held(&cv, &mu);
        xw__lock_release(&mu);
    }
    for (int i = 0; i < WAITERS; i++)
        ck_assert_int_eq(pthread_join(t[i], NULL), 0);
    ck_assert_int_eq(woke, (long)WAITERS * ROUNDS);
    ck_assert_int_eq(mu.v, 0);
}
END_TEST

START_TEST(a_timed_wait_times_out)
{
    xw__lock_acquire(&mu);
    ck_assert_int_eq(xw__lock_wait(&cv, &mu, xw__clock_deadline(20)), -ETIMEDOUT);
    ck_assert_int_eq(cv.waiters, 0);
    xw__lock_release(&mu);
    ck_assert_int_eq(mu.v, 0);
}
END_TEST

int main(void)
{
    Suite *s = xwtest_suite("lock");
    TCase *tc = tcase_create("lock");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, handed_waiters_all_get_the_mutex);
    tcase_add_test(tc, a_timed_wait_times_out);
    suite_add_tcase(s, tc);
    return xwtest_run(s);
}
