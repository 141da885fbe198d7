/* test_gap.c — replies whose libxcb C struct is longer than the wire bytes before
 * their variable part (XKB GetDeviceInfo as Xvfb sends it): accepted by the wire's
 * layout, while sizeof and the accessors keep libxcb's answers within the reply's
 * zeroed slack. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <xcb/xkb.h>
#include <xw/xkb.h>

#include "fake_conn.h"

#define XKB_MAJOR 135

static const struct fake_ext xkb_exts[] = {{"XKEYBOARD", XKB_MAJOR, 85, 137}, {NULL, 0, 0, 0}};

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
    uint8_t extra[48] = {0}; /* bytes 8..55 */
    fs_wr16(extra + 0, 0x4000); /* present (8): names */
    fs_wr32(extra + 20, 0x1c3); /* devType (28) */
    fs_wr16(extra + 24, __atomic_load_n(&name_len, __ATOMIC_SEQ_CST)); /* nameLen (32) */
    memcpy(extra + 26, "Virtual core keyboard", 21); /* name (34) */
    size_t n = fake_reply(out, seq, 3, extra, sizeof(extra));
    return n;
}

static int answer_device_info(struct fake_server *f, const uint8_t *req, size_t len)
{
    (void)len;
    if (req[0] != XKB_MAJOR || req[1] != XW_XKB_GET_DEVICE_INFO)
        return 0;
    uint8_t out[64];
    fake_send(f, out, device_info_reply(out, (uint16_t)f->seq));
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

int main(void)
{
    Suite *s = xwtest_suite("gap");
    fake_conn_tcase(s, "gap",
                    (const TTest *const[]){xvfb_device_info_is_accepted_with_libxcb_sizeof_and_accessors,
                                           into_buffer_gets_the_reply_and_the_slack_that_fits,
                                           name_past_the_wire_bytes_is_refused, NULL});
    return xwtest_run(s);
}
