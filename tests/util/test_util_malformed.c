/* SPDX-License-Identifier: MIT */
/* test_util_malformed.c — keysyms, image and xrm helpers against a scripted fake
 * server whose replies are malformed or lie: each must refuse cleanly (no crash, no
 * over-read, no endless loop). xcb-util is not run here: on these replies
 * xcb-util-keysyms reads past its reply (the keysyms a short GetKeyboardMapping
 * reply lacks) and xcb-util-xrm follows bytes_after for as long as the server keeps
 * promising more. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <xw/xw_image.h>
#include <xw/xw_keysyms.h>
#include <xw/xw_xrm.h>

#include "fake_server.h"
#include "xwtest.h"

static struct fake_server F;
static xw_connection_t *c;
static int mode; /* which lie the server tells */

static void reply(struct fake_server *f, uint8_t byte1, const void *extra, size_t n)
{
    static uint8_t b[4096];
    fake_send(f, b, fake_reply(b, (uint16_t)f->seq, byte1, extra, n));
}

static int answer(struct fake_server *f, const uint8_t *req, size_t len)
{
    uint8_t extra[3072] = {0};
    (void)len;
    switch (req[0]) {
    case 101:            /* GetKeyboardMapping */
        if (mode == 0) { /* 4 keysyms per keycode, 2 keysyms in all */
            fs_wr32(extra + 24, 0x61), fs_wr32(extra + 28, 0x41);
            reply(f, 4, extra, 32);
        } else if (mode == 1) { /* no keysyms per keycode */
            reply(f, 0, extra, 24);
        } else { /* well formed: 2 per keycode, every keycode 'a' 'A' */
            unsigned count = req[5];
            for (unsigned i = 0; i < count; i++)
                fs_wr32(extra + 24 + 8 * i, 0x61), fs_wr32(extra + 28 + 8 * i, 0x41);
            reply(f, 2, extra, 24 + 8 * count);
        }
        return 1;
    case 73:                                          /* GetImage */
        reply(f, mode == 3 ? 7 : 24, extra, 24 + 32); /* 8 words, or depth 7: no pixmap format */
        return 1;
    case 20:             /* GetProperty (RESOURCE_MANAGER) */
        if (mode == 0) { /* INTEGER */
            fs_wr32(extra, 19), fs_wr32(extra + 8, 2);
            reply(f, 32, extra, 24 + 8);
        } else if (mode == 1) { /* value_len past the reply */
            fs_wr32(extra, 31), fs_wr32(extra + 8, 4000);
            memcpy(extra + 24, "a.b: 1\n\0", 8);
            reply(f, 8, extra, 24 + 8);
        } else { /* 8 bytes, and 8 more promised every time */
            fs_wr32(extra, 31), fs_wr32(extra + 4, 8), fs_wr32(extra + 8, 8);
            memcpy(extra + 24, fs_rd32(req + 16) ? "z.w: 34\n" : "x.y: 12\n", 8);
            reply(f, 8, extra, 24 + 8);
        }
        return 1;
    }
    return 0;
}

static void setup(void)
{
    xwtest_fds_begin();
    c = fake_connect(&F, NULL, 0);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
    F.on_request = answer;
    fake_serve_start(&F);
}

static void teardown(void)
{
    xw_disconnect(c);
    fake_stop(&F);
    xwtest_fds_end();
}

START_TEST(short_keyboard_mapping)
{
    for (mode = 0; mode <= 2; mode++) {
        xw_key_symbols_t *k = xw_key_symbols_alloc(c);
        ck_assert_ptr_nonnull(k);
        int found = 0;
        for (int kc = 0; kc < 256; kc++)
            for (int col = 0; col < 6; col++)
                found += xw_key_symbols_get_keysym(k, (xw_keycode_t)kc, col) != 0;
        xw_keycode_t *list = xw_key_symbols_get_keycode(k, 0x61);
        if (mode < 2) { /* refused: an empty table */
            ck_assert_int_eq(found, 0);
            ck_assert_ptr_null(list);
        } else { /* 8..255 have 'a' 'A' in columns 0-3 */
            ck_assert_int_eq(found, 248 * 4);
            ck_assert_ptr_nonnull(list);
            ck_assert_uint_eq(list[0], 8);
        }
        free(list);
        xw_key_symbols_free(k);
    }
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

START_TEST(short_get_image)
{
    mode = 2;
    ck_assert_ptr_null(xw_image_get(c, 0x100, 0, 0, 10, 10, ~0u, XW_IMAGE_FORMAT_Z_PIXMAP));
    ck_assert_ptr_null(xw_image_get(c, 0x100, 0, 0, 10, 10, 0x0000ff, XW_IMAGE_FORMAT_XY_PIXMAP));
    xw_image_t *small = xw_image_get(c, 0x100, 0, 0, 2, 4, ~0u, XW_IMAGE_FORMAT_Z_PIXMAP);
    ck_assert_ptr_nonnull(small); /* 2 x 4 x 32 bits: the 32 bytes sent */
    xw_image_destroy(small);
    mode = 3;
    ck_assert_ptr_null(xw_image_get(c, 0x100, 0, 0, 2, 4, ~0u, XW_IMAGE_FORMAT_Z_PIXMAP));
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

START_TEST(lying_resource_manager)
{
    xw_screen_t *s = xw_setup_roots_iterator(xw_get_setup(c)).data;
    mode = 0;
    ck_assert_ptr_null(xw_xrm_database_from_resource_manager(c, s));
    mode = 1;
    ck_assert_ptr_null(xw_xrm_database_from_resource_manager(c, s));
    mode = 2;
    xw_xrm_database_t *db = xw_xrm_database_from_resource_manager(c, s);
    ck_assert_ptr_nonnull(db);
    char *text = xw_xrm_database_to_string(db);
    ck_assert_str_eq(text, "x.y: 12\nz.w: 34\n"); /* 16 bytes, as the first reply said, then no more */
    free(text);
    xw_xrm_database_free(db);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

int main(void)
{
    Suite *s = xwtest_suite("util_malformed");
    TCase *tc = tcase_create("util_malformed");
    tcase_set_timeout(tc, 60);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, short_keyboard_mapping);
    tcase_add_test(tc, short_get_image);
    tcase_add_test(tc, lying_resource_manager);
    suite_add_tcase(s, tc);
    return xwtest_run(s);
}
