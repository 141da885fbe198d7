/* SPDX-License-Identifier: MIT */
/* test_xvfb.c — the runtime against a real Xvfb, with requests built by hand (no generated code). */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xw/xwext.h>

#include "fake_server.h"
#include "xvfb_suite.h"
#include "xwtest.h"

static xw_connection_t *c;

static uint32_t root_window(void)
{
    const uint8_t *s = (const uint8_t *)xw_get_setup(c);
    size_t off = 40 + ((s[24] | s[25] << 8) + 3) / 4 * 4 + 8 * (size_t)s[29];
    return fs_rd32(s + off);
}

/* Sends header+body as one request through xw_send (byte 1 = data). */
static uint64_t send_raw(int flags, uint8_t opcode, uint8_t data, int isvoid, const void *body, size_t len,
                         const void *tail, size_t tail_len)
{
    uint8_t hdr[4] = {opcode, data, 0, 0};
    static const uint8_t pad[4];
    struct iovec parts[6] = {{0},
                             {0},
                             {hdr, 4},
                             {(void *)body, len},
                             {(void *)tail, tail_len},
                             {(void *)pad, (4 - ((len + tail_len) & 3)) & 3}};
    xw_protocol_request_t req = {.count = 4, .opcode = opcode, .isvoid = (uint8_t)isvoid};
    return xw_send(c, flags, parts + 2, &req, 4 + len + tail_len + parts[5].iov_len, 0, NULL);
}

static uint64_t intern_atom_send(const char *name)
{
    uint8_t body[4] = {0};
    uint16_t n = (uint16_t)strlen(name);
    memcpy(body, &n, 2);
    return send_raw(XW_REQUEST_CHECKED, 16, 0, 0, body, 4, name, n);
}

static uint32_t intern_atom(const char *name)
{
    uint8_t *r = xw_wait_for_reply64(c, intern_atom_send(name), NULL);
    ck_assert_ptr_nonnull(r);
    uint32_t atom = fs_rd32(r + 8);
    free(r);
    return atom;
}

static void noops(long n)
{
    uint8_t hdr[4] = {0};
    struct iovec parts[3] = {{0}, {0}, {hdr, 4}};
    static const xw_protocol_request_t req = {.count = 1, .opcode = 127, .isvoid = 1};
    for (long i = 0; i < n; i++)
        ck_assert_uint_ne(xw_send(c, 0, parts + 2, &req, 4, 0, NULL), 0);
}

START_TEST(connect_noop_intern_atom)
{
    const uint8_t *s = (const uint8_t *)xw_get_setup(c);
    ck_assert_ptr_nonnull(s);
    ck_assert_uint_ge(s[28], 1);
    noops(1000);
    uint32_t a = intern_atom("XWIRE_TEST_ATOM");
    ck_assert_uint_ne(a, 0);
    ck_assert_uint_eq(intern_atom("XWIRE_TEST_ATOM"), a);
    ck_assert_uint_eq(intern_atom("PRIMARY"), 1);
    ck_assert_uint_ne(xw_generate_id(c), (uint32_t)-1);
}
END_TEST

START_TEST(wrap_200k_voids_then_reply)
{
    uint32_t a = intern_atom("XWIRE_WRAP_ATOM");
    noops(200000);
    uint64_t s = intern_atom_send("XWIRE_WRAP_ATOM");
    ck_assert_uint_gt(s, 200000);
    uint8_t buf[64];
    size_t len;
    ck_assert_int_eq(xw_wait_for_reply_into(c, s, buf, sizeof(buf), &len, NULL, -1), 1);
    ck_assert_uint_eq(fs_rd32(buf + 8), a);
    ck_assert_uint_eq(buf[2] | buf[3] << 8, (uint16_t)s);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

START_TEST(checked_and_unchecked_errors)
{
    uint8_t win[4];
    uint32_t bad = 0x1;
    memcpy(win, &bad, 4);
    uint64_t s1 = send_raw(XW_REQUEST_CHECKED, 8, 0, 1, win, 4, NULL, 0); /* MapWindow */
    xw_generic_error_t *e = xw_request_check(c, (xw_void_cookie_t){(unsigned)s1});
    ck_assert_ptr_nonnull(e);
    ck_assert_uint_eq(e->error_code, 3);
    ck_assert_uint_eq(e->major_code, 8);
    ck_assert_uint_eq(e->resource_id, 1);
    char text[160];
    xw_error_text(c, e, text, sizeof(text));
    ck_assert_str_eq(text, "BadWindow (3) in MapWindow (major 8, minor 0), resource 0x1");
    free(e);
    uint64_t s2 = send_raw(0, 8, 0, 1, win, 4, NULL, 0);
    xw_generic_event_t *ev = xw_wait_for_event(c);
    ck_assert_ptr_nonnull(ev);
    ck_assert_uint_eq(ev->response_type, 0);
    ck_assert_uint_eq(ev->full_sequence, (uint32_t)s2);
    free(ev);
    /* A checked request that succeeds. */
    uint8_t root[4];
    uint32_t r = root_window();
    memcpy(root, &r, 4);
    uint64_t s3 = send_raw(XW_REQUEST_CHECKED, 8, 0, 1, root, 4, NULL, 0);
    ck_assert_ptr_null(xw_request_check(c, (xw_void_cookie_t){(unsigned)s3}));
}
END_TEST

/* CreateWindow with PropertyChange events, a 1 MiB ChangeProperty (BIG-REQUESTS),
 * GetProperty reading it back (a reply bigger than the read buffer), PropertyNotify,
 * and a ClientMessage through SendEvent. */
START_TEST(window_property_events)
{
    uint32_t wid = xw_generate_id(c), root = root_window();
    uint8_t cw[28 + 4] = {0};
    memcpy(cw, &wid, 4);
    memcpy(cw + 4, &root, 4);
    uint16_t wh[2] = {100, 100}, klass = 1;
    memcpy(cw + 12, wh, 4);
    memcpy(cw + 18, &klass, 2);
    uint32_t mask = 0x800, events = 0x400000; /* CWEventMask: PropertyChange */
    memcpy(cw + 24, &mask, 4);
    memcpy(cw + 28, &events, 4);
    ck_assert_uint_ne(send_raw(0, 1, 0, 1, cw, 32, NULL, 0), 0);
    uint32_t prop = intern_atom("XWIRE_BIG_PROPERTY"), n = 1 << 20;
    static uint8_t data[1 << 20];
    for (uint32_t i = 0; i < n; i++)
        data[i] = (uint8_t)(i * 13 + 1);
    uint8_t cp[20] = {0};
    uint32_t string = 31;
    memcpy(cp, &wid, 4);
    memcpy(cp + 4, &prop, 4);
    memcpy(cp + 8, &string, 4);
    cp[12] = 8;
    memcpy(cp + 16, &n, 4);
    ck_assert_uint_ne(send_raw(XW_REQUEST_CHECKED, 18, 0, 1, cp, 20, data, n), 0);
    uint8_t gp[20] = {0};
    uint32_t words = n / 4;
    memcpy(gp, &wid, 4);
    memcpy(gp + 4, &prop, 4);
    memcpy(gp + 16, &words, 4);
    uint8_t *r = xw_wait_for_reply64(c, send_raw(XW_REQUEST_CHECKED, 20, 0, 0, gp, 20, NULL, 0), NULL);
    ck_assert_ptr_nonnull(r);
    ck_assert_uint_eq(r[1], 8);
    ck_assert_uint_eq(fs_rd32(r + 16), n);
    ck_assert_int_eq(memcmp(r + 32, data, n), 0);
    free(r);
    xw_generic_event_t *ev = xw_wait_for_event(c);
    ck_assert_ptr_nonnull(ev);
    ck_assert_uint_eq(ev->response_type & 0x7f, 28); /* PropertyNotify */
    free(ev);
    uint8_t se[8 + 32] = {0};
    memcpy(se, &wid, 4);
    se[8] = 33; /* ClientMessage, format 32 */
    se[9] = 32;
    memcpy(se + 12, &wid, 4);
    memcpy(se + 16, &prop, 4);
    memcpy(se + 20, "xwire!!!", 8);
    ck_assert_uint_ne(send_raw(0, 25, 0, 1, se, 8 + 32, NULL, 0), 0);
    ev = xw_wait_for_event(c);
    ck_assert_ptr_nonnull(ev);
    ck_assert_uint_eq(ev->response_type, 0x80 | 33);
    ck_assert_int_eq(memcmp((uint8_t *)ev + 12, "xwire!!!", 8), 0);
    free(ev);
}
END_TEST

START_TEST(extensions)
{
    static xw_extension_t bigreq = {"BIG-REQUESTS", 0}, nope = {"XWIRE-NOPE", 0};
    xw_prefetch_extension_data(c, &bigreq);
    const uint8_t *q = (const uint8_t *)xw_get_extension_data(c, &bigreq);
    ck_assert_ptr_nonnull(q);
    ck_assert_uint_eq(q[8], 1);
    ck_assert_uint_ge(q[9], 128);
    ck_assert_uint_gt(xw_get_maximum_request_length(c), 65535);
    uint8_t hdr[4] = {0};
    struct iovec parts[3] = {{0}, {0}, {hdr, 4}};
    xw_protocol_request_t req = {.count = 1, .ext = &nope, .opcode = 0, .isvoid = 1};
    ck_assert_uint_eq(xw_send(c, 0, parts + 2, &req, 4, 0, NULL), 0);
    ck_assert_str_eq(xw_request_error_string(c), "extension XWIRE-NOPE is not present on this server");
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

static void *atom_worker(void *arg)
{
    uint32_t want = *(uint32_t *)arg;
    for (int i = 0; i < 2000; i++) {
        noops(10);
        if (intern_atom("XWIRE_THREADS") != want)
            return (void *)1;
    }
    return NULL;
}

START_TEST(threads_share_a_connection)
{
    uint32_t want = intern_atom("XWIRE_THREADS");
    pthread_t t[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, atom_worker, &want);
    for (int i = 0; i < 4; i++) {
        void *r;
        pthread_join(t[i], &r);
        ck_assert_ptr_null(r);
    }
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

int main(void)
{
    Suite *s = xwtest_suite("xvfb");
    TCase *tc = xvfb_tcase(s, &(struct xvfb_suite){.name = "xvfb", .timeout = 120, .conn = &c});
    tcase_add_test(tc, connect_noop_intern_atom);
    tcase_add_test(tc, wrap_200k_voids_then_reply);
    tcase_add_test(tc, checked_and_unchecked_errors);
    tcase_add_test(tc, window_property_events);
    tcase_add_test(tc, extensions);
    tcase_add_test(tc, threads_share_a_connection);
    return xwtest_run(s);
}
