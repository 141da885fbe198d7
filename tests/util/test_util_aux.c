/* SPDX-License-Identifier: MIT */
/* test_util_aux.c — xw_aux.h against xcb-util's xcb_aux.h on one Xvfb: the same screens,
 * depths and visuals from the setup, on xwire's own connection and on one borrowed
 * from libxcb; xw_aux_sync as a barrier another client can see. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <xcb/xcb.h>
#include <xcb/xcb_aux.h>

#include <xw/xw-xcb.h>
#include <xw/xw_aux.h>
#include <xw/xwext.h> /* xw_poll_for_reply64 */

#include "util_oracle.h"
#include "xvfb_suite.h"
#include "xwtest.h"

static xw_connection_t *c;
static xcb_connection_t *xc; /* the oracle's connection to the same server */

static void setup(void)
{
    util_oracle_setup(&xc);
}

static void teardown(void)
{
    util_oracle_teardown(c, xc);
}

/* Both setups are the same bytes, so a pointer into one maps to the same offset in
 * the other: compares answers as offsets from each setup's start (NULL as -1). */
static long off_xw(xw_connection_t *conn, const void *p)
{
    return p ? (long)((const char *)p - (const char *)xw_get_setup(conn)) : -1;
}

static long off_xcb(const void *p)
{
    return p ? (long)((const char *)p - (const char *)xcb_get_setup(xc)) : -1;
}

/* Every lookup of xw_aux.h against xcb_aux.h on conn (xwire's own or borrowed). */
static void compare_lookups(xw_connection_t *conn)
{
    for (int n = -1; n <= 2; n++)
        ck_assert_int_eq(off_xw(conn, xw_aux_get_screen(conn, n)), off_xcb(xcb_aux_get_screen(xc, n)));
    xw_screen_t *s = xw_aux_get_screen(conn, 0);
    xcb_screen_t *xs = xcb_aux_get_screen(xc, 0);
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(xw_aux_get_depth(conn, s), xcb_aux_get_depth(xc, xs));
    ck_assert_int_ne(xw_aux_get_depth(conn, s), 0);

    int visuals = 0;
    for (xcb_depth_iterator_t d = xcb_screen_allowed_depths_iterator(xs); d.rem; xcb_depth_next(&d))
        for (xcb_visualtype_iterator_t v = xcb_depth_visuals_iterator(d.data); v.rem; xcb_visualtype_next(&v)) {
            uint32_t id = v.data->visual_id;
            ck_assert_int_eq(xw_aux_get_depth_of_visual(s, id), xcb_aux_get_depth_of_visual(xs, id));
            ck_assert_int_eq(off_xw(conn, xw_aux_find_visual_by_id(s, id)), off_xcb(xcb_aux_find_visual_by_id(xs, id)));
            /* xcb-util looks in the screen's first depth only; xwire in every depth
             * (a listed difference): equal where xcb-util finds the visual. */
            long want = off_xcb(xcb_aux_get_visualtype(xc, 0, id));
            if (want < 0)
                want = off_xcb(xcb_aux_find_visual_by_id(xs, id));
            ck_assert_int_eq(off_xw(conn, xw_aux_get_visualtype(conn, 0, id)), want);
            visuals++;
        }
    ck_assert_int_gt(visuals, 0);
    /* ids that name no visual */
    ck_assert_ptr_null(xw_aux_find_visual_by_id(s, 0));
    ck_assert_int_eq(xw_aux_get_depth_of_visual(s, 0xfffffff), 0);
    ck_assert_ptr_null(xw_aux_get_visualtype(conn, 1, xs->root_visual));
    /* every class with every depth, and the wildcards */
    for (int cls = -1; cls <= 6; cls++)
        for (int depth = -1; depth <= 33; depth++)
            ck_assert_int_eq(off_xw(conn, xw_aux_find_visual_by_attrs(s, (int8_t)cls, (int8_t)depth)),
                             off_xcb(xcb_aux_find_visual_by_attrs(xs, (int8_t)cls, (int8_t)depth)));
}

START_TEST(lookups_own_connection)
{
    compare_lookups(c);
}
END_TEST

START_TEST(lookups_borrowed_connection)
{
    xw_connection_t *b = xw_xcb_borrow(xc);
    ck_assert_int_eq(xw_connection_has_error(b), 0);
    compare_lookups(b);
    xw_disconnect(b);
}
END_TEST

/* After xw_aux_sync returns, a request sent before it has been processed: another
 * client already sees the property it set. */
static void check_sync_barrier(xw_connection_t *conn)
{
    xw_screen_t *s = xw_aux_get_screen(conn, 0);
    static const char name[] = "XW_AUX_SYNC_MARK";
    xcb_intern_atom_reply_t *a = xcb_intern_atom_reply(xc, xcb_intern_atom(xc, 0, sizeof(name) - 1, name), NULL);
    ck_assert_ptr_nonnull(a);
    uint32_t value = 0x5eed0000u + (uint32_t)xw_get_file_descriptor(conn);
    xw_change_property(conn, XW_PROP_MODE_REPLACE, s->root, a->atom, XW_ATOM_CARDINAL, 32, 1, &value);
    xw_aux_sync(conn);
    ck_assert_int_eq(xw_connection_has_error(conn), 0);
    xcb_get_property_reply_t *p =
        xcb_get_property_reply(xc, xcb_get_property(xc, 0, s->root, a->atom, XCB_ATOM_CARDINAL, 0, 1), NULL);
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(xcb_get_property_value_length(p), 4);
    ck_assert_uint_eq(*(uint32_t *)xcb_get_property_value(p), value);
    free(p);
    free(a);
}

START_TEST(sync_is_a_barrier)
{
    check_sync_barrier(c);
    /* The sync claimed its own reply: nothing is left queued for it. */
    xw_aux_sync(c);
    uint64_t next = xw_get_input_focus(c).sequence;
    void *reply = NULL;
    xw_generic_error_t *e = NULL;
    ck_assert_int_eq(xw_poll_for_reply64(c, next - 1, &reply, &e), 1);
    ck_assert_ptr_null(reply);
    ck_assert_ptr_null(e);
    xw_discard_reply64(c, next);
}
END_TEST

START_TEST(sync_is_a_barrier_borrowed)
{
    util_on_borrowed(check_sync_barrier); /* a second libxcb connection lends itself */
}
END_TEST

int main(void)
{
    if (xvfb_missing("util_aux"))
        return 77;
    Suite *s = xwtest_suite("util_aux");
    TCase *tc = xvfb_tcase(
        s, &(struct xvfb_suite){.name = "util_aux", .timeout = 120, .conn = &c, .setup = setup, .teardown = teardown});
    tcase_add_test(tc, lookups_own_connection);
    tcase_add_test(tc, lookups_borrowed_connection);
    tcase_add_test(tc, sync_is_a_barrier);
    tcase_add_test(tc, sync_is_a_barrier_borrowed);
    return xwtest_run(s);
}
