/* SPDX-License-Identifier: MIT */
/* test_gap.c — replies whose libxcb C struct is longer than the wire bytes before
 * their variable part (XKB GetDeviceInfo, SYNC ListSystemCounters' counters, as Xvfb
 * sends them): accepted by the wire's layout, while sizeof and the accessors keep
 * libxcb's answers within the reply's zeroed slack. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <xcb/sync.h>
#include <xcb/xkb.h>
#include <xw/sync.h>
#include <xw/xkb.h>

#include "fake_conn.h"

#define XKB_MAJOR 135
#define SYNC_MAJOR 136

static const struct fake_ext xkb_exts[] = {
    {"XKEYBOARD", XKB_MAJOR, 85, 137}, {"SYNC", SYNC_MAJOR, 90, 140}, {NULL, 0, 0, 0}};

/* nameLen of the GetDeviceInfo reply the server thread sends next (set by the test
 * before it asks, read by the thread). */
static uint16_t name_len = 21;

static void set_name_len(uint16_t n)
{
    __atomic_store_n(&name_len, n, __ATOMIC_SEQ_CST);
}

/* Xvfb's answer to libxkbcommon's GetDeviceInfo for the core keyboard: 56 bytes
 * (length 6), nameLen at 32 and the 21-byte name at 34, no buttons, no LEDs. */
static size_t device_info_reply(uint8_t *out, uint16_t seq)
{
    uint8_t extra[48] = {0};                                           /* bytes 8..55 */
    fs_wr16(extra + 0, 0x4000);                                        /* present (8): names */
    fs_wr32(extra + 20, 0x1c3);                                        /* devType (28) */
    fs_wr16(extra + 24, __atomic_load_n(&name_len, __ATOMIC_SEQ_CST)); /* nameLen (32) */
    memcpy(extra + 26, "Virtual core keyboard", 21);                   /* name (34) */
    size_t n = fake_reply(out, seq, 3, extra, sizeof(extra));
    return n;
}

/* One SystemCounter on the wire at p: counter, resolution, name_len, name, padding
 * to 4 (14 + n bytes before it; libxcb's C struct is 16). Returns its size. */
static size_t put_counter(uint8_t *p, uint32_t id, const char *name)
{
    size_t n = strlen(name);
    memset(p, 0, (14 + n + 3) & ~(size_t)3);
    fs_wr32(p, id);
    fs_wr32(p + 8, 4); /* resolution: hi 0, lo 4 */
    fs_wr16(p + 12, (uint16_t)n);
    memcpy(p + 14, name, n);
    return (14 + n + 3) & ~(size_t)3;
}

/* Xvfb's ListSystemCounters: 272 bytes, six 16-byte names, IDLETIME, SERVERTIME.
 * libxcb's layout ends SERVERTIME 4 bytes past the reply (at 276). */
static size_t system_counters_reply(uint8_t *out, uint16_t seq)
{
    uint8_t extra[264] = {0}; /* bytes 8..271 */
    fs_wr32(extra, 8);        /* counters_len */
    size_t at = 24;           /* byte 32 */
    for (int i = 7; i >= 2; i--) {
        char name[17];
        memcpy(name, "DEVICEIDLETIME ", 15);
        name[15] = (char)('0' + i), name[16] = 0;
        at += put_counter(extra + at, 0x500 + (uint32_t)i, name);
    }
    at += put_counter(extra + at, 0x501, "IDLETIME");
    at += put_counter(extra + at, 0x500, "SERVERTIME");
    ck_assert_uint_eq(at, sizeof(extra));
    return fake_reply(out, seq, 0, extra, sizeof(extra));
}

static int answer_device_info(struct fake_server *f, const uint8_t *req, size_t len)
{
    (void)len;
    uint8_t out[280];
    if (req[0] == XKB_MAJOR && req[1] == XW_XKB_GET_DEVICE_INFO)
        fake_send(f, out, device_info_reply(out, (uint16_t)f->seq));
    else if (req[0] == SYNC_MAJOR && req[1] == XW_SYNC_LIST_SYSTEM_COUNTERS)
        fake_send(f, out, system_counters_reply(out, (uint16_t)f->seq));
    else
        return 0;
    return 1;
}

static void connect_xkb(void)
{
    c = fake_connect(&F, NULL, 0);
    F.exts = xkb_exts;
    F.on_request = answer_device_info;
    fake_serve_start(&F);
}

static uint64_t ask(void)
{
    return xw_xkb_get_device_info(c, XW_XKB_ID_USE_CORE_KBD, 0, 0, 0, 0, 0, 0).sequence;
}

START_TEST(xvfb_device_info_is_accepted_with_libxcb_sizeof_and_accessors)
{
    set_name_len(21);
    connect_xkb();
    xw_generic_error_t *e = NULL;
    xw_xkb_get_device_info_cookie_t ck = xw_xkb_get_device_info(c, XW_XKB_ID_USE_CORE_KBD, 0, 0, 0, 0, 0, 0);
    xw_xkb_get_device_info_reply_t *r = xw_xkb_get_device_info_reply(c, ck, &e);
    ck_assert_ptr_null(e);
    ck_assert_ptr_nonnull(r);
    ck_assert_uint_eq(r->deviceID, 3);
    ck_assert_uint_eq(r->nameLen, 21);
    /* the 8 zero bytes past the 56 the accessors may reach belong to the reply */
    for (int i = 56; i < 56 + XW_REPLY_SLACK; i++)
        ck_assert_uint_eq(((uint8_t *)r)[i], 0);
    /* libxcb's answers on the same bytes, in a buffer with its own over-read room */
    uint8_t copy[64] = {0};
    memcpy(copy, r, 56);
    const xcb_xkb_get_device_info_reply_t *x = (const void *)copy;
    ck_assert_int_eq(xw_xkb_get_device_info_sizeof(r), xcb_xkb_get_device_info_sizeof(copy));
    ck_assert_int_eq(xw_xkb_get_device_info_sizeof(r), 60); /* libxcb 1.15's, past the 56 sent */
    ck_assert_int_eq((char *)xw_xkb_get_device_info_name(r) - (char *)r,
                     (char *)xcb_xkb_get_device_info_name(x) - (char *)x);
    ck_assert_int_eq(xw_xkb_get_device_info_name_length(r), xcb_xkb_get_device_info_name_length(x));
    ck_assert_int_eq(xw_xkb_get_device_info_btn_actions_length(r), xcb_xkb_get_device_info_btn_actions_length(x));
    ck_assert_int_eq((char *)xw_xkb_get_device_info_btn_actions(r) - (char *)r,
                     (char *)xcb_xkb_get_device_info_btn_actions(x) - (char *)x);
    ck_assert_int_eq(xw_xkb_get_device_info_leds_length(r), xcb_xkb_get_device_info_leds_length(x));
    ck_assert_int_eq(xw_xkb_get_device_info_leds_iterator(r).rem, xcb_xkb_get_device_info_leds_iterator(x).rem);
    free(r);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

/* The caller-storage form: the 56 bytes fit a 56-byte buffer; a larger one gets the
 * slack's zeros after them. */
START_TEST(into_buffer_gets_the_reply_and_the_slack_that_fits)
{
    set_name_len(21);
    connect_xkb();
    uint64_t s1 = ask(), s2 = ask();
    uint8_t exact[56], roomy[80];
    memset(roomy, 0xff, sizeof(roomy));
    size_t len = 0;
    xw_generic_error_t err;
    ck_assert_int_eq(xw_wait_for_reply_into(c, s1, exact, sizeof(exact), &len, &err, -1), 1);
    ck_assert_uint_eq(len, 56);
    ck_assert_uint_eq(fs_rd16(exact + 32), 21);
    ck_assert_int_eq(xw_wait_for_reply_into(c, s2, roomy, sizeof(roomy), &len, &err, -1), 1);
    ck_assert_uint_eq(len, 56);
    ck_assert_int_eq(memcmp(roomy + 4, exact + 4, 52), 0); /* all but the sequence */
    for (int i = 56; i < 56 + XW_REPLY_SLACK; i++)
        ck_assert_uint_eq(roomy[i], 0);
    ck_assert_uint_eq(roomy[56 + XW_REPLY_SLACK], 0xff);
}
END_TEST

/* A name one byte longer than the 22 bytes after nameLen runs past the reply on the
 * wire: still refused. */
START_TEST(name_past_the_wire_bytes_is_refused)
{
    set_name_len(23);
    connect_xkb();
    xw_generic_error_t *e = NULL;
    xw_xkb_get_device_info_cookie_t ck = xw_xkb_get_device_info(c, XW_XKB_ID_USE_CORE_KBD, 0, 0, 0, 0, 0, 0);
    ck_assert_ptr_null(xw_xkb_get_device_info_reply(c, ck, &e));
    ck_assert_ptr_nonnull(e);
    ck_assert_uint_eq(e->error_code, XW_ERROR_MALFORMED_REPLY);
    free(e);
    set_name_len(22); /* exactly fills the 56 bytes: accepted */
    ck = xw_xkb_get_device_info(c, XW_XKB_ID_USE_CORE_KBD, 0, 0, 0, 0, 0, 0);
    e = NULL;
    xw_xkb_get_device_info_reply_t *r = xw_xkb_get_device_info_reply(c, ck, &e);
    ck_assert_ptr_null(e);
    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq(xw_xkb_get_device_info_name_length(r), 22);
    free(r);
}
END_TEST

/* The counters' walker runs inside the reply's: validation walks them by the wire's
 * layout too (272 bytes), and libxcb's layout (276) stays within the slack. */
START_TEST(system_counters_walk_in_the_replys_layout_mode)
{
    connect_xkb();
    xw_generic_error_t *e = NULL;
    xw_sync_list_system_counters_reply_t *r =
        xw_sync_list_system_counters_reply(c, xw_sync_list_system_counters(c), &e);
    ck_assert_ptr_null(e);
    ck_assert_ptr_nonnull(r);
    ck_assert_uint_eq(r->length, 60);
    uint8_t copy[272 + XW_REPLY_SLACK] = {0};
    memcpy(copy, r, 272);
    const xcb_sync_list_system_counters_reply_t *x = (const void *)copy;
    ck_assert_int_eq(xw_sync_list_system_counters_sizeof(r), xcb_sync_list_system_counters_sizeof(copy));
    ck_assert_int_eq(xw_sync_list_system_counters_sizeof(r), 276);
    xw_sync_systemcounter_iterator_t i = xw_sync_list_system_counters_counters_iterator(r);
    xcb_sync_systemcounter_iterator_t j = xcb_sync_list_system_counters_counters_iterator(x);
    ck_assert_int_eq(i.rem, 8);
    ck_assert_int_eq(i.rem, j.rem);
    for (; i.rem; xw_sync_systemcounter_next(&i), xcb_sync_systemcounter_next(&j)) {
        ck_assert_int_eq((char *)i.data - (char *)r, (char *)j.data - (char *)x);
        ck_assert_uint_eq(i.data->name_len, j.data->name_len);
        ck_assert_int_eq(xw_sync_systemcounter_name(i.data) - (char *)r,
                         xcb_sync_systemcounter_name(j.data) - (char *)x);
    }
    free(r);
}
END_TEST

int main(void)
{
    Suite *s = xwtest_suite("gap");
    fake_conn_tcase(s, "gap",
                    (const TTest *const[]){xvfb_device_info_is_accepted_with_libxcb_sizeof_and_accessors,
                                           into_buffer_gets_the_reply_and_the_slack_that_fits,
                                           name_past_the_wire_bytes_is_refused,
                                           system_counters_walk_in_the_replys_layout_mode, NULL});
    return xwtest_run(s);
}
