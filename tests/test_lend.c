/* SPDX-License-Identifier: MIT */
/* test_lend.c — the socket lent to another owner (xw_take_socket, xw_writev), driven by a fake owner that
 * uses them as libX11's xcb_io.c does, against a scripted fake server. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <xw/xproto.h>
#include <xw/xwext.h>

#include "alloc_count.h"
#include "fake_server.h"
#include "xwtest.h"
#include "conn.h" /* the lent socket's stash, slot and discards, inspected */

static struct fake_server F;
static xw_connection_t *c;

/* The fake owner: like Xlib, it builds requests in a buffer of its own, takes the
 * socket before its first one, and writes the buffer through xw_writev with the
 * number of requests in it when it flushes or when xwire asks for the socket. */
struct owner {
    int holds;        /* took the socket and has not been asked to return it */
    int flags;        /* xw_take_socket flags */
    uint64_t request; /* the owner's last request number (Xlib's dpy->request) */
    uint64_t flushed; /* the last one written (Xlib's last_flushed) */
    unsigned returns; /* return callbacks run */
    unsigned failed;  /* xw_writev failures inside them */
    uint8_t buf[1 << 20];
    size_t len;
};

static struct owner O;

static int owner_write(struct owner *o)
{
    static const uint8_t pad[3];
    struct iovec v[3] = {{o->buf, o->len}, {NULL, 0}, {(void *)pad, 0}}; /* Xlib's three, two empty */
    int ok = xw_writev(c, v, 3, o->request - o->flushed);
    o->flushed = o->request;
    o->len = 0;
    return ok;
}

static void owner_flush(struct owner *o)
{
    ck_assert_int_eq(owner_write(o), 1);
}

/* xwire wants the socket: write what is held, as Xlib's return_socket does (on
 * xwire's thread, inside its call: failures are counted for the test to check). */
static void owner_return(void *closure)
{
    struct owner *o = closure;
    o->returns++;
    o->failed += !owner_write(o);
    o->holds = 0;
}

static void owner_take(struct owner *o)
{
    if (o->holds)
        return;
    uint64_t sent = 0;
    ck_assert_int_eq(xw_take_socket(c, owner_return, o, o->flags, &sent), 1);
    o->request = o->flushed = sent;
    o->holds = 1;
}

/* One request of 4 * words bytes with major opcode op; returns its number. */
static uint64_t owner_req(struct owner *o, uint8_t op, uint8_t data, unsigned words)
{
    owner_take(o);
    uint8_t *b = o->buf + o->len;
    memset(b, 0, words * 4);
    b[0] = op;
    b[1] = data;
    fs_wr16(b + 2, (uint16_t)words);
    o->len += words * 4;
    return ++o->request;
}

enum { OP_GET_INPUT_FOCUS = 43, OP_LIST_FONTS_WITH_INFO = 50, OP_NOOP = 127, OP_MAP_WINDOW = 8 };

static void setup(void)
{
    xwtest_fds_begin();
    memset(&O, 0, sizeof(O));
    c = fake_connect(&F, NULL, 0);
    ck_assert_ptr_nonnull(c);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}

static void teardown(void)
{
    xw_disconnect(c);
    c = NULL;
    fake_stop(&F);
    xwtest_fds_end();
    ck_assert_uint_eq(O.failed, 0);
}

/* xwire's own request, hand-built (4-byte header, no body). */
static uint64_t xw_req(int flags, uint8_t opcode, int isvoid)
{
    uint8_t hdr[4] = {0};
    struct iovec parts[3] = {{0}, {0}, {hdr, 4}};
    xw_protocol_request_t req = {.count = 1, .opcode = opcode, .isvoid = (uint8_t)isvoid};
    return xw_send(c, flags, parts + 2, &req, 4, 0, NULL);
}

/* The server reads one request and checks its major opcode; returns its sequence. */
static uint64_t server_reads(uint8_t op)
{
    uint8_t buf[4096];
    ck_assert_int_gt(fake_read_request(&F, buf, sizeof(buf), NULL, NULL), 0);
    ck_assert_uint_eq(buf[0], op);
    return F.seq;
}

static void server_sends(const uint8_t *p, size_t n)
{
    ck_assert_int_eq(fake_send(&F, p, n), 0);
}

static void server_reply(uint64_t seq, uint8_t byte1, uint32_t tag)
{
    uint8_t b[32], extra[24] = {0};
    fs_wr32(extra, tag);
    server_sends(b, fake_reply(b, (uint16_t)seq, byte1, extra, 24));
}

static void server_event(uint64_t seq, uint32_t tag)
{
    uint8_t b[32];
    fake_event(b, 28 /* PropertyNotify */, (uint16_t)seq, tag);
    server_sends(b, 32);
}

static void server_error(uint64_t seq, uint8_t code)
{
    uint8_t b[32];
    fake_error(b, (uint16_t)seq, code, 0x123, OP_MAP_WINDOW, 0);
    server_sends(b, 32);
}

static uint32_t tag_of(const void *reply)
{
    return fs_rd32((const uint8_t *)reply + 8);
}

/* The hand-off itself: xwire's buffered bytes go first, sent says where the
 * owner's numbering starts, the owner's requests (with empty iovecs) follow in
 * order and count, and xwire's next request is numbered after them. */
START_TEST(take_flushes_and_numbers)
{
    uint64_t mine = xw_req(0, OP_NOOP, 1);
    ck_assert_uint_eq(mine, 1);
    owner_take(&O);
    ck_assert_uint_eq(O.request, 1);
    ck_assert_uint_eq(server_reads(OP_NOOP), 1); /* flushed by the take, before any owner byte */
    uint64_t a = owner_req(&O, OP_NOOP, 0, 1);
    uint64_t b = owner_req(&O, OP_GET_INPUT_FOCUS, 0, 1);
    owner_flush(&O);
    ck_assert_uint_eq(a, 2);
    ck_assert_uint_eq(b, 3);
    ck_assert_uint_eq(server_reads(OP_NOOP), 2);
    ck_assert_uint_eq(server_reads(OP_GET_INPUT_FOCUS), 3);
    /* no requests, only empty iovecs: allowed, nothing written */
    struct iovec none[2] = {{NULL, 0}, {NULL, 0}};
    ck_assert_int_eq(xw_writev(c, none, 2, 0), 1);
    ck_assert_int_eq(xw_writev(c, none, 0, 0), 1);
    ck_assert_uint_eq(O.returns, 0);
    uint64_t next = xw_req(0, OP_GET_INPUT_FOCUS, 0);
    ck_assert_uint_eq(O.returns, 1);
    ck_assert_uint_eq(next, 4);
    ck_assert_int_eq(xw_flush(c), 1);
    ck_assert_uint_eq(server_reads(OP_GET_INPUT_FOCUS), 4);
    server_reply(3, 0, 33);
    server_reply(4, 0, 44);
    void *r = xw_wait_for_reply64(c, 4, NULL);
    ck_assert_ptr_nonnull(r);
    ck_assert_uint_eq(tag_of(r), 44);
    free(r);
    r = xw_wait_for_reply64(c, 3, NULL); /* the owner's, kept by sequence */
    ck_assert_ptr_nonnull(r);
    ck_assert_uint_eq(tag_of(r), 33);
    free(r);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

/* libxcb's answers for the owner's requests: not yet while the server may still
 * answer; the reply once read; "done, nothing" for a void request once a later
 * packet is in. Events read before a reply are queued before it is handed out, and
 * the queued-only call never reads. */
START_TEST(poll_answers_like_libxcb)
{
    uint64_t v = owner_req(&O, OP_NOOP, 0, 1);
    uint64_t g = owner_req(&O, OP_GET_INPUT_FOCUS, 0, 1);
    owner_flush(&O);
    void *reply = (void *)1;
    xw_generic_error_t *err = (void *)1;
    ck_assert_int_eq(xw_poll_for_reply64(c, g, &reply, &err), 0);
    ck_assert_int_eq(xw_poll_for_reply64(c, v, &reply, &err), 0);
    server_event(v, 7);
    ck_assert_ptr_null(xw_poll_for_queued_event(c)); /* on the socket, not read */
    server_event(g, 8);
    server_reply(g, 0, 99);
    /* one poll reads all three packets; the reply comes out with both events queued */
    ck_assert_int_eq(xw_poll_for_reply64(c, g, &reply, &err), 1);
    ck_assert_ptr_nonnull(reply);
    ck_assert_ptr_null(err);
    ck_assert_uint_eq(tag_of(reply), 99);
    free(reply);
    for (uint32_t want = 7; want <= 8; want++) {
        xw_generic_event_t *e = xw_poll_for_queued_event(c);
        ck_assert_ptr_nonnull(e);
        ck_assert_uint_eq(fs_rd32((uint8_t *)e + 4), want);
        free(e);
    }
    ck_assert_ptr_null(xw_poll_for_queued_event(c));
    ck_assert_int_eq(xw_poll_for_reply64(c, v, &reply, &err), 1); /* past it: done, nothing */
    ck_assert_ptr_null(reply);
    ck_assert_ptr_null(err);
    /* the reply was taken: its request is finished only once a later packet comes */
    ck_assert_int_eq(xw_poll_for_reply64(c, g, &reply, &err), 0);
    uint64_t h = owner_req(&O, OP_NOOP, 0, 1);
    owner_flush(&O);
    server_event(h, 9);
    ck_assert_int_eq(xw_poll_for_reply64(c, g, &reply, &err), 1);
    ck_assert_ptr_null(reply);
    ck_assert_uint_eq(O.returns, 0); /* polls and event calls never took the socket back */
    xw_generic_event_t *e = xw_poll_for_queued_event(c);
    ck_assert_ptr_nonnull(e);
    free(e);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

/* Without CHECKED the owner's errors are events (Xlib reads them there); with it
 * they are kept for the reply calls, and the request is done once its error is in. */
START_TEST(errors_with_and_without_checked)
{
    uint64_t a = owner_req(&O, OP_MAP_WINDOW, 0, 2);
    owner_flush(&O);
    server_error(a, 3);
    xw_generic_event_t *ev = xw_wait_for_event(c);
    ck_assert_ptr_nonnull(ev);
    ck_assert_uint_eq(ev->response_type, 0);
    ck_assert_uint_eq(ev->full_sequence, (uint32_t)a);
    free(ev);
    void *reply;
    xw_generic_error_t *err;
    ck_assert_int_eq(xw_poll_for_reply64(c, a, &reply, &err), 1);
    ck_assert_ptr_null(reply);
    ck_assert_ptr_null(err);

    xw_req(0, OP_NOOP, 1); /* takes the socket back; the next take is checked */
    ck_assert_uint_eq(O.returns, 1);
    O.flags = XW_REQUEST_CHECKED;
    uint64_t b = owner_req(&O, OP_MAP_WINDOW, 0, 2);
    uint64_t d = owner_req(&O, OP_MAP_WINDOW, 0, 2);
    owner_flush(&O);
    server_error(b, 3);
    server_error(d, 9);
    err = NULL;
    ck_assert_ptr_null(xw_wait_for_reply64(c, b, &err));
    ck_assert_ptr_nonnull(err);
    ck_assert_uint_eq(err->error_code, 3);
    ck_assert_uint_eq(err->full_sequence, (uint32_t)b);
    free(err);
    ck_assert_int_eq(xw_poll_for_reply64(c, d, &reply, &err), 1);
    ck_assert_ptr_nonnull(err);
    ck_assert_uint_eq(err->error_code, 9);
    free(err);
    /* d's error was its last packet: done, nothing more, without a later packet */
    ck_assert_int_eq(xw_poll_for_reply64(c, d, &reply, &err), 1);
    ck_assert_ptr_null(reply);
    ck_assert_ptr_null(err);
    ck_assert_ptr_null(xw_poll_for_event(c)); /* none went to the event queue */
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

/* ListFontsWithInfo: several replies with one sequence, handed out in order. */
START_TEST(multi_reply_kept_per_sequence)
{
    uint64_t q = owner_req(&O, OP_LIST_FONTS_WITH_INFO, 0, 2);
    uint64_t g = owner_req(&O, OP_GET_INPUT_FOCUS, 0, 1);
    owner_flush(&O);
    server_reply(q, 3, 1);
    server_reply(q, 3, 2);
    server_reply(q, 0, 3); /* the terminator (name length 0) */
    server_reply(g, 0, 4);
    void *r;
    for (uint32_t want = 1; want <= 3; want++) {
        r = xw_wait_for_reply64(c, q, NULL);
        ck_assert_ptr_nonnull(r);
        ck_assert_uint_eq(tag_of(r), want);
        free(r);
    }
    ck_assert_ptr_null(xw_wait_for_reply64(c, q, NULL)); /* g's reply is in: q is done */
    r = xw_wait_for_reply64(c, g, NULL);
    ck_assert_ptr_nonnull(r);
    ck_assert_uint_eq(tag_of(r), 4);
    free(r);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

/* The owner's 32-byte replies are kept without a record, the newest in a slot:
 * whatever follows it for the owner (another reply, a kept error of the same
 * request) moves it to the stash first, so every claim form hands them out in
 * order; a buffer too small for it leaves it kept. */
START_TEST(owner_replies_keep_order_through_the_slot)
{
    O.flags = XW_REQUEST_CHECKED;
    uint64_t q = owner_req(&O, OP_LIST_FONTS_WITH_INFO, 0, 2);
    uint64_t a = owner_req(&O, OP_GET_INPUT_FOCUS, 0, 1);
    uint64_t b = owner_req(&O, OP_GET_INPUT_FOCUS, 0, 1);
    owner_flush(&O);
    server_reply(q, 3, 1);
    server_error(q, 11); /* after a reply of its own request: kept, in order */
    server_reply(a, 0, 2);
    server_reply(b, 0, 3);
    xw_generic_error_t *err = NULL;
    void *r = xw_wait_for_reply64(c, b, &err); /* reads all four: b is in the slot */
    ck_assert_ptr_nonnull(r);
    ck_assert_ptr_null(err);
    ck_assert_uint_eq(tag_of(r), 3);
    free(r);
    r = xw_wait_for_reply64(c, q, &err);
    ck_assert_ptr_nonnull(r);
    ck_assert_uint_eq(tag_of(r), 1);
    free(r);
    ck_assert_ptr_null(xw_wait_for_reply64(c, q, &err));
    ck_assert_ptr_nonnull(err);
    ck_assert_uint_eq(err->error_code, 11);
    free(err);
    uint8_t buf[64];
    size_t len = 0;
    ck_assert_int_eq(xw_wait_for_reply_into(c, a, buf, 16, &len, NULL, 0), -ENOSPC);
    ck_assert_uint_eq(len, 32);
    ck_assert_int_eq(xw_wait_for_reply_into(c, a, buf, sizeof(buf), &len, NULL, 0), 1);
    ck_assert_uint_eq(len, 32);
    ck_assert_uint_eq(tag_of(buf), 2);
    ck_assert_int_eq(xw_wait_for_reply_into(c, a, buf, sizeof(buf), &len, NULL, 0), 0); /* taken */

    /* one reply alone stays in the slot until claimed, by the _into form too */
    uint64_t d = owner_req(&O, OP_GET_INPUT_FOCUS, 0, 1);
    owner_flush(&O);
    server_reply(d, 0, 4);
    ck_assert_int_eq(xw_wait_for_reply_into(c, d, buf, sizeof(buf), &len, NULL, -1), 1);
    ck_assert_uint_eq(len, 32);
    ck_assert_uint_eq(tag_of(buf), 4);
    ck_assert_ptr_null(xw_poll_for_event(c));
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

/* Every kind of xwire send takes the socket back first, running the owner's
 * callback (which re-enters xw_writev) with the lock released; the owner's held
 * requests reach the server before xwire's, numbered before it. Flushes and event
 * calls do not take it back. VIA_LIST*: generated senders whose list shape runs
 * the send fast path inline (ChangeProperty, and InternAtom with a pending block
 * already there); VIA_VOID_SINGLE a generated inline void sender (MapWindow);
 * _SINGLE in the connection's single-threaded mode, where they take no lock. */
enum {
    VIA_SEND,
    VIA_CHECKED,
    VIA_SYNC,
    VIA_FD,
    VIA_TAKE,
    VIA_EXTENSION,
    VIA_LIST,
    VIA_LIST_SINGLE,
    VIA_LIST_REPLY,
    VIA_VOID_SINGLE,
    VIA_KINDS
};

enum { OP_INTERN_ATOM = 16, OP_CHANGE_PROPERTY = 18 };

static xw_extension_t lend_ext = {"LEND-TEST", 0};

START_TEST(every_send_takes_back_first)
{
    int via = _i;
    xw_void_cookie_t unchecked = {0};
    if (via == VIA_SYNC) /* xwire's own void request, checked later: the check needs a sync */
        unchecked.sequence = (unsigned)xw_req(0, OP_MAP_WINDOW, 1);
    if (via == VIA_LIST_REPLY) /* tracked: the pending store has its block from now on */
        xw_req(0, OP_GET_INPUT_FOCUS, 0);
    uint64_t held = owner_req(&O, OP_NOOP, 0, 1);
    owner_req(&O, OP_NOOP, 0, 1);
    xw_flush(c);
    ck_assert_ptr_null(xw_poll_for_event(c));
    ck_assert_uint_eq(O.returns, 0);
    uint64_t w = 0;
    switch (via) {
    case VIA_SEND:
        w = xw_req(0, OP_GET_INPUT_FOCUS, 0);
        break;
    case VIA_CHECKED:
        w = xw_req(XW_REQUEST_CHECKED, OP_MAP_WINDOW, 1);
        break;
    case VIA_SYNC:
        ck_assert_int_eq(fake_serve_start(&F), 0);
        ck_assert_ptr_null(xw_request_check(c, unchecked));
        break;
    case VIA_FD:
        xw_send_fd(c, open("/dev/null", O_RDONLY | O_CLOEXEC));
        break;
    case VIA_TAKE: {
        static struct owner o2;
        memset(&o2, 0, sizeof(o2));
        uint64_t sent = 0, again = 0;
        ck_assert_int_eq(xw_take_socket(c, owner_return, &o2, 0, &sent), 1);
        ck_assert_uint_eq(sent, held + 1);
        ck_assert_uint_eq(O.returns, 1);
        ck_assert_int_eq(xw_take_socket(c, owner_return, &o2, 0, &again), 1); /* from o2 itself */
        ck_assert_uint_eq(o2.returns, 1);
        ck_assert_uint_eq(again, sent);
        w = xw_req(0, OP_GET_INPUT_FOCUS, 0);
        ck_assert_uint_eq(o2.returns, 2);
        break;
    }
    case VIA_EXTENSION:
        ck_assert_int_eq(fake_serve_start(&F), 0);
        ck_assert_ptr_nonnull(xw_get_extension_data(c, &lend_ext)); /* QueryExtension: absent */
        break;
    case VIA_LIST_SINGLE:
    case VIA_LIST_REPLY:
    case VIA_VOID_SINGLE:
        ck_assert_int_eq(xw_connection_set_single_threaded(c, 1), 0);
        /* fall through */
    case VIA_LIST:
        if (via == VIA_VOID_SINGLE)
            w = xw_map_window(c, 1).sequence;
        else if (via == VIA_LIST_REPLY)
            w = xw_intern_atom_unchecked(c, 0, 3, "ABC").sequence;
        else
            w = xw_change_property(c, 0, 1, 2, 3, 8, 5, "abcde").sequence;
        break;
    }
    ck_assert_uint_eq(O.returns, 1);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
    if (via == VIA_SYNC || via == VIA_EXTENSION) {
        fake_stop(&F);
        ck_assert_uint_eq(F.opcode_count[OP_NOOP], 2);
        if (via == VIA_SYNC) /* the sync followed the owner's two requests */
            ck_assert_uint_eq(F.first_sync_at, held + 2);
        else
            ck_assert_uint_eq(F.opcode_count[98], 1);
        return;
    }
    xw_flush(c);
    if (via == VIA_LIST_REPLY)
        ck_assert_uint_eq(server_reads(OP_GET_INPUT_FOCUS), held - 1);
    ck_assert_uint_eq(server_reads(OP_NOOP), held);
    ck_assert_uint_eq(server_reads(OP_NOOP), held + 1);
    if (w) {
        ck_assert_uint_eq(w, held + 2);
        uint8_t op = via == VIA_CHECKED || via == VIA_VOID_SINGLE ? OP_MAP_WINDOW
                     : via == VIA_LIST || via == VIA_LIST_SINGLE  ? OP_CHANGE_PROPERTY
                     : via == VIA_LIST_REPLY                      ? OP_INTERN_ATOM
                                                                  : OP_GET_INPUT_FOCUS;
        ck_assert_uint_eq(server_reads(op), w);
    }
}
END_TEST

/* A reply to a request xwire sent as void, outside any turn of the owner, names
 * no request awaiting a reply: dropped, and the connection goes on (libxcb keeps it
 * where nobody looks); one inside a turn is the owner's. */
START_TEST(unknown_sequence_outside_the_owners_turns_is_dropped)
{
    uint64_t o1 = owner_req(&O, OP_GET_INPUT_FOCUS, 0, 1);
    owner_flush(&O);
    uint64_t mine = xw_req(0, OP_NOOP, 1);
    xw_flush(c);
    server_reply(o1, 0, 1);
    server_reply(mine, 0, 2);
    uint8_t *r = xw_wait_for_reply64(c, o1, NULL);
    ck_assert_ptr_nonnull(r);
    ck_assert_uint_eq(fs_rd32(r + 8), 1);
    free(r);
    uint64_t next = xw_req(XW_REQUEST_CHECKED, OP_GET_INPUT_FOCUS, 0);
    xw_flush(c);
    server_reply(next, 0, 3);
    r = xw_wait_for_reply64(c, next, NULL);
    ck_assert_ptr_nonnull(r);
    ck_assert_uint_eq(fs_rd32(r + 8), 3);
    free(r);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
    ck_assert_uint_eq(c->in.dropped, 1);
}
END_TEST

/* Xlib's guarantee (a reply at least every 65,535 requests) is all xwire needs to
 * widen 16-bit sequences past the wrap; the owner's requests count as void for
 * xwire's own automatic sync. */
START_TEST(sixteen_bit_wrap_with_the_owner)
{
    ck_assert_int_eq(fake_serve_start(&F), 0);
    uint64_t gif[3];
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 50000; i++)
            owner_req(&O, OP_NOOP, 0, 1);
        gif[round] = owner_req(&O, OP_GET_INPUT_FOCUS, 0, 1);
        owner_flush(&O);
    }
    ck_assert_uint_eq(gif[2], 150003);
    for (int round = 0; round < 3; round++) {
        void *r = xw_wait_for_reply64(c, gif[round], NULL);
        ck_assert_ptr_nonnull(r);
        ck_assert_uint_eq(tag_of(r), (uint32_t)gif[round]); /* the server's count at that request */
        free(r);
    }
    /* 65,000 more void requests from the owner: xwire's next void one needs a sync */
    for (int i = 0; i < 65000; i++)
        owner_req(&O, OP_NOOP, 0, 1);
    uint64_t last = O.request;
    uint64_t mine = xw_req(0, OP_NOOP, 1);
    ck_assert_uint_eq(mine, last + 2); /* a sync went first */
    uint64_t g = xw_req(0, OP_GET_INPUT_FOCUS, 0);
    void *r = xw_wait_for_reply64(c, g, NULL);
    ck_assert_ptr_nonnull(r);
    ck_assert_uint_eq(tag_of(r), (uint32_t)g);
    free(r);
    fake_stop(&F);
    ck_assert_uint_eq(F.opcode_count[OP_GET_INPUT_FOCUS], 5);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

/* With XW_REQUEST_REPLY_FDS, the owner's replies claim the fds that came with them. */
START_TEST(owner_reply_fds)
{
    O.flags = XW_REQUEST_REPLY_FDS;
    uint64_t g = owner_req(&O, OP_GET_INPUT_FOCUS, 0, 1);
    owner_flush(&O);
    int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    uint8_t b[32], extra[24] = {0};
    size_t n = fake_reply(b, (uint16_t)g, 1, extra, 24);
    ck_assert_int_eq(fake_send_fds(&F, b, n, &fd, 1), 0);
    close(fd);
    void *r = xw_wait_for_reply64(c, g, NULL);
    ck_assert_ptr_nonnull(r);
    int got = xw_get_reply_fds(c, r, 32)[0];
    struct stat st;
    ck_assert_int_eq(fstat(got, &st), 0);
    ck_assert(S_ISCHR(st.st_mode));
    close(got);
    free(r);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

/* The hand-off allocates nothing once warm: takes, the owner's writes, take-backs,
 * and the owner's replies claimed into caller storage. */
START_TEST(hand_off_allocates_nothing)
{
    ck_assert_int_eq(fake_serve_start(&F), 0);
    unsigned long a = 0;
    uint8_t buf[64];
    size_t len;
    int bad = 0; /* no ck_assert inside the counted part: Check's own bookkeeping allocates */
    for (int round = 0; round < 1100; round++) {
        if (round == 100)
            a = alloc_count_begin();
        uint64_t sent = 0;
        if (!O.holds) { /* owner_take without its assertion */
            bad |= !xw_take_socket(c, owner_return, &O, 0, &sent);
            O.request = O.flushed = sent;
            O.holds = 1;
        }
        owner_req(&O, OP_NOOP, 0, 1);
        uint64_t g = owner_req(&O, OP_GET_INPUT_FOCUS, 0, 1);
        struct iovec v = {O.buf, O.len};
        bad |= !xw_writev(c, &v, 1, O.request - O.flushed);
        O.flushed = O.request;
        O.len = 0;
        bad |= xw_wait_for_reply_into(c, g, buf, sizeof(buf), &len, NULL, -1) != 1;
        bad |= tag_of(buf) != (uint32_t)g;
        bad |= xw_req(0, OP_NOOP, 1) == 0; /* takes the socket back */
    }
    ck_assert_uint_eq(alloc_count_end(a), 0);
    ck_assert_int_eq(bad, 0);
    ck_assert_uint_eq(O.returns, 1100);
    fake_stop(&F);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

/* xw_discard_reply64 on the owner's requests: a reply already kept (in the slot or
 * the stash, fds and all) is dropped at once, one that comes later on arrival, and
 * with keep_error an error still reaches the event queue; the other requests'
 * replies are untouched. */
START_TEST(discard_drops_what_is_kept_for_the_owner)
{
    O.flags = XW_REQUEST_CHECKED | XW_REQUEST_REPLY_FDS;
    uint64_t a = owner_req(&O, OP_GET_INPUT_FOCUS, 0, 1);
    uint64_t b = owner_req(&O, OP_GET_INPUT_FOCUS, 0, 1);
    uint64_t d = owner_req(&O, OP_GET_INPUT_FOCUS, 0, 1);
    uint64_t f = owner_req(&O, OP_MAP_WINDOW, 0, 2);
    uint64_t g = owner_req(&O, OP_MAP_WINDOW, 0, 2);
    uint64_t h = owner_req(&O, OP_GET_INPUT_FOCUS, 0, 1);
    owner_flush(&O);
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    uint8_t r[32], extra[24] = {0};
    /* a: a reply with an fd, then b's, then its error (b is checked): a to the stash,
     * b's reply to the slot, b's error behind it in the stash; an event to wait for */
    ck_assert_int_eq(fake_send_fds(&F, r, fake_reply(r, (uint16_t)a, 1, extra, 24), fds, 1), 0);
    close(fds[0]);
    server_reply(b, 0, 2);
    server_error(b, 8);
    server_event(b, 5);
    free(xw_wait_for_event(c));
    ck_assert_ptr_nonnull(c->lend.stash.head);
    xw_discard_reply64(c, a); /* its fd closed: the teardown's fd check */
    xw_discard_reply_keep_error64(c, b);
    ck_assert_ptr_null(c->lend.stash.head);
    ck_assert_int_eq(c->lend.last.full, 0);
    /* d, f, g: discarded before their answers come */
    xw_discard_reply64(c, d);
    xw_discard_reply64(c, f);
    xw_discard_reply_keep_error64(c, g);
    ck_assert_int_eq(fake_send_fds(&F, r, fake_reply(r, (uint16_t)d, 1, extra, 24), fds + 1, 1), 0);
    close(fds[1]);
    server_error(f, 3);
    server_error(g, 9);
    server_reply(h, 0, 7);
    xw_generic_error_t *err = NULL;
    void *reply = xw_wait_for_reply64(c, h, &err);
    ck_assert_ptr_nonnull(reply);
    ck_assert_uint_eq(tag_of(reply), 7);
    free(reply);
    ck_assert_ptr_null(c->lend.stash.head); /* nothing of d, f, g was kept */
    uint64_t gone[] = {a, b, d, f, g};
    for (unsigned i = 0; i < 5; i++) {
        reply = (void *)1;
        err = (void *)1;
        ck_assert_int_eq(xw_poll_for_reply64(c, gone[i], &reply, &err), 1);
        ck_assert_ptr_null(reply);
        ck_assert_ptr_null(err);
    }
    uint64_t kept[] = {b, g}; /* the errors of the keep_error discards, as events, in order */
    for (unsigned i = 0; i < 2; i++) {
        xw_generic_event_t *e = xw_poll_for_queued_event(c);
        ck_assert_ptr_nonnull(e);
        ck_assert_uint_eq(e->response_type, 0);
        ck_assert_uint_eq(e->full_sequence, (uint32_t)kept[i]);
        free(e);
    }
    ck_assert_ptr_null(xw_poll_for_queued_event(c));
    ck_assert_uint_eq(c->lend.ndiscards, 0); /* h's reply was read: all answered past */
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

/* The owner writes more than the socket holds in one xw_writev: the first sendmsg
 * takes part of it, the rest goes the general way (waits for room while the server
 * reads); every byte arrives once and in order, and the count joins the numbering. */
START_TEST(owner_write_larger_than_the_socket)
{
    ck_assert_int_eq(fake_serve_start(&F), 0);
    enum { BIG = 15, WORDS = 16383 }; /* 15 NoOperations of 64 KiB: ~960 KiB */
    for (int i = 0; i < BIG; i++)
        owner_req(&O, OP_NOOP, 0, WORDS);
    uint64_t g = owner_req(&O, OP_GET_INPUT_FOCUS, 0, 1);
    owner_flush(&O);
    uint8_t buf[64];
    size_t len;
    ck_assert_int_eq(xw_wait_for_reply_into(c, g, buf, sizeof(buf), &len, NULL, 5000), 1);
    ck_assert_uint_eq(fs_rd16(buf + 2), (uint16_t)g);
    fake_stop(&F);
    ck_assert_uint_eq(F.opcode_count[OP_NOOP], BIG);
    ck_assert_uint_eq(F.opcode_count[OP_GET_INPUT_FOCUS], 1);
    ck_assert_uint_eq(F.seq, g);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

/* Threads that send while the owner holds the socket: one of them takes it back
 * (the callback runs once), the others wait for that, and every request of theirs
 * is numbered after the owner's. */
static uint64_t thread_seq[4];

static void *sender(void *arg)
{
    uint64_t *seq = arg;
    *seq = xw_req(0, OP_GET_INPUT_FOCUS, 0);
    return NULL;
}

START_TEST(threads_wait_for_one_take_back)
{
    ck_assert_int_eq(fake_serve_start(&F), 0);
    for (int round = 0; round < 50; round++) {
        unsigned before = O.returns;
        uint64_t last = 0;
        for (int i = 0; i < 20; i++)
            last = owner_req(&O, OP_NOOP, 0, 1);
        pthread_t t[4];
        for (int i = 0; i < 4; i++)
            ck_assert_int_eq(pthread_create(&t[i], NULL, sender, &thread_seq[i]), 0);
        for (int i = 0; i < 4; i++)
            pthread_join(t[i], NULL);
        ck_assert_uint_eq(O.returns, before + 1);
        for (int i = 0; i < 4; i++) {
            ck_assert_uint_gt(thread_seq[i], last);
            ck_assert_uint_le(thread_seq[i], last + 4);
            void *r = xw_wait_for_reply64(c, thread_seq[i], NULL);
            ck_assert_ptr_nonnull(r);
            ck_assert_uint_eq(tag_of(r), (uint32_t)thread_seq[i]);
            free(r);
        }
    }
    fake_stop(&F);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

int main(void)
{
    Suite *s = xwtest_suite("lend");
    TCase *tc = tcase_create("lend");
    tcase_set_timeout(tc, 60);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, take_flushes_and_numbers);
    tcase_add_test(tc, poll_answers_like_libxcb);
    tcase_add_test(tc, errors_with_and_without_checked);
    tcase_add_test(tc, multi_reply_kept_per_sequence);
    tcase_add_test(tc, owner_replies_keep_order_through_the_slot);
    tcase_add_loop_test(tc, every_send_takes_back_first, 0, VIA_KINDS);
    tcase_add_test(tc, unknown_sequence_outside_the_owners_turns_is_dropped);
    tcase_add_test(tc, sixteen_bit_wrap_with_the_owner);
    tcase_add_test(tc, owner_reply_fds);
    tcase_add_test(tc, hand_off_allocates_nothing);
    tcase_add_test(tc, owner_write_larger_than_the_socket);
    tcase_add_test(tc, discard_drops_what_is_kept_for_the_owner);
    tcase_add_test(tc, threads_wait_for_one_take_back);
    suite_add_tcase(s, tc);
    return xwtest_run(s);
}
