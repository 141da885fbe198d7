/* SPDX-License-Identifier: MIT */
/* test_wrap.c — 1,000,000 requests against Xvfb with reply-bearing, checked and failing requests placed
 * around every multiple of 65,536: each reply and each error reaches its own cookie. */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xw/xproto.h>
#include <xw/xw.h>

#include "xvfb_suite.h"
#include "xwtest.h"

#define TOTAL 1000000L
#define NATOMS 8
#define AROUND 3 /* specials from k-AROUND to k+AROUND around every k * 65536 */
#define MAXSPECIAL 2048

static xw_connection_t *c;

enum kind { K_ATOM, K_CHECKED_BAD, K_CHECKED_OK, K_UNCHECKED_BAD, K_FOCUS, K_NKINDS };

struct special {
    enum kind kind;
    unsigned seq;
    uint32_t arg; /* atom index, or the bad window id */
};

struct run {
    xw_window_t w;
    xw_atom_t atoms[NATOMS];
    char names[NATOMS][32];
    struct special sp[MAXSPECIAL];
    int nsp;
    long requests, syncs;
    int counts[K_NKINDS];
    int unchecked_errors_seen;
    int failed_line;
};

/* Distance of seq from the nearest multiple of 65536 (signed). */
static int near_wrap(unsigned seq)
{
    int low = (int)(seq & 0xffff);
    return low > 32768 ? low - 65536 : low;
}

static int send_special(struct run *r, unsigned next, unsigned *got)
{
    T_CHECK(r->nsp < MAXSPECIAL);
    struct special *s = &r->sp[r->nsp];
    s->kind = (enum kind)((next + (next >> 16)) % K_NKINDS);
    switch (s->kind) {
    case K_ATOM:
        s->arg = next % NATOMS;
        s->seq = xw_intern_atom(c, 1, (uint16_t)strlen(r->names[s->arg]), r->names[s->arg]).sequence;
        break;
    case K_CHECKED_BAD:
        s->arg = xw_generate_id(c); /* ours, never created: BadWindow naming it */
        s->seq = xw_map_window_checked(c, s->arg).sequence;
        break;
    case K_CHECKED_OK:
        s->seq = xw_map_window_checked(c, r->w).sequence;
        break;
    case K_UNCHECKED_BAD:
        s->arg = xw_generate_id(c);
        s->seq = xw_unmap_window(c, s->arg).sequence;
        break;
    case K_FOCUS:
        s->seq = xw_get_input_focus(c).sequence;
        break;
    default:
        break;
    }
    T_CHECK(s->seq != 0);
    r->counts[s->kind]++;
    r->nsp++;
    *got = s->seq;
    return 0;
}

/* Sends TOTAL requests; every 7th ordinary one is a ChangeWindowAttributes, the
 * rest NoOperations. The runtime's own syncs show as skipped cookies. */
static int send_all(struct run *r)
{
    unsigned last = xw_get_input_focus(c).sequence;
    xw_discard_reply(c, last);
    for (long i = 0; i < TOTAL; i++) {
        unsigned next = last + 1, got;
        int d = near_wrap(next);
        if (d >= -AROUND && d <= AROUND) {
            int line = send_special(r, next, &got);
            if (line)
                return line;
        } else if (i % 7 == 0) {
            uint32_t pixel = (uint32_t)i & 0xffffff;
            got = xw_change_window_attributes(c, r->w, XW_CW_BACK_PIXEL, &pixel).sequence;
        } else {
            got = xw_no_operation(c).sequence;
        }
        T_CHECK(got == next || got == next + 1);
        r->syncs += got != next;
        last = got;
        r->requests++;
    }
    return 0;
}

/* Claims every special's outcome, in an order unlike the one they were sent in:
 * the odd ones first, then the even ones backwards. */
static int check_one(struct run *r, struct special *s)
{
    xw_generic_error_t *e = NULL;
    switch (s->kind) {
    case K_ATOM: {
        xw_intern_atom_reply_t *a = xw_intern_atom_reply(c, (xw_intern_atom_cookie_t){s->seq}, &e);
        T_CHECK(a != NULL && e == NULL);
        int ok = a->atom == r->atoms[s->arg] && a->sequence == (uint16_t)s->seq;
        free(a);
        T_CHECK(ok);
        break;
    }
    case K_FOCUS: {
        xw_get_input_focus_reply_t *f = xw_get_input_focus_reply(c, (xw_get_input_focus_cookie_t){s->seq}, &e);
        T_CHECK(f != NULL && e == NULL);
        int ok = f->sequence == (uint16_t)s->seq;
        free(f);
        T_CHECK(ok);
        break;
    }
    case K_CHECKED_BAD:
        e = xw_request_check(c, (xw_void_cookie_t){s->seq});
        T_CHECK(e != NULL);
        {
            int ok = e->error_code == 3 && e->resource_id == s->arg && e->full_sequence == s->seq &&
                     e->major_code == XW_MAP_WINDOW;
            free(e);
            T_CHECK(ok);
        }
        break;
    case K_CHECKED_OK:
        e = xw_request_check(c, (xw_void_cookie_t){s->seq});
        free(e);
        T_CHECK(e == NULL);
        break;
    default:
        break;
    }
    return 0;
}

/* Unchecked errors arrive on the event queue in sequence order, each naming its
 * own request's window. */
static int check_events(struct run *r)
{
    int k = 0;
    xw_generic_event_t *ev;
    while ((ev = xw_poll_for_queued_event(c))) {
        xw_generic_error_t e;
        memcpy(&e, ev, sizeof(e));
        free(ev);
        T_CHECK(e.response_type == 0);
        while (k < r->nsp && r->sp[k].kind != K_UNCHECKED_BAD)
            k++;
        T_CHECK(k < r->nsp);
        T_CHECK(e.error_code == 3 && e.major_code == XW_UNMAP_WINDOW);
        T_CHECK(e.full_sequence == r->sp[k].seq && e.resource_id == r->sp[k].arg);
        r->unchecked_errors_seen++;
        k++;
    }
    return 0;
}

static int wrap_run(struct run *r)
{
    int line;
    if ((line = send_all(r)))
        return line;
    for (int i = 1; i < r->nsp; i += 2)
        if ((line = check_one(r, &r->sp[i])))
            return line;
    for (int i = (r->nsp - 1) & ~1; i >= 0; i -= 2)
        if ((line = check_one(r, &r->sp[i])))
            return line;
    /* a final round trip: every error of the run has arrived */
    free(xw_get_input_focus_reply(c, xw_get_input_focus(c), NULL));
    if ((line = check_events(r)))
        return line;
    T_CHECK(r->unchecked_errors_seen == r->counts[K_UNCHECKED_BAD]);
    return 0;
}

static void *wrap_thread(void *arg)
{
    struct run *r = arg;
    r->failed_line = wrap_run(r);
    return NULL;
}

/* mode 0: this thread (inline path while the process has one thread); 1: another
 * thread (locked path); 2: single-threaded mode. */
static void wrap_test(int mode)
{
    static struct run r;
    memset(&r, 0, sizeof(r));
    if (mode == 2)
        ck_assert_int_eq(xw_connection_set_single_threaded(c, 1), 0);
    for (int i = 0; i < NATOMS; i++) {
        snprintf(r.names[i], sizeof(r.names[i]), "XWWRAP_%d_%d", (int)getpid(), i);
        xw_intern_atom_reply_t *a =
            xw_intern_atom_reply(c, xw_intern_atom(c, 0, (uint16_t)strlen(r.names[i]), r.names[i]), NULL);
        ck_assert_ptr_nonnull(a);
        r.atoms[i] = a->atom;
        free(a);
    }
    r.w = xw_generate_id(c);
    const xw_screen_t *scr = xw_setup_roots_iterator(xw_get_setup(c)).data;
    ck_assert_ptr_null(
        xw_request_check(c, xw_create_window_checked(c, 0, r.w, scr->root, 0, 0, 10, 10, 0,
                                                     XW_WINDOW_CLASS_INPUT_OUTPUT, scr->root_visual, 0, NULL)));
    if (mode == 1) {
        pthread_t t;
        ck_assert_int_eq(pthread_create(&t, NULL, wrap_thread, &r), 0);
        ck_assert_int_eq(pthread_join(t, NULL), 0);
    } else {
        wrap_thread(&r);
    }
    ck_assert_msg(r.failed_line == 0, "check at line %d failed (%s)", r.failed_line,
                  xw_connection_error_string(c) ? xw_connection_error_string(c) : "connection fine");
    ck_assert_int_eq(r.requests, TOTAL);
    ck_assert_int_ge(r.nsp, 15 * (2 * AROUND + 1)); /* 15 multiples of 65536 below 1,000,000 */
    for (int k = 0; k < K_NKINDS; k++)
        ck_assert_int_gt(r.counts[k], 0);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
    printf("wrap mode %d: %ld requests, %d placed around 65536 multiples (%d InternAtom, %d GetInputFocus, "
           "%d checked failing, %d checked fine, %d unchecked failing), %ld automatic syncs\n",
           mode, r.requests, r.nsp, r.counts[K_ATOM], r.counts[K_FOCUS], r.counts[K_CHECKED_BAD],
           r.counts[K_CHECKED_OK], r.counts[K_UNCHECKED_BAD], r.syncs);
    xw_destroy_window(c, r.w);
}

START_TEST(wrap_1m_default)
{
    wrap_test(0);
}
END_TEST

START_TEST(wrap_1m_other_thread)
{
    wrap_test(1);
}
END_TEST

START_TEST(wrap_1m_single_threaded)
{
    wrap_test(2);
}
END_TEST

int main(void)
{
    if (xvfb_missing("wrap"))
        return 77;
    setvbuf(stdout, NULL, _IOLBF, 0);
    Suite *s = xwtest_suite("wrap");
    /* catches hangs; valgrind and sanitizers are slow */
    TCase *tc = xvfb_tcase(s, &(struct xvfb_suite){.name = "wrap", .timeout = 240, .conn = &c});
    tcase_add_test(tc, wrap_1m_default);
    tcase_add_test(tc, wrap_1m_other_thread);
    tcase_add_test(tc, wrap_1m_single_threaded);
    return xwtest_run(s);
}
