/* SPDX-License-Identifier: MIT */
/* test_death.c — Xvfb killed (SIGKILL) under a NoOperation flood, a blocking reply wait and an event wait:
 * every call returns an error, nothing hangs, SIGPIPE (left at its default) never fires, nothing leaks. */
#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <xw/xproto.h>
#include <xw/xw.h>
#include <xw/xwext.h>

#include "xvfb_suite.h"
#include "xwtest.h"

/* One Xvfb per test: each test kills its own. */
static xw_connection_t *c;

static void sleep_ms(int ms)
{
    struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* After the server died: every entry point answers at once with an error. */
static void all_calls_fail(void)
{
    ck_assert_int_ne(xw_connection_has_error(c), 0);
    const char *why = xw_connection_error_string(c);
    ck_assert_ptr_nonnull(why);
    ck_assert_msg(strstr(why, "server closed the connection") || strstr(why, "write to server") ||
                      strstr(why, "read from server"),
                  "unexpected reason: %s", why);
    ck_assert_uint_eq(xw_no_operation(c).sequence, 0);
    ck_assert_ptr_nonnull(xw_request_error_string(c));
    ck_assert_uint_eq(xw_no_operation_checked(c).sequence, 0);
    ck_assert_uint_eq(xw_intern_atom(c, 0, 4, "DEAD").sequence, 0);
    ck_assert_uint_eq(xw_get_input_focus(c).sequence, 0);
    ck_assert_int_eq(xw_flush(c), 0);
    ck_assert_ptr_null(xw_wait_for_event(c));
    ck_assert_ptr_null(xw_poll_for_event(c));
    ck_assert_ptr_null(xw_wait_for_event_timeout(c, -1));
    uint8_t buf[64];
    size_t len;
    ck_assert_int_eq(xw_wait_for_event_into(c, buf, sizeof(buf), &len, -1), -EPIPE);
    ck_assert_ptr_null(xw_wait_for_reply64(c, 0x7fffffff, NULL));
    void *r = NULL;
    xw_generic_error_t *e = NULL;
    ck_assert_int_eq(xw_wait_for_reply64_timeout(c, 0x7fffffff, -1, &r, &e), 1);
    ck_assert_uint_eq(xw_generate_id(c), (uint32_t)-1);
    ck_assert_ptr_null(xw_get_setup(c));
    ck_assert_int_eq(xw_get_file_descriptor(c), -1);
}

/* ---- 1. killed during a NoOperation flood ---- */

/* Floods until the connection refuses; the kill comes after `kill_after` requests.
 * Returns how many requests were accepted. */
static long flood(long kill_after)
{
    long n = 0;
    for (long i = 0; i < 200000000L; i++) {
        if (i == kill_after)
            xvfb_kill(&xvfb_server);
        if (xw_no_operation(c).sequence == 0)
            return n;
        n++;
    }
    return -1; /* never refused: a hang in the making */
}

START_TEST(kill_during_noop_flood)
{
    long n = flood(300000);
    ck_assert_int_ge(n, 300000);
    all_calls_fail();
}
END_TEST

START_TEST(kill_during_noop_flood_single_threaded)
{
    ck_assert_int_eq(xw_connection_set_single_threaded(c, 1), 0);
    long n = flood(300000);
    ck_assert_int_ge(n, 300000);
    all_calls_fail();
}
END_TEST

/* The flood on another thread, so the process is multi-threaded and the locked path
 * runs; the kill comes from this thread while the flood goes on. */
struct flooder {
    volatile long sent;
    long accepted;
};

static void *flood_thread(void *arg)
{
    struct flooder *f = arg;
    f->accepted = 0;
    for (long i = 0; i < 200000000L; i++) {
        if (xw_no_operation(c).sequence == 0)
            return NULL;
        f->accepted++;
        __atomic_store_n(&f->sent, f->accepted, __ATOMIC_RELAXED);
    }
    f->accepted = -1;
    return NULL;
}

START_TEST(kill_during_noop_flood_other_thread)
{
    struct flooder f = {0};
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, flood_thread, &f), 0);
    while (__atomic_load_n(&f.sent, __ATOMIC_RELAXED) < 300000)
        sleep_ms(1);
    xvfb_kill(&xvfb_server);
    /* the lock-free getters, read while the flooding thread records the error */
    const char *why;
    while (!(why = xw_connection_error_string(c)))
        sched_yield();
    ck_assert_int_ne(xw_connection_has_error(c), 0);
    ck_assert_msg(strlen(why) > 10, "reason: \"%s\"", why); /* all_calls_fail checks which */
    ck_assert_int_eq(pthread_join(t, NULL), 0);
    ck_assert_int_ge(f.accepted, 300000);
    all_calls_fail();
}
END_TEST

/* ---- 2. killed while threads block waiting for a reply and a check ---- */

struct waiter {
    xw_connection_t *c;
    unsigned seq;
    int done;
    void *reply;
    xw_generic_error_t *error;
};

static void *reply_waiter(void *arg)
{
    struct waiter *w = arg;
    w->reply = xw_wait_for_reply(w->c, w->seq, &w->error);
    __atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
    return NULL;
}

static void *check_waiter(void *arg)
{
    struct waiter *w = arg;
    w->error = xw_request_check(w->c, (xw_void_cookie_t){w->seq});
    __atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
    return NULL;
}

START_TEST(kill_during_reply_wait)
{
    /* A second client grabs the server, so our requests are not answered: the
     * waits below really block until the server dies. */
    xw_connection_t *g = xw_connect(xvfb_server.name, NULL);
    ck_assert_int_eq(xw_connection_has_error(g), 0);
    xw_grab_server(g);
    free(xw_get_input_focus_reply(g, xw_get_input_focus(g), NULL));

    struct waiter rw = {.c = c, .seq = xw_intern_atom(c, 0, 9, "XWDEATH_A").sequence};
    struct waiter cw = {.c = c, .seq = xw_map_window_checked(c, 0x7fffffff).sequence};
    ck_assert_uint_ne(rw.seq, 0);
    ck_assert_uint_ne(cw.seq, 0);
    pthread_t t1, t2;
    ck_assert_int_eq(pthread_create(&t1, NULL, reply_waiter, &rw), 0);
    ck_assert_int_eq(pthread_create(&t2, NULL, check_waiter, &cw), 0);
    sleep_ms(300);
    ck_assert_int_eq(__atomic_load_n(&rw.done, __ATOMIC_ACQUIRE), 0); /* still blocked: the grab works */
    /* The zero-allocation wait with a timeout also sees nothing yet. */
    uint8_t buf[64];
    size_t len;
    ck_assert_int_eq(xw_wait_for_reply_into(c, rw.seq, buf, sizeof(buf), &len, NULL, 50), -ETIMEDOUT);
    xvfb_kill(&xvfb_server);
    ck_assert_int_eq(pthread_join(t1, NULL), 0);
    ck_assert_int_eq(pthread_join(t2, NULL), 0);
    ck_assert_ptr_null(rw.reply);
    ck_assert_ptr_null(rw.error);
    ck_assert_ptr_null(cw.error);
    ck_assert_int_eq(xw_wait_for_reply_into(c, rw.seq, buf, sizeof(buf), &len, NULL, -1), -EPIPE);
    all_calls_fail();
    /* the grabbing client dies with the server: it learns at its next wait */
    ck_assert_ptr_null(xw_get_input_focus_reply(g, xw_get_input_focus(g), NULL));
    ck_assert_int_ne(xw_connection_has_error(g), 0);
    xw_disconnect(g);
}
END_TEST

/* ---- 3. killed while threads wait for events ---- */

struct ev_waiter {
    xw_connection_t *c;
    int mode; /* 0 xw_wait_for_event, 1 xw_wait_for_event_into */
    int done;
    void *ev;
    int rc;
};

static void *event_waiter(void *arg)
{
    struct ev_waiter *w = arg;
    if (w->mode == 0) {
        w->ev = xw_wait_for_event(w->c);
    } else {
        uint8_t buf[64];
        size_t len;
        w->rc = xw_wait_for_event_into(w->c, buf, sizeof(buf), &len, -1);
    }
    __atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
    return NULL;
}

START_TEST(kill_during_event_wait)
{
    struct ev_waiter a = {.c = c, .mode = 0}, b = {.c = c, .mode = 1};
    pthread_t t1, t2;
    ck_assert_int_eq(pthread_create(&t1, NULL, event_waiter, &a), 0);
    ck_assert_int_eq(pthread_create(&t2, NULL, event_waiter, &b), 0);
    sleep_ms(300);
    ck_assert_int_eq(__atomic_load_n(&a.done, __ATOMIC_ACQUIRE), 0);
    ck_assert_int_eq(__atomic_load_n(&b.done, __ATOMIC_ACQUIRE), 0);
    xvfb_kill(&xvfb_server);
    ck_assert_int_eq(pthread_join(t1, NULL), 0);
    ck_assert_int_eq(pthread_join(t2, NULL), 0);
    ck_assert_ptr_null(a.ev);
    ck_assert_int_eq(b.rc, -EPIPE);
    all_calls_fail();
}
END_TEST

/* Single-threaded process, the event wait on this thread: the kill comes from a
 * helper process so that this thread is inside poll() when the server dies. */
START_TEST(kill_during_event_wait_same_thread)
{
    pid_t killer = fork();
    ck_assert_int_ge(killer, 0);
    if (killer == 0) {
        sleep_ms(300);
        kill(xvfb_server.pid, SIGKILL);
        _exit(0);
    }
    ck_assert_ptr_null(xw_wait_for_event(c));
    xvfb_kill(&xvfb_server); /* reaps it */
    int st;
    waitpid(killer, &st, 0);
    all_calls_fail();
}
END_TEST

int main(void)
{
    if (xvfb_missing("death"))
        return 77;
    /* The default disposition: a write to the dead socket without MSG_NOSIGNAL would
     * kill the test process, which Check reports as a failure. */
    signal(SIGPIPE, SIG_DFL);
    Suite *s = xwtest_suite("death");
    TCase *tc = xvfb_tcase(
        s,
        &(struct xvfb_suite){.name = "death", .timeout = 60 /* a hang fails here */, .server_per_test = 1, .conn = &c});
    tcase_add_test(tc, kill_during_noop_flood);
    tcase_add_test(tc, kill_during_noop_flood_single_threaded);
    tcase_add_test(tc, kill_during_noop_flood_other_thread);
    tcase_add_test(tc, kill_during_reply_wait);
    tcase_add_test(tc, kill_during_event_wait);
    tcase_add_test(tc, kill_during_event_wait_same_thread);
    return xwtest_run(s);
}
