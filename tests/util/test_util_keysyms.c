/* SPDX-License-Identifier: MIT */
/* test_util_keysyms.c — xw_keysyms.h against xcb-util-keysyms on one Xvfb: the same
 * keysym for every keycode in every column, before and after a core
 * ChangeKeyboardMapping (every keysym of the case-pair sets as a lone keysym) and an
 * XKB keymap change (setxkbmap), on xwire's own connection and a borrowed one; the
 * same keycode lists; the same keysym classes; no allocation per lookup. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <xcb/xcb.h>
#include <xcb/xcb_keysyms.h>

#include <xw/xw-xcb.h>
#include <xw/xw_keysyms.h>

#include "util_oracle.h"

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

/* Every keycode 0..255 in columns -1 .. max(per, 4) + 1: returns how many lookups agreed. */
static int compare_tables(xw_key_symbols_t *k, xcb_key_symbols_t *xk, int cols)
{
    int n = 0;
    for (int kc = 0; kc < 256; kc++)
        for (int col = -1; col <= cols + 1; col++) {
            xcb_keysym_t want = xcb_key_symbols_get_keysym(xk, (xcb_keycode_t)kc, col);
            xw_keysym_t got = xw_key_symbols_get_keysym(k, (xw_keycode_t)kc, col);
            if (got != want)
                ck_abort_msg("keycode %d column %d: xwire 0x%x, xcb-util 0x%x", kc, col, got, want);
            n++;
        }
    return n;
}

/* The keysyms per keycode the server has now (the table width to walk). */
static int server_per(void)
{
    const xcb_setup_t *s = xcb_get_setup(xc);
    xcb_get_keyboard_mapping_reply_t *r = xcb_get_keyboard_mapping_reply(
        xc, xcb_get_keyboard_mapping(xc, s->min_keycode, (uint8_t)(s->max_keycode - s->min_keycode + 1)), NULL);
    ck_assert_ptr_nonnull(r);
    int per = r->keysyms_per_keycode;
    free(r);
    return per;
}

/* Both connections see every event the change caused, then each table refreshes on
 * each MappingNotify it got (the real events, not made-up ones). Returns how many
 * keyboard MappingNotify events xwire's connection got. */
static int refresh_both(xw_connection_t *conn, xw_key_symbols_t *k, xcb_key_symbols_t *xk)
{
    util_xcb_sync(xc);
    xw_generic_error_t *e = NULL;
    free(xw_get_input_focus_reply(conn, xw_get_input_focus(conn), &e));
    ck_assert_ptr_null(e);
    int seen = 0;
    xw_generic_event_t *ev;
    while ((ev = xw_poll_for_event(conn))) {
        if ((ev->response_type & 0x7f) == XW_MAPPING_NOTIFY)
            seen += xw_refresh_keyboard_mapping(k, (xw_mapping_notify_event_t *)ev);
        free(ev);
    }
    xcb_generic_event_t *xev;
    while ((xev = xcb_poll_for_event(xc))) {
        if ((xev->response_type & 0x7f) == XCB_MAPPING_NOTIFY)
            xcb_refresh_keyboard_mapping(xk, (xcb_mapping_notify_event_t *)xev);
        free(xev);
    }
    return seen;
}

/* Maps every keycode to [sym, NoSymbol] for sym = first, first + 1, ...: the lone
 * keysym of a pair is where the case rules apply. */
static void map_lone_keysyms(uint32_t first)
{
    const xcb_setup_t *s = xcb_get_setup(xc);
    uint8_t count = (uint8_t)(s->max_keycode - s->min_keycode + 1);
    uint32_t syms[2 * 256];
    for (unsigned i = 0; i < count; i++) {
        syms[2 * i] = first + i;
        syms[2 * i + 1] = XCB_NO_SYMBOL;
    }
    ck_assert_ptr_null(xcb_request_check(xc, xcb_change_keyboard_mapping_checked(xc, count, s->min_keycode, 2, syms)));
}

static void run_setxkbmap(const char *layout)
{
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 2);
        execlp("setxkbmap", "setxkbmap", "-display", xvfb_server.name, "-layout", layout, (char *)NULL);
        _exit(127);
    }
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "setxkbmap -layout %s failed", layout);
}

/* The whole comparison on conn: initial map, the case sets through core changes, an
 * XKB layout with more groups, and keycode lists. */
static void compare_all(xw_connection_t *conn)
{
    xw_key_symbols_t *k = xw_key_symbols_alloc(conn);
    xcb_key_symbols_t *xk = xcb_key_symbols_alloc(xc);
    ck_assert_ptr_nonnull(k);
    int lookups = compare_tables(k, xk, server_per());

    /* Core changes: keysyms 0x0..0x14ff (Latin 1-4, Katakana, Arabic, Cyrillic,
     * Greek, ..., Latin 8 and 9, Armenian) and a stretch of Unicode keysyms, each
     * alone in its pair. */
    static const uint32_t starts[] = {0x0, 0x1000041, 0x10000c0, 0x1000100, 0x1000370, 0x1000400, 0x1001e00};
    int notified = 0;
    for (uint32_t base = 0; base < 0x1500; base += 248) {
        map_lone_keysyms(base);
        notified += refresh_both(conn, k, xk);
        lookups += compare_tables(k, xk, 2);
    }
    for (size_t i = 1; i < sizeof(starts) / sizeof(starts[0]); i++) {
        map_lone_keysyms(starts[i]);
        notified += refresh_both(conn, k, xk);
        lookups += compare_tables(k, xk, 2);
    }
    ck_assert_int_gt(notified, 0);

    /* XKB: three groups, then one again. */
    run_setxkbmap("us,ru,gr");
    ck_assert_int_gt(refresh_both(conn, k, xk), 0);
    int per = server_per();
    ck_assert_int_ge(per, 6);
    lookups += compare_tables(k, xk, per);
    int lists = 0;
    for (int kc = 8; kc < 256; kc++)
        for (int col = 0; col < per; col++) {
            xw_keysym_t sym = xw_key_symbols_get_keysym(k, (xw_keycode_t)kc, col);
            xcb_keycode_t *want = xcb_key_symbols_get_keycode(xk, sym);
            xw_keycode_t *got = xw_key_symbols_get_keycode(k, sym);
            ck_assert_int_eq(!want, !got);
            size_t n = 0;
            while (want && want[n] && got[n] == want[n])
                n++;
            if (want && (want[n] != 0 || got[n] != 0))
                ck_abort_msg("keysym 0x%x: lists differ at %zu: xwire %u, xcb-util %u", sym, n, got[n], want[n]);
            xw_keycode_t into[8];
            size_t m = xw_key_symbols_get_keycode_into(k, sym, into, 8);
            ck_assert_uint_eq(m, n);
            for (size_t i = 0; i < n && i < 7; i++)
                ck_assert_uint_eq(into[i], got[i]);
            ck_assert_uint_eq(into[n < 7 ? n : 7], 0);
            free(want);
            free(got);
            lists++;
        }
    run_setxkbmap("us");
    refresh_both(conn, k, xk);
    lookups += compare_tables(k, xk, server_per());
    printf("keysyms: %d lookups and %d keycode lists equal, %d keyboard MappingNotify\n", lookups, lists, notified);
    xw_key_symbols_free(k);
    xcb_key_symbols_free(xk);
}

START_TEST(same_keysyms_own_connection)
{
    compare_all(c);
}
END_TEST

START_TEST(same_keysyms_borrowed_connection)
{
    util_on_borrowed(compare_all);
}
END_TEST

START_TEST(key_events_and_refresh_rules)
{
    xw_key_symbols_t *k = xw_key_symbols_alloc(c);
    xcb_key_symbols_t *xk = xcb_key_symbols_alloc(xc);
    for (int kc = 0; kc < 256; kc++)
        for (int col = 0; col < 4; col++) {
            xw_key_press_event_t p = {.response_type = XW_KEY_PRESS, .detail = (xw_keycode_t)kc};
            xcb_key_press_event_t xp = {.response_type = XCB_KEY_PRESS, .detail = (xcb_keycode_t)kc};
            ck_assert_uint_eq(xw_key_press_lookup_keysym(k, &p, col), xcb_key_press_lookup_keysym(xk, &xp, col));
            ck_assert_uint_eq(xw_key_release_lookup_keysym(k, (xw_key_release_event_t *)&p, col),
                              xcb_key_release_lookup_keysym(xk, (xcb_key_release_event_t *)&xp, col));
        }
    /* Only keyboard mapping changes refresh. */
    xw_mapping_notify_event_t m = {.response_type = XW_MAPPING_NOTIFY, .request = XW_MAPPING_POINTER};
    ck_assert_int_eq(xw_refresh_keyboard_mapping(k, &m), 0);
    m.request = XW_MAPPING_MODIFIER;
    ck_assert_int_eq(xw_refresh_keyboard_mapping(k, &m), 0);
    m.request = XW_MAPPING_KEYBOARD;
    ck_assert_int_eq(xw_refresh_keyboard_mapping(k, &m), 1);
    ck_assert_int_eq(xw_refresh_keyboard_mapping(NULL, &m), 0);
    ck_assert_int_eq(xw_refresh_keyboard_mapping(k, NULL), 0);
    ck_assert_uint_ne(xw_key_symbols_get_keysym(k, 38, 0), 0); /* 'a' on the default map */
    ck_assert_uint_eq(xw_key_symbols_get_keysym(NULL, 38, 0), 0);
    ck_assert_ptr_null(xw_key_symbols_get_keycode(k, 0x12345678));
    xw_key_symbols_free(NULL);
    xw_key_symbols_free(k);
    xcb_key_symbols_free(xk);
}
END_TEST

/* A refresh whose reply is never read: free discards it, and the connection stays
 * usable (the next round trip gets its own reply). */
START_TEST(free_with_reply_pending)
{
    xw_key_symbols_t *k = xw_key_symbols_alloc(c);
    ck_assert_ptr_nonnull(k);
    xw_key_symbols_free(k);
    xw_generic_error_t *e = NULL;
    xw_get_input_focus_reply_t *r = xw_get_input_focus_reply(c, xw_get_input_focus(c), &e);
    ck_assert_ptr_nonnull(r);
    free(r);
}
END_TEST

START_TEST(same_keysym_classes)
{
    int (*const xw_fn[])(xw_keysym_t) = {xw_is_keypad_key,   xw_is_private_keypad_key, xw_is_cursor_key,  xw_is_pf_key,
                                         xw_is_function_key, xw_is_misc_function_key,  xw_is_modifier_key};
    int (*const xcb_fn[])(xcb_keysym_t) = {xcb_is_keypad_key,  xcb_is_private_keypad_key, xcb_is_cursor_key,
                                           xcb_is_pf_key,      xcb_is_function_key,       xcb_is_misc_function_key,
                                           xcb_is_modifier_key};
    static const uint32_t ranges[][2] = {
        {0, 0x20000}, {0x1000000, 0x1010000}, {0x10fff000, 0x11010010}, {0xfffff000, 0xffffffff}};
    unsigned long yes = 0;
    for (size_t f = 0; f < sizeof(xw_fn) / sizeof(xw_fn[0]); f++)
        for (size_t r = 0; r < sizeof(ranges) / sizeof(ranges[0]); r++)
            for (uint32_t ks = ranges[r][0];; ks++) {
                int want = xcb_fn[f](ks), got = xw_fn[f](ks);
                if (!want != !got)
                    ck_abort_msg("class %zu keysym 0x%x: xwire %d, xcb-util %d", f, ks, got, want);
                yes += got != 0;
                if (ks == ranges[r][1])
                    break;
            }
    ck_assert_uint_gt(yes, 65536 + 100); /* the private keypad range and the rest */
}
END_TEST

/* Lookups allocate nothing; a refresh then the first lookup reads the new table into
 * the storage the old one had. Counted beside xcb-util's. */
START_TEST(no_allocation_per_lookup)
{
    if (!util_counting_works())
        return;
    xw_key_symbols_t *k = xw_key_symbols_alloc(c);
    xcb_key_symbols_t *xk = xcb_key_symbols_alloc(xc);
    xw_keycode_t list[16];
    xw_mapping_notify_event_t m = {.response_type = XW_MAPPING_NOTIFY, .request = XW_MAPPING_KEYBOARD};
    for (int warm = 0; warm < 3; warm++) {
        xw_refresh_keyboard_mapping(k, &m);
        xw_key_symbols_get_keysym(k, 38, 0);
        xw_key_symbols_get_keycode_into(k, 0x61, list, 16);
    }
    xcb_key_symbols_get_keysym(xk, 38, 0);
    unsigned long t = alloc_count_begin();
    for (int kc = 0; kc < 256; kc++)
        for (int col = 0; col < 8; col++)
            xw_key_symbols_get_keysym(k, (xw_keycode_t)kc, col);
    xw_key_symbols_get_keycode_into(k, 0x61, list, 16);
    unsigned long ours = alloc_count_end(t);
    t = alloc_count_begin();
    for (int kc = 0; kc < 256; kc++)
        for (int col = 0; col < 8; col++)
            xcb_key_symbols_get_keysym(xk, (xcb_keycode_t)kc, col);
    unsigned long theirs = alloc_count_end(t);
    t = alloc_count_begin();
    xw_refresh_keyboard_mapping(k, &m);
    xw_key_symbols_get_keysym(k, 38, 0);
    unsigned long ours_refresh = alloc_count_end(t);
    xcb_mapping_notify_event_t xm = {.response_type = XCB_MAPPING_NOTIFY, .request = XCB_MAPPING_KEYBOARD};
    t = alloc_count_begin();
    xcb_refresh_keyboard_mapping(xk, &xm);
    xcb_key_symbols_get_keysym(xk, 38, 0);
    unsigned long theirs_refresh = alloc_count_end(t);
    t = alloc_count_begin();
    free(xw_key_symbols_get_keycode(k, 0x61));
    unsigned long ours_list = alloc_count_end(t);
    t = alloc_count_begin();
    free(xcb_key_symbols_get_keycode(xk, 0x61));
    unsigned long theirs_list = alloc_count_end(t);
    printf("keysyms allocations: 2048 lookups xwire %lu xcb-util %lu; refresh + lookup xwire %lu xcb-util %lu; "
           "get_keycode xwire %lu (_into 0) xcb-util %lu\n",
           ours, theirs, ours_refresh, theirs_refresh, ours_list, theirs_list);
    ck_assert_uint_eq(ours, 0);
    ck_assert_uint_eq(ours_refresh, 0);
    ck_assert_uint_eq(ours_list, 1);
    xw_key_symbols_free(k);
    xcb_key_symbols_free(xk);
}
END_TEST

int main(void)
{
    if (xvfb_missing("util_keysyms"))
        return 77;
    Suite *s = xwtest_suite("util_keysyms");
    TCase *tc = xvfb_tcase(s, &(struct xvfb_suite){.name = "util_keysyms",
                                                   .timeout = 300,
                                                   .server_per_test = 1,
                                                   .conn = &c,
                                                   .setup = setup,
                                                   .teardown = teardown});
    tcase_add_test(tc, same_keysyms_own_connection);
    tcase_add_test(tc, same_keysyms_borrowed_connection);
    tcase_add_test(tc, key_events_and_refresh_rules);
    tcase_add_test(tc, free_with_reply_pending);
    tcase_add_test(tc, same_keysym_classes);
    tcase_add_test(tc, no_allocation_per_lookup);
    return xwtest_run(s);
}
