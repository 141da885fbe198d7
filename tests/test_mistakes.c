/* SPDX-License-Identifier: MIT */
/* test_mistakes.c — caller mistakes against Xvfb: a request too long, a NULL list with a length, a new
 * resource id of 0, calls after the server dropped us. Each is refused with a reason, nothing of it is
 * written, and the connection goes on where the protocol allows. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <xw/shm.h>
#include <xw/xproto.h>
#include <xw/xw.h>
#include <xw/xwext.h>

#include "xvfb_suite.h"
#include "xwtest.h"

static xw_connection_t *c;
static const xw_screen_t *scr;

static void setup(void)
{
    xvfb_setup();
    scr = xw_setup_roots_iterator(xw_get_setup(c)).data;
}

/* A 10x10 InputOutput window on the root, created checked. */
static xw_window_t make_window(void)
{
    xw_window_t w = xw_generate_id(c);
    ck_assert_ptr_null(
        xw_request_check(c, xw_create_window_checked(c, 0, w, scr->root, 0, 0, 10, 10, 0, XW_WINDOW_CLASS_INPUT_OUTPUT,
                                                     scr->root_visual, 0, NULL)));
    return w;
}

/* State before a mistake: everything flushed, the last sequence number used. */
struct mark {
    uint64_t written;
    unsigned seq;
};

static struct mark mark_now(void)
{
    unsigned seq = xw_get_input_focus(c).sequence;
    free(xw_get_input_focus_reply(c, (xw_get_input_focus_cookie_t){seq}, NULL));
    ck_assert_int_eq(xw_flush(c), 1);
    return (struct mark){xw_total_written(c), seq};
}

/* After refused requests: not a byte went out, no sequence number was used, and
 * the connection still answers (the next request takes the next number). */
static void nothing_sent_since(struct mark m)
{
    ck_assert_int_eq(xw_flush(c), 1);
    ck_assert_uint_eq(xw_total_written(c), m.written);
    xw_get_input_focus_cookie_t ck = xw_get_input_focus(c);
    ck_assert_uint_eq(ck.sequence, m.seq + 1);
    xw_generic_error_t *e = NULL;
    xw_get_input_focus_reply_t *r = xw_get_input_focus_reply(c, ck, &e);
    ck_assert_ptr_nonnull(r);
    ck_assert_ptr_null(e);
    free(r);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
    ck_assert_ptr_null(xw_poll_for_event(c)); /* no error from a half request */
}

static void refused(unsigned seq, const char *why)
{
    ck_assert_uint_eq(seq, 0);
    const char *got = xw_request_error_string(c);
    ck_assert_ptr_nonnull(got);
    ck_assert_msg(strstr(got, why), "reason \"%s\" lacks \"%s\"", got, why);
}

START_TEST(request_longer_than_the_maximum)
{
    uint32_t max_words = xw_get_maximum_request_length(c); /* BIG-REQUESTS: Xvfb takes 16 MiB */
    ck_assert_uint_gt(max_words, 65535);
    size_t bytes = (size_t)max_words * 4 + 4096; /* past the limit whatever the header */
    uint8_t *data = malloc(bytes);
    ck_assert_ptr_nonnull(data);
    memset(data, 0x5a, bytes);
    xw_window_t w = make_window();
    struct mark m = mark_now();
    refused(xw_change_property(c, XW_PROP_MODE_REPLACE, w, XW_ATOM_WM_NAME, XW_ATOM_STRING, 8, (uint32_t)bytes, data)
                .sequence,
            "longer than the server's limit");
    refused(xw_change_property_checked(c, XW_PROP_MODE_REPLACE, w, XW_ATOM_WM_NAME, XW_ATOM_STRING, 32,
                                       (uint32_t)(bytes / 4), data)
                .sequence,
            "longer than the server's limit");
    nothing_sent_since(m);
    /* one word under the limit goes (header 6 words + 2 BIG-REQUESTS framing... the
     * runtime's own arithmetic decides; 1 MiB certainly goes) */
    ck_assert_ptr_null(xw_request_check(
        c, xw_change_property_checked(c, XW_PROP_MODE_REPLACE, w, XW_ATOM_WM_NAME, XW_ATOM_STRING, 8, 1 << 20, data)));
    free(data);
    xw_destroy_window(c, w);
}
END_TEST

START_TEST(null_list_with_a_length)
{
    xw_window_t w = make_window();
    struct mark m = mark_now();
    refused(xw_intern_atom(c, 0, 5, NULL).sequence, "InternAtom: name is NULL but its length is not 0");
    refused(xw_intern_atom_unchecked(c, 0, 1, NULL).sequence, "name is NULL");
    refused(xw_change_property(c, XW_PROP_MODE_REPLACE, w, XW_ATOM_WM_NAME, XW_ATOM_STRING, 8, 3, NULL).sequence,
            "ChangeProperty: data is NULL");
    refused(xw_change_property_checked(c, XW_PROP_MODE_REPLACE, w, XW_ATOM_WM_NAME, XW_ATOM_STRING, 32, 100000, NULL)
                .sequence,
            "ChangeProperty: data is NULL");
    /* a value list: mask bits set, no values */
    refused(xw_change_window_attributes(c, w, XW_CW_BACK_PIXEL, NULL).sequence,
            "ChangeWindowAttributes: value_list is NULL");
    xw_gcontext_t gc = xw_generate_id(c);
    refused(xw_create_gc(c, gc, w, XW_GC_FOREGROUND, NULL).sequence, "CreateGC: value_list is NULL");
    xw_rectangle_t *none = NULL;
    refused(xw_poly_fill_rectangle(c, w, gc, 2, none).sequence, "PolyFillRectangle: rectangles is NULL");
    nothing_sent_since(m);
    /* NULL with length 0 is a legal empty list */
    ck_assert_ptr_null(xw_request_check(
        c, xw_change_property_checked(c, XW_PROP_MODE_REPLACE, w, XW_ATOM_WM_NAME, XW_ATOM_STRING, 8, 0, NULL)));
    ck_assert_ptr_null(xw_request_check(c, xw_create_gc_checked(c, gc, w, 0, NULL)));
    ck_assert_ptr_null(xw_request_check(c, xw_poly_fill_rectangle_checked(c, w, gc, 0, NULL)));
    xw_free_gc(c, gc);
    xw_destroy_window(c, w);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

static void new_id_zero(void)
{
    struct mark m = mark_now();
    const char *why = "is 0; a new resource id comes from xw_generate_id()";
    refused(
        xw_create_window(c, 0, 0, scr->root, 0, 0, 10, 10, 0, XW_WINDOW_CLASS_INPUT_OUTPUT, scr->root_visual, 0, NULL)
            .sequence,
        "CreateWindow: wid is 0");
    refused(xw_create_window_checked(c, 0, 0, scr->root, 0, 0, 10, 10, 0, XW_WINDOW_CLASS_INPUT_OUTPUT,
                                     scr->root_visual, 0, NULL)
                .sequence,
            why);
    refused(xw_create_pixmap(c, scr->root_depth, 0, scr->root, 8, 8).sequence, "CreatePixmap: pid is 0");
    refused(xw_create_pixmap_checked(c, scr->root_depth, 0, scr->root, 8, 8).sequence, why);
    refused(xw_create_gc(c, 0, scr->root, 0, NULL).sequence, "CreateGC: cid is 0");
    refused(xw_create_colormap(c, XW_COLORMAP_ALLOC_NONE, 0, scr->root, scr->root_visual).sequence,
            "CreateColormap: mid is 0");
    refused(xw_open_font(c, 0, 5, "fixed").sequence, "OpenFont: fid is 0");
    refused(xw_create_glyph_cursor(c, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0).sequence, "CreateGlyphCursor: cid is 0");
    nothing_sent_since(m);
    /* ids that may be 0 stay allowed: a Window of None in ChangeSaveSet is the
     * server's to judge (BadWindow), not ours */
    xw_generic_error_t *e = xw_request_check(c, xw_free_pixmap_checked(c, 0));
    ck_assert_ptr_nonnull(e);
    ck_assert_uint_eq(e->error_code, 4); /* BadPixmap: the server judged it */
    free(e);
    /* the same requests with a real id work */
    xw_pixmap_t p = xw_generate_id(c);
    ck_assert_ptr_null(xw_request_check(c, xw_create_pixmap_checked(c, scr->root_depth, p, scr->root, 8, 8)));
    xw_free_pixmap(c, p);
}

START_TEST(xid_zero_for_a_new_resource)
{
    new_id_zero();
}
END_TEST

/* In single-threaded mode small void requests take the generated inline path:
 * the id check comes before it. */
START_TEST(xid_zero_for_a_new_resource_single_threaded)
{
    ck_assert_int_eq(xw_connection_set_single_threaded(c, 1), 0);
    new_id_zero();
}
END_TEST

/* A refused request with fds closes them (the send call owns them). */
START_TEST(xid_zero_with_an_fd)
{
    const xw_query_extension_reply_t *q = xw_get_extension_data(c, &xw_shm_id);
    if (!q || !q->present)
        return;
    int fd = memfd_create("xw-mistake", MFD_CLOEXEC);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(ftruncate(fd, 4096), 0);
    struct mark m = mark_now();
    refused(xw_shm_attach_fd(c, 0, fd, 0).sequence, "AttachFd: shmseg is 0");
    nothing_sent_since(m); /* and the teardown's fd check sees fd closed */
}
END_TEST

/* The server drops us (KillClient from another client): every call then fails at
 * once with the reason, never hangs, and the connection can be freed. */
START_TEST(calls_after_the_server_dropped_us)
{
    xw_connection_t *k = xw_connect(xvfb_server.name, NULL);
    ck_assert_int_eq(xw_connection_has_error(k), 0);
    xw_window_t w = make_window();
    ck_assert_ptr_null(xw_request_check(k, xw_kill_client_checked(k, w)));
    xw_disconnect(k);
    /* we learn it at the next read */
    ck_assert_ptr_null(xw_get_input_focus_reply(c, xw_get_input_focus(c), NULL));
    ck_assert_int_eq(xw_connection_has_error(c), XW_CONN_ERROR);
    const char *why = xw_connection_error_string(c);
    ck_assert_msg(!strcmp(why, "server closed the connection") || !strcmp(why, "write to server: Broken pipe") ||
                      !strcmp(why, "write to server: Connection reset by peer") ||
                      !strcmp(why, "read from server: Connection reset by peer"),
                  "reason: %s", why);
    refused(xw_no_operation(c).sequence, why);
    refused(xw_intern_atom(c, 0, 3, "ABC").sequence, why);
    ck_assert_int_eq(xw_flush(c), 0);
    ck_assert_ptr_null(xw_wait_for_event(c));
    ck_assert_ptr_null(xw_request_check(c, xw_map_window_checked(c, w)));
    ck_assert_uint_eq(xw_generate_id(c), (uint32_t)-1);
    ck_assert_uint_eq(xw_get_maximum_request_length(c), 0);
    xw_disconnect(NULL); /* a no-op, as in libxcb */
}
END_TEST

int main(void)
{
    if (xvfb_missing("mistakes"))
        return 77;
    Suite *s = xwtest_suite("mistakes");
    TCase *tc = xvfb_tcase(s, &(struct xvfb_suite){.name = "mistakes", .timeout = 120, .conn = &c, .setup = setup});
    tcase_add_test(tc, request_longer_than_the_maximum);
    tcase_add_test(tc, null_list_with_a_length);
    tcase_add_test(tc, xid_zero_for_a_new_resource);
    tcase_add_test(tc, xid_zero_for_a_new_resource_single_threaded);
    tcase_add_test(tc, xid_zero_with_an_fd);
    tcase_add_test(tc, calls_after_the_server_dropped_us);
    return xwtest_run(s);
}
