/* SPDX-License-Identifier: MIT */
/* test_threads.c — 8 threads each send 100,000 mixed requests on one connection to Xvfb and collect their
 * replies and errors while another thread waits for events: every answer correct, nothing lost. */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xw/xproto.h>
#include <xw/xw.h>

#include "xvfb_marks.h"
#include "xvfb_suite.h"
#include "xwtest.h"

enum { THREADS = 8, BATCH = 200, NATOMS = 16 };

/* Requests per thread: 100,000, or $XW_THREADS_PER_THREAD for a quick run by hand. */
static long per_thread = 100000;

static xw_connection_t *c;
static xw_atom_t mark_type;
static xw_window_t win;

enum kind { K_NOOP, K_ATTR, K_ATOM, K_NAME, K_FOCUS, K_CHECKED_BAD, K_CHECKED_OK, K_MARK, K_NKINDS };

struct req {
    enum kind kind;
    unsigned seq;
    uint32_t arg;
};

struct worker {
    int id;
    char names[NATOMS][40];
    xw_atom_t atoms[NATOMS];
    long sent, replies, errors, marks;
    long counts[K_NKINDS];
    int failed_line;
    struct req batch[BATCH];
};

/* One request of a kind picked by a per-thread generator; the outcome it expects
 * is kept in q. */
static int send_one(struct worker *wk, struct req *q, uint32_t rnd)
{
    q->kind = (enum kind)(rnd % K_NKINDS);
    switch (q->kind) {
    case K_NOOP:
        q->seq = xw_no_operation(c).sequence;
        break;
    case K_ATTR: {
        uint32_t pixel = rnd & 0xffffff;
        q->seq = xw_change_window_attributes(c, win, XW_CW_BACK_PIXEL, &pixel).sequence;
        break;
    }
    case K_ATOM:
        q->arg = (rnd >> 8) % NATOMS;
        q->seq = xw_intern_atom(c, 1, (uint16_t)strlen(wk->names[q->arg]), wk->names[q->arg]).sequence;
        break;
    case K_NAME:
        q->arg = (rnd >> 8) % NATOMS;
        q->seq = xw_get_atom_name(c, wk->atoms[q->arg]).sequence;
        break;
    case K_FOCUS:
        q->seq = xw_get_input_focus(c).sequence;
        break;
    case K_CHECKED_BAD:
        q->arg = xw_generate_id(c); /* never created: BadWindow naming it */
        q->seq = xw_map_window_checked(c, q->arg).sequence;
        break;
    case K_CHECKED_OK:
        q->seq = xw_map_window_checked(c, win).sequence;
        break;
    case K_MARK:
        q->seq = mark_send(c, win, mark_type, (uint32_t)wk->id, (uint32_t)wk->marks);
        wk->marks++;
        break;
    default:
        break;
    }
    T_CHECK(q->seq != 0);
    wk->counts[q->kind]++;
    wk->sent++;
    return 0;
}

static int collect(struct worker *wk, struct req *q)
{
    xw_generic_error_t *e = NULL;
    int ok = 1;
    switch (q->kind) {
    case K_ATOM: {
        xw_intern_atom_reply_t *r = xw_intern_atom_reply(c, (xw_intern_atom_cookie_t){q->seq}, &e);
        ok = r && !e && r->atom == wk->atoms[q->arg] && r->sequence == (uint16_t)q->seq;
        free(r);
        wk->replies++;
        break;
    }
    case K_NAME: {
        xw_get_atom_name_reply_t *r = xw_get_atom_name_reply(c, (xw_get_atom_name_cookie_t){q->seq}, &e);
        const char *want = wk->names[q->arg];
        ok = r && !e && xw_get_atom_name_name_length(r) == (int)strlen(want) &&
             !memcmp(xw_get_atom_name_name(r), want, strlen(want));
        free(r);
        wk->replies++;
        break;
    }
    case K_FOCUS: {
        xw_get_input_focus_reply_t *r = xw_get_input_focus_reply(c, (xw_get_input_focus_cookie_t){q->seq}, &e);
        ok = r && !e && r->sequence == (uint16_t)q->seq;
        free(r);
        wk->replies++;
        break;
    }
    case K_CHECKED_BAD:
        e = xw_request_check(c, (xw_void_cookie_t){q->seq});
        ok = e && e->error_code == 3 && e->resource_id == q->arg && e->full_sequence == q->seq;
        wk->errors += e != NULL;
        e = (free(e), NULL);
        break;
    case K_CHECKED_OK:
        e = xw_request_check(c, (xw_void_cookie_t){q->seq});
        ok = e == NULL;
        break;
    default:
        break;
    }
    free(e);
    T_CHECK(ok);
    return 0;
}

static int worker_run(struct worker *wk)
{
    uint64_t rng = 0x9e3779b97f4a7c15ull * (uint64_t)(wk->id + 1);
    for (int i = 0; i < NATOMS; i++) {
        snprintf(wk->names[i], sizeof(wk->names[i]), "XWTHR_%d_%d_%d", (int)getpid(), wk->id, i);
        xw_intern_atom_reply_t *r =
            xw_intern_atom_reply(c, xw_intern_atom(c, 0, (uint16_t)strlen(wk->names[i]), wk->names[i]), NULL);
        T_CHECK(r != NULL);
        wk->atoms[i] = r->atom;
        free(r);
    }
    while (wk->sent < per_thread) {
        int n = 0, line;
        while (n < BATCH && wk->sent < per_thread) {
            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            if ((line = send_one(wk, &wk->batch[n++], (uint32_t)(rng >> 33))))
                return line;
        }
        for (int i = 0; i < n; i++)
            if ((line = collect(wk, &wk->batch[i])))
                return line;
    }
    return 0;
}

static void *worker_main(void *arg)
{
    struct worker *wk = arg;
    wk->failed_line = worker_run(wk);
    return NULL;
}

START_TEST(eight_threads_and_an_event_waiter)
{
    static struct worker wk[THREADS];
    const xw_screen_t *scr = xw_setup_roots_iterator(xw_get_setup(c)).data;
    win = xw_generate_id(c);
    ck_assert_ptr_null(
        xw_request_check(c, xw_create_window_checked(c, 0, win, scr->root, 0, 0, 10, 10, 0,
                                                     XW_WINDOW_CLASS_INPUT_OUTPUT, scr->root_visual, 0, NULL)));
    xw_intern_atom_reply_t *a = xw_intern_atom_reply(c, xw_intern_atom(c, 0, 12, "XWTHR_MARKER"), NULL);
    ck_assert_ptr_nonnull(a);
    mark_type = a->atom;
    free(a);

    struct mark_listener l = {.c = c, .type = mark_type, .wait_ms = 100, .senders = THREADS};
    pthread_t lt, t[THREADS];
    ck_assert_int_eq(pthread_create(&lt, NULL, mark_listen, &l), 0);
    for (int i = 0; i < THREADS; i++) {
        memset(&wk[i], 0, sizeof(wk[i]));
        wk[i].id = i;
        ck_assert_int_eq(pthread_create(&t[i], NULL, worker_main, &wk[i]), 0);
    }
    for (int i = 0; i < THREADS; i++)
        ck_assert_int_eq(pthread_join(t[i], NULL), 0);
    /* every marker went out before its thread's last reply came back: the stop
     * message, sent now, is the last event */
    ck_assert_uint_ne(mark_send(c, win, mark_type, MARK_STOP, 0), 0);
    ck_assert_int_eq(xw_flush(c), 1);
    ck_assert_int_eq(pthread_join(lt, NULL), 0);

    long sent = 0, replies = 0, errors = 0, marks = 0;
    for (int i = 0; i < THREADS; i++) {
        ck_assert_msg(wk[i].failed_line == 0, "thread %d: check at line %d failed (%s)", i, wk[i].failed_line,
                      xw_connection_error_string(c) ? xw_connection_error_string(c) : "connection fine");
        ck_assert_int_eq(wk[i].sent, per_thread);
        ck_assert_int_eq(l.seen[i], wk[i].marks);
        sent += wk[i].sent, replies += wk[i].replies, errors += wk[i].errors, marks += wk[i].marks;
    }
    ck_assert_msg(l.failed_line == 0, "listener: check at xvfb_marks.c:%d failed", l.failed_line);
    ck_assert_int_eq(l.events, marks);
    ck_assert_ptr_null(xw_poll_for_queued_event(c));
    ck_assert_int_eq(xw_connection_has_error(c), 0);
    printf("threads: %d x %ld requests = %ld sent; %ld replies and %ld errors each checked against its cookie, "
           "%ld events all received in per-thread order by the waiter\n",
           THREADS, per_thread, sent, replies, errors, marks);
    xw_destroy_window(c, win);
    free(xw_get_input_focus_reply(c, xw_get_input_focus(c), NULL));
}
END_TEST

int main(void)
{
    if (xvfb_missing("threads"))
        return 77;
    const char *n = getenv("XW_THREADS_PER_THREAD");
    if (n && atol(n) > 0)
        per_thread = atol(n);
    setvbuf(stdout, NULL, _IOLBF, 0);
    Suite *s = xwtest_suite("threads");
    /* catches hangs; TSan and valgrind are slow */
    TCase *tc = xvfb_tcase(s, &(struct xvfb_suite){.name = "threads", .timeout = 600, .conn = &c});
    tcase_add_test(tc, eight_threads_and_an_event_waiter);
    return xwtest_run(s);
}
