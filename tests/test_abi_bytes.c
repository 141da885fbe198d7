/* SPDX-License-Identifier: MIT */
/* test_abi_bytes.c — behind every pointer the libxcb ABI hands out, xwire gives at least libxcb's bytes, equal. */
#include <check.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xcb/present.h>
#include <xcb/screensaver.h>
#include <xcb/bigreq.h>
#include <xcb/xcb.h>
#include <xcb/xcbext.h>
#include <xw/bigreq.h>
#include <xw/present.h>
#include <xw/screensaver.h>
#include <xw/xproto.h>
#include <xw/xwext.h>

#include "xvfb_suite.h"
#include "xwtest.h"

/* Programs read past the C structs libxcb returns (xss-lock reads an int at the
 * extension data's first_event), so what counts is what libxcb's block holds: the
 * test runs the same requests in the same order on a libxcb connection and on an
 * xwire one, so both see the same sequence numbers, and compares the objects. A
 * third connection (libxcb's) sends the events, so both receive the same bytes. */
static xw_connection_t *c;
static xcb_connection_t *xc, *sender;
static xcb_window_t root;

static void setup(void)
{
    xvfb_setup();
    xc = xcb_connect(xvfb_server.name, NULL);
    sender = xcb_connect(xvfb_server.name, NULL);
    ck_assert_int_eq(xcb_connection_has_error(xc), 0);
    ck_assert_int_eq(xcb_connection_has_error(sender), 0);
    root = xcb_setup_roots_iterator(xcb_get_setup(xc)).data->root;
}

static void teardown(void)
{
    xcb_disconnect(sender);
    xcb_disconnect(xc);
    xvfb_teardown();
}

/* The table the report quotes: kind, bytes readable behind xwire's pointer and
 * behind libxcb's (the allocator's usable size where the object is a malloc'd
 * block; for the extension data, the bytes compared). */
static void row(const char *kind, size_t xw_bytes, size_t xcb_bytes)
{
    printf("abi-bytes: %-34s xwire %7zu  libxcb %7zu\n", kind, xw_bytes, xcb_bytes);
    fflush(stdout); /* before a failing check ends the test's process */
}

/* x (xwire's) and l (libxcb's), both malloc'd: x's block holds at least want bytes,
 * the bytes libxcb's block is known to hold (want <= l's usable size checks the
 * rule's arithmetic), and the first want are libxcb's, but for [skip_from, skip_to)
 * (the resource id base of the setup, which is each client's own). */
static void same_block_skip(const char *kind, const void *x, const void *l, size_t want, size_t skip_from,
                            size_t skip_to)
{
    ck_assert_ptr_nonnull(x);
    ck_assert_ptr_nonnull(l);
    size_t xu = malloc_usable_size((void *)x), lu = malloc_usable_size((void *)l);
    row(kind, xu, lu);
    ck_assert_msg(want <= lu, "%s: libxcb's block has %zu bytes, the rule says %zu", kind, lu, want);
    ck_assert_msg(xu >= want, "%s: xwire's block has %zu readable bytes, libxcb's %zu", kind, xu, want);
    for (size_t i = 0; i < want; i++)
        if (i < skip_from || i >= skip_to)
            ck_assert_msg(((const uint8_t *)x)[i] == ((const uint8_t *)l)[i], "%s: byte %zu: xwire %#x, libxcb %#x",
                          kind, i, ((const uint8_t *)x)[i], ((const uint8_t *)l)[i]);
}

static void same_block(const char *kind, const void *x, const void *l, size_t want)
{
    same_block_skip(kind, x, l, want, 0, 0);
}

/* libxcb's size of a reply block: 32 bytes and 4 per length word. */
static size_t reply_size(const void *r)
{
    return 32 + 4 * (size_t)((const xcb_generic_reply_t *)r)->length;
}

/* Both receivers have done the same requests: a round trip on each, then the
 * sender's events reach both with the same sequence numbers. */
static void sync_both(void)
{
    free(xcb_get_input_focus_reply(xc, xcb_get_input_focus(xc), NULL));
    free(xw_get_input_focus_reply(c, xw_get_input_focus(c), NULL));
}

START_TEST(setup_and_its_iterators)
{
    const xcb_setup_t *ls = xcb_get_setup(xc);
    const xw_setup_t *xs = xw_get_setup(c);
    size_t want = 8 + 4 * (size_t)ls->length;
    /* bytes 12..15: resource_id_base, each client's own */
    same_block_skip("setup", xs, ls, want, 12, 16);
    /* iterators point into the setup: as many bytes behind them as the setup has left */
    xcb_screen_iterator_t li = xcb_setup_roots_iterator(ls);
    xw_screen_iterator_t xi = xw_setup_roots_iterator(xs);
    ck_assert_int_eq((const uint8_t *)xi.data - (const uint8_t *)xs, (const uint8_t *)li.data - (const uint8_t *)ls);
    ck_assert_int_eq(xi.rem, li.rem);
    xcb_depth_iterator_t ld = xcb_screen_allowed_depths_iterator(li.data);
    xw_depth_iterator_t xd = xw_screen_allowed_depths_iterator(xi.data);
    ck_assert_int_eq((const uint8_t *)xd.data - (const uint8_t *)xs, (const uint8_t *)ld.data - (const uint8_t *)ls);
    row("setup roots iterator data (to end)",
        malloc_usable_size((void *)xs) - (size_t)((const uint8_t *)xi.data - (const uint8_t *)xs),
        malloc_usable_size((void *)ls) - (size_t)((const uint8_t *)li.data - (const uint8_t *)ls));
}
END_TEST

/* The reply libxcb keeps for each extension is the whole 32-byte QueryExtension
 * reply; xss-lock reads an int at first_event, two bytes past the 12-byte struct. */
START_TEST(extension_data_is_the_whole_reply)
{
    struct {
        const char *kind;
        xcb_extension_t *l;
        xw_extension_t *x;
    } exts[] = {
        {"extension data (MIT-SCREEN-SAVER)", &xcb_screensaver_id, &xw_screensaver_id},
        {"extension data (BIG-REQUESTS)", &xcb_big_requests_id, &xw_big_requests_id},
    };
    for (size_t k = 0; k < sizeof(exts) / sizeof(exts[0]); k++) {
        const xcb_query_extension_reply_t *l = xcb_get_extension_data(xc, exts[k].l);
        const uint8_t *x = (const uint8_t *)xw_get_extension_data(c, exts[k].x);
        ck_assert_ptr_nonnull(l);
        ck_assert_ptr_nonnull(x);
        ck_assert_uint_eq(l->present, 1);
        size_t want = reply_size(l), same = 0;
        ck_assert_uint_le(want, malloc_usable_size((void *)l));
        while (same < want && x[same] == ((const uint8_t *)l)[same]) /* ASan: reads only what xwire holds */
            same++;
        row(exts[k].kind, same, malloc_usable_size((void *)l));
        ck_assert_msg(same == want, "%s: xwire's first %zu bytes are libxcb's, of %zu", exts[k].kind, same, want);
        int lf, xf; /* xss-lock's read */
        memcpy(&lf, &l->first_event, sizeof(lf));
        memcpy(&xf, x + offsetof(xcb_query_extension_reply_t, first_event), sizeof(xf));
        ck_assert_int_eq(xf, lf);
    }
}
END_TEST

/* Replies: 32 bytes, longer, longer than 64 KiB (xwire hands over its record's
 * block), through wait and poll; errors through a reply wait and a check. */
START_TEST(replies_and_errors)
{
    static uint8_t big[100000];
    for (size_t i = 0; i < sizeof(big); i++)
        big[i] = (uint8_t)(i * 7 + 1);
    xcb_atom_t small_prop = XCB_ATOM_WM_NAME, big_prop = XCB_ATOM_WM_COMMAND;
    xcb_change_property(sender, XCB_PROP_MODE_REPLACE, root, small_prop, XCB_ATOM_STRING, 8, 41, big);
    xcb_change_property(sender, XCB_PROP_MODE_REPLACE, root, big_prop, XCB_ATOM_STRING, 8, sizeof(big), big);
    free(xcb_get_input_focus_reply(sender, xcb_get_input_focus(sender), NULL));

    void *l = xcb_get_input_focus_reply(xc, xcb_get_input_focus(xc), NULL);
    void *x = xw_get_input_focus_reply(c, xw_get_input_focus(c), NULL);
    same_block("reply 32 bytes (wait)", x, l, reply_size(l));
    free(l);
    free(x);

    l = xcb_get_property_reply(xc, xcb_get_property(xc, 0, root, small_prop, XCB_ATOM_ANY, 0, 100), NULL);
    x = xw_get_property_reply(c, xw_get_property(c, 0, root, small_prop, XW_ATOM_ANY, 0, 100), NULL);
    same_block("reply 76 bytes (wait)", x, l, reply_size(l));
    free(l);
    free(x);

    l = xcb_get_property_reply(xc, xcb_get_property(xc, 0, root, big_prop, XCB_ATOM_ANY, 0, 1u << 20), NULL);
    x = xw_get_property_reply(c, xw_get_property(c, 0, root, big_prop, XW_ATOM_ANY, 0, 1u << 20), NULL);
    same_block("reply 100032 bytes (wait)", x, l, reply_size(l));
    free(l);
    free(x);

    unsigned ls = xcb_get_property(xc, 0, root, small_prop, XCB_ATOM_ANY, 0, 100).sequence;
    unsigned xs = xw_get_property(c, 0, root, small_prop, XW_ATOM_ANY, 0, 100).sequence;
    ck_assert_uint_eq(xs, ls);
    xcb_flush(xc);
    xw_flush(c);
    l = x = NULL;
    xcb_generic_error_t *le = NULL;
    xw_generic_error_t *xe = NULL;
    while (!xcb_poll_for_reply(xc, ls, &l, &le))
        ;
    while (!xw_poll_for_reply(c, xs, &x, &xe))
        ;
    same_block("reply 76 bytes (poll)", x, l, reply_size(l));
    free(l);
    free(x);

    le = NULL;
    xe = NULL;
    l = xcb_get_property_reply(xc, xcb_get_property(xc, 0, 1, small_prop, XCB_ATOM_ANY, 0, 100), &le);
    x = xw_get_property_reply(c, xw_get_property(c, 0, 1, small_prop, XW_ATOM_ANY, 0, 100), &xe);
    ck_assert_ptr_null(l);
    ck_assert_ptr_null(x);
    same_block("error (reply wait)", xe, le, 36);
    free(le);
    free(xe);

    le = xcb_request_check(xc, xcb_map_window_checked(xc, 1));
    xe = xw_request_check(c, xw_map_window_checked(c, 1));
    same_block("error (request check)", xe, le, 36);
    free(le);
    free(xe);
}
END_TEST

/* Events as the three calls return them, an error from the event queue, and an
 * XGE event from a special queue (Present, where the server has it). */
START_TEST(events_and_queued_errors)
{
    uint32_t mask = XCB_EVENT_MASK_PROPERTY_CHANGE;
    xcb_change_window_attributes(xc, root, XCB_CW_EVENT_MASK, &mask);
    xw_change_window_attributes(c, root, XW_CW_EVENT_MASK, &mask);
    sync_both();
    for (uint32_t i = 0; i < 3; i++) {
        xcb_client_message_event_t cm = {.response_type = XCB_CLIENT_MESSAGE,
                                         .format = 32,
                                         .window = root,
                                         .type = XCB_ATOM_WM_NAME,
                                         .data.data32 = {i, 2, 3, 4, 5}};
        xcb_send_event(sender, 0, root, XCB_EVENT_MASK_PROPERTY_CHANGE, (const char *)&cm);
    }
    free(xcb_get_input_focus_reply(sender, xcb_get_input_focus(sender), NULL)); /* delivered to both */
    void *l = xcb_wait_for_event(xc);
    void *x = xw_wait_for_event(c);
    same_block("event (wait)", x, l, 36);
    free(l);
    free(x);
    l = x = NULL;
    while (!(l = xcb_poll_for_event(xc)))
        ;
    while (!(x = xw_poll_for_event(c)))
        ;
    same_block("event (poll)", x, l, 36);
    free(l);
    free(x);
    l = xcb_poll_for_queued_event(xc);
    x = xw_poll_for_queued_event(c);
    same_block("event (poll queued)", x, l, 36);
    free(l);
    free(x);

    xcb_map_window(xc, 1);
    xw_map_window(c, 1);
    xcb_flush(xc); /* libxcb's event wait does not flush */
    xw_flush(c);
    l = xcb_wait_for_event(xc);
    x = xw_wait_for_event(c);
    same_block("error (event queue)", x, l, 36);
    free(l);
    free(x);

    const xcb_query_extension_reply_t *lp = xcb_get_extension_data(xc, &xcb_present_id);
    const xw_query_extension_reply_t *xp = xw_get_extension_data(c, &xw_present_id);
    ck_assert_ptr_nonnull(lp);
    ck_assert_ptr_nonnull(xp);
    if (!lp->present || !xp->present) {
        printf("abi-bytes: no Present on this server: no XGE special event compared\n");
        return;
    }
    free(xcb_present_query_version_reply(xc, xcb_present_query_version(xc, 1, 2), NULL));
    free(xw_present_query_version_reply(c, xw_present_query_version(c, 1, 2), NULL));
    xcb_present_event_t leid = xcb_generate_id(xc);
    xw_present_event_t xeid = xw_generate_id(c);
    xcb_special_event_t *lse = xcb_register_for_special_xge(xc, &xcb_present_id, leid, NULL);
    xw_special_event_t *xse = xw_register_for_special_xge(c, &xw_present_id, xeid, NULL);
    xcb_present_select_input(xc, leid, root, XCB_PRESENT_EVENT_MASK_COMPLETE_NOTIFY);
    xw_present_select_input(c, xeid, root, XW_PRESENT_EVENT_MASK_COMPLETE_NOTIFY);
    xcb_present_notify_msc(xc, root, 7, 0, 0, 0);
    xw_present_notify_msc(c, root, 7, 0, 0, 0);
    xcb_flush(xc);
    xw_flush(c);
    l = xcb_wait_for_special_event(xc, lse);
    x = xw_wait_for_special_event(c, xse);
    ck_assert_ptr_nonnull(l);
    ck_assert_ptr_nonnull(x);
    /* sizes only past the sequence: the event carries each client's eid and the time */
    size_t want = 36 + 4 * (size_t)((xcb_ge_generic_event_t *)l)->length;
    size_t xu = malloc_usable_size(x), lu = malloc_usable_size(l);
    row("XGE event (special queue)", xu, lu);
    ck_assert_uint_le(want, lu);
    ck_assert_uint_ge(xu, want);
    ck_assert_int_eq(memcmp(x, l, 4), 0);
    ck_assert_int_eq(memcmp((uint8_t *)x + 32, (uint8_t *)l + 32, 4), 0); /* full_sequence */
    free(l);
    free(x);
    xcb_unregister_for_special_event(xc, lse);
    xw_unregister_for_special_event(c, xse);
}
END_TEST

START_TEST(parsed_display_host)
{
    char *lh = NULL, *xh = NULL;
    int ld, ls, xd, xs;
    ck_assert_int_eq(xcb_parse_display("somehost:3.1", &lh, &ld, &ls), 1);
    ck_assert_int_eq(xw_parse_display("somehost:3.1", &xh, &xd, &xs), 1);
    same_block("parse_display host", xh, lh, strlen(lh) + 1);
    free(lh);
    free(xh);
}
END_TEST

int main(void)
{
    if (xvfb_missing("abi_bytes"))
        return 77;
    Suite *s = xwtest_suite("abi_bytes");
    TCase *tc = xvfb_tcase(
        s, &(struct xvfb_suite){.name = "abi_bytes", .timeout = 120, .conn = &c, .setup = setup, .teardown = teardown});
    tcase_add_test(tc, setup_and_its_iterators);
    tcase_add_test(tc, extension_data_is_the_whole_reply);
    tcase_add_test(tc, replies_and_errors);
    tcase_add_test(tc, events_and_queued_errors);
    tcase_add_test(tc, parsed_display_host);
    return xwtest_run(s);
}
