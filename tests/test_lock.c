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

/* A condition never handed (the writers' one), its broadcasts past 2^31: a timed
 * wait on it still times out, with the mutex taken as anyone takes it (not marked
 * contended). Half the counter's range from the last hand-off must not read as a
 * hand-off after the wait began. */
START_TEST(a_timed_wait_times_out_half_a_wrap_from_the_last_hand_off)
{
    static const unsigned seqs[] = {0x80000001u, 0xfffffffeu};
    for (int i = 0; i < 2; i++) {
        struct xw_cond c2 = {.seq = seqs[i], .handed = 0};
        xw__lock_acquire(&mu);
        ck_assert_int_eq(xw__lock_wait(&c2, &mu, xw__clock_deadline(20)), -ETIMEDOUT);
        ck_assert_int_eq(mu.v, 1);
        xw__lock_release(&mu);
    }
}
END_TEST

/* A hand-off across the counter's wrap (seq 0xffffffff to 0) is still one: the
 * waiter handed the mutex reports a wake. */
static struct xw_cond wrap_cv = {.seq = 0xffffffffu, .handed = 0x7fffffffu};
static int wrap_r = 1;

static void *wrap_waiter(void *arg)
{
    (void)arg;
    xw__lock_acquire(&mu);
    wrap_r = xw__lock_wait(&wrap_cv, &mu, xw__clock_deadline(10000));
    xw__lock_release(&mu);
    return NULL;
}

START_TEST(a_hand_off_across_the_wrap_wakes)
{
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, wrap_waiter, NULL), 0);
    for (;;) {
        xw__lock_acquire(&mu);
        if (wrap_cv.waiters == 1)
            break;
        xw__lock_release(&mu);
        sched_yield();
    }
    xw__lock_broadcast_held(&wrap_cv, &mu);
    ck_assert_uint_eq(wrap_cv.seq, 0);
    xw__lock_release(&mu);
    ck_assert_int_eq(pthread_join(t, NULL), 0);
    ck_assert_int_eq(wrap_r, 0);
    ck_assert_int_eq(mu.v, 0);
}
END_TEST

/* Waiters with short deadlines, a hander handing them the mutex under it and a
 * third thread broadcasting without it, racing for many rounds: every waiter
 * ends (none left asleep on the mutex or the condition: the test's timeout),
 * each holds the mutex alone, the counts of waiters and the mutex end at rest. */
enum { RACERS = 4, RACE_ROUNDS = 3000 };
static int race_over;
static long race_woke, race_timed;

static void *race_waiter(void *arg)
{
    (void)arg;
    for (int i = 0; i < RACE_ROUNDS; i++) {
        xw__lock_acquire(&mu);
        int r = xw__lock_wait(&cv, &mu, xw__clock_deadline(i % 3));
        ck_assert_int_eq(++inside, 1);
        if (r == -ETIMEDOUT)
            race_timed++;
        else
            race_woke++;
        inside--;
        xw__lock_release(&mu);
    }
    return NULL;
}

static void *race_hander(void *arg)
{
    (void)arg;
    while (!__atomic_load_n(&race_over, __ATOMIC_ACQUIRE)) {
        xw__lock_acquire(&mu);
        ck_assert_int_eq(++inside, 1);
        xw__lock_broadcast_held(&cv, &mu);
        inside--;
        xw__lock_release(&mu);
        sched_yield();
    }
    return NULL;
}

static void *race_broadcaster(void *arg)
{
    (void)arg;
    while (!__atomic_load_n(&race_over, __ATOMIC_ACQUIRE)) {
        xw__lock_wake_all(&cv);
        sched_yield();
    }
    return NULL;
}

START_TEST(hand_offs_race_timeouts_and_unlocked_broadcasts)
{
    pthread_t w[RACERS], h, b;
    for (int i = 0; i < RACERS; i++)
        ck_assert_int_eq(pthread_create(&w[i], NULL, race_waiter, NULL), 0);
    ck_assert_int_eq(pthread_create(&h, NULL, race_hander, NULL), 0);
    ck_assert_int_eq(pthread_create(&b, NULL, race_broadcaster, NULL), 0);
    for (int i = 0; i < RACERS; i++)
        ck_assert_int_eq(pthread_join(w[i], NULL), 0);
    __atomic_store_n(&race_over, 1, __ATOMIC_RELEASE);
    ck_assert_int_eq(pthread_join(h, NULL), 0);
    ck_assert_int_eq(pthread_join(b, NULL), 0);
    ck_assert_int_eq(race_woke + race_timed, (long)RACERS * RACE_ROUNDS);
    ck_assert_int_eq(cv.waiters, 0);
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
    tcase_add_test(tc, a_timed_wait_times_out_half_a_wrap_from_the_last_hand_off);
    tcase_add_test(tc, a_hand_off_across_the_wrap_wakes);
    tcase_add_test(tc, hand_offs_race_timeouts_and_unlocked_broadcasts);
    suite_add_tcase(s, tc);
    return xwtest_run(s);
}
