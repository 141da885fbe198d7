/* SPDX-License-Identifier: MIT */
/* test_xcb_interop.c — libxwire-xcb: xwire's senders on a libxcb connection, mixed with raw xcb, against Xvfb. */
#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xcb/xcb.h>
#include <xcb/xcbext.h>
#include <xw/xc_misc.h>
#include <xw/xproto.h>
#include <xw/xw-xcb.h>
#include <xw/xwext.h>

#include "alloc_count.h" /* heap calls on the test's thread, libxcb's included */
#include "xvfb_suite.h"
#include "xwtest.h"

/* One Xvfb for the suite; each test gets a fresh libxcb connection and borrows it. */
static xcb_connection_t *xc;
static xw_connection_t *c;
static const xcb_screen_t *scr;

static void setup(void)
{
    xwtest_fds_begin();
    xc = xcb_connect(xvfb_server.name, NULL);
    ck_assert_int_eq(xcb_connection_has_error(xc), 0);
    scr = xcb_setup_roots_iterator(xcb_get_setup(xc)).data;
    c = xw_xcb_borrow(xc);
    ck_assert_msg(!xw_connection_has_error(c), "borrow: %s", xw_connection_error_string(c));
    ck_assert_int_eq(xw_get_file_descriptor(c), xcb_get_file_descriptor(xc));
}

static void teardown(void)
{
    ck_assert_int_eq(xw_connection_has_error(c), 0);
    xw_disconnect(c);
    ck_assert_int_eq(xcb_connection_has_error(xc), 0);
    xcb_disconnect(xc);
    xwtest_fds_end();
}

/* A round trip through libxcb: everything before it has been handled by Xvfb. */
static void xcb_sync(void)
{
    free(xcb_get_input_focus_reply(xc, xcb_get_input_focus(xc), NULL));
}

/* The next event of this type from libxcb's queue; any X error fails the test. */
static xcb_generic_event_t *xcb_next(uint8_t type)
{
    for (;;) {
        xcb_generic_event_t *ev = xcb_wait_for_event(xc);
        ck_assert_ptr_nonnull(ev);
        ck_assert_msg(ev->response_type != 0, "X error %u on sequence %u", ((xcb_generic_error_t *)ev)->error_code,
                      ev->full_sequence);
        if ((ev->response_type & 0x7f) == type)
            return ev;
        free(ev);
    }
}

/* A window created by xwire, mapped by raw xcb; the events of xwire's requests
 * come out of xcb_wait_for_event with xwire's sequence numbers. */
START_TEST(window_xw_create_xcb_map)
{
    xw_window_t w = xw_generate_id(c);
    xcb_window_t other = xcb_generate_id(xc);
    ck_assert_uint_ne(w, other); /* one id space: libxcb hands out both */
    uint32_t values[] = {scr->white_pixel,
                         XCB_EVENT_MASK_STRUCTURE_NOTIFY | XCB_EVENT_MASK_PROPERTY_CHANGE | XCB_EVENT_MASK_EXPOSURE};
    xw_void_cookie_t cw =
        xw_create_window(c, XW_COPY_FROM_PARENT, w, scr->root, 0, 0, 100, 80, 0, XW_WINDOW_CLASS_INPUT_OUTPUT,
                         scr->root_visual, XW_CW_BACK_PIXEL | XW_CW_EVENT_MASK, values);
    ck_assert_uint_ne(cw.sequence, 0);
    /* libxcb takes its socket back, so CreateWindow goes out first */
    xcb_void_cookie_t cm = xcb_map_window(xc, w);
    ck_assert_uint_gt(cm.sequence, cw.sequence);
    xcb_flush(xc);
    xcb_map_notify_event_t *mn = (xcb_map_notify_event_t *)xcb_next(XCB_MAP_NOTIFY);
    ck_assert_uint_eq(mn->window, w);
    ck_assert_uint_eq(((xcb_generic_event_t *)mn)->full_sequence, cm.sequence);
    free(mn);
    free(xcb_next(XCB_EXPOSE));

    uint32_t width = 150;
    xw_void_cookie_t cc = xw_configure_window(c, w, XW_CONFIG_WINDOW_WIDTH, &width);
    xw_void_cookie_t cp =
        xw_change_property(c, XW_PROP_MODE_REPLACE, w, XW_ATOM_WM_NAME, XW_ATOM_STRING, 8, 5, "hello");
    ck_assert_int_eq(xw_flush(c), 1); /* xcb_flush does not see xwire's buffer */
    xcb_configure_notify_event_t *cn = (xcb_configure_notify_event_t *)xcb_next(XCB_CONFIGURE_NOTIFY);
    ck_assert_uint_eq(cn->width, 150);
    ck_assert_uint_eq(((xcb_generic_event_t *)cn)->full_sequence, cc.sequence);
    free(cn);
    xcb_property_notify_event_t *pn = (xcb_property_notify_event_t *)xcb_next(XCB_PROPERTY_NOTIFY);
    ck_assert_uint_eq(pn->atom, XCB_ATOM_WM_NAME);
    ck_assert_uint_eq(((xcb_generic_event_t *)pn)->full_sequence, cp.sequence);
    free(pn);

    /* and xwire's event calls read libxcb's queue */
    width = 120;
    cc = xw_configure_window(c, w, XW_CONFIG_WINDOW_WIDTH, &width);
    xw_generic_event_t *ev;
    while ((ev = xw_wait_for_event(c)) && (ev->response_type & 0x7f) != XW_CONFIGURE_NOTIFY)
        free(ev);
    ck_assert_ptr_nonnull(ev);
    ck_assert_uint_eq(((xw_configure_notify_event_t *)ev)->width, 120);
    ck_assert_uint_eq(ev->full_sequence, cc.sequence);
    free(ev);

    /* the raw xcb reader sees xwire's property */
    xcb_get_property_reply_t *gp =
        xcb_get_property_reply(xc, xcb_get_property(xc, 0, w, XCB_ATOM_WM_NAME, XCB_ATOM_STRING, 0, 16), NULL);
    ck_assert_ptr_nonnull(gp);
    ck_assert_int_eq(xcb_get_property_value_length(gp), 5);
    ck_assert_int_eq(memcmp(xcb_get_property_value(gp), "hello", 5), 0);
    free(gp);
    xcb_destroy_window(xc, w);
    xcb_sync();
}
END_TEST

/* Atoms interned by xwire (checked through libxcb, unchecked through xwire's
 * buffer), resolved through both libraries and named by xcb_get_atom_name. */
START_TEST(atoms_xw_intern_xcb_name)
{
    enum { N = 60 };
    char names[N][32];
    xw_intern_atom_cookie_t ck[N];
    for (int i = 0; i < N; i++) {
        snprintf(names[i], sizeof(names[i]), "XW_INTEROP_ATOM_%d", i);
        uint16_t len = (uint16_t)strlen(names[i]);
        ck[i] = i % 2 ? xw_intern_atom_unchecked(c, 0, len, names[i]) : xw_intern_atom(c, 0, len, names[i]);
        ck_assert_uint_ne(ck[i].sequence, 0);
        if (i % 7 == 0) /* raw xcb requests in between */
            xcb_no_operation(xc);
    }
    xcb_atom_t atoms[N];
    for (int i = 0; i < N; i++) {
        if (i % 3 == 0) { /* libxcb waits on xwire's cookie */
            ck_assert_int_eq(xw_flush(c), 1);
            xcb_generic_error_t *e = NULL;
            xcb_intern_atom_reply_t *r = xcb_wait_for_reply64(xc, ck[i].sequence, &e);
            ck_assert_ptr_null(e);
            ck_assert_ptr_nonnull(r);
            atoms[i] = r->atom;
            free(r);
        } else if (i % 3 == 1) {
            xw_intern_atom_reply_t *r = xw_intern_atom_reply(c, ck[i], NULL);
            ck_assert_ptr_nonnull(r);
            atoms[i] = r->atom;
            free(r);
        } else { /* caller storage: too small first, then the same reply again */
            uint32_t buf[8];
            size_t len = 0;
            xw_generic_error_t err;
            ck_assert_int_eq(xw_wait_for_reply_into(c, ck[i].sequence, buf, 8, &len, &err, -1), -ENOSPC);
            ck_assert_uint_eq(len, 32);
            ck_assert_int_eq(xw_wait_for_reply_into(c, ck[i].sequence, buf, sizeof(buf), &len, &err, -1), 1);
            atoms[i] = ((xw_intern_atom_reply_t *)buf)->atom;
        }
        ck_assert_uint_ne(atoms[i], 0);
    }
    for (int i = 0; i < N; i++) {
        xcb_get_atom_name_reply_t *r = xcb_get_atom_name_reply(xc, xcb_get_atom_name(xc, atoms[i]), NULL);
        ck_assert_ptr_nonnull(r);
        ck_assert_int_eq(xcb_get_atom_name_name_length(r), (int)strlen(names[i]));
        ck_assert_int_eq(memcmp(xcb_get_atom_name_name(r), names[i], strlen(names[i])), 0);
        free(r);
    }
    /* the same name through raw xcb gives the same atom */
    xcb_intern_atom_reply_t *r = xcb_intern_atom_reply(xc, xcb_intern_atom(xc, 1, strlen(names[5]), names[5]), NULL);
    ck_assert_uint_eq(r->atom, atoms[5]);
    free(r);
}
END_TEST

/* A checked request sent through xwire: its error is libxcb's to report. */
START_TEST(checked_error_reported_by_libxcb)
{
    xw_window_t bad = xw_generate_id(c); /* never created */
    xw_void_cookie_t ck = xw_map_window_checked(c, bad);
    ck_assert_uint_ne(ck.sequence, 0);
    xcb_generic_error_t *e = xcb_request_check(xc, (xcb_void_cookie_t){ck.sequence});
    ck_assert_ptr_nonnull(e);
    ck_assert_uint_eq(e->error_code, XCB_WINDOW);
    ck_assert_uint_eq(e->major_code, XCB_MAP_WINDOW);
    ck_assert_uint_eq(e->resource_id, bad);
    ck_assert_uint_eq(e->full_sequence, ck.sequence);
    free(e);

    /* xwire's own check asks libxcb too */
    xw_void_cookie_t ck2 = xw_unmap_window_checked(c, bad);
    xw_generic_error_t *e2 = xw_request_check(c, ck2);
    ck_assert_ptr_nonnull(e2);
    ck_assert_uint_eq(e2->error_code, XW_WINDOW);
    ck_assert_uint_eq(e2->major_code, XW_UNMAP_WINDOW);
    free(e2);
    ck_assert_ptr_null(xw_request_check(c, xw_map_subwindows_checked(c, scr->root)));

    /* a reply-bearing request's error comes with its reply call */
    xw_generic_error_t *e3 = NULL;
    ck_assert_ptr_null(xw_get_geometry_reply(c, xw_get_geometry(c, bad), &e3));
    ck_assert_ptr_nonnull(e3);
    ck_assert_uint_eq(e3->error_code, XW_DRAWABLE);
    free(e3);

    /* an unchecked one sent through xwire's buffer lands in libxcb's event queue */
    xw_void_cookie_t ck4 = xw_map_window(c, bad);
    ck_assert_int_eq(xw_flush(c), 1);
    xcb_generic_event_t *ev = xcb_wait_for_event(xc);
    ck_assert_ptr_nonnull(ev);
    ck_assert_uint_eq(ev->response_type, 0);
    ck_assert_uint_eq(((xcb_generic_error_t *)ev)->error_code, XCB_WINDOW);
    ck_assert_uint_eq(ev->full_sequence, ck4.sequence);
    free(ev);
}
END_TEST

/* A tiny deterministic generator, so a failure replays. */
static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)rng;
}

/* 200,000 requests from both libraries in runs of random length (one run of
 * 70,000 xwire void requests, past the 65,535 rule), across the 16-bit wrap
 * several times: one sequence, replies and errors where they belong. */
START_TEST(interleaved_200k_across_wrap)
{
    enum { TOTAL = 200000, MAX_REPLIES = 2000, MAX_ERRORS = 64 };
    static uint64_t reply_seq[MAX_REPLIES];
    static uint8_t reply_lib[MAX_REPLIES];
    static unsigned error_seq[MAX_ERRORS];
    int nreplies = 0, nerrors = 0;
    xw_window_t bad = xw_generate_id(c);
    unsigned prev = xcb_no_operation(xc).sequence, first = prev;
    long sent = 0;
    int long_run_done = 0;
    while (sent < TOTAL) {
        int use_xw = next_rand() & 1;
        long run = (next_rand() % 4 == 0) ? 1 : 1 + next_rand() % 3000;
        if (!long_run_done && sent > 50000) {
            use_xw = 1, run = 70000, long_run_done = 1;
        }
        for (long k = 0; k < run && sent < TOTAL; k++, sent++) {
            uint32_t r = next_rand();
            unsigned seq;
            if (r % 400 == 0 && nreplies < MAX_REPLIES) {
                uint64_t s =
                    use_xw ? xw_get_input_focus_unchecked(c).sequence : xcb_get_input_focus_unchecked(xc).sequence;
                reply_seq[nreplies] = s;
                reply_lib[nreplies++] = (uint8_t)use_xw;
                seq = (unsigned)s;
            } else if (r % 7919 == 0 && nerrors < MAX_ERRORS) {
                seq = use_xw ? xw_map_window(c, bad).sequence : xcb_map_window(xc, bad).sequence;
                error_seq[nerrors++] = seq;
            } else {
                seq = use_xw ? xw_no_operation(c).sequence : xcb_no_operation(xc).sequence;
            }
            /* each request one more than the last, or two when a library inserted a sync */
            ck_assert_msg(seq - prev == 1 || seq - prev == 2, "sequence %u after %u (%s)", seq, prev,
                          use_xw ? "xwire" : "xcb");
            prev = seq;
        }
    }
    ck_assert_msg(prev - first > 3 * 65536, "only %u sequence numbers: the 16-bit wrap was not crossed", prev - first);
    ck_assert_int_ge(nreplies, 100);
    ck_assert_int_ge(nerrors, 5);

    /* replies: xcb's through libxcb; xwire's alternately through xwire and libxcb */
    for (int i = 0; i < nreplies; i++) {
        xcb_generic_error_t *e = NULL;
        xcb_get_input_focus_reply_t *r;
        if (reply_lib[i] && i % 2) {
            r = (xcb_get_input_focus_reply_t *)xw_get_input_focus_reply(
                c, (xw_get_input_focus_cookie_t){(unsigned)reply_seq[i]}, (xw_generic_error_t **)&e);
        } else {
            xw_flush(c);
            r = xcb_wait_for_reply64(xc, reply_seq[i], &e);
        }
        ck_assert_ptr_null(e);
        ck_assert_msg(r != NULL, "no reply for request %llu", (unsigned long long)reply_seq[i]);
        ck_assert_uint_eq(r->sequence, (uint16_t)reply_seq[i]);
        free(r);
    }
    /* errors, in order, with their requests' full sequence numbers */
    xcb_sync();
    for (int i = 0; i < nerrors; i++) {
        xcb_generic_event_t *ev = xcb_poll_for_queued_event(xc);
        ck_assert_ptr_nonnull(ev);
        ck_assert_uint_eq(ev->response_type, 0);
        ck_assert_uint_eq(ev->full_sequence, error_seq[i]);
        free(ev);
    }
    ck_assert_ptr_null(xcb_poll_for_queued_event(xc));
}
END_TEST

/* Borrowed sending allocates nothing per request, libxcb's writes included. The one
 * allocation source left is the hand-off's rule of a reply-bearing request every
 * 65,535: libxcb allocates that sync's pending-reply node, its reply and the reply's
 * list node (3 per 65,535 requests), not xwire. */
START_TEST(no_allocation_per_request)
{
    uint32_t width = 10;
    xw_window_t w = xw_generate_id(c);
    xw_create_window(c, XW_COPY_FROM_PARENT, w, scr->root, 0, 0, 10, 10, 0, XW_WINDOW_CLASS_INPUT_OUTPUT,
                     scr->root_visual, 0, NULL);
    for (int i = 0; i < 1000; i++) /* warm up: the socket taken, the first sync sent */
        xw_no_operation(c);
    xw_flush(c);
    unsigned long before = alloc_count_begin();
    for (int i = 0; i < 100000; i++) {
        xw_no_operation(c);
        if (i % 100 == 0)
            xw_configure_window(c, w, XW_CONFIG_WINDOW_WIDTH, &width);
    }
    xw_flush(c);
    unsigned long n = alloc_count_end(before);
    if (XW_COUNT_ALLOCS)
        ck_assert_uint_le(n, 3 * (100000 / 65535 + 1));
    xcb_destroy_window(xc, w);
    xcb_sync();
    ck_assert_ptr_null(xcb_poll_for_event(xc));
}
END_TEST

/* Two threads: one sends through xwire, one through raw xcb, both waiting for
 * replies. A lock-order mistake deadlocks here (the test's timeout). */
static void *xw_thread(void *arg)
{
    (void)arg;
    for (int i = 0; i < 50000; i++) {
        xw_no_operation(c);
        if (i % 1000 == 0) {
            xw_get_input_focus_reply_t *r = xw_get_input_focus_reply(c, xw_get_input_focus(c), NULL);
            if (!r)
                return (void *)1;
            free(r);
        }
    }
    xw_flush(c);
    return NULL;
}

START_TEST(threads_xw_and_xcb)
{
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, xw_thread, NULL), 0);
    int bad = 0;
    for (int i = 0; i < 50000; i++) {
        xcb_no_operation(xc);
        if (i % 1000 == 0) {
            xcb_get_input_focus_reply_t *r = xcb_get_input_focus_reply(xc, xcb_get_input_focus(xc), NULL);
            bad += !r;
            free(r);
        }
    }
    void *ret;
    pthread_join(t, &ret);
    ck_assert_ptr_null(ret);
    ck_assert_int_eq(bad, 0);
    xcb_sync();
    ck_assert_ptr_null(xcb_poll_for_event(xc));
}
END_TEST

/* A thread blocked in xcb_wait_for_event receives what xwire's requests cause on
 * another thread: xwire writes while libxcb's reader sleeps in poll(). */
static void *event_thread(void *arg)
{
    xcb_generic_event_t *ev;
    while ((ev = xcb_wait_for_event(xc)) && (ev->response_type & 0x7f) != XCB_CONFIGURE_NOTIFY)
        free(ev);
    *(unsigned *)arg = ev ? ev->full_sequence : 0;
    free(ev);
    return NULL;
}

START_TEST(events_on_another_thread)
{
    xw_window_t w = xw_generate_id(c);
    uint32_t mask = XCB_EVENT_MASK_STRUCTURE_NOTIFY, width = 33;
    xw_create_window(c, XW_COPY_FROM_PARENT, w, scr->root, 0, 0, 10, 10, 0, XW_WINDOW_CLASS_INPUT_OUTPUT,
                     scr->root_visual, XW_CW_EVENT_MASK, &mask);
    xw_flush(c);
    unsigned got = 0;
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, event_thread, &got), 0);
    for (int i = 0; i < 20000; i++) /* while the reader waits */
        xw_no_operation(c);
    xw_void_cookie_t ck = xw_configure_window(c, w, XW_CONFIG_WINDOW_WIDTH, &width);
    ck_assert_int_eq(xw_flush(c), 1);
    pthread_join(t, NULL);
    ck_assert_uint_eq(got, ck.sequence);
    xw_destroy_window(c, w);
    xw_get_input_focus_reply_t *r = xw_get_input_focus_reply(c, xw_get_input_focus(c), NULL);
    ck_assert_ptr_nonnull(r);
    free(r);
}
END_TEST

static void never_returned(void *closure)
{
    (void)closure;
    ck_abort_msg("a borrowed connection lent its owner's socket");
}

/* The socket of a borrowed connection is its owner's: xwire does not lend it again
 * (xw_take_socket and xw_writev refuse, changing nothing), and an event poll takes
 * what the owner has read, without waiting. */
START_TEST(borrowed_socket_is_not_lent)
{
    uint64_t sent = 7;
    ck_assert_int_eq(xw_take_socket(c, never_returned, NULL, 0, &sent), 0);
    ck_assert_uint_eq(sent, 7);
    struct iovec none = {0};
    ck_assert_int_eq(xw_writev(c, &none, 0, 0), 0);
    ck_assert_ptr_null(xw_poll_for_event(c));

    xw_window_t w = xw_generate_id(c);
    uint32_t mask = XCB_EVENT_MASK_STRUCTURE_NOTIFY, width = 21;
    xw_create_window(c, XW_COPY_FROM_PARENT, w, scr->root, 0, 0, 10, 10, 0, XW_WINDOW_CLASS_INPUT_OUTPUT,
                     scr->root_visual, XW_CW_EVENT_MASK, &mask);
    xw_void_cookie_t ck = xw_configure_window(c, w, XW_CONFIG_WINDOW_WIDTH, &width);
    ck_assert_int_eq(xw_flush(c), 1);
    xcb_sync(); /* the owner has read the event when its round trip is back */
    xw_generic_event_t *ev;
    while ((ev = xw_poll_for_event(c)) && (ev->response_type & 0x7f) != XCB_CONFIGURE_NOTIFY)
        free(ev);
    ck_assert_ptr_nonnull(ev);
    ck_assert_uint_eq(ev->full_sequence, ck.sequence);
    free(ev);
    xw_destroy_window(c, w);
    xcb_sync();
}
END_TEST

/* xw_disconnect hands everything back: what xwire buffered reaches the server, and
 * libxcb (and a new borrow) carries on. */
START_TEST(disconnect_leaves_xcb_working)
{
    xw_window_t w = xw_generate_id(c);
    xw_create_window(c, XW_COPY_FROM_PARENT, w, scr->root, 0, 0, 10, 10, 0, XW_WINDOW_CLASS_INPUT_OUTPUT,
                     scr->root_visual, 0, NULL);
    xw_change_property(c, XW_PROP_MODE_REPLACE, w, XW_ATOM_WM_NAME, XW_ATOM_STRING, 8, 3, "bye");
    xw_disconnect(c); /* not flushed by hand */
    xcb_get_property_reply_t *gp =
        xcb_get_property_reply(xc, xcb_get_property(xc, 0, w, XCB_ATOM_WM_NAME, XCB_ATOM_STRING, 0, 16), NULL);
    ck_assert_ptr_nonnull(gp);
    ck_assert_int_eq(xcb_get_property_value_length(gp), 3);
    free(gp);
    c = xw_xcb_borrow(xc); /* teardown frees this one */
    ck_assert_int_eq(xw_connection_has_error(c), 0);
    xw_destroy_window(c, w);
    xw_get_input_focus_reply_t *r = xw_get_input_focus_reply(c, xw_get_input_focus(c), NULL);
    ck_assert_ptr_nonnull(r);
    free(r);
    ck_assert_ptr_null(xcb_poll_for_event(xc));
}
END_TEST

/* Extension requests: xwire finds the major opcode (its QueryExtension goes
 * through libxcb), then sends through its own buffer; BIG-REQUESTS agrees. */
START_TEST(extension_requests_and_limits)
{
    xw_xc_misc_get_version_cookie_t ck[3];
    for (int i = 0; i < 3; i++) {
        ck[i] = i ? xw_xc_misc_get_version_unchecked(c, 1, 1) : xw_xc_misc_get_version(c, 1, 1);
        ck_assert_uint_ne(ck[i].sequence, 0);
        xcb_no_operation(xc);
    }
    for (int i = 0; i < 3; i++) {
        xw_generic_error_t *e = NULL;
        xw_xc_misc_get_version_reply_t *r = xw_xc_misc_get_version_reply(c, ck[i], &e);
        ck_assert_ptr_null(e);
        ck_assert_ptr_nonnull(r);
        ck_assert_uint_eq(r->server_major_version, 1);
        free(r);
    }
    const xw_query_extension_reply_t *q = xw_get_extension_data(c, &xw_xc_misc_id);
    ck_assert_ptr_nonnull(q);
    xcb_query_extension_reply_t *x = xcb_query_extension_reply(xc, xcb_query_extension(xc, 7, "XC-MISC"), NULL);
    ck_assert_ptr_nonnull(x);
    ck_assert_uint_eq(q->major_opcode, x->major_opcode);
    free(x);
    ck_assert_uint_eq(xw_get_maximum_request_length(c), xcb_get_maximum_request_length(xc));
}
END_TEST

/* A failed libxcb connection gives a failed xwire connection, freed like any. */
START_TEST(borrow_of_failed_connection)
{
    xcb_connection_t *dead = xcb_connect("/nonexistent/socket:99", NULL);
    ck_assert_int_ne(xcb_connection_has_error(dead), 0);
    xw_connection_t *w = xw_xcb_borrow(dead);
    ck_assert_int_ne(xw_connection_has_error(w), 0);
    ck_assert_ptr_nonnull(xw_connection_error_string(w));
    ck_assert_uint_eq(xw_no_operation(w).sequence, 0);
    xw_disconnect(w);
    xcb_disconnect(dead);
    xw_disconnect(xw_xcb_borrow(NULL));
}
END_TEST

int main(void)
{
    if (xvfb_missing("xcb_interop"))
        return 77;
    Suite *s = xwtest_suite("xcb_interop");
    /* Only catches hangs (a lock-order deadlock); generous for ASan+UBSan. */
    TCase *tc = xvfb_tcase(
        s, &(struct xvfb_suite){.name = "xcb_interop", .timeout = 120, .setup = setup, .teardown = teardown});
    tcase_add_test(tc, window_xw_create_xcb_map);
    tcase_add_test(tc, atoms_xw_intern_xcb_name);
    tcase_add_test(tc, checked_error_reported_by_libxcb);
    tcase_add_test(tc, interleaved_200k_across_wrap);
    tcase_add_test(tc, no_allocation_per_request);
    tcase_add_test(tc, threads_xw_and_xcb);
    tcase_add_test(tc, events_on_another_thread);
    tcase_add_test(tc, borrowed_socket_is_not_lent);
    tcase_add_test(tc, disconnect_leaves_xcb_working);
    tcase_add_test(tc, extension_requests_and_limits);
    tcase_add_test(tc, borrow_of_failed_connection);
    return xwtest_run(s);
}
