/* SPDX-License-Identifier: MIT */
/* test_util_send.c — every helper of xw_aux.h and xw_icccm.h that sends puts the same
 * bytes on the wire as its xcb-util twin: xcb-util, xwire and xwire on a connection
 * borrowed from libxcb, each connected to one recording fake server
 * (tests/xlib/dpyserver.c), run the same cases (util_send_cases.inc, written once in
 * xcb-util's names and included again renamed). Also counts the heap allocations per
 * call of each, after warm-up: 0 for xwire's senders and fixed-size getters. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xcb/xcb.h>
#include <xcb/xcb_aux.h>
#include <xcb/xcb_icccm.h>

#include <xw/xw-xcb.h>
#include <xw/xw_aux.h>
#include <xw/xw_icccm.h>

#include "alloc_count.h"
#include "dpyserver.h"
#include "xwtest.h"

/* the cases in xcb-util's names */
#define SIDE case_xcb
#define CONN xcb_connection_t
#define F(n) xcb_##n
#define T(n) xcb_##n
#define K(n) XCB_##n
#include "util_send_cases.inc"
#undef SIDE
#undef CONN
#undef F
#undef T
#undef K
#undef SEND_CASES
#undef TEXT_GETTER

/* the same cases renamed, as a port would be */
#define SIDE case_xw
#define CONN xw_connection_t
#define F(n) xw_##n
#define T(n) xw_##n
#define K(n) XW_##n
#include "util_send_cases.inc"

struct send_case {
    const char *name;
    unsigned (*xcb)(xcb_connection_t *); /* the sequence of a checked void request, or 0 */
    unsigned (*xw)(xw_connection_t *);
};

#define ENTRY(n) {#n, case_xcb_##n, case_xw_##n},
static const struct send_case cases[] = {SEND_CASES(ENTRY)};
#define NCASES (sizeof(cases) / sizeof(cases[0]))

static struct dpy_server srv;
static xcb_connection_t *xc, *lender;
static xw_connection_t *c, *b;

enum { CAP = 1 << 16 };
static uint8_t got[3][CAP];

static void setup(void)
{
    ck_assert_int_eq(dpy_start(&srv), 0);
    xc = xcb_connect(srv.name, NULL); /* recorded as connection 0 */
    ck_assert_int_eq(xcb_connection_has_error(xc), 0);
    c = xw_connect(srv.name, NULL); /* 1 */
    ck_assert_int_eq(xw_connection_has_error(c), 0);
    lender = xcb_connect(srv.name, NULL); /* 2 */
    ck_assert_int_eq(xcb_connection_has_error(lender), 0);
    b = xw_xcb_borrow(lender);
    ck_assert_int_eq(xw_connection_has_error(b), 0);
    ck_assert_int_eq(dpy_nconns(&srv), 3);
    /* a first request on each, so that every log exists before dpy_take reads it */
    xcb_aux_sync(xc);
    xw_aux_sync(c);
    xw_aux_sync(b);
}

static void teardown(void)
{
    xw_disconnect(b);
    xcb_disconnect(lender);
    xw_disconnect(c);
    xcb_disconnect(xc);
    dpy_stop(&srv);
}

/* Checked requests are claimed, as their users should: an unclaimed one keeps its
 * place in the connection's table of pending requests. The fake server sends no
 * errors. */
static void claim_xcb(xcb_connection_t *x, unsigned seq)
{
    if (seq)
        free(xcb_request_check(x, (xcb_void_cookie_t){seq}));
}

static void claim_xw(xw_connection_t *x, unsigned seq)
{
    if (seq)
        free(xw_request_check(x, (xw_void_cookie_t){seq}));
}

/* One case on all three connections, each followed by a sync so that the server has
 * logged it; the three logs are returned in got[], their lengths in len[]. */
static void run_case(const struct send_case *k, long len[3])
{
    for (int i = 0; i < 3; i++)
        dpy_take(&srv, i, got[i], CAP); /* start from empty logs */
    unsigned seq = k->xcb(xc);
    xcb_aux_sync(xc);
    claim_xcb(xc, seq);
    seq = k->xw(c);
    xw_aux_sync(c);
    claim_xw(c, seq);
    seq = k->xw(b);
    xw_aux_sync(b);
    claim_xw(b, seq);
    for (int i = 0; i < 3; i++)
        len[i] = dpy_take(&srv, i, got[i], CAP);
}

/* Drops the GetInputFocus requests (4 bytes, major 43) from a log: the syncs this test
 * sends, and those a borrowed connection inserts when it takes libxcb's socket (see
 * docs/libxcb.md, "Alongside libxcb"). Returns the new length. */
static long strip_syncs(uint8_t *buf, long n)
{
    long in = 0, out = 0;
    while (in + 4 <= n) {
        long len = 4L * (buf[in + 2] | buf[in + 3] << 8);
        if (len < 4 || in + len > n)
            break;
        if (!(buf[in] == XW_GET_INPUT_FOCUS && len == 4)) {
            memmove(buf + out, buf + in, (size_t)len);
            out += len;
        }
        in += len;
    }
    return out;
}

START_TEST(same_bytes_as_xcb_util)
{
    size_t total = 0;
    for (size_t i = 0; i < NCASES; i++) {
        long len[3];
        run_case(&cases[i], len);
        for (int k = 0; k < 3; k++)
            len[k] = strip_syncs(got[k], len[k]);
        ck_assert_msg(len[0] > 0, "%s: xcb-util sent nothing", cases[i].name);
        ck_assert_msg(len[1] == len[0] && !memcmp(got[1], got[0], (size_t)len[0]), "%s: xwire's bytes differ",
                      cases[i].name);
        ck_assert_msg(len[2] == len[0] && !memcmp(got[2], got[0], (size_t)len[0]),
                      "%s: the borrowed connection's bytes differ", cases[i].name);
        total += (size_t)len[0];
    }
    printf("util_send: %zu cases, %zu bytes each side (syncs left out), identical on xwire and borrowed\n", NCASES,
           total);
}
END_TEST

/* Mask bits past the last value of the struct name nothing: xwire drops them (xcb-util
 * would read past the caller's struct for them). */
START_TEST(mask_bits_past_the_struct_are_dropped)
{
    xw_params_keyboard_t p = {.bell_percent = 77};
    dpy_take(&srv, 1, got[1], CAP);
    xw_aux_change_keyboard_control(c, XW_KB_BELL_PERCENT | 1u << 20, &p);
    xw_aux_sync(c);
    long n = dpy_take(&srv, 1, got[1], CAP);
    ck_assert_int_eq(n, 12 + 4);
    ck_assert_int_eq(got[1][0], XW_CHANGE_KEYBOARD_CONTROL);
    uint32_t mask, value;
    memcpy(&mask, got[1] + 4, 4);
    memcpy(&value, got[1] + 8, 4);
    ck_assert_uint_eq(mask, XW_KB_BELL_PERCENT);
    ck_assert_uint_eq(value, 77);
}
END_TEST

/* The xwire helpers that must not allocate once warm: the senders, and the getters
 * of fixed-size properties. */
static int must_be_free(const char *name)
{
    static const char *const allocating[] = {
        "icccm_get_wm_name",  "icccm_get_wm_icon_name",        "icccm_get_wm_client_machine", "icccm_get_text_property",
        "icccm_get_wm_class", "icccm_get_wm_colormap_windows", "icccm_get_wm_protocols"};
    for (size_t i = 0; i < sizeof(allocating) / sizeof(allocating[0]); i++)
        if (!strcmp(name, allocating[i]))
            return 0;
    return 1;
}

START_TEST(allocations_per_call)
{
    /* warm-up: every case, a few times (the connection's tables reach their size) */
    for (int round = 0; round < 3; round++)
        for (size_t i = 0; i < NCASES; i++) {
            unsigned seq = cases[i].xw(c);
            xw_aux_sync(c);
            claim_xw(c, seq);
        }
    for (size_t i = 0; i < NCASES; i++) {
        unsigned long t = alloc_count_begin();
        unsigned seq = cases[i].xw(c);
        unsigned long n_xw = alloc_count_end(t);
        xw_aux_sync(c);
        claim_xw(c, seq);
        t = alloc_count_begin();
        seq = cases[i].xcb(xc);
        unsigned long n_xcb = alloc_count_end(t);
        xcb_aux_sync(xc);
        claim_xcb(xc, seq);
        printf("allocations: %-40s xwire %lu  xcb-util %lu\n", cases[i].name, n_xw, n_xcb);
        if (XW_COUNT_ALLOCS && must_be_free(cases[i].name))
            ck_assert_msg(n_xw == 0, "%s allocated %lu times", cases[i].name, n_xw);
    }
}
END_TEST

/* xw_aux_sync claims its whole reply: thousands of syncs take no allocation (with room
 * for the 12-byte struct only, each left its 32-byte reply queued, and the store
 * took a new slab every 1,023 syncs). */
START_TEST(sync_does_not_allocate)
{
    for (int i = 0; i < 100; i++)
        xw_aux_sync(c);
    unsigned long t = alloc_count_begin();
    for (int i = 0; i < 5000; i++)
        xw_aux_sync(c);
    unsigned long n = alloc_count_end(t);
    printf("allocations: 5000 xw_aux_sync: %lu\n", n);
    if (XW_COUNT_ALLOCS)
        ck_assert_uint_eq(n, 0);
}
END_TEST

/* The _reply_into getters read into caller storage: no allocation at all. */
START_TEST(into_getters_do_not_allocate)
{
    union {
        xw_get_property_reply_t r;
        uint8_t b[256];
    } buf;
    xw_generic_error_t e;
    for (int round = 0; round < 2; round++) { /* the first warms up */
        xw_icccm_get_text_property_reply_t text;
        xw_icccm_get_wm_class_reply_t cls;
        xw_icccm_get_wm_protocols_reply_t prot;
        xw_icccm_get_wm_colormap_windows_reply_t cmap;
        int r[4];
        unsigned long t = alloc_count_begin(); /* no check assertion inside: they allocate */
        r[0] = xw_icccm_get_text_property_reply_into(c, xw_icccm_get_wm_name(c, 5), &text, &buf, sizeof(buf), &e);
        r[1] = xw_icccm_get_wm_class_reply_into(c, xw_icccm_get_wm_class(c, 5), &cls, &buf, sizeof(buf), &e);
        r[2] =
            xw_icccm_get_wm_protocols_reply_into(c, xw_icccm_get_wm_protocols(c, 5, 9), &prot, &buf, sizeof(buf), &e);
        r[3] = xw_icccm_get_wm_colormap_windows_reply_into(c, xw_icccm_get_wm_colormap_windows(c, 5, 9), &cmap, &buf,
                                                           sizeof(buf), &e);
        unsigned long n = alloc_count_end(t);
        /* the fake server has no properties: every parse says 0, nothing fails */
        for (int i = 0; i < 4; i++)
            ck_assert_int_eq(r[i], 0);
        if (round == 1) {
            printf("allocations: 4 _reply_into getters: %lu\n", n);
            if (XW_COUNT_ALLOCS)
                ck_assert_uint_eq(n, 0);
        }
    }
    /* too small a buffer: -ENOSPC and the reply stays for the allocating form */
    xw_get_property_cookie_t ck = xw_icccm_get_wm_class(c, 5);
    xw_icccm_get_wm_class_reply_t cls;
    ck_assert_int_eq(xw_icccm_get_wm_class_reply_into(c, ck, &cls, &buf, 16, &e), -ENOSPC);
    xw_generic_error_t *err = NULL;
    ck_assert_int_eq(xw_icccm_get_wm_class_reply(c, ck, &cls, &err), 0);
    ck_assert_ptr_null(err);
}
END_TEST

int main(void)
{
    Suite *s = xwtest_suite("util_send");
    TCase *tc = tcase_create("util_send");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, same_bytes_as_xcb_util);
    tcase_add_test(tc, mask_bits_past_the_struct_are_dropped);
    tcase_add_test(tc, allocations_per_call);
    tcase_add_test(tc, into_getters_do_not_allocate);
    tcase_add_test(tc, sync_does_not_allocate);
    suite_add_tcase(s, tc);
    return xwtest_run(s);
}
