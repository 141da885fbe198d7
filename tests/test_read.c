/* SPDX-License-Identifier: MIT */
/* test_read.c — the read path against a scripted fake server: packets split
 * anywhere, sequence numbers, lengths, validators, XGE, and hostile servers. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <xw/xproto.h>

#include "fake_conn.h"
#include "conn.h"  /* the reader's state, inspected */
#include "ext.h"   /* xw__ext_register: a hand-written extension */
#include "send.h"  /* xw__send: hand-written requests */
#include "store.h" /* the store's free lists */

/* A reply header for seq whose length field claims words more words. */
static void send_reply_claiming(uint64_t seq, uint32_t words)
{
    uint8_t b[32];
    fake_reply(b, (uint16_t)seq, 0, NULL, 0);
    memcpy(b + 4, &words, 4);
    fake_send(&F, b, 32);
}

/* Waits for seq's reply, which must come, and checks its byte 1. */
static void expect_reply(uint64_t seq, unsigned byte1)
{
    uint8_t *r = xw_wait_for_reply64(c, seq, NULL);
    ck_assert_ptr_nonnull(r);
    ck_assert_uint_eq(r[1], byte1);
    free(r);
}

/* ---- the read path ---- */

/* An event, a reply with 8 extra bytes and an error, split at byte k. */
START_TEST(split_at_every_byte)
{
    uint8_t stream[128], extra[32];
    for (int i = 0; i < 32; i++)
        extra[i] = (uint8_t)(i + 1);
    size_t n = 0;
    fake_event(stream, 33, 1, 0xabcdef);
    n += 32;
    n += fake_reply(stream + n, 1, 7, extra, 32);
    fake_error(stream + n, 2, 3, 0x1200005, 8, 0);
    n += 32;
    for (size_t k = 1; k < n; k++) {
        c = fake_connect(&F, NULL, 0);
        uint64_t s1 = send_reply_req(XW_REQUEST_CHECKED, 16);
        uint64_t s2 = send_void(XW_REQUEST_CHECKED, 8);
        ck_assert_uint_eq(s1, 1);
        ck_assert_uint_eq(s2, 2);
        ck_assert_int_eq(xw_flush(c), 1);
        expect_requests(2);
        fake_send(&F, stream, k);
        xw_generic_event_t *ev = xw_poll_for_event(c); /* reads the first part */
        if (k < 32)
            ck_assert_ptr_null(ev);
        free(ev);
        fake_send(&F, stream + k, n - k);
        if (k >= 32)
            ev = NULL;
        else
            ev = xw_wait_for_event(c);
        if (k < 32) {
            ck_assert_ptr_nonnull(ev);
            ck_assert_uint_eq(ev->response_type, 33);
            ck_assert_uint_eq(ev->full_sequence, 1);
            free(ev);
        }
        uint8_t *r = xw_wait_for_reply(c, (unsigned)s1, NULL);
        ck_assert_ptr_nonnull(r);
        ck_assert_uint_eq(r[1], 7);
        ck_assert_uint_eq(fs_rd32(r + 4), 2);
        ck_assert_int_eq(memcmp(r + 8, extra, 32), 0);
        free(r);
        xw_void_cookie_t ck = {(unsigned)s2};
        xw_generic_error_t *e = xw_request_check(c, ck);
        ck_assert_ptr_nonnull(e);
        ck_assert_uint_eq(e->error_code, 3);
        ck_assert_uint_eq(e->resource_id, 0x1200005);
        ck_assert_uint_eq(e->full_sequence, 2);
        free(e);
        ck_assert_int_eq(xw_connection_has_error(c), 0);
        hang_up();
    }
}
END_TEST

/* A reply bigger than the read buffer, fed in awkward pieces. */
START_TEST(big_reply_in_pieces)
{
    static const size_t pieces[] = {1, 31, 32, 33, 4095, 65535, 65536, 65537, 99999};
    size_t extra_len = 200000;
    uint8_t *extra = malloc(extra_len), *stream = malloc(extra_len + 64);
    for (size_t i = 0; i < extra_len; i++)
        extra[i] = (uint8_t)(i * 7);
    size_t n = fake_reply(stream, 1, 0, extra, extra_len);
    for (size_t p = 0; p < sizeof(pieces) / sizeof(pieces[0]); p++) {
        uint64_t s1 = connect_and_ask(XW_REQUEST_CHECKED, 20);
        for (size_t off = 0; off < n; off += pieces[p]) {
            size_t k = n - off < pieces[p] ? n - off : pieces[p];
            fake_send(&F, stream + off, k);
            void *none = NULL;
            xw_generic_error_t *e = NULL;
            if (off + k < n) {
                ck_assert_int_eq(xw_poll_for_reply64(c, s1, &none, &e), 0);
            }
        }
        uint8_t *r = xw_wait_for_reply64(c, s1, NULL);
        ck_assert_ptr_nonnull(r);
        ck_assert_int_eq(memcmp(r + 8, extra, extra_len), 0);
        free(r);
        hang_up();
    }
    free(extra);
    free(stream);
}
END_TEST

START_TEST(huge_length_is_fatal_before_allocating)
{
    uint64_t s1 = connect_and_ask(XW_REQUEST_CHECKED, 16);
    send_reply_claiming(s1, 0xffffffffu);
    ck_assert_str_eq(wait_ends_connection(s1, XW_CONN_CLOSED_MALFORMED), "malformed reply: length 4294967295 words");
}
END_TEST

static int reject_ee(const void *packet, size_t len)
{
    return len >= 9 && ((const uint8_t *)packet)[8] == 0xee ? -1 : 0;
}

START_TEST(validator_turns_reply_into_error)
{
    uint8_t b[64], extra[24] = {0xee}, ok[24] = {1};
    c = fake_connect(&F, NULL, 0);
    uint64_t s1 = send_req(XW_REQUEST_CHECKED, 16, 0, 0, NULL, 0, NULL, reject_ee);
    uint64_t s2 = send_req(XW_REQUEST_CHECKED, 16, 0, 0, NULL, 0, NULL, reject_ee);
    flush_to_server(2);
    fake_send(&F, b, fake_reply(b, (uint16_t)s1, 0, extra, 24));
    fake_send(&F, b, fake_reply(b, (uint16_t)s2, 0, ok, 24));
    uint8_t buf[64];
    size_t len = 0;
    xw_generic_error_t err;
    ck_assert_int_eq(xw_wait_for_reply_into(c, s1, buf, sizeof(buf), &len, &err, -1), 2);
    ck_assert_uint_eq(err.response_type, 0);
    ck_assert_uint_eq(err.error_code, XW_ERROR_MALFORMED_REPLY);
    ck_assert_uint_eq(err.full_sequence, (uint32_t)s1);
    ck_assert_int_eq(xw_wait_for_reply_into(c, s2, buf, sizeof(buf), &len, &err, -1), 1);
    ck_assert_uint_eq(len, 32);
    ck_assert_uint_eq(buf[8], 1);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

/* The server sends the first n bytes of a packet and closes its side while the
 * client waits for seq's reply. */
static void closes_mid_packet(uint64_t seq, const uint8_t *packet, size_t n)
{
    fake_send(&F, packet, n);
    shutdown(F.fd, SHUT_WR);
    ck_assert_str_eq(wait_ends_connection(seq, XW_CONN_ERROR),
                     "server closed the connection in the middle of a packet");
    check_dead_connection_returns_at_once();
}

START_TEST(server_closes_mid_reply)
{
    uint8_t b[64];
    uint64_t s1 = connect_and_ask(XW_REQUEST_CHECKED, 16);
    fake_reply(b, (uint16_t)s1, 0, NULL, 0);
    closes_mid_packet(s1, b, 20);
}
END_TEST

/* A call that ends with the connection leaves errno saying why, whatever it was
 * before: EPIPE when the server closed (Xlib then prints "X connection to ...
 * broken (explicit kill or server shutdown)", as it does on libxcb), EPROTO when it
 * broke the protocol. */
START_TEST(errno_after_the_connection_fails)
{
    for (int kind = 0; kind < 2; kind++) {
        uint64_t s1 = connect_and_ask(XW_REQUEST_CHECKED, 16);
        if (kind == 0)
            shutdown(F.fd, SHUT_WR);
        else
            send_reply_claiming(s1, 0xffffffffu);
        errno = ENOENT;
        ck_assert_ptr_null(xw_wait_for_reply64(c, s1, NULL));
        ck_assert_int_eq(errno, kind == 0 ? EPIPE : EPROTO);
        ck_assert_int_eq(xw_connection_has_error(c), kind == 0 ? XW_CONN_ERROR : XW_CONN_CLOSED_MALFORMED);
        hang_up();
    }
}
END_TEST

START_TEST(keymap_notify_has_no_sequence)
{
    uint8_t b[64];
    uint64_t s1 = connect_and_ask(XW_REQUEST_CHECKED, 43);
    send_reply(s1, 0);
    memset(b, 0xff, 32);
    b[0] = 11;
    fake_send(&F, b, 32);
    free(xw_wait_for_reply64(c, s1, NULL));
    xw_generic_event_t *ev = xw_wait_for_event(c);
    ck_assert_ptr_nonnull(ev);
    ck_assert_uint_eq(ev->response_type, 11);
    ck_assert_uint_eq(ev->full_sequence, (uint32_t)s1);
    free(ev);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

START_TEST(list_fonts_with_info_multi_reply)
{
    c = fake_connect(&F, NULL, 0);
    /* the description xwgen writes for ListFontsWithInfo (its replies, 32 bytes
     * here, would not pass the generated validator) */
    uint8_t hdr[4] = {0};
    struct iovec parts[3] = {{0}, {0}, {hdr, 4}};
    struct xw_request req = {.f = {.count = 1, .opcode = XW_LIST_FONTS_WITH_INFO, .multi_reply = 1, .multi_end = 0}};
    uint64_t s1 = xw__send(c, XW_REQUEST_CHECKED, parts + 2, &req, 4, 0, NULL);
    uint64_t s2 = send_reply_req(XW_REQUEST_CHECKED, 43);
    flush_to_server(2);
    for (uint8_t namelen = 3; namelen != 255; namelen = namelen ? namelen - 1 : 255)
        send_reply(s1, namelen);
    send_reply(s2, 9);
    for (unsigned want = 4; want-- > 0;)
        expect_reply(s1, want);
    ck_assert_ptr_null(xw_wait_for_reply64(c, s1, NULL));
    expect_reply(s2, 9);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

START_TEST(timeouts)
{
    c = fake_connect(&F, NULL, 0);
    uint64_t s1 = send_reply_req(XW_REQUEST_CHECKED, 43);
    void *r = NULL;
    xw_generic_error_t *e = NULL;
    ck_assert_int_eq(xw_wait_for_reply64_timeout(c, s1, 20, &r, &e), 0);
    ck_assert_ptr_null(r);
    ck_assert_ptr_null(xw_wait_for_event_timeout(c, 10));
    uint8_t buf[64];
    size_t len;
    ck_assert_int_eq(xw_wait_for_event_into(c, buf, sizeof(buf), &len, 0), 0);
    ck_assert_int_eq(xw_wait_for_reply_into(c, s1, buf, sizeof(buf), &len, NULL, 0), -ETIMEDOUT);
    expect_requests(1);
    send_reply(s1, 0);
    ck_assert_int_eq(xw_wait_for_reply64_timeout(c, s1, 10000, &r, &e), 1);
    ck_assert_ptr_nonnull(r);
    free(r);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

START_TEST(discard_and_error_routing)
{
    c = fake_connect(&F, NULL, 0);
    uint64_t s1 = send_reply_req(XW_REQUEST_CHECKED, 43);
    uint64_t s2 = send_reply_req(XW_REQUEST_CHECKED, 43);
    uint64_t s3 = send_reply_req(XW_REQUEST_CHECKED, 43);
    uint64_t s4 = send_reply_req(0, 43); /* unchecked: error to events */
    uint64_t s5 = send_reply_req(XW_REQUEST_DISCARD_REPLY | XW_REQUEST_ERROR_TO_EVENTS, 43);
    xw_discard_reply64(c, s1);
    xw_discard_reply_keep_error64(c, s2);
    xw_discard_reply(c, (unsigned)s3);
    flush_to_server(5);
    send_reply(s1, 0);
    send_error(s2, 5, 0x22, 43);
    send_error(s3, 6, 0x33, 43);
    send_error(s4, 7, 0x44, 43);
    send_error(s5, 8, 0x55, 43);
    xw_generic_error_t *e = NULL;
    ck_assert_ptr_null(xw_wait_for_reply64(c, s4, &e));
    ck_assert_ptr_null(e);
    static const uint8_t want_codes[] = {5, 7, 8};
    for (int i = 0; i < 3; i++) {
        xw_generic_event_t *ev = xw_wait_for_event(c);
        ck_assert_ptr_nonnull(ev);
        ck_assert_uint_eq(ev->response_type, 0);
        ck_assert_uint_eq(((xw_generic_error_t *)ev)->error_code, want_codes[i]);
        free(ev);
    }
    ck_assert_ptr_null(xw_poll_for_queued_event(c));
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

START_TEST(into_too_small_keeps_packet)
{
    uint8_t b[256], extra[100];
    memset(extra, 0x5a, sizeof(extra));
    uint64_t s1 = connect_and_ask(XW_REQUEST_CHECKED, 43);
    size_t n = fake_reply(b, (uint16_t)s1, 0, extra, sizeof(extra));
    fake_send(&F, b, n);
    send_event(33, s1, 1);
    uint8_t buf[256];
    size_t len = 0;
    ck_assert_int_eq(xw_wait_for_reply_into(c, s1, buf, 40, &len, NULL, -1), -ENOSPC);
    ck_assert_uint_eq(len, n);
    ck_assert_int_eq(xw_wait_for_reply_into(c, s1, buf, sizeof(buf), &len, NULL, -1), 1);
    ck_assert_uint_eq(len, n);
    ck_assert_int_eq(xw_wait_for_event_into(c, buf, 10, &len, -1), -ENOSPC);
    ck_assert_uint_eq(len, 36);
    ck_assert_int_eq(xw_wait_for_event_into(c, buf, sizeof(buf), &len, -1), 1);
    ck_assert_uint_eq(len, 36);
    ck_assert_uint_eq(fs_rd32(buf + 32), (uint32_t)s1);
    ck_assert_int_eq(xw_wait_for_reply_into(c, s1, buf, sizeof(buf), &len, NULL, -1), 0);
}
END_TEST

/* Core events, XGE events (records of a bigger class) and unchecked errors come
 * out in the order they arrived, whole, through either form; an XGE event too big
 * for the caller's buffer stays queued ahead of the rest. Several rounds, so the
 * event records go back to the store and are used again. */
static void stream_mixed(uint64_t s1, int n)
{
    uint8_t b[48];
    for (int i = 0; i < n; i++) {
        if (i % 5 == 1) {
            memset(b, 0, 48);
            b[0] = 35;
            b[1] = 200; /* no extension of ours: no validator, the event queue */
            fs_wr16(b + 2, (uint16_t)s1);
            fs_wr32(b + 4, 4);
            b[40] = (uint8_t)i;
            b[47] = 0x77;
            fake_send(&F, b, 48);
        } else if (i % 5 == 3) {
            send_error(s1, 3, (uint32_t)i, 8);
        } else {
            send_event(33, s1, (uint32_t)i);
        }
    }
}

static void take_mixed(uint64_t s1, int n, int round)
{
    uint8_t buf[64];
    size_t len = 0;
    for (int i = 0; i < n; i++) {
        const uint8_t *p = buf;
        xw_generic_event_t *ev = NULL;
        if ((i + round) % 2) {
            if (i % 5 == 1)
                ck_assert_int_eq(xw_wait_for_event_into(c, buf, 51, &len, -1), -ENOSPC);
            if (i % 5 == 0) { /* a queued core event too big for the buffer stays queued */
                ck_assert_int_eq(xw_wait_for_event_into(c, buf, 35, &len, -1), -ENOSPC);
                ck_assert_uint_eq(len, 36);
            }
            ck_assert_int_eq(xw_wait_for_event_into(c, buf, sizeof(buf), &len, -1), 1);
        } else {
            ev = xw_wait_for_event(c);
            ck_assert_ptr_nonnull(ev);
            p = (const uint8_t *)ev;
            len = i % 5 == 1 ? 52 : 36;
        }
        ck_assert_uint_eq(fs_rd32(p + 32), (uint32_t)s1);
        if (i % 5 == 1) {
            ck_assert_uint_eq(len, 52);
            ck_assert_uint_eq(p[0], 35);
            ck_assert_uint_eq(p[36 + 8], (uint8_t)i); /* wire byte 40 */
            ck_assert_uint_eq(p[36 + 15], 0x77);      /* wire byte 47 */
        } else if (i % 5 == 3) {
            ck_assert_uint_eq(len, 36);
            ck_assert_uint_eq(p[0], 0);
            ck_assert_uint_eq(((const xw_generic_error_t *)p)->resource_id, (uint32_t)i);
        } else {
            ck_assert_uint_eq(len, 36);
            ck_assert_uint_eq(p[0], 33);
            ck_assert_uint_eq(fs_rd32(p + 4), (uint32_t)i);
        }
        free(ev);
    }
    ck_assert_int_eq(xw_poll_for_queued_event_into(c, buf, sizeof(buf), &len), 0);
}

/* An event says the server finished every request before it, as any packet does;
 * also when a stream's events take the read loop's own way (route_stream_event,
 * once earlier events left records free). s1 and s2 get no reply (their replies are
 * not the point): the events for s2 finish s1, those for s3 finish s2, at once, so
 * the pending store no longer holds them and polling them answers "finished,
 * nothing", while s3, not finished by its own events, is still waited for. */
START_TEST(event_finishes_the_requests_before_it)
{
    uint64_t s1 = connect_and_ask(XW_REQUEST_CHECKED, 16);
    for (int round = 0; round < 2; round++) { /* the first round leaves event records free for the second */
        uint64_t seq = round ? send_reply_req(XW_REQUEST_CHECKED, 16) : s1 - 1;
        if (round)
            flush_to_server(1);
        for (int i = 0; i < 3; i++)
            send_event(33, seq, (uint32_t)i);
        for (int i = 0; i < 3; i++) {
            xw_generic_event_t *ev = xw_wait_for_event(c);
            ck_assert_ptr_nonnull(ev);
            free(ev);
        }
    }
    uint64_t s2 = s1 + 1;
    uint64_t s3 = send_reply_req(XW_REQUEST_CHECKED, 16);
    flush_to_server(1);
    for (int i = 0; i < 3; i++) /* three in one read */
        send_event(33, s3, (uint32_t)i);
    for (int i = 0; i < 3; i++) {
        xw_generic_event_t *ev = xw_wait_for_event(c);
        ck_assert_ptr_nonnull(ev);
        ck_assert_uint_eq(fs_rd32((uint8_t *)ev + 4), (uint32_t)i);
        free(ev);
    }
    ck_assert_uint_eq(c->in.pend.undone, 1); /* s1 and s2 finished and retired at once, not at a later packet */
    uint64_t seqs[] = {s1, s2};
    for (int i = 0; i < 2; i++) {
        void *r = (void *)1;
        xw_generic_error_t *err = (void *)1;
        ck_assert_int_eq(xw_poll_for_reply64(c, seqs[i], &r, &err), 1);
        ck_assert_ptr_null(r);
        ck_assert_ptr_null(err);
    }
    void *r = NULL;
    xw_generic_error_t *err = NULL;
    ck_assert_int_eq(xw_poll_for_reply64(c, s3, &r, &err), 0);
    send_reply(s3, 5);
    expect_reply(s3, 5);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

START_TEST(events_of_every_kind_keep_their_order)
{
    /* unchecked: its errors (the first finishes it) go to the event queue */
    uint64_t s1 = connect_and_ask(0, 43);
    for (int round = 0; round < 3; round++) {
        stream_mixed(s1, 200);
        take_mixed(s1, 200, round);
    }
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

/* The same where the lock is left alone (the caller promised one thread): core
 * events are taken straight out of their batch, across its end and the others
 * between them, in order. */
START_TEST(events_keep_their_order_unlocked)
{
    uint64_t s1 = connect_and_ask(0, 43);
    ck_assert_int_eq(xw_connection_set_single_threaded(c, 1), 0);
    for (int round = 0; round < 3; round++) {
        stream_mixed(s1, 200);
        take_mixed(s1, 200, round);
    }
    /* a run of core events over several batches, taken by both forms in turn */
    enum { RUN = 3 * 56 + 5 };
    for (int i = 0; i < RUN; i++)
        send_event(33, s1, (uint32_t)i);
    for (int i = 0; i < RUN; i++) {
        uint8_t buf[36];
        size_t len = 0;
        xw_generic_event_t *ev = NULL;
        const uint8_t *p = buf;
        if (i % 3) {
            ck_assert_int_eq(xw_wait_for_event_into(c, buf, sizeof(buf), &len, -1), 1);
            ck_assert_uint_eq(len, 36);
        } else {
            ck_assert_ptr_nonnull(ev = xw_wait_for_event(c));
            p = (const uint8_t *)ev;
        }
        ck_assert_uint_eq(p[0], 33);
        ck_assert_uint_eq(fs_rd32(p + 4), (uint32_t)i);
        ck_assert_uint_eq(fs_rd32(p + 32), (uint32_t)s1);
        free(ev);
    }
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

/* Events claimed straight from the bytes they were read into, with a reply after
 * them: in the same read, and in a later one that the reply's wait reads while
 * the first events are still unclaimed (the read must not land on them). The
 * reply is there for its wait, and the events come out in order, whole. */
START_TEST(reply_after_events_claimed_in_place)
{
    uint64_t s1 = connect_and_ask(XW_REQUEST_CHECKED, 16);
    ck_assert_int_eq(xw_connection_set_single_threaded(c, 1), 0);
    uint32_t sent = 0, got = 0;
    for (int later = 0; later < 2; later++) {
        uint64_t s = later ? send_reply_req(XW_REQUEST_CHECKED, 16) : s1;
        if (later)
            flush_to_server(1);
        for (int i = 0; i < 40; i++)
            send_event(33, s - 1, sent++);
        uint8_t buf[36];
        size_t len = 0;
        ck_assert_int_eq(xw_wait_for_event_into(c, buf, sizeof buf, &len, -1), 1); /* reads the 40 */
        ck_assert_uint_eq(fs_rd32(buf + 4), got++);
        send_reply(s, (uint8_t)(5 + later));
        for (int i = 0; i < 40; i++)
            send_event(34, s, sent++);
        expect_reply(s, (unsigned)(5 + later));
        while (got < sent) {
            xw_generic_event_t *ev = NULL;
            const uint8_t *p = buf;
            if (got % 2) {
                ck_assert_int_eq(xw_wait_for_event_into(c, buf, sizeof buf, &len, -1), 1);
            } else {
                ck_assert_ptr_nonnull(ev = xw_wait_for_event(c));
                p = (const uint8_t *)ev;
            }
            int first = got % 80 < 40;
            ck_assert_uint_eq(p[0], first ? 33 : 34);
            ck_assert_uint_eq(fs_rd32(p + 4), got);
            ck_assert_uint_eq(fs_rd32(p + 32), (uint32_t)(first ? s - 1 : s));
            free(ev);
            got++;
        }
    }
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

/* A queued, unread event costs less memory than under libxcb, whose 36-byte block
 * and 16-byte list node take 80 bytes of glibc's chunks: records rounded up to a
 * 128-byte class held 128 MB for a million unread events. The events arrive in
 * rounds, each ended by a reply the client waits for, so all are queued and none
 * read when the heap is weighed. Where the allocator keeps no glibc statistics (a
 * sanitizer's reports an empty heap) there is nothing to weigh. */
START_TEST(queued_events_cost_less_than_under_libxcb)
{
    enum { PER_ROUND = 1000, ROUNDS = 20 };
    uint64_t seq = connect_and_ask(XW_REQUEST_CHECKED, 16);
    send_reply(seq, 1);
    expect_reply(seq, 1);
    struct mallinfo2 before = mallinfo2();
    for (int round = 0; round < ROUNDS; round++) {
        seq = send_reply_req(XW_REQUEST_CHECKED, 16);
        flush_to_server(1);
        static uint8_t b[PER_ROUND * 32]; /* in one write: a write per event fills the socket's buffer */
        for (int i = 0; i < PER_ROUND; i++)
            fake_event(b + 32 * i, 33, (uint16_t)seq, (uint32_t)(round * PER_ROUND + i));
        fake_send(&F, b, sizeof(b));
        send_reply(seq, 2);
        expect_reply(seq, 2);
    }
    struct mallinfo2 after = mallinfo2();
    size_t n = 0;
    xw_generic_event_t *ev;
    while ((ev = xw_poll_for_queued_event(c))) {
        ck_assert_uint_eq(fs_rd32((uint8_t *)ev + 4), (uint32_t)n);
        n++;
        free(ev);
    }
    ck_assert_uint_eq(n, PER_ROUND * ROUNDS);
    if (before.uordblks + before.hblkhd == 0)
        return;
    double per_event =
        ((double)(after.uordblks + after.hblkhd) - (double)(before.uordblks + before.hblkhd)) / (double)n;
    ck_assert_msg(per_event < 80, "%.1f heap bytes per queued event (libxcb: 80)", per_event);
}
END_TEST

/* ---- XGE and special events ---- */

/* Validators see the event as stored: wire byte 40 is at 44, after full_sequence. */
static int reject_xge(const void *packet, size_t len)
{
    return len > 44 && ((const uint8_t *)packet)[44] == 0xee ? -1 : 0;
}

/* A hand-written extension with a description of its own, found by its name. */
static const xw_validate_fn present_validators[2] = {NULL, reject_xge};
static const xw_ext_desc_t present_desc = {.xname = "XWIRE-XGE", .n_xge = 2, .xge_validators = present_validators};
static struct xw_ext_reg present_reg = {.desc = &present_desc};
static xw_extension_t present_ext = {"XWIRE-XGE", 0};
static const struct fake_ext present_exts[] = {{"XWIRE-XGE", 140, 0, 0}, {NULL, 0, 0, 0}};

static void xge(uint8_t *b, uint16_t seq, uint32_t eid, uint8_t mark)
{
    memset(b, 0, 48);
    b[0] = 35;
    b[1] = 140;
    memcpy(b + 2, &seq, 2);
    uint32_t len = 4;
    memcpy(b + 4, &len, 4);
    uint16_t type = 1;
    memcpy(b + 8, &type, 2);
    memcpy(b + 12, &eid, 4);
    b[40] = mark;
    b[47] = 0x77;
}

static int send_xges(struct fake_server *f, const uint8_t *req, size_t len)
{
    (void)len;
    if (req[0] != 60)
        return 0;
    uint8_t b[48];
    xge(b, (uint16_t)f->seq, 0x1234, 1);
    fake_send(f, b, 48);
    xge(b, (uint16_t)f->seq, 0x9999, 2);
    fake_send(f, b, 48);
    xge(b, (uint16_t)f->seq, 0x1234, 0xee);
    fake_send(f, b, 48);
    return 1;
}

START_TEST(xge_special_queue_and_validation)
{
    if (!xw_ext_desc_find("XWIRE-XGE"))
        xw__ext_register(&present_reg);
    ck_assert_ptr_eq(xw_ext_desc_find("XWIRE-XGE"), &present_desc);
    c = fake_connect(&F, NULL, 0);
    F.exts = present_exts;
    F.on_request = send_xges;
    fake_serve_start(&F);
    uint32_t stamp = 0;
    xw_special_event_t *se = xw_register_for_special_xge(c, &present_ext, 0x1234, &stamp);
    ck_assert_ptr_nonnull(se);
    uint64_t s = send_void(0, 60);
    xw_generic_event_t *ev = xw_wait_for_special_event(c, se);
    ck_assert_ptr_nonnull(ev);
    const uint8_t *p = (const uint8_t *)ev;
    ck_assert_uint_eq(p[0], 35);
    ck_assert_uint_eq(ev->full_sequence, (uint32_t)s);
    ck_assert_uint_eq(p[36 + 8], 1);     /* wire byte 40 */
    ck_assert_uint_eq(p[36 + 15], 0x77); /* wire byte 47 */
    free(ev);
    ev = xw_wait_for_event(c);
    ck_assert_ptr_nonnull(ev);
    ck_assert_uint_eq(((uint8_t *)ev)[44], 2);
    free(ev);
    ev = xw_wait_for_event(c); /* the malformed one, as an error */
    ck_assert_ptr_nonnull(ev);
    ck_assert_uint_eq(ev->response_type, 0);
    ck_assert_uint_eq(((xw_generic_error_t *)ev)->error_code, XW_ERROR_MALFORMED_REPLY);
    ck_assert_uint_eq(((xw_generic_error_t *)ev)->major_code, 35);
    free(ev);
    ck_assert_uint_eq(stamp, 1);
    ck_assert_ptr_null(xw_poll_for_special_event(c, se));
    xw_unregister_for_special_event(c, se);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

START_TEST(error_text)
{
    c = fake_connect(&F, NULL, 0);
    xw_generic_error_t e = {.response_type = 0, .error_code = 3, .resource_id = 0x1200005, .major_code = 1};
    char buf[160];
    xw_error_text(c, &e, buf, sizeof(buf));
    ck_assert_str_eq(buf, "BadWindow (3) in CreateWindow (major 1, minor 0), resource 0x1200005");
    e.error_code = 0;
    e.major_code = 200;
    xw_error_text(c, &e, buf, sizeof(buf));
    ck_assert_str_eq(buf, "MalformedReply (0) in UnknownRequest (major 200, minor 0), resource 0x1200005");
}
END_TEST

/* ---- more hostile servers: each ends in a documented state ---- */

/* A generic event whose length field is 2^32-1 words: refused before allocating. */
START_TEST(xge_huge_length_is_fatal)
{
    uint8_t b[32] = {35, 140};
    uint64_t s1 = connect_and_ask(XW_REQUEST_CHECKED, 43);
    memcpy(b + 2, &(uint16_t){(uint16_t)s1}, 2);
    memset(b + 4, 0xff, 4);
    fake_send(&F, b, 32);
    ck_assert_str_eq(wait_ends_connection(s1, XW_CONN_CLOSED_MALFORMED), "malformed event: length 4294967295 words");
}
END_TEST

/* One word past the packet cap (256 MiB) is refused; the cap is checked, not the
 * memory the machine happens to have. */
START_TEST(length_one_word_over_the_cap_is_fatal)
{
    uint64_t s1 = connect_and_ask(XW_REQUEST_CHECKED, 16);
    send_reply_claiming(s1, ((256u << 20) - 32) / 4 + 1);
    ck_assert_ptr_nonnull(
        strstr(wait_ends_connection(s1, XW_CONN_CLOSED_MALFORMED), "malformed reply: length 67108857 words"));
}
END_TEST

/* ---- packets no request expects: libxcb carries on, and so does xwire where
 * every caller still gets the right answer (the rule is at the reader's routing) ---- */

/* No error on c, n replies dropped so far, and one more round trip answered. */
static void still_fine(uint64_t dropped)
{
    ck_assert_int_eq(xw_connection_has_error(c), 0);
    ck_assert_uint_eq(c->in.dropped, dropped);
    uint64_t s = send_reply_req(XW_REQUEST_CHECKED, 16);
    flush_to_server(1);
    send_reply(s, 0x5a);
    expect_reply(s, 0x5a);
}

/* A reply with sequence 0 right after the setup names no request: dropped; the
 * request's own reply, which follows, is its caller's. */
START_TEST(reply_with_sequence_zero_after_setup)
{
    uint64_t s1 = connect_and_ask(XW_REQUEST_CHECKED, 16);
    send_reply(0, 0x11);
    send_reply(s1, 0x22);
    expect_reply(s1, 0x22);
    still_fine(1);
}
END_TEST

/* A reply to a void request: dropped, the next request's reply still right. */
START_TEST(reply_to_void_request_is_dropped)
{
    c = fake_connect(&F, NULL, 0);
    uint64_t s1 = send_void(0, 127);
    uint64_t s2 = send_reply_req(XW_REQUEST_CHECKED, 16);
    flush_to_server(2);
    send_reply(s1, 0x11);
    send_reply(s2, 0x22);
    expect_reply(s2, 0x22);
    ck_assert_int_eq(xw_request_check(c, (xw_void_cookie_t){(unsigned)s1}) == NULL, 1);
    still_fine(1);
}
END_TEST

/* The same reply twice: the first is the caller's, the repeat dropped, and the next
 * request's reply is its own (not the repeat). */
START_TEST(reply_sent_twice)
{
    c = fake_connect(&F, NULL, 0);
    uint64_t s1 = send_reply_req(XW_REQUEST_CHECKED, 16);
    uint64_t s2 = send_reply_req(XW_REQUEST_CHECKED, 16);
    flush_to_server(2);
    send_reply(s1, 0x11);
    send_reply(s1, 0x12);
    send_reply(s2, 0x22);
    expect_reply(s1, 0x11);
    expect_reply(s2, 0x22);
    still_fine(1);
}
END_TEST

/* An error, then a reply for the same request: the error is the answer (checked:
 * to the caller; unchecked: to the event queue, the reply call gets nothing); the
 * reply is dropped. */
START_TEST(error_then_reply_for_one_request)
{
    for (int checked = 0; checked < 2; checked++) {
        c = fake_connect(&F, NULL, 0);
        uint64_t s1 = send_reply_req(checked ? XW_REQUEST_CHECKED : 0, 16);
        uint64_t s2 = send_reply_req(XW_REQUEST_CHECKED, 16);
        flush_to_server(2);
        send_error(s1, 5, 0x1234, 16);
        send_reply(s1, 0x11);
        send_reply(s2, 0x22);
        xw_generic_error_t *err = NULL;
        ck_assert_ptr_null(xw_wait_for_reply64(c, s1, &err));
        expect_reply(s2, 0x22);
        if (!checked) {
            ck_assert_ptr_null(err);
            err = (xw_generic_error_t *)xw_poll_for_queued_event(c);
        }
        ck_assert_ptr_nonnull(err);
        ck_assert_uint_eq(err->response_type, 0);
        ck_assert_uint_eq(err->error_code, 5);
        ck_assert_uint_eq(err->full_sequence, (uint32_t)s1);
        free(err);
        ck_assert_ptr_null(xw_poll_for_queued_event(c));
        still_fine(1);
        hang_up();
    }
}
END_TEST

/* Type byte 0x81 (and 0x80) is an event sent with SendEvent, 32 bytes whatever its
 * bytes 4-7 say, never a reply: queued as it came; the reply after it is the
 * request's. */
START_TEST(sent_event_with_reply_code_is_an_event)
{
    static const uint8_t codes[] = {0x81, 0x80};
    uint64_t s1 = connect_and_ask(XW_REQUEST_CHECKED, 16);
    for (size_t i = 0; i < sizeof(codes); i++)
        send_event(codes[i], s1 - 1, 5); /* bytes 4-7 as a reply's length: 5 words */
    send_reply(s1, 0x22);
    expect_reply(s1, 0x22);
    for (size_t i = 0; i < sizeof(codes); i++) {
        xw_generic_event_t *ev = xw_poll_for_queued_event(c);
        ck_assert_ptr_nonnull(ev);
        ck_assert_uint_eq(ev->response_type, codes[i]);
        ck_assert_uint_eq(fs_rd32((uint8_t *)ev + 4), 5);
        ck_assert_uint_eq(ev->full_sequence, (uint32_t)(s1 - 1));
        free(ev);
    }
    ck_assert_ptr_null(xw_poll_for_queued_event(c));
    still_fine(0);
}
END_TEST

/* Packets for an older sequence after a newer one: the older request was finished
 * (with nothing) when the newer reply came, so its late reply is dropped, and it
 * stands in for the oldest request still awaiting one (s3), finished with nothing,
 * whose own reply is then dropped too; a late error and event are delivered as
 * events with their own sequence. Later replies stay right. */
START_TEST(older_sequence_after_newer)
{
    c = fake_connect(&F, NULL, 0);
    uint64_t s1 = send_reply_req(XW_REQUEST_CHECKED, 16);
    uint64_t s2 = send_reply_req(XW_REQUEST_CHECKED, 16);
    uint64_t s3 = send_reply_req(XW_REQUEST_CHECKED, 16);
    flush_to_server(3);
    send_reply(s2, 0x22);
    send_reply(s1, 0x11);
    send_error(s1, 3, 0x99, 16);
    send_event(33, s1, 0xe1);
    send_reply(s3, 0x33);
    ck_assert_ptr_null(xw_wait_for_reply64(c, s1, NULL));
    expect_reply(s2, 0x22);
    ck_assert_ptr_null(xw_wait_for_reply64(c, s3, NULL));
    xw_generic_event_t *ev = xw_poll_for_queued_event(c);
    ck_assert_ptr_nonnull(ev);
    ck_assert_uint_eq(ev->response_type, 0);
    ck_assert_uint_eq(ev->full_sequence, (uint32_t)s1);
    free(ev);
    ev = xw_poll_for_queued_event(c);
    ck_assert_ptr_nonnull(ev);
    ck_assert_uint_eq(ev->response_type, 33);
    ck_assert_uint_eq(ev->full_sequence, (uint32_t)s1);
    free(ev);
    still_fine(2);
}
END_TEST

/* A reply whose sequence was damaged into an older one (0, after the first reply)
 * and nothing after it: the request it answered gets nothing instead of waiting
 * forever, as on libxcb, and the next round trip is right. */
START_TEST(damaged_sequence_does_not_hang_the_waiter)
{
    c = fake_connect(&F, NULL, 0);
    uint64_t s1 = send_reply_req(XW_REQUEST_CHECKED, 16);
    uint64_t s2 = send_reply_req(XW_REQUEST_CHECKED, 16);
    flush_to_server(2);
    send_reply(s1, 0x11);
    send_reply(0, 0x22); /* s2's, its sequence damaged */
    expect_reply(s1, 0x11);
    ck_assert_ptr_null(xw_wait_for_reply64(c, s2, NULL));
    still_fine(1);
}
END_TEST

/* An error and an event naming sequence numbers never sent. */
START_TEST(unknown_sequence_error_and_event_are_fatal)
{
    for (int kind = 0; kind < 2; kind++) {
        uint64_t s1 = connect_and_ask(XW_REQUEST_CHECKED, 16);
        if (kind == 0)
            send_error(s1 + 5, 3, 0, 16);
        else
            send_event(33, s1 + 5, 0);
        ck_assert_ptr_nonnull(strstr(wait_ends_connection(s1, XW_CONN_CLOSED_MALFORMED), "was never sent"));
        hang_up();
    }
}
END_TEST

/* Event codes nobody registered (an unknown extension's, the top of the range, one
 * with the SendEvent bit) are data: delivered as they came, the connection fine. */
START_TEST(event_with_unknown_code)
{
    static const uint8_t codes[] = {64, 127, 0x80 | 100, 2 /* KeyPress: known, for contrast */};
    uint64_t s1 = connect_and_ask(XW_REQUEST_CHECKED, 43);
    for (size_t i = 0; i < sizeof(codes); i++)
        send_event(codes[i], s1, 0xc0de0000u + (uint32_t)i);
    send_reply(s1, 0);
    free(xw_wait_for_reply64(c, s1, NULL));
    for (size_t i = 0; i < sizeof(codes); i++) {
        xw_generic_event_t *ev = xw_poll_for_queued_event(c);
        ck_assert_ptr_nonnull(ev);
        ck_assert_uint_eq(ev->response_type, codes[i]);
        ck_assert_uint_eq(fs_rd32((uint8_t *)ev + 4), 0xc0de0000u + i);
        ck_assert_uint_eq(ev->full_sequence, (uint32_t)s1);
        free(ev);
    }
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

/* Truncated packets: an event cut at 20 bytes, a 200 KB reply cut in the middle
 * (being filled in its own record), then the server closes. */
START_TEST(server_closes_mid_event_and_mid_big_reply)
{
    for (int kind = 0; kind < 2; kind++) {
        uint64_t s1 = connect_and_ask(XW_REQUEST_CHECKED, 16);
        static uint8_t stream[200032];
        size_t n;
        if (kind == 0) {
            fake_event(stream, 33, (uint16_t)s1, 0);
            n = 20;
        } else {
            static uint8_t extra[200000];
            n = fake_reply(stream, (uint16_t)s1, 0, extra, sizeof(extra)) - 100000;
        }
        closes_mid_packet(s1, stream, n);
        hang_up();
    }
}
END_TEST

/* ---- waiting on the blocking socket: one recvmsg, no poll ---- */

/* Bytes the server sends from another thread after a pause, so the client is
 * usually inside its wait by then (either order must work). */
struct later {
    const uint8_t *buf;
    size_t len;
    pthread_t thread;
};

static void *send_later_main(void *arg)
{
    struct later *l = arg;
    usleep(20000);
    fake_send(&F, l->buf, l->len);
    return NULL;
}

static void send_later(struct later *l, const uint8_t *buf, size_t len)
{
    l->buf = buf;
    l->len = len;
    ck_assert_int_eq(pthread_create(&l->thread, NULL, send_later_main, l), 0);
}

/* The socket is left blocking; a reply wait with no timeout reads what comes later,
 * and the rest of a big reply is one blocking read. With the fd made non-blocking
 * behind xwire's back both still work: the blocking read that finds nothing turns
 * the connection back to poll (block cleared), not a spin. The reply's first 4 KiB
 * come at once, its rest 20 ms later, so the rest is what the blocking read waits for. */
START_TEST(wait_reads_blocking_socket_or_falls_back_to_poll)
{
    static uint8_t b[32 + 131072], value[131072]; /* bigger than the read buffer */
    for (size_t i = 0; i < sizeof value; i++)
        value[i] = (uint8_t)(i * 7);
    for (int nonblock = 0; nonblock < 2; nonblock++) {
        uint64_t s = connect_and_ask(XW_REQUEST_CHECKED, 16);
        int fd = xw_get_file_descriptor(c);
        ck_assert_int_eq(fcntl(fd, F_GETFL) & O_NONBLOCK, 0);
        if (nonblock)
            ck_assert_int_eq(fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK), 0);
        size_t n = fake_reply(b, (uint16_t)s, 9, value, sizeof value);
        ck_assert_int_eq(fake_send(&F, b, 4096), 0);
        struct later l;
        send_later(&l, b + 4096, n - 4096);
        uint8_t *r = xw_wait_for_reply(c, (unsigned)s, NULL);
        pthread_join(l.thread, NULL);
        ck_assert_ptr_nonnull(r);
        ck_assert_uint_eq(r[1], 9);
        ck_assert_uint_eq(fs_rd32(r + 4), (sizeof value - 24) / 4); /* the value starts at byte 8 */
        ck_assert_int_eq(memcmp(r + 8, value, sizeof value), 0);
        free(r);
        ck_assert_int_eq(c->in.block, !nonblock);
        ck_assert_int_eq(xw_connection_has_error(c), 0);
        hang_up();
    }
}
END_TEST

/* The server sends n ClientMessages at once, numbered from 0 (before the client
 * waits, so its first read takes them all); the client takes them in order. */
static void stream_events(uint64_t seq, int n)
{
    static uint8_t b[200 * 32];
    ck_assert_int_le(n, 200);
    for (int i = 0; i < n; i++)
        fake_event(b + i * 32, 33, (uint16_t)seq, (uint32_t)i);
    fake_send(&F, b, (size_t)n * 32);
    for (int i = 0; i < n; i++) {
        xw_generic_event_t *ev = xw_wait_for_event(c);
        ck_assert_ptr_nonnull(ev);
        ck_assert_uint_eq(fs_rd32((uint8_t *)ev + 4), (uint32_t)i);
        free(ev);
    }
}

/* After an event wait that read a stream's worth (200 events) the next one with no
 * timeout is one blocking recvmsg, and gets what comes later; a small read puts the
 * wait after it back on poll; with a timeout an event wait polls and ends in time.
 * Both on the blocking socket and with the fd made non-blocking behind xwire's back
 * (the blocking read finds nothing and turns poll back on). */
START_TEST(event_wait_after_a_big_read)
{
    for (int nonblock = 0; nonblock < 2; nonblock++) {
        uint64_t s = connect_and_ask(XW_REQUEST_CHECKED, 16);
        int fd = xw_get_file_descriptor(c);
        if (nonblock)
            ck_assert_int_eq(fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK), 0);
        stream_events(s, 200);
        ck_assert_int_eq(c->in.stream, 1);
        uint8_t b[32];
        struct later l;
        fake_event(b, 33, (uint16_t)s, 0xfeed);
        send_later(&l, b, sizeof(b));
        xw_generic_event_t *ev = xw_wait_for_event(c);
        pthread_join(l.thread, NULL);
        ck_assert_ptr_nonnull(ev);
        ck_assert_uint_eq(fs_rd32((uint8_t *)ev + 4), 0xfeed);
        free(ev);
        ck_assert_int_eq(c->in.stream, 0);
        ck_assert_int_eq(c->in.block, !nonblock);
        stream_events(s, 200);
        ck_assert_int_eq(c->in.stream, 1);
        ck_assert_ptr_null(xw_wait_for_event_timeout(c, 10));
        ck_assert_int_eq(xw_connection_has_error(c), 0);
        hang_up();
    }
}
END_TEST

struct waiter {
    uint64_t seq;
    uint8_t byte1; /* of the reply it got; 0: none */
};

static void *wait_reply_main(void *arg)
{
    struct waiter *w = arg;
    uint8_t *r = xw_wait_for_reply64(c, w->seq, NULL);
    w->byte1 = r ? r[1] : 0;
    free(r);
    return NULL;
}

/* One thread waits in the blocking read while this one polls without blocking:
 * the polls never read under it (they find nothing, or what it parsed), and the
 * event and the reply that come later each reach the one who asks for them. */
START_TEST(poll_while_another_thread_waits_in_read)
{
    uint64_t s = connect_and_ask(XW_REQUEST_CHECKED, 16);
    struct waiter w = {s, 0};
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, wait_reply_main, &w), 0);
    uint8_t b[64];
    fake_event(b, 33, (uint16_t)s, 0xfeed);
    fake_reply(b + 32, (uint16_t)s, 7, NULL, 0);
    struct later l;
    send_later(&l, b, sizeof(b));
    xw_generic_event_t *ev = NULL;
    while (!ev && !xw_connection_has_error(c)) {
        ev = xw_poll_for_event(c);
        if (!ev)
            usleep(1000);
    }
    pthread_join(l.thread, NULL);
    pthread_join(t, NULL);
    ck_assert_ptr_nonnull(ev);
    ck_assert_uint_eq(ev->response_type, 33);
    ck_assert_uint_eq(fs_rd32((uint8_t *)ev + 4), 0xfeed);
    free(ev);
    ck_assert_uint_eq(w.byte1, 7);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

/* The server goes away while a thread waits in the blocking read: the wait ends
 * with nothing and the connection says why. */
START_TEST(server_closes_while_waiting_in_read)
{
    uint64_t s = connect_and_ask(XW_REQUEST_CHECKED, 16);
    struct waiter w = {s, 0xff};
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, wait_reply_main, &w), 0);
    usleep(20000);
    fake_stop(&F);
    pthread_join(t, NULL);
    ck_assert_uint_eq(w.byte1, 0);
    ck_assert_int_eq(xw_connection_has_error(c), XW_CONN_ERROR);
}
END_TEST

/* Two threads send GetInputFocus and claim each reply into their own storage, the
 * serving thread answering: the claims' fast path (a try of the lock, a leaf) and
 * its way round when the lock is taken meet, and every reply reaches its sender. */
static void *into_loop_main(void *arg)
{
    long *bad = arg;
    for (int i = 0; i < 3000; i++) {
        uint8_t buf[32];
        size_t len = 0;
        xw_generic_error_t err;
        uint64_t s = xw_get_input_focus(c).sequence;
        *bad += xw_wait_for_reply_into(c, s, buf, sizeof(buf), &len, &err, -1) != 1 || len != 32 || buf[0] != 1 ||
                fs_rd16(buf + 2) != (uint16_t)s;
    }
    return NULL;
}

START_TEST(two_threads_claim_into_while_sending)
{
    c = fake_connect(&F, NULL, 0);
    ck_assert_int_eq(fake_serve_start(&F), 0);
    long bad[2] = {0, 0};
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        ck_assert_int_eq(pthread_create(&t[i], NULL, into_loop_main, &bad[i]), 0);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    ck_assert_int_eq(bad[0] + bad[1], 0);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

/* Two threads claim events (the view's, then batches') while a third waits for a
 * reply that comes between two long runs of them: each event reaches exactly one
 * claimer, each claimer sees its events in stream order, each with its own
 * full_sequence, and the reply reaches its waiter. */
enum { CLAIM_RUN = 6000, CLAIM_TOTAL = 2 * CLAIM_RUN };
static uint8_t claim_seen[CLAIM_TOTAL];
static uint64_t claim_seq;
static int claim_count;

static void *claim_main(void *arg)
{
    long *bad = arg;
    long last = -1;
    while (__atomic_load_n(&claim_count, __ATOMIC_ACQUIRE) < CLAIM_TOTAL) {
        uint8_t buf[36];
        size_t len = 0;
        int r = xw_wait_for_event_into(c, buf, sizeof buf, &len, 50);
        if (r == 0)
            continue;
        uint32_t w = fs_rd32(buf + 4);
        uint32_t want_seq = (uint32_t)(w < CLAIM_RUN ? claim_seq - 1 : claim_seq);
        if (r != 1 || len != 36 || w >= CLAIM_TOTAL || (long)w <= last || buf[0] != 12 + w % 20 ||
            fs_rd32(buf + 32) != want_seq || __atomic_fetch_add(&claim_seen[w], 1, __ATOMIC_RELAXED)) {
            (*bad)++;
            break;
        }
        last = w;
        __atomic_fetch_add(&claim_count, 1, __ATOMIC_RELEASE);
    }
    return NULL;
}

static void *reply_main(void *arg)
{
    uint8_t *r = xw_wait_for_reply64(c, claim_seq, NULL);
    *(long *)arg = r && r[1] == 7 ? 0 : 1;
    free(r);
    return NULL;
}

START_TEST(two_claim_events_while_a_third_waits_for_a_reply)
{
    claim_seq = connect_and_ask(XW_REQUEST_CHECKED, 16);
    long bad[3] = {0, 0, 0};
    pthread_t t[3];
    for (int i = 0; i < 2; i++)
        ck_assert_int_eq(pthread_create(&t[i], NULL, claim_main, &bad[i]), 0);
    ck_assert_int_eq(pthread_create(&t[2], NULL, reply_main, &bad[2]), 0);
    for (uint32_t w = 0; w < CLAIM_TOTAL; w++) {
        if (w == CLAIM_RUN)
            send_reply(claim_seq, 7);
        send_event((uint8_t)(12 + w % 20), w < CLAIM_RUN ? claim_seq - 1 : claim_seq, w);
    }
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], NULL);
    ck_assert_int_eq(bad[0] + bad[1] + bad[2], 0);
    ck_assert_int_eq(claim_count, CLAIM_TOTAL);
    for (uint32_t w = 0; w < CLAIM_TOTAL; w++)
        ck_assert_uint_eq(claim_seen[w], 1);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

/* ---- replies received straight into a waiting caller's buffer (xw_wait_for_reply_into) ---- */

/* A reply of 32 + BIG_EXTRA bytes: bigger than the read buffer, small enough for a
 * socketpair's buffer, so the test thread can send it whole before the client reads. */
#define BIG_EXTRA 100000u
static uint8_t big_stream[BIG_EXTRA + 64], big_extra[BIG_EXTRA];

/* The reply to seq as stream bytes (mark in byte 8); its length. */
static size_t big_reply(uint64_t seq, uint8_t mark)
{
    for (size_t i = 0; i < BIG_EXTRA; i++)
        big_extra[i] = (uint8_t)(i * 13 + 5);
    big_extra[0] = mark;
    return fake_reply(big_stream, (uint16_t)seq, 0, big_extra, BIG_EXTRA);
}

/* Records of the large classes the store holds: a reply that went through a record
 * leaves one behind once claimed into a buffer; one received in the caller's
 * buffer leaves none. */
static unsigned big_records(void)
{
    unsigned n = 0;
    for (unsigned k = 16; k < XW_STORE_CLASSES; k++)
        n += c->store.nfree[k];
    return n;
}

static void check_big(const uint8_t *r, size_t n)
{
    ck_assert_uint_eq(fs_rd32(r + 4), (n - 32) / 4);
    ck_assert_int_eq(memcmp(r + 8, big_extra, BIG_EXTRA), 0);
}

/* Fits: received into the buffer while the caller waits, no record, zero slack after
 * it; the same reply read before anyone waits goes through a record (the contrast
 * that shows the check can fail). Does not fit: -ENOSPC, the reply stays queued. */
START_TEST(into_big_reply_fits_or_not)
{
    static uint8_t buf[BIG_EXTRA + 64];
    size_t len = 0, n;
    uint64_t s1 = connect_and_ask(XW_REQUEST_CHECKED, 20);
    n = big_reply(s1, 1);
    fake_send(&F, big_stream, n);
    memset(buf, 0xcc, sizeof(buf));
    ck_assert_int_eq(xw_wait_for_reply_into(c, s1, buf, n + 4, &len, NULL, -1), 1);
    ck_assert_uint_eq(len, n);
    check_big(buf, n);
    ck_assert_uint_eq(fs_rd32(buf + n), 0); /* slack, as far as cap goes */
    ck_assert_uint_eq(buf[n + 4], 0xcc);
    ck_assert_uint_eq(big_records(), 0);
    ck_assert_ptr_null(c->in.into.buf);

    uint64_t s2 = send_reply_req(XW_REQUEST_CHECKED, 20);
    flush_to_server(1);
    n = big_reply(s2, 2);
    fake_send(&F, big_stream, n);
    ck_assert_int_eq(xw_wait_for_reply_into(c, s2, buf, n - 4, &len, NULL, -1), -ENOSPC);
    ck_assert_uint_eq(len, n);
    ck_assert_int_eq(xw_wait_for_reply_into(c, s2, buf, sizeof(buf), &len, NULL, -1), 1);
    ck_assert_uint_eq(len, n);
    check_big(buf, n);
    ck_assert_uint_eq(big_records(), 1);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

/* Split anywhere, with a non-blocking _into call after every piece: each call may
 * start receiving into its buffer and must hand the half-read reply back to a record
 * when it returns; the bytes come out whole at the end, whichever call gets them. */
START_TEST(into_big_reply_in_pieces)
{
    static const size_t pieces[] = {1, 7, 31, 32, 33, 4095, 65535, 65536, 65537, 99999};
    static uint8_t buf[BIG_EXTRA + 64];
    for (size_t p = 0; p < sizeof(pieces) / sizeof(pieces[0]); p++) {
        uint64_t s1 = connect_and_ask(XW_REQUEST_CHECKED, 20);
        size_t n = big_reply(s1, 3), len = 0;
        for (size_t off = 0; off < n; off += pieces[p]) {
            size_t k = n - off < pieces[p] ? n - off : pieces[p];
            fake_send(&F, big_stream + off, k);
            if (off + k < n)
                ck_assert_int_eq(xw_wait_for_reply_into(c, s1, buf, sizeof(buf), &len, NULL, 0), -ETIMEDOUT);
        }
        memset(buf, 0, sizeof(buf));
        ck_assert_int_eq(xw_wait_for_reply_into(c, s1, buf, sizeof(buf), &len, NULL, -1), 1);
        ck_assert_uint_eq(len, n);
        check_big(buf, n);
        ck_assert_int_eq(xw_connection_has_error(c), 0);
        hang_up();
    }
}
END_TEST

/* The caller times out with the reply half received into its buffer: nothing is
 * written there after it returns, and the reply is still whole for a later call. */
START_TEST(into_timeout_mid_reply)
{
    static uint8_t buf[BIG_EXTRA + 64];
    for (int timeout = 0; timeout <= 30; timeout += 30) {
        uint64_t s1 = connect_and_ask(XW_REQUEST_CHECKED, 20);
        size_t n = big_reply(s1, 4), len = 0;
        fake_send(&F, big_stream, 1000);
        ck_assert_int_eq(xw_wait_for_reply_into(c, s1, buf, sizeof(buf), &len, NULL, timeout), -ETIMEDOUT);
        ck_assert_ptr_null(c->in.into.buf);
        memset(buf, 0xcc, sizeof(buf));
        fake_send(&F, big_stream + 1000, n - 1000);
        uint8_t *r = xw_wait_for_reply64(c, s1, NULL);
        ck_assert_ptr_nonnull(r);
        check_big(r, n);
        free(r);
        for (size_t i = 0; i < sizeof(buf); i++)
            ck_assert_uint_eq(buf[i], 0xcc);
        ck_assert_int_eq(xw_connection_has_error(c), 0);
        hang_up();
    }
}
END_TEST

/* The server closes its side with the reply half received into the caller's
 * buffer: -EPIPE, and the connection's end frees nothing of the caller's. */
START_TEST(into_server_closes_mid_reply)
{
    static uint8_t buf[BIG_EXTRA + 64];
    size_t len = 0;
    uint64_t s1 = connect_and_ask(XW_REQUEST_CHECKED, 20);
    size_t n = big_reply(s1, 8);
    fake_send(&F, big_stream, n / 2);
    shutdown(F.fd, SHUT_WR);
    ck_assert_int_eq(xw_wait_for_reply_into(c, s1, buf, sizeof(buf), &len, NULL, -1), -EPIPE);
    ck_assert_ptr_null(c->in.pdata);
    ck_assert_str_eq(dead_with(XW_CONN_ERROR), "server closed the connection in the middle of a packet");
    check_dead_connection_returns_at_once();
}
END_TEST

/* What a helper thread sends while the test thread waits. */
struct into_later {
    pthread_t t;
    const uint8_t *bytes;
    size_t n;
    int fd; /* -1: none */
};

static void *send_later_run(void *arg)
{
    struct into_later *l = arg;
    usleep(20000); /* let the caller reach its wait; the outcome does not depend on it */
    if (l->fd >= 0)
        fake_send_fds(&F, l->bytes, l->n, &l->fd, 1);
    else
        fake_send(&F, l->bytes, l->n);
    return NULL;
}

static void into_send_later(struct into_later *l, const uint8_t *bytes, size_t n, int fd)
{
    *l = (struct into_later){.bytes = bytes, .n = n, .fd = fd};
    ck_assert_int_eq(pthread_create(&l->t, NULL, send_later_run, l), 0);
}

/* An error arrives instead of the reply the caller's buffer waits for; then a reply
 * that fails its validator, received into the buffer, comes back as an error too. */
START_TEST(into_error_instead)
{
    static uint8_t buf[BIG_EXTRA + 64];
    uint8_t e[32];
    size_t len = 0;
    xw_generic_error_t err;
    struct into_later l;
    uint64_t s1 = connect_and_ask(XW_REQUEST_CHECKED, 20);
    fake_error(e, (uint16_t)s1, 9, 0x77, 20, 0);
    into_send_later(&l, e, 32, -1);
    ck_assert_int_eq(xw_wait_for_reply_into(c, s1, buf, sizeof(buf), &len, &err, -1), 2);
    pthread_join(l.t, NULL);
    ck_assert_uint_eq(err.error_code, 9);
    ck_assert_uint_eq(err.resource_id, 0x77);

    uint64_t s2 = send_req(XW_REQUEST_CHECKED, 20, 0, 0, NULL, 0, NULL, reject_ee);
    uint64_t s3 = send_req(XW_REQUEST_CHECKED, 20, 0, 0, NULL, 0, NULL, reject_ee);
    flush_to_server(2);
    size_t n = big_reply(s2, 0xee);
    into_send_later(&l, big_stream, n, -1);
    ck_assert_int_eq(xw_wait_for_reply_into(c, s2, buf, sizeof(buf), &len, &err, -1), 2);
    pthread_join(l.t, NULL);
    ck_assert_uint_eq(err.error_code, XW_ERROR_MALFORMED_REPLY);
    ck_assert_uint_eq(err.full_sequence, (uint32_t)s2);
    n = big_reply(s3, 1);
    into_send_later(&l, big_stream, n, -1);
    ck_assert_int_eq(xw_wait_for_reply_into(c, s3, buf, sizeof(buf), &len, &err, -1), 1);
    pthread_join(l.t, NULL);
    check_big(buf, n);
    ck_assert_uint_eq(big_records(), 0);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

/* A big reply that brings an fd: the fd follows the bytes in the caller's buffer. */
/* The fd stored at at (after a reply's bytes) is the write end of the pipe whose
 * read end is rd: a byte written through it comes out there. Closes both. */
static void check_passed_fd(const void *at, int rd, char ch)
{
    int fd;
    memcpy(&fd, at, sizeof(fd));
    ck_assert_int_eq(write(fd, &ch, 1), 1);
    char got = 0;
    ck_assert_int_eq(read(rd, &got, 1), 1);
    ck_assert_int_eq(got, ch);
    close(fd);
    close(rd);
}

START_TEST(into_big_reply_with_fd)
{
    static uint8_t buf[BIG_EXTRA + 64];
    int p[2];
    ck_assert_int_eq(pipe(p), 0);
    uint64_t s1 = connect_and_ask(XW_REQUEST_CHECKED | XW_REQUEST_REPLY_FDS, 200);
    size_t n = big_reply(s1, 5), len = 0;
    big_stream[1] = 1; /* one fd */
    struct into_later l;
    into_send_later(&l, big_stream, n, p[1]);
    ck_assert_int_eq(xw_wait_for_reply_into(c, s1, buf, sizeof(buf), &len, NULL, -1), 1);
    pthread_join(l.t, NULL);
    close(p[1]);
    ck_assert_uint_eq(len, n + sizeof(int));
    check_big(buf, n);
    check_passed_fd(buf + n, p[0], 'y');
    ck_assert_uint_eq(big_records(), 0);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

/* A reply sent in pieces with pauses between them, one piece (past the middle)
 * carrying an fd: what a server writing a big reply through a small socket buffer
 * looks like to a caller already waiting. */
struct trickle {
    pthread_t t;
    const uint8_t *bytes;
    size_t n, piece;
    int fd;
};

static void *trickle_run(void *arg)
{
    struct trickle *t = arg;
    usleep(10000); /* let the caller reach its wait; the outcome does not depend on it */
    for (size_t off = 0; off < t->n; off += t->piece) {
        size_t k = t->n - off < t->piece ? t->n - off : t->piece;
        if (t->fd >= 0 && off >= t->n / 2) {
            fake_send_fds(&F, t->bytes + off, k, &t->fd, 1);
            t->fd = -1;
        } else {
            fake_send(&F, t->bytes + off, k);
        }
        usleep(1000);
    }
    return NULL;
}

/* The caller waits with no deadline while the reply trickles in: the rest of it is
 * read unlocked, into the caller's own buffer (_into form: no record) or into its
 * record (heap form); the fd that comes with a middle piece follows the bytes. */
START_TEST(into_big_reply_trickles)
{
    static uint8_t buf[BIG_EXTRA + 64];
    for (int heap = 0; heap < 2; heap++) {
        int p[2];
        ck_assert_int_eq(pipe(p), 0);
        uint64_t s1 = connect_and_ask(XW_REQUEST_CHECKED | XW_REQUEST_REPLY_FDS, 200);
        size_t n = big_reply(s1, 9), len = 0;
        big_stream[1] = 1; /* one fd */
        struct trickle t = {.bytes = big_stream, .n = n, .piece = 7919, .fd = p[1]};
        ck_assert_int_eq(pthread_create(&t.t, NULL, trickle_run, &t), 0);
        uint8_t *r = buf;
        if (heap) {
            r = xw_wait_for_reply64(c, s1, NULL);
            ck_assert_ptr_nonnull(r);
        } else {
            ck_assert_int_eq(xw_wait_for_reply_into(c, s1, buf, sizeof(buf), &len, NULL, -1), 1);
            ck_assert_uint_eq(len, n + sizeof(int));
            ck_assert_uint_eq(big_records(), 0);
        }
        pthread_join(t.t, NULL);
        close(p[1]);
        check_big(r, n);
        check_passed_fd(r + n, p[0], 'z');
        if (heap)
            free(r);
        ck_assert_int_eq(xw_connection_has_error(c), 0);
        hang_up();
    }
}
END_TEST

/* Two threads wait with their own buffers (one registers, the other takes the record
 * path, whichever reads): each gets its own reply, whole. */
struct into_waiter {
    pthread_t t;
    uint64_t seq;
    uint8_t *buf;
    size_t cap, len;
    int r;
};

static void *wait_into_run(void *arg)
{
    struct into_waiter *w = arg;
    w->r = xw_wait_for_reply_into(c, w->seq, w->buf, w->cap, &w->len, NULL, -1);
    return NULL;
}

START_TEST(into_two_threads)
{
    static uint8_t buf1[BIG_EXTRA + 64], buf2[BIG_EXTRA + 64], stream2[BIG_EXTRA + 64];
    for (int round = 0; round < 4; round++) {
        uint64_t s1 = connect_and_ask(XW_REQUEST_CHECKED, 20);
        uint64_t s2 = send_reply_req(XW_REQUEST_CHECKED, 20);
        flush_to_server(1);
        struct into_waiter w[2] = {{.seq = s1, .buf = buf1, .cap = sizeof(buf1)},
                                   {.seq = s2, .buf = buf2, .cap = sizeof(buf2)}};
        for (int i = 0; i < 2; i++)
            ck_assert_int_eq(pthread_create(&w[(i + round) & 1].t, NULL, wait_into_run, &w[(i + round) & 1]), 0);
        usleep(10000);
        size_t n2 = big_reply(s2, 7);
        memcpy(stream2, big_stream, n2);
        size_t n1 = big_reply(s1, 6);
        fake_send(&F, big_stream, n1);
        fake_send(&F, stream2, n2);
        for (int i = 0; i < 2; i++)
            pthread_join(w[i].t, NULL);
        ck_assert_int_eq(w[0].r, 1);
        ck_assert_int_eq(w[1].r, 1);
        ck_assert_uint_eq(w[0].len, n1);
        ck_assert_uint_eq(w[1].len, n2);
        check_big(buf1, n1);
        ck_assert_uint_eq(buf2[8], 7);
        ck_assert_int_eq(memcmp(buf2 + 9, big_extra + 1, BIG_EXTRA - 1), 0);
        ck_assert_int_eq(xw_connection_has_error(c), 0);
        hang_up();
    }
}
END_TEST

int main(void)
{
    Suite *s = xwtest_suite("read");
    fake_conn_tcase(
        s, "read",
        (const TTest *const[]){split_at_every_byte, big_reply_in_pieces, huge_length_is_fatal_before_allocating,
                               validator_turns_reply_into_error, server_closes_mid_reply, keymap_notify_has_no_sequence,
                               list_fonts_with_info_multi_reply, timeouts, discard_and_error_routing,
                               into_too_small_keeps_packet, events_of_every_kind_keep_their_order,
                               events_keep_their_order_unlocked, reply_after_events_claimed_in_place,
                               event_finishes_the_requests_before_it, xge_special_queue_and_validation, error_text,
                               errno_after_the_connection_fails, queued_events_cost_less_than_under_libxcb, NULL});
    fake_conn_tcase(s, "blocking",
                    (const TTest *const[]){
                        wait_reads_blocking_socket_or_falls_back_to_poll, event_wait_after_a_big_read,
                        poll_while_another_thread_waits_in_read, two_claim_events_while_a_third_waits_for_a_reply,
                        server_closes_while_waiting_in_read, two_threads_claim_into_while_sending, NULL});
    fake_conn_tcase(s, "into",
                    (const TTest *const[]){into_big_reply_fits_or_not, into_big_reply_in_pieces, into_timeout_mid_reply,
                                           into_error_instead, into_big_reply_with_fd, into_big_reply_trickles,
                                           into_two_threads, into_server_closes_mid_reply, NULL});
    fake_conn_tcase(s, "hostile",
                    (const TTest *const[]){xge_huge_length_is_fatal, length_one_word_over_the_cap_is_fatal,
                                           unknown_sequence_error_and_event_are_fatal, event_with_unknown_code,
                                           server_closes_mid_event_and_mid_big_reply, NULL});
    fake_conn_tcase(s, "unexpected",
                    (const TTest *const[]){reply_with_sequence_zero_after_setup, reply_to_void_request_is_dropped,
                                           reply_sent_twice, error_then_reply_for_one_request,
                                           sent_event_with_reply_code_is_an_event, older_sequence_after_newer,
                                           damaged_sequence_does_not_hang_the_waiter, NULL});
    return xwtest_run(s);
}
