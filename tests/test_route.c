/* SPDX-License-Identifier: MIT */
/* test_route.c — the routing core fed bytes and fds directly, split at every position: no socket, no server. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base.h"
#include "conn.h"
#include "connect.h"
#include "lend.h"
#include "lock.h"
#include "pend.h"
#include "route.h"
#include "send.h"
#include "store.h"
#include "xwtest.h"

/* The connection under test: made without a socket (fd -1). reading stays set, as if
 * another thread were the reader, so a claim never reads: what it finds is what the
 * core routed. */
static xw_connection_t *c;

static void setup(void)
{
    xwtest_fds_begin();
    c = xw__connect_new(-1);
    ck_assert_int_eq(c->error, 0);
    c->in.reading = 1;
}

static void teardown(void)
{
    xw_disconnect(c);
    c = NULL;
    xwtest_fds_end();
}

static void *no_op(void *arg)
{
    return arg;
}

/* As setup, in a process that has had a second thread: the claims then take the
 * lock and their locked ways (the view's among them), as with threads running. */
static void setup_threaded(void)
{
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, no_op, NULL), 0);
    ck_assert_int_eq(pthread_join(t, NULL), 0);
    ck_assert(!XW_PROCESS_SINGLE_THREADED());
    setup();
}

/* A fresh connection in the middle of a test (one per split). */
static void renew(void)
{
    xw_disconnect(c);
    c = xw__connect_new(-1);
    c->in.reading = 1;
}

/* ---- requests and packets ---- */

/* Numbers the next request and tracks it as the senders do (reply-bearing, or with
 * flags); multi: replies until one with byte 1 == end. */
static uint64_t ask_full(int flags, int isvoid, int multi, uint8_t end, xw_validate_fn v)
{
    uint64_t seq = ++c->out.seq;
    c->out.flushed = seq;
    struct xw_request rq = {.f = {.isvoid = (uint8_t)isvoid, .multi_reply = (uint8_t)multi, .multi_end = end},
                            .validate = v};
    if (!isvoid || flags)
        ck_assert_int_eq(xw__route_track(c, seq, flags, &rq), 0);
    return seq;
}

static uint64_t ask(int flags, int isvoid)
{
    return ask_full(flags, isvoid, 0, 0, NULL);
}

/* A reply for seq with byte 1 b1 and words extra words; bytes 8.. count up from b1. */
static size_t put_reply(uint8_t *b, uint64_t seq, uint8_t b1, uint32_t words)
{
    size_t n = 32 + 4 * (size_t)words;
    b[0] = 1;
    b[1] = b1;
    xw__wr16(b + 2, (uint16_t)seq);
    xw__wr32(b + 4, words);
    for (size_t i = 8; i < n; i++)
        b[i] = (uint8_t)(b1 + i);
    return n;
}

static size_t put_error(uint8_t *b, uint64_t seq, uint8_t code)
{
    memset(b, 0, 32);
    b[1] = code;
    xw__wr16(b + 2, (uint16_t)seq);
    b[10] = 16;
    return 32;
}

static size_t put_event(uint8_t *b, uint8_t code, uint64_t seq, uint32_t word)
{
    memset(b, 0, 32);
    b[0] = code;
    xw__wr16(b + 2, (uint16_t)seq);
    xw__wr32(b + 4, word);
    return 32;
}

/* An XGE event of an extension nobody registered (major 140), 8 bytes past 32. */
static size_t put_xge(uint8_t *b, uint64_t seq)
{
    put_event(b, XW_GE_GENERIC, seq, 2);
    b[1] = 140;
    xw__wr16(b + 8, 7);
    for (int i = 32; i < 40; i++)
        b[i] = (uint8_t)(0xe0 + i);
    return 40;
}

static void feed(const uint8_t *b, size_t n)
{
    xw__route_feed(c, b, n, NULL, 0);
}

/* Feeds b in pieces ending at cut[0] < cut[1] < ... < cut[k-1] == n, the fds with
 * piece fd_piece (-1: none). */
static void feed_cut(const uint8_t *b, const size_t *cut, int k, int fd_piece, const int *fds, unsigned nfds)
{
    size_t at = 0;
    for (int i = 0; i < k; i++) {
        xw__route_feed(c, b + at, cut[i] - at, i == fd_piece ? fds : NULL, i == fd_piece ? nfds : 0);
        at = cut[i];
    }
}

/* ---- what the core decided ----
 * The checks return 0, or the line of the first that failed: a split loop makes one
 * Check assertion per case (each costs Check a write), through MUST. */

#define T(cond)                                                                                                        \
    do {                                                                                                               \
        if (!(cond))                                                                                                   \
            return __LINE__;                                                                                           \
    } while (0)
#define MUST(check)                                                                                                    \
    do {                                                                                                               \
        int line_ = (check);                                                                                           \
        ck_assert_msg(line_ == 0, "%s: failed at line %d (connection: %s)", #check, line_,                             \
                      c->error ? c->errstr : "fine");                                                                  \
    } while (0)

/* The i-th packet queued for seq; NULL when none (or seq is not tracked). */
static struct xw_pkt *queued(uint64_t seq, int i)
{
    struct xw_pend *e = xw__pend_find(&c->in.pend, seq);
    if (!e || e->inl)
        return NULL;
    struct xw_pkt *p = e->q.head;
    while (p && i--)
        p = p->next;
    return p;
}

/* seq's i-th reply is b1's of n bytes, as put_reply made it. */
static int has_reply(uint64_t seq, int i, uint8_t b1, size_t n)
{
    struct xw_pend *e = xw__pend_find(&c->in.pend, seq);
    T(e);
    if (e->inl) {
        T(i == 0 && n == 32 && e->byte1 == b1 && e->body[0] == (uint8_t)(b1 + 8));
        return 0;
    }
    struct xw_pkt *p = queued(seq, i);
    T(p && p->kind == XW_PKT_REPLY && p->len == n && p->seq == seq);
    const uint8_t *d = XW_PKT_DATA(p);
    T(d[0] == 1 && d[1] == b1);
    for (size_t k = 8; k < n; k++)
        T(d[k] == (uint8_t)(b1 + k));
    return 0;
}

/* seq's checked error is code's. */
static int has_error(uint64_t seq, uint8_t code)
{
    struct xw_pkt *p = queued(seq, 0);
    T(p && p->kind == XW_PKT_ERROR);
    T(XW_PKT_DATA(p)[0] == 0 && XW_PKT_DATA(p)[1] == code);
    T(xw__rd32(XW_PKT_DATA(p) + 32) == (uint32_t)seq);
    return 0;
}

/* The next queued event has code and the widened sequence seq (its low 32 bits). */
static int next_event(uint8_t code, uint64_t seq)
{
    xw_generic_event_t *ev = xw_poll_for_queued_event(c);
    T(ev);
    int ok = ev->response_type == code && ev->full_sequence == (uint32_t)seq;
    free(ev);
    T(ok);
    return 0;
}

/* The next queued event is put_xge's for seq, in libxcb's layout: the 32 bytes, the
 * widened sequence, then the extra bytes. */
static int next_xge(uint64_t seq)
{
    uint8_t *ev = (uint8_t *)xw_poll_for_queued_event(c);
    T(ev);
    int ok = ev[0] == XW_GE_GENERIC && ev[1] == 140 && xw__rd32(ev + 32) == (uint32_t)seq;
    for (int i = 0; i < 8; i++)
        ok &= ev[36 + i] == (uint8_t)(0xe0 + 32 + i);
    free(ev);
    T(ok);
    return 0;
}

static int no_event(void)
{
    xw_generic_event_t *ev = xw_poll_for_queued_event(c);
    free(ev);
    T(!ev);
    return 0;
}

/* seq is finished with nothing to hand out (its entry gone, or empty). */
static int nothing_for(uint64_t seq)
{
    struct xw_pend *e = xw__pend_find(&c->in.pend, seq);
    T(!e || (e->done && !e->inl && !e->q.head));
    T(xw__route_done_seq(&c->in) >= seq);
    return 0;
}

static int healthy(void)
{
    T(c->error == 0);
    return 0;
}

/* The connection failed with code and a reason containing why. */
static int failed(int code, const char *why)
{
    T(c->error == code);
    T(strstr(c->errstr, why) != NULL);
    return 0;
}

static int is_open(int fd)
{
    return fcntl(fd, F_GETFD) >= 0;
}

/* n fresh fds (pipes' read ends). */
static void new_fds(int *fds, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        int p[2];
        ck_assert_int_eq(pipe2(p, O_CLOEXEC), 0);
        close(p[1]);
        fds[i] = p[0];
    }
}

/* seq's reply (queued) carries exactly the fd want, which the test then closes. */
static int reply_has_fd(uint64_t seq, int want)
{
    struct xw_pkt *p = queued(seq, 0);
    T(p && p->kind == XW_PKT_REPLY && p->nfds == 1);
    int got;
    memcpy(&got, XW_PKT_DATA(p) + p->len, sizeof(int));
    p->nfds = 0; /* the test's now */
    close(got);
    T(got == want);
    return 0;
}

/* ---- a stream of every kind, split everywhere ---- */

/* The requests of the mixed stream: a reply with extra data, a checked void request's
 * error, a two-part reply, a 32-byte reply, an unchecked void request's error; events
 * (core, XGE, KeymapNotify, one sent with SendEvent) between them. */
static uint64_t s1, s2, s3, s4, s5;

static size_t mixed_stream(uint8_t *b)
{
    s1 = ask(XW_REQUEST_CHECKED, 0);
    s2 = ask(XW_REQUEST_CHECKED, 1);
    s3 = ask_full(XW_REQUEST_CHECKED, 0, 1, 0, NULL);
    s4 = ask(XW_REQUEST_CHECKED, 0);
    s5 = ask(0, 1);
    size_t n = 0;
    n += put_event(b + n, 33, 0, 0xa);
    n += put_reply(b + n, s1, 0x11, 2);
    n += put_error(b + n, s2, 3);
    n += put_event(b + n, 2, s2, 0xb);
    n += put_xge(b + n, s2);
    n += put_reply(b + n, s3, 5, 1);
    n += put_reply(b + n, s3, 0, 0);
    n += put_reply(b + n, s4, 0x44, 0);
    n += put_error(b + n, s5, 9);
    n += put_event(b + n, 11, 0xffff, 0); /* KeymapNotify: bytes 2-3 are keys, not a sequence */
    n += put_event(b + n, 0x81, s5, 5);   /* sent with SendEvent: 32 bytes, whatever 4-7 say */
    return n;
}

static int mixed_routed(size_t n)
{
    T(healthy() == 0);
    T(c->in.len == 0 && c->in.pdata == NULL && c->in.rpos == n);
    T(has_reply(s1, 0, 0x11, 40) == 0);
    T(has_error(s2, 3) == 0);
    T(has_reply(s3, 0, 5, 36) == 0);
    T(has_reply(s3, 1, 0, 32) == 0);
    T(queued(s3, 2) == NULL);
    T(xw__pend_find(&c->in.pend, s4)->inl); /* a 32-byte reply: kept in its entry, no record */
    T(has_reply(s4, 0, 0x44, 32) == 0);
    T(next_event(33, 0) == 0);
    T(next_event(2, s2) == 0);
    T(next_xge(s2) == 0);
    T(next_event(0, s5) == 0);
    T(next_event(11, s5) == 0); /* KeymapNotify takes the last sequence read */
    T(next_event(0x81, s5) == 0);
    T(no_event() == 0);
    T(c->in.dropped == 0);
    T(xw__route_done_seq(&c->in) == s5);
    return 0;
}

START_TEST(mixed_stream_one_byte_at_a_time)
{
    uint8_t b[512];
    size_t n = mixed_stream(b), cut[512];
    for (size_t i = 0; i < n; i++)
        cut[i] = i + 1;
    feed_cut(b, cut, (int)n, -1, NULL, 0);
    MUST(mixed_routed(n));
}
END_TEST

START_TEST(mixed_stream_in_two_pieces_at_every_offset)
{
    uint8_t b[512];
    size_t n = mixed_stream(b);
    for (size_t k = 1; k < n; k++) {
        renew();
        mixed_stream(b);
        size_t cut[2] = {k, n};
        feed_cut(b, cut, 2, -1, NULL, 0);
        MUST(mixed_routed(n));
    }
}
END_TEST

/* Every pair of cuts: every 3-piece split. */
START_TEST(mixed_stream_in_three_pieces_everywhere)
{
    uint8_t b[512];
    size_t n = mixed_stream(b);
    for (size_t i = 1; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            renew();
            mixed_stream(b);
            size_t cut[3] = {i, j, n};
            feed_cut(b, cut, 3, -1, NULL, 0);
            MUST(mixed_routed(n));
        }
}
END_TEST

/* ---- sequence widening ---- */

/* Requests across the 16-bit wrap, then across the 32-bit one: replies, errors and
 * events find their 64-bit sequences from 16 bits on the wire. */
START_TEST(widening_across_16_and_32_bit_wraps)
{
    static const uint64_t starts[] = {0xfffd, 0xfffffffdull, 0x3fffffffdull};
    for (size_t k = 0; k < sizeof(starts) / sizeof(starts[0]); k++) {
        renew();
        c->out.seq = c->out.flushed = c->in.last_seq = starts[k];
        uint64_t r[6];
        uint8_t b[6 * 64];
        size_t n = 0;
        for (int i = 0; i < 6; i++)
            r[i] = ask(XW_REQUEST_CHECKED, i % 2);
        for (int i = 0; i < 6; i++) {
            n += put_event(b + n, 33, r[i] - 1, (uint32_t)i);
            n += i % 2 ? put_error(b + n, r[i], (uint8_t)(i + 1)) : put_reply(b + n, r[i], (uint8_t)i, 0);
        }
        feed(b, n);
        MUST(healthy());
        for (int i = 0; i < 6; i++) {
            if (i % 2)
                MUST(has_error(r[i], (uint8_t)(i + 1)));
            else
                MUST(has_reply(r[i], 0, (uint8_t)i, 32));
            MUST(next_event(33, r[i] - 1));
        }
        ck_assert_uint_eq(c->in.last_seq, r[5]);
        ck_assert(r[5] >> 16 != starts[k] >> 16);
    }
}
END_TEST

/* A run of more than 65536 events under one sequence is no wrap: the sequence stays. */
START_TEST(widening_event_runs_do_not_advance)
{
    uint64_t s = ask(XW_REQUEST_CHECKED, 0);
    uint8_t b[32];
    put_event(b, 33, s - 1, 0);
    for (int i = 0; i < 70000; i++)
        feed(b, 32);
    uint8_t r[32];
    put_reply(r, s, 7, 0);
    feed(r, 32);
    MUST(healthy());
    MUST(has_reply(s, 0, 7, 32));
    int bad = 0;
    for (int i = 0; i < 70000; i++)
        bad += next_event(33, s - 1) != 0;
    ck_assert_int_eq(bad, 0);
}
END_TEST

/* Events say the server finished every request before theirs, as any packet does,
 * also inside a run of events batched without route(): a checked void request and
 * one whose reply never came finish with nothing, at every split; the request the
 * events name stays unfinished. */
START_TEST(events_finish_the_requests_before_them)
{
    uint8_t b[160];
    for (size_t k = 1; k < 160; k++) {
        renew();
        uint64_t v = ask(XW_REQUEST_CHECKED, 1), r = ask(XW_REQUEST_CHECKED, 0), w = ask(XW_REQUEST_CHECKED, 1);
        size_t n = put_event(b, 33, v - 1, 0); /* starts the batch: later events take the run */
        for (int i = 0; i < 4; i++)
            n += put_event(b + n, 33, w, (uint32_t)i + 1);
        size_t cut[2] = {k, n};
        feed_cut(b, cut, 2, -1, NULL, 0);
        MUST(healthy());
        MUST(nothing_for(v));
        MUST(nothing_for(r));
        ck_assert(!xw__pend_find(&c->in.pend, w)->done);
        MUST(next_event(33, v - 1));
        for (int i = 0; i < 4; i++)
            MUST(next_event(33, w));
        MUST(no_event());
    }
}
END_TEST

/* ---- fds ---- */

/* Two fd-bearing replies after an event, split in two reads at every offset, the
 * fds (a batch of two) on the first read, or each with the read holding its reply's
 * first byte, or its last byte: each reply gets its own fd wherever the cut falls,
 * the fd coming a read early (before any byte of its reply), with its reply's first
 * read, or a read late (with the read that completes it). */
START_TEST(fds_follow_their_replies_at_every_split)
{
    uint8_t b[256];
    size_t n = 104; /* an event, a 40-byte reply at 32, a 32-byte reply at 72 */
    static const size_t first[2] = {32, 72}, last[2] = {71, 103};
    for (size_t k = 1; k < n; k++)
        for (int form = 0; form < 3; form++) {
            renew();
            uint64_t a = ask(XW_REQUEST_CHECKED | XW_REQUEST_REPLY_FDS, 0);
            uint64_t z = ask(XW_REQUEST_CHECKED | XW_REQUEST_REPLY_FDS, 0);
            size_t m = put_event(b, 33, 0, 0);
            m += put_reply(b + m, a, 1, 2);
            m += put_reply(b + m, z, 1, 0);
            ck_assert_uint_eq(m, n);
            int fd[2], per[2][2];
            unsigned nper[2] = {0, 0};
            new_fds(fd, 2);
            for (int r = 0; r < 2; r++) {
                size_t at = form == 1 ? first[r] : last[r];
                int read = form == 0 ? 0 : at >= k;
                per[read][nper[read]++] = fd[r];
            }
            xw__route_feed(c, b, k, per[0], nper[0]);
            xw__route_feed(c, b + k, n - k, per[1], nper[1]);
            MUST(healthy());
            MUST(reply_has_fd(a, fd[0]));
            MUST(reply_has_fd(z, fd[1]));
            ck_assert_uint_eq(c->in.nfdb, 0);
            MUST(next_event(33, 0));
        }
}
END_TEST

/* Fds that came with events (bytes before any of the reply's) while a request waits
 * for fds, then the reply with its own fd in the next read, cut at every offset
 * before the reply: the reply gets its own, the events' are closed once it is routed. */
START_TEST(fds_of_events_are_not_a_later_replys)
{
    uint8_t b[128];
    for (size_t k = 1; k <= 64; k++) {
        renew();
        uint64_t s = ask(XW_REQUEST_CHECKED | XW_REQUEST_REPLY_FDS, 0);
        size_t n = put_event(b, 33, s - 1, 0);
        n += put_event(b + n, 33, s - 1, 1);
        n += put_reply(b + n, s, 1, 0);
        int ev[2], own;
        new_fds(ev, 2);
        new_fds(&own, 1);
        xw__route_feed(c, b, k, ev, 2);
        MUST(healthy());
        ck_assert(is_open(ev[0]) && is_open(ev[1])); /* kept: the waiting reply may claim them */
        xw__route_feed(c, b + k, n - k, &own, 1);
        MUST(healthy());
        MUST(reply_has_fd(s, own));
        ck_assert(!is_open(ev[0]) && !is_open(ev[1]));
        MUST(next_event(33, s - 1));
        MUST(next_event(33, s - 1));
    }
}
END_TEST

/* An fd one read early: it came with an event while the request waiting for fds was
 * unfinished, and is kept for the reply that comes in a later read. */
START_TEST(fd_one_read_early_is_kept_for_the_reply)
{
    uint64_t s = ask(XW_REQUEST_CHECKED | XW_REQUEST_REPLY_FDS, 0);
    int fd;
    new_fds(&fd, 1);
    uint8_t b[64];
    put_event(b, 33, s - 1, 0);
    xw__route_feed(c, b, 32, &fd, 1);
    ck_assert(is_open(fd));
    ck_assert_uint_eq(c->in.nfdb, 1);
    put_reply(b, s, 1, 0);
    feed(b, 32);
    MUST(healthy());
    MUST(reply_has_fd(s, fd));
    MUST(next_event(33, s - 1));
}
END_TEST

/* An fd one read late (after the whole reply that claims it): fatal, and it is closed. */
START_TEST(fd_one_read_late_is_fatal)
{
    uint64_t s = ask(XW_REQUEST_CHECKED | XW_REQUEST_REPLY_FDS, 0);
    int fd;
    new_fds(&fd, 1);
    uint8_t b[64];
    put_reply(b, s, 1, 0);
    feed(b, 32);
    MUST(failed(XW_CONN_CLOSED_MALFORMED, "claims 1 fds, 0 received"));
    put_event(b, 33, s, 0);
    ck_assert_int_eq(xw__route_feed(c, b, 32, &fd, 1), -EPIPE);
    ck_assert(!is_open(fd));
}
END_TEST

/* Fds with packets no reply claims: with an error and an event while nothing waits
 * for fds (closed once parsed), and more than a reply claims (the rest closed). */
START_TEST(fds_nobody_claims_are_closed)
{
    uint64_t v = ask(XW_REQUEST_CHECKED, 1);
    int fd[4];
    new_fds(fd, 4);
    uint8_t b[64];
    put_error(b, v, 3);
    xw__route_feed(c, b, 32, fd, 2);
    ck_assert(!is_open(fd[0]) && !is_open(fd[1]));
    MUST(has_error(v, 3));
    uint64_t s = ask(XW_REQUEST_CHECKED | XW_REQUEST_REPLY_FDS, 0);
    put_reply(b, s, 1, 0);
    xw__route_feed(c, b, 32, fd + 2, 2);
    MUST(healthy());
    ck_assert(!is_open(fd[3]));
    MUST(reply_has_fd(s, fd[2]));
    ck_assert_uint_eq(c->in.nfdb, 0);
}
END_TEST

/* Kept fds are closed when the request they waited for ends with an error instead. */
START_TEST(fds_kept_for_a_request_closed_by_its_error)
{
    uint64_t s = ask(XW_REQUEST_CHECKED | XW_REQUEST_REPLY_FDS, 0);
    int fd[2];
    new_fds(fd, 2);
    uint8_t b[64];
    put_event(b, 33, s - 1, 0);
    xw__route_feed(c, b, 32, fd, 2);
    ck_assert(is_open(fd[0]) && is_open(fd[1]));
    put_error(b, s, 2);
    feed(b, 32);
    MUST(healthy());
    MUST(has_error(s, 2));
    ck_assert(!is_open(fd[0]) && !is_open(fd[1]));
}
END_TEST

/* Fds kept for a request whose reply brings fds (they came with an error and with
 * the first byte of an event, split from its rest) are closed when its reply claims
 * none; the reply is whole. */
START_TEST(fds_kept_for_a_reply_that_claims_none_are_closed)
{
    uint64_t v = ask(XW_REQUEST_CHECKED, 1);
    uint64_t s = ask(XW_REQUEST_CHECKED | XW_REQUEST_REPLY_FDS, 0);
    int fd[5];
    new_fds(fd, 5);
    uint8_t b[64];
    put_error(b, v, 3);
    xw__route_feed(c, b, 32, fd, 3);
    put_event(b, 33, v, 0);
    xw__route_feed(c, b, 1, fd + 3, 2);
    xw__route_feed(c, b + 1, 31, NULL, 0);
    MUST(healthy());
    for (int i = 0; i < 5; i++)
        ck_assert(is_open(fd[i])); /* kept: the reply may claim them */
    put_reply(b, s, 0, 0);
    feed(b, 32);
    MUST(healthy());
    MUST(has_error(v, 3));
    MUST(has_reply(s, 0, 0, 32));
    for (int i = 0; i < 5; i++)
        ck_assert(!is_open(fd[i]));
    ck_assert_uint_eq(c->in.nfdb, 0);
    MUST(next_event(33, v));
}
END_TEST

/* A reply whose request asked for no fds: its byte 1 is data, not a count; the fd
 * that came with it is nobody's and is closed. */
START_TEST(fds_with_a_reply_that_asked_for_none_are_closed)
{
    uint64_t s = ask(XW_REQUEST_CHECKED, 0);
    int fd;
    new_fds(&fd, 1);
    uint8_t b[64];
    put_reply(b, s, 3, 4);
    xw__route_feed(c, b, 48, &fd, 1);
    MUST(healthy());
    MUST(has_reply(s, 0, 3, 48));
    ck_assert_uint_eq(queued(s, 0)->nfds, 0);
    ck_assert(!is_open(fd));
}
END_TEST

/* A reply that claims two fds with one received: fatal, the one closed. */
START_TEST(fewer_fds_than_claimed_is_fatal)
{
    uint64_t s = ask(XW_REQUEST_CHECKED | XW_REQUEST_REPLY_FDS, 0);
    int fd;
    new_fds(&fd, 1);
    uint8_t b[32];
    put_reply(b, s, 2, 0);
    xw__route_feed(c, b, 32, &fd, 1);
    MUST(failed(XW_CONN_CLOSED_MALFORMED, "claims 2 fds, 1 received"));
    ck_assert(!is_open(fd));
}
END_TEST

/* More fds in one read than a connection takes: fatal, none left open. */
START_TEST(too_many_fds_in_one_read_is_fatal)
{
    enum { N = XW_MAX_FDS + 1 };
    uint64_t s = ask(XW_REQUEST_CHECKED | XW_REQUEST_REPLY_FDS, 0);
    int fd[N];
    new_fds(fd, N);
    uint8_t b[32];
    put_reply(b, s, N, 0);
    ck_assert_int_eq(xw__route_feed(c, b, 32, fd, N), -EPIPE);
    MUST(failed(XW_CONN_CLOSED_FDPASSING_FAILED, "lost"));
    for (int i = 0; i < N; i++)
        ck_assert(!is_open(fd[i]));
}
END_TEST

/* A reply claiming more fds than one reply may carry, with enough kept from earlier
 * reads to satisfy the count: fatal before any is taken (a reply holds at most
 * XW_MAX_FDS), every fd closed. */
START_TEST(more_fds_claimed_than_a_reply_holds_is_fatal)
{
    enum { N = 2 * XW_MAX_FDS };
    uint64_t s = ask(XW_REQUEST_CHECKED | XW_REQUEST_REPLY_FDS, 0);
    int fd[N];
    new_fds(fd, N);
    uint8_t b[32];
    for (int i = 0; i < 2; i++) {
        put_event(b, 33, s - 1, (uint32_t)i);
        xw__route_feed(c, b, 32, fd + i * XW_MAX_FDS, XW_MAX_FDS);
    }
    MUST(healthy());
    put_reply(b, s, XW_MAX_FDS + 1, 0);
    ck_assert_int_eq(xw__route_feed(c, b, 32, NULL, 0), -EPIPE);
    MUST(failed(XW_CONN_CLOSED_MALFORMED, "claims 17 fds, 32 received"));
    for (int i = 0; i < N; i++)
        ck_assert(!is_open(fd[i]));
}
END_TEST

/* Fds with each of 12 events while a request waits for fds: at most XW_FD_BATCHES
 * reads' worth are kept (the oldest closed first); the reply then gets its own.
 * Then fds on more reads than that of one unfinished big reply: fatal, all closed. */
START_TEST(hostile_fd_counts_are_bounded)
{
    uint64_t s = ask(XW_REQUEST_CHECKED | XW_REQUEST_REPLY_FDS, 0);
    int fd[12], mine;
    new_fds(fd, 12);
    new_fds(&mine, 1);
    uint8_t b[64];
    for (int i = 0; i < 12; i++) {
        put_event(b, 33, s - 1, (uint32_t)i);
        xw__route_feed(c, b, 32, fd + i, 1);
        ck_assert_uint_le(c->in.nfdb, XW_FD_BATCHES);
    }
    for (int i = 0; i < 12; i++)
        ck_assert_int_eq(is_open(fd[i]), i >= 12 - (int)XW_FD_BATCHES);
    put_reply(b, s, 1, 0);
    xw__route_feed(c, b, 32, &mine, 1);
    MUST(healthy());
    MUST(reply_has_fd(s, mine));
    for (int i = 0; i < 12; i++)
        ck_assert(!is_open(fd[i]));

    s = ask(XW_REQUEST_CHECKED | XW_REQUEST_REPLY_FDS, 0);
    enum { BIG = 50000 };
    uint8_t *big = malloc(32 + 4 * BIG);
    size_t n = put_reply(big, s, 1, BIG), at = 0;
    int lost[XW_FD_BATCHES + 2];
    new_fds(lost, XW_FD_BATCHES + 2);
    for (unsigned i = 0; i < XW_FD_BATCHES + 2; i++, at += 100)
        xw__route_feed(c, big + at, 100, lost + i, 1);
    ck_assert(at < n);
    MUST(failed(XW_CONN_CLOSED_FDPASSING_FAILED, "lost"));
    for (unsigned i = 0; i < XW_FD_BATCHES + 2; i++)
        ck_assert(!is_open(lost[i]));
    free(big);
}
END_TEST

/* Requests whose replies were discarded before they came (as xw_discard_reply
 * leaves them): a reply, also a big one in its own record and one that brings fds,
 * is dropped with its fds closed; an error is dropped too, or goes to the event
 * queue when the discard keeps errors; none is counted as unexpected. */
START_TEST(discarded_requests_drop_their_replies)
{
    enum { WORDS = 50000 };
    uint8_t *b = malloc(32 + 4 * WORDS + 160);
    uint64_t d1 = ask(XW_REQUEST_DISCARD_REPLY, 0);
    uint64_t d2 = ask(XW_REQUEST_DISCARD_REPLY, 0);
    uint64_t d3 = ask(XW_REQUEST_DISCARD_REPLY | XW_REQUEST_REPLY_FDS, 0);
    uint64_t d4 = ask(XW_REQUEST_DISCARD_REPLY, 0);
    uint64_t d5 = ask(XW_REQUEST_DISCARD_REPLY | XW_REQUEST_ERROR_TO_EVENTS, 0);
    uint64_t r = ask(XW_REQUEST_CHECKED, 0);
    size_t n = put_reply(b, d1, 0x11, 0);
    n += put_reply(b + n, d2, 0x12, WORDS);
    size_t fd_at = n;
    n += put_reply(b + n, d3, 1, 0);
    n += put_error(b + n, d4, 4);
    n += put_error(b + n, d5, 5);
    n += put_reply(b + n, r, 0x22, 0);
    int fd;
    new_fds(&fd, 1);
    size_t cut[3] = {100, fd_at, n};
    feed_cut(b, cut, 3, 2, &fd, 1);
    MUST(healthy());
    ck_assert(!is_open(fd));
    ck_assert_uint_eq(c->in.nfdb, 0);
    ck_assert_ptr_null(c->in.partial);
    ck_assert_uint_eq(c->in.dropped, 0);
    MUST(nothing_for(d1));
    MUST(nothing_for(d2));
    MUST(nothing_for(d3));
    MUST(nothing_for(d4));
    MUST(nothing_for(d5));
    MUST(has_reply(r, 0, 0x22, 32));
    MUST(next_event(0, d5));
    MUST(no_event());
    free(b);
}
END_TEST

/* ---- packets bigger than the read buffer ---- */

/* A 200 KB reply after an event, cut at offsets around every boundary that matters
 * (the header, the buffer's size, the end): it lands whole in its own record. */
START_TEST(big_reply_in_pieces)
{
    enum { WORDS = 50000 };
    size_t total = 32 + 32 + 4 * (size_t)WORDS;
    uint8_t *b = malloc(total + 32);
    enum { S = XW_IN_SIZE }; /* the read buffer's size */
    static const size_t at[] = {1, 31, 32, 33, 63, 64, 65, 100, S - 1, S, S + 1, S + 32, 2 * S, 150000};
    for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++)
        for (size_t j = i; j < sizeof(at) / sizeof(at[0]); j++) {
            renew();
            uint64_t s = ask(XW_REQUEST_CHECKED, 0);
            size_t n = put_event(b, 33, s - 1, 0);
            n += put_reply(b + n, s, 0x21, WORDS);
            n += put_event(b + n, 34, s, 0);
            size_t cut[4] = {at[i], at[j], total - 1, n};
            int k = 0;
            size_t cuts[4];
            for (int x = 0; x < 4; x++)
                if (!k || cut[x] > cuts[k - 1])
                    cuts[k++] = cut[x];
            feed_cut(b, cuts, k, -1, NULL, 0);
            MUST(healthy());
            MUST(has_reply(s, 0, 0x21, 32 + 4 * (size_t)WORDS));
            MUST(next_event(33, s - 1));
            MUST(next_event(34, s));
            ck_assert_ptr_null(c->in.pdata);
        }
    free(b);
}
END_TEST

/* ---- replies straight into a waiting caller's buffer ---- */

/* Registers buf (cap bytes) for seq's reply, as a waiting claim does. */
static void register_into(uint64_t seq, void *buf, size_t cap)
{
    c->in.into = (struct xw_into){.seq = seq, .buf = buf, .cap = cap, .state = XW_INTO_WAIT};
}

/* A 64-byte reply lands in the registered buffer at every split; one bigger than the
 * buffer (200 KB) is received there directly, never in a record; one that does not
 * fit is queued instead. */
START_TEST(into_buffer_delivery)
{
    static uint8_t buf[300000];
    uint8_t b[128];
    for (size_t k = 1; k < 96; k++) {
        renew();
        uint64_t s = ask(XW_REQUEST_CHECKED, 0);
        register_into(s, buf, sizeof(buf));
        size_t n = put_event(b, 33, s - 1, 0);
        n += put_reply(b + n, s, 0x31, 8);
        size_t cut[2] = {k, n};
        feed_cut(b, cut, 2, -1, NULL, 0);
        MUST(healthy());
        ck_assert_int_eq(c->in.into.state, XW_INTO_DONE);
        ck_assert_uint_eq(c->in.into.len, 64);
        ck_assert_uint_eq(buf[1], 0x31);
        ck_assert_uint_eq(buf[63], (uint8_t)(0x31 + 63));
        ck_assert_ptr_null(queued(s, 0));
        MUST(next_event(33, s - 1));
        c->in.into = (struct xw_into){0};
    }

    renew();
    enum { WORDS = 50000 };
    uint8_t *big = malloc(32 + 4 * WORDS);
    uint64_t s = ask(XW_REQUEST_CHECKED, 0);
    register_into(s, buf, sizeof(buf));
    size_t n = put_reply(big, s, 0x32, WORDS);
    feed(big, 100);
    ck_assert_int_eq(c->in.into.state, XW_INTO_FILL);
    ck_assert_ptr_eq(c->in.pdata, buf);
    ck_assert_ptr_null(c->in.partial);
    feed(big + 100, n - 100);
    MUST(healthy());
    ck_assert_int_eq(c->in.into.state, XW_INTO_DONE);
    ck_assert_uint_eq(c->in.into.len, n);
    ck_assert_int_eq(memcmp(buf, big, n), 0);
    c->in.into = (struct xw_into){0};

    s = ask(XW_REQUEST_CHECKED, 0);
    register_into(s, buf, 48);
    put_reply(big, s, 0x33, 8);
    feed(big, 64);
    MUST(healthy());
    ck_assert_int_eq(c->in.into.state, XW_INTO_WAIT);
    MUST(has_reply(s, 0, 0x33, 64));
    c->in.into = (struct xw_into){0};
    free(big);
}
END_TEST

/* ---- a socket lent to another owner (Xlib) ---- */

/* While the socket is lent, the owner's requests are not tracked here: their
 * replies and checked errors go to the lender's store (the slot for the newest
 * 32-byte reply, the stash for the rest); ours still reach ours. */
START_TEST(lent_range_goes_to_the_owner)
{
    uint64_t mine = ask(XW_REQUEST_CHECKED, 0);
    c->lend.used = 1;
    c->lend.ranges[0] = (struct xw_lend_range){c->out.seq + 1, UINT64_MAX, XW_REQUEST_CHECKED};
    c->lend.nranges = 1;
    uint64_t o1 = ++c->out.seq, o2 = ++c->out.seq, o3 = ++c->out.seq;
    c->out.flushed = c->out.seq;
    uint8_t b[256];
    size_t n = put_reply(b, mine, 0x10, 0);
    n += put_reply(b + n, o1, 0x51, 1);
    n += put_error(b + n, o2, 4);
    n += put_reply(b + n, o3, 0x53, 0);
    for (size_t k = 1; k < n; k++) {
        if (k > 1) { /* a fresh connection in the same state */
            renew();
            mine = ask(XW_REQUEST_CHECKED, 0);
            c->lend.used = 1;
            c->lend.ranges[0] = (struct xw_lend_range){c->out.seq + 1, UINT64_MAX, XW_REQUEST_CHECKED};
            c->lend.nranges = 1;
            c->out.seq += 3;
            c->out.flushed = c->out.seq;
        }
        size_t cut[2] = {k, n};
        feed_cut(b, cut, 2, -1, NULL, 0);
        MUST(healthy());
        MUST(has_reply(mine, 0, 0x10, 32));
        struct xw_pkt *p = c->lend.stash.head;
        ck_assert_ptr_nonnull(p);
        ck_assert_uint_eq(p->seq, o1);
        ck_assert_int_eq(p->kind, XW_PKT_REPLY);
        ck_assert_uint_eq(p->len, 36);
        p = p->next;
        ck_assert_ptr_nonnull(p);
        ck_assert_uint_eq(p->seq, o2);
        ck_assert_int_eq(p->kind, XW_PKT_ERROR);
        ck_assert_ptr_null(p->next);
        ck_assert(c->lend.last.full);
        ck_assert_uint_eq(c->lend.last.seq, o3);
        ck_assert_uint_eq(c->lend.last.bytes[1], 0x53);
        MUST(no_event());
    }
}
END_TEST

/* ---- XGE events: checked by their extension's validator, sorted by event id ---- */

/* Validators see the event as stored: wire byte 40 is at 44, after full_sequence. */
static int reject_xge(const void *packet, size_t len)
{
    return len > 44 && ((const uint8_t *)packet)[44] == 0xee ? -1 : 0;
}

static const xw_validate_fn xge_validators[2] = {NULL, reject_xge};
static const xw_ext_desc_t xge_desc = {.xname = "XWIRE-ROUTE-XGE", .n_xge = 2, .xge_validators = xge_validators};
static struct xw_ext_reg xge_reg = {.desc = &xge_desc};
static xw_extension_t xge_ext = {"XWIRE-ROUTE-XGE", 0};

/* The extension present at major 141, as its QueryExtension reply leaves it. */
static void xge_ext_present(void)
{
    if (!xw_ext_desc_find("XWIRE-ROUTE-XGE"))
        xw__ext_register(&xge_reg);
    struct xw_ext_entry *e = xw__ext_entry_get(c, &xge_ext);
    ck_assert_ptr_eq(e->desc, &xge_desc);
    e->state = XW_EXT_PRESENT;
    e->reply[8] = 1;   /* present */
    e->reply[9] = 141; /* major_opcode */
}

/* A fresh connection with the extension present and a special queue for its event
 * id 0x1234, whose arrivals count in *stamp. */
static xw_special_event_t *renew_with_special(uint32_t *stamp)
{
    renew();
    xge_ext_present();
    xw_special_event_t *se = xw_register_for_special_xge(c, &xge_ext, 0x1234, stamp);
    ck_assert_ptr_nonnull(se);
    return se;
}

/* An XGE event of that extension, type 1, for event id eid, wire byte 40 mark. */
static size_t put_xge_of(uint8_t *b, uint64_t seq, uint32_t eid, uint8_t mark)
{
    put_event(b, XW_GE_GENERIC, seq, 4);
    b[1] = 141;
    xw__wr16(b + 8, 1);
    xw__wr32(b + 12, eid);
    memset(b + 32, 0, 16);
    b[40] = mark;
    b[47] = 0x77;
    return 48;
}

/* At every split: the event with the registered id goes to its special queue (its
 * stamp counted), another id's to the event queue, and one its validator refuses
 * becomes an error there (major 35, minor its type); a core event keeps its place. */
START_TEST(xge_events_validated_and_sorted_by_id)
{
    uint8_t b[256];
    for (size_t k = 1; k < 176; k++) {
        uint32_t stamp = 0;
        xw_special_event_t *se = renew_with_special(&stamp);
        uint64_t s = ask(XW_REQUEST_CHECKED, 1);
        size_t n = put_xge_of(b, s, 0x1234, 1);
        n += put_xge_of(b + n, s, 0x9999, 2);
        n += put_event(b + n, 33, s, 0);
        n += put_xge_of(b + n, s, 0x1234, 0xee);
        ck_assert_uint_eq(n, 176);
        size_t cut[2] = {k, n};
        feed_cut(b, cut, 2, -1, NULL, 0);
        MUST(healthy());
        uint8_t *p = (uint8_t *)xw_poll_for_special_event(c, se);
        ck_assert_ptr_nonnull(p);
        int ok = p[0] == XW_GE_GENERIC && xw__rd32(p + 32) == (uint32_t)s && p[36 + 8] == 1 && p[36 + 15] == 0x77;
        free(p);
        ck_assert_msg(ok, "the special event at split %zu", k);
        ck_assert_ptr_null(xw_poll_for_special_event(c, se));
        ck_assert_uint_eq(stamp, 1);
        p = (uint8_t *)xw_poll_for_queued_event(c);
        ck_assert_ptr_nonnull(p);
        ok = p[0] == XW_GE_GENERIC && xw__rd32(p + 12) == 0x9999 && p[44] == 2;
        free(p);
        ck_assert_msg(ok, "the other id's event at split %zu", k);
        MUST(next_event(33, s));
        xw_generic_error_t *e = (xw_generic_error_t *)xw_poll_for_queued_event(c);
        ck_assert_ptr_nonnull(e);
        ok = e->response_type == 0 && e->error_code == XW_ERROR_MALFORMED_REPLY && e->major_code == XW_GE_GENERIC &&
             e->minor_code == 1 && e->full_sequence == (uint32_t)s;
        free(e);
        ck_assert_msg(ok, "the refused event at split %zu", k);
        MUST(no_event());
        xw_unregister_for_special_event(c, se);
    }
}
END_TEST

/* ---- hostile and odd servers ---- */

static void huge(uint8_t type)
{
    uint64_t s = ask(XW_REQUEST_CHECKED, 0);
    uint8_t b[32];
    put_reply(b, s, 0, 0);
    b[0] = type;
    xw__wr32(b + 4, (XW_PACKET_CAP - 32) / 4 + 1);
    ck_assert_int_eq(xw__route_feed(c, b, 32, NULL, 0), -EPIPE);
    MUST(failed(XW_CONN_CLOSED_MALFORMED, "length"));
    ck_assert_ptr_null(c->in.partial);
}

/* A reply and an XGE event one word over the length cap, and an XGE event with the
 * largest length field: fatal before anything is allocated for them; the cap itself
 * is taken (the record is made). */
START_TEST(huge_lengths_are_fatal)
{
    huge(1);
    renew();
    huge(XW_GE_GENERIC);
    renew();
    uint8_t g[40]; /* the largest length field: refused, no overflow in the size */
    put_xge(g, 0);
    memset(g + 4, 0xff, 4);
    ck_assert_int_eq(xw__route_feed(c, g, 32, NULL, 0), -EPIPE);
    MUST(failed(XW_CONN_CLOSED_MALFORMED, "malformed event: length 4294967295 words"));
    ck_assert_ptr_null(c->in.partial);
    renew();
    uint64_t s = ask(XW_REQUEST_CHECKED, 0);
    uint8_t b[32];
    put_reply(b, s, 0, 0);
    xw__wr32(b + 4, (XW_PACKET_CAP - 32) / 4); /* the header alone: the rest never comes */
    feed(b, 32);
    MUST(healthy());
    ck_assert_ptr_nonnull(c->in.partial);
}
END_TEST

/* Replies no request expects: to a void request, twice, after the error that
 * finished the request, with sequence 0 after the setup: dropped and counted; the
 * replies after them are right. */
START_TEST(unexpected_replies_are_dropped)
{
    uint8_t b[512];
    size_t n = 0;
    uint64_t r1 = ask(XW_REQUEST_CHECKED, 0);
    n += put_reply(b + n, 0, 0x99, 0);
    n += put_reply(b + n, r1, 0x11, 0);
    uint64_t v = ask(0, 1);
    n += put_reply(b + n, v, 0x98, 0);
    uint64_t r2 = ask(XW_REQUEST_CHECKED, 0);
    n += put_reply(b + n, r2, 0x12, 0);
    n += put_reply(b + n, r2, 0x97, 0);
    uint64_t r3 = ask(0, 0);
    n += put_error(b + n, r3, 5);
    n += put_reply(b + n, r3, 0x96, 0);
    uint64_t r4 = ask(XW_REQUEST_CHECKED, 0);
    n += put_reply(b + n, r4, 0x14, 0);
    feed(b, n);
    MUST(healthy());
    MUST(has_reply(r1, 0, 0x11, 32));
    MUST(has_reply(r2, 0, 0x12, 32));
    MUST(has_reply(r4, 0, 0x14, 32));
    ck_assert_uint_eq(c->in.dropped, 4);
    MUST(next_event(0, r3));
    MUST(no_event());
}
END_TEST

/* An error, then a reply for the same request: the error is the answer (checked: the
 * request's; unchecked: the event queue's), the reply is dropped, the next request's
 * reply is its own. */
START_TEST(error_then_reply_for_one_request)
{
    for (int checked = 0; checked < 2; checked++) {
        renew();
        uint64_t s = ask(checked ? XW_REQUEST_CHECKED : 0, 0), t = ask(XW_REQUEST_CHECKED, 0);
        uint8_t b[96];
        size_t n = put_error(b, s, 5);
        n += put_reply(b + n, s, 0x11, 0);
        n += put_reply(b + n, t, 0x22, 0);
        feed(b, n);
        MUST(healthy());
        ck_assert_uint_eq(c->in.dropped, 1);
        MUST(has_reply(t, 0, 0x22, 32));
        if (checked) {
            MUST(has_error(s, 5));
            ck_assert_ptr_null(queued(s, 1));
        } else {
            MUST(nothing_for(s));
            MUST(next_event(0, s));
        }
        MUST(no_event());
    }
}
END_TEST

/* Event codes nobody registered (an unknown extension's, the top of the range), and
 * the SendEvent bit on a reply's, an error's and an unknown code, are data: 32 bytes
 * queued as they came whatever bytes 4-7 say, the connection fine. */
START_TEST(events_of_any_code_are_data)
{
    static const uint8_t codes[] = {64, 127, 0x80, 0x81, 0x80 | 100, 2};
    uint64_t s = ask(XW_REQUEST_CHECKED, 0);
    uint8_t b[256];
    size_t n = 0;
    for (size_t i = 0; i < sizeof(codes); i++)
        n += put_event(b + n, codes[i], s - 1, 5); /* bytes 4-7 as a reply's length: 5 words */
    n += put_reply(b + n, s, 0x22, 0);
    for (size_t k = 1; k < n; k++) {
        renew();
        s = ask(XW_REQUEST_CHECKED, 0);
        size_t cut[2] = {k, n};
        feed_cut(b, cut, 2, -1, NULL, 0);
        MUST(healthy());
        MUST(has_reply(s, 0, 0x22, 32));
        for (size_t i = 0; i < sizeof(codes); i++) {
            xw_generic_event_t *ev = xw_poll_for_queued_event(c);
            ck_assert_ptr_nonnull(ev);
            int ok = ev->response_type == codes[i] && xw__rd32((uint8_t *)ev + 4) == 5 &&
                     ev->full_sequence == (uint32_t)(s - 1);
            free(ev);
            ck_assert_msg(ok, "event %zu (code %u) at split %zu", i, codes[i], k);
        }
        MUST(no_event());
    }
}
END_TEST

/* A sequence going backwards (an older request's packets after a newer reply): the
 * late reply is dropped and finishes the oldest request still awaiting one with
 * nothing; a late error and event are queued as events with their own sequence. A
 * damaged sequence older than the connection itself is fatal. */
START_TEST(sequence_going_backwards)
{
    uint64_t a = ask(XW_REQUEST_CHECKED, 0), b2 = ask(XW_REQUEST_CHECKED, 0), d = ask(XW_REQUEST_CHECKED, 0);
    uint8_t b[256];
    size_t n = put_reply(b, b2, 0x22, 0);
    n += put_reply(b + n, a, 0x11, 0);
    n += put_error(b + n, a, 3);
    n += put_event(b + n, 33, a, 0);
    feed(b, n);
    MUST(healthy());
    MUST(has_reply(b2, 0, 0x22, 32));
    MUST(nothing_for(a));
    MUST(nothing_for(d)); /* finished with nothing: the late reply stood in for its own */
    ck_assert_uint_eq(c->in.dropped, 1);
    MUST(next_event(0, a));
    MUST(next_event(33, a));
    MUST(no_event());
    put_reply(b, d, 0x33, 0);
    feed(b, 32);
    MUST(healthy());
    ck_assert_uint_eq(c->in.dropped, 2);

    for (int kind = 0; kind < 3; kind++) { /* a reply, an error, an event to a request never sent */
        renew();
        uint64_t s = ask(XW_REQUEST_CHECKED, 0);
        if (kind == 0)
            put_reply(b, s + 5, 0, 0);
        else if (kind == 1)
            put_error(b, s + 5, 3);
        else
            put_event(b, 33, s + 5, 0);
        feed(b, 32); /* read back, before the connection began: nothing can be trusted */
        MUST(failed(XW_CONN_CLOSED_MALFORMED, "was never sent"));
    }
}
END_TEST

/* A reply its validator refuses becomes an error for its caller. */
static int refuse(const void *r, size_t n)
{
    (void)n;
    return ((const uint8_t *)r)[1] == 0xee ? -1 : 0;
}

START_TEST(validator_turns_a_reply_into_an_error)
{
    uint64_t s = ask_full(XW_REQUEST_CHECKED, 0, 0, 0, refuse), t = ask_full(XW_REQUEST_CHECKED, 0, 0, 0, refuse);
    uint8_t b[128];
    size_t n = put_reply(b, s, 0xee, 4);
    n += put_reply(b + n, t, 0x10, 4);
    feed(b, n);
    MUST(healthy());
    MUST(has_error(s, XW_ERROR_MALFORMED_REPLY));
    MUST(has_reply(t, 0, 0x10, 48));
}
END_TEST

/* ---- runs of 32-byte replies ---- */

/* The requests of a pipeline's reply stream: plain reply-bearing requests in runs
 * across pending blocks and a 16-bit wrap, broken by what the run must leave to the
 * general routing: a multi-reply request, a reply its validator refuses, a reply
 * with extra words, a reply that comes twice, an event, a void request between two
 * plain ones (not tracked), and a reply asking for fds. */
enum { RUN_REQS = 700 };
static uint64_t run_seq[RUN_REQS];
static uint8_t run_kind[RUN_REQS]; /* 0 plain, 1 multi, 2 refused, 3 long, 4 twice, 5 fds */

static size_t reply_runs_stream(uint8_t *b)
{
    c->out.seq = c->out.flushed = c->in.last_seq = 0xffff - 400;
    size_t n = 0;
    for (int i = 0; i < RUN_REQS; i++) {
        uint8_t k = i == 270 ? 1 : i == 300 ? 2 : i == 310 ? 3 : i == 520 ? 4 : i == 600 ? 5 : 0;
        run_kind[i] = k;
        if (i == 450)
            ask(0, 1); /* void, untracked: the next reply's entry is the next one still */
        run_seq[i] = k == 1   ? ask_full(XW_REQUEST_CHECKED, 0, 1, 0, NULL)
                     : k == 2 ? ask_full(XW_REQUEST_CHECKED, 0, 0, 0, refuse)
                     : k == 5 ? ask(XW_REQUEST_CHECKED | XW_REQUEST_REPLY_FDS, 0)
                              : ask(XW_REQUEST_CHECKED, 0);
    }
    for (int i = 0; i < RUN_REQS; i++) {
        uint8_t b1 = (uint8_t)(i * 7 + 1);
        if (i == 480)
            n += put_event(b + n, 33, run_seq[i - 1], 0);
        if (run_kind[i] == 1) {
            n += put_reply(b + n, run_seq[i], 5, 0);
            n += put_reply(b + n, run_seq[i], 0, 0);
        } else if (run_kind[i] == 2) {
            n += put_reply(b + n, run_seq[i], 0xee, 0);
        } else if (run_kind[i] == 5) {
            n += put_reply(b + n, run_seq[i], 0, 0); /* byte 1: no fds */
        } else {
            n += put_reply(b + n, run_seq[i], b1, run_kind[i] == 3 ? 2 : 0);
            if (run_kind[i] == 4)
                n += put_reply(b + n, run_seq[i], b1, 0);
        }
    }
    return n;
}

static int reply_runs_routed(size_t n)
{
    T(healthy() == 0);
    T(c->in.len == 0 && c->in.rpos == n);
    for (int i = 0; i < RUN_REQS; i++) {
        uint8_t b1 = (uint8_t)(i * 7 + 1);
        struct xw_pend *e = xw__pend_find(&c->in.pend, run_seq[i]);
        T(e && e->done);
        if (run_kind[i] == 1) {
            T(has_reply(run_seq[i], 0, 5, 32) == 0 && has_reply(run_seq[i], 1, 0, 32) == 0);
        } else if (run_kind[i] == 2) {
            T(has_error(run_seq[i], XW_ERROR_MALFORMED_REPLY) == 0);
        } else if (run_kind[i] == 5) {
            T(has_reply(run_seq[i], 0, 0, 32) == 0);
        } else {
            T(has_reply(run_seq[i], 0, b1, run_kind[i] == 3 ? 40 : 32) == 0);
            T(e->inl == (run_kind[i] != 3));
        }
    }
    T(next_event(33, run_seq[479]) == 0);
    T(no_event() == 0);
    T(c->in.dropped == 1); /* the second reply of kind 4 */
    T(c->in.last_seq == run_seq[RUN_REQS - 1] && run_seq[RUN_REQS - 1] > 0xffff);
    T(c->in.pend.undone == 0);
    return 0;
}

/* On a fresh connection each time: the stream stream() writes to b fed at once, then
 * in two pieces cut every step bytes, and checked by routed() after each. */
static void whole_and_cut_every(uint8_t *b, size_t step, size_t (*stream)(uint8_t *b), int (*routed)(size_t n))
{
    for (size_t cut = 0;; cut += step) {
        renew();
        size_t n = stream(b);
        if (cut >= n)
            break;
        feed_cut(b, (size_t[]){cut ? cut : n, n}, cut ? 2 : 1, -1, NULL, 0);
        int line = routed(n);
        ck_assert_msg(line == 0, "cut at %zu: failed at line %d (connection: %s)", cut, line,
                      c->error ? c->errstr : "fine");
    }
}

/* The stream at once, and in two pieces at many offsets: every reply where the
 * general routing would put it, each plain one kept in its entry. */
START_TEST(reply_runs_stop_where_the_general_path_must_route)
{
    static uint8_t b[RUN_REQS * 64 + 256];
    whole_and_cut_every(b, 37, reply_runs_stream, reply_runs_routed);
}
END_TEST

/* What else a run of plain replies can meet, across a pending block's end: an
 * entry discarded when sent and one discarded after, a checked void request that
 * succeeds (finished by the next reply) and one that fails, a reply-bearing request
 * answered by an error, one whose caller waits with a registered buffer (a 32-byte
 * reply is kept in its entry first, as keep_reply does), and at the end a reply
 * read backwards (the 16-bit sequence of one already answered). */
enum { MEET_REQS = 300 };
static uint64_t meet_seq[MEET_REQS];
static uint8_t meet_kind[MEET_REQS]; /* 0 plain, 1 discarded, 2 discarded late, 3 void ok, 4 void error, 5 error,
                                        6 into */
static uint8_t meet_into[64];

static uint8_t meet_kind_of(int i)
{
    static const int at[][2] = {{3, 1},   {40, 2},  {41, 2},  {90, 3},  {120, 4}, {200, 5}, {254, 1},
                                {255, 2}, {256, 3}, {257, 6}, {280, 5}, {281, 4}, {290, 6}};
    for (size_t k = 0; k < sizeof at / sizeof at[0]; k++)
        if (at[k][0] == i)
            return (uint8_t)at[k][1];
    return 0;
}

static size_t reply_meets_stream(uint8_t *b)
{
    size_t n = 0;
    for (int i = 0; i < MEET_REQS; i++) {
        uint8_t k = meet_kind[i] = meet_kind_of(i);
        meet_seq[i] = k == 1 ? ask(XW_REQUEST_DISCARD_REPLY, 0) : ask(XW_REQUEST_CHECKED, k == 3 || k == 4);
        if (k == 6)
            register_into(meet_seq[i], meet_into, sizeof meet_into);
    }
    for (int i = 0; i < MEET_REQS; i++) {
        uint8_t k = meet_kind[i];
        if (k == 2)
            xw__pend_retire(&c->in.pend, xw__pend_find(&c->in.pend, meet_seq[i]));
        if (k == 4 || k == 5)
            n += put_error(b + n, meet_seq[i], (uint8_t)(k == 4 ? 3 : 9));
        else if (k != 3)
            n += put_reply(b + n, meet_seq[i], (uint8_t)(i * 5 + 2), 0);
    }
    return n + put_reply(b + n, meet_seq[MEET_REQS - 3], 0x77, 0);
}

static int reply_meets_routed(size_t n)
{
    T(healthy() == 0);
    T(c->in.len == 0 && c->in.rpos == n);
    for (int i = 0; i < MEET_REQS; i++) {
        uint8_t k = meet_kind[i];
        if (k == 1 || k == 2 || k == 3)
            T(nothing_for(meet_seq[i]) == 0);
        else if (k == 4 || k == 5)
            T(has_error(meet_seq[i], (uint8_t)(k == 4 ? 3 : 9)) == 0);
        else
            T(has_reply(meet_seq[i], 0, (uint8_t)(i * 5 + 2), 32) == 0 && xw__pend_find(&c->in.pend, meet_seq[i])->inl);
    }
    T(c->in.into.state == XW_INTO_WAIT);
    T(no_event() == 0);
    T(c->in.dropped == 1); /* the one read backwards; every request had its answer */
    T(c->in.last_seq == meet_seq[MEET_REQS - 1]);
    T(c->in.pend.undone == 0);
    return 0;
}

START_TEST(reply_runs_meet_discards_voids_errors_and_waiters)
{
    static uint8_t b[MEET_REQS * 32 + 64];
    whole_and_cut_every(b, 13, reply_meets_stream, reply_meets_routed);
}
END_TEST

/* The same where the reply lands in a waiting caller's buffer: 48 bytes at every
 * split, and 200 KB received there directly. The caller is not told it is done (it
 * waits on, and finds the error queued for its request). */
START_TEST(validator_refuses_a_reply_in_the_callers_buffer)
{
    static uint8_t buf[300000];
    enum { WORDS = 50000 };
    uint8_t *b = malloc(32 + 4 * WORDS);
    static const uint32_t words[] = {4, WORDS};
    for (size_t w = 0; w < 2; w++) {
        size_t n = 32 + 4 * (size_t)words[w];
        for (size_t k = 1; k < n; k += w ? 4999 : 1) {
            renew();
            uint64_t s = ask_full(XW_REQUEST_CHECKED, 0, 0, 0, refuse);
            register_into(s, buf, sizeof(buf));
            put_reply(b, s, 0xee, words[w]);
            size_t cut[2] = {k, n};
            feed_cut(b, cut, 2, -1, NULL, 0);
            MUST(healthy());
            ck_assert_int_eq(c->in.into.state, XW_INTO_WAIT);
            ck_assert_ptr_null(c->in.pdata);
            MUST(has_error(s, XW_ERROR_MALFORMED_REPLY));
            ck_assert_ptr_null(queued(s, 1));
            c->in.into = (struct xw_into){0};
        }
    }
    free(b);
}
END_TEST

/* Cut-off input: a packet half received stays pending, nothing is routed early. */
START_TEST(half_a_packet_waits)
{
    uint64_t s = ask(XW_REQUEST_CHECKED, 0);
    uint8_t b[64];
    put_reply(b, s, 0x41, 8);
    for (size_t k = 1; k < 64; k++) {
        renew();
        s = ask(XW_REQUEST_CHECKED, 0);
        feed(b, k);
        MUST(healthy());
        ck_assert(!xw__pend_find(&c->in.pend, s)->done);
        ck_assert_ptr_null(queued(s, 0));
        ck_assert_uint_eq(c->in.len, k);
    }
}
END_TEST

/* ---- the view: events claimed from the buffer they were read into ---- */

/* The ways to claim an event next_event_word takes in turn. */
#define CLAIM_WAYS 5

/* The next queued event, taken with each claim in turn (which % CLAIM_WAYS: the
 * caller-storage wait and poll, which take the armed view's events without the
 * lock; the locked heap poll; the heap poll and wait, which take them without
 * it), is code's with detail (byte 1), for seq, with word. None of them reads:
 * the event is queued. */
static int next_event_full(int which, uint8_t code, uint8_t detail, uint64_t seq, uint32_t word)
{
    uint8_t buf[64];
    size_t len = 36;
    xw_generic_event_t *ev = NULL;
    switch (which % CLAIM_WAYS) {
    case 0:
        T(xw_wait_for_event_into(c, buf, sizeof buf, &len, 0) == 1);
        break;
    case 1:
        T(xw_poll_for_queued_event_into(c, buf, sizeof buf, &len) == 1);
        break;
    case 2:
        ev = xw_poll_for_queued_event(c);
        break;
    case 3:
        ev = xw_poll_for_event(c);
        break;
    default:
        ev = xw_wait_for_event(c);
        break;
    }
    if (which % CLAIM_WAYS >= 2) {
        T(ev);
        memcpy(buf, ev, 36);
        free(ev);
    }
    T(len == 36 && buf[0] == code && buf[1] == detail && xw__rd16(buf + 2) == (uint16_t)seq);
    T(xw__rd32(buf + 4) == word && xw__rd32(buf + 32) == (uint32_t)seq);
    return 0;
}

/* As next_event_full for put_event's events (detail 0). */
static int next_event_word(int which, uint8_t code, uint64_t seq, uint32_t word)
{
    return next_event_full(which, code, 0, seq, word);
}

/* Runs of events fed while the view still holds the first (so later runs take
 * batches, and each read lands in the buffer the view does not show), more than
 * the read buffer holds in all, half of them claimed between feeds: every event
 * comes out once, in order, with its own bytes. */
START_TEST(view_and_batches_keep_order)
{
    uint64_t s = ask(XW_REQUEST_CHECKED, 1);
    enum { RUN = 700, RUNS = 8 };
    static uint8_t b[RUN * 32];
    uint32_t word = 0, taken = 0;
    for (int r = 0; r < RUNS; r++) {
        for (int i = 0; i < RUN; i++)
            put_event(b + 32 * i, (uint8_t)(2 + i % 30), s - 1, word++);
        feed(b, sizeof b);
        MUST(healthy());
        for (int i = 0; i < RUN / 2; i++, taken++)
            MUST(next_event_word((int)taken % CLAIM_WAYS, (uint8_t)(2 + taken % RUN % 30), s - 1, taken));
    }
    while (taken < word) {
        MUST(next_event_word((int)taken % CLAIM_WAYS, (uint8_t)(2 + taken % RUN % 30), s - 1, taken));
        taken++;
    }
    MUST(no_event());
    ck_assert(!c->in.view_on);
}
END_TEST

/* Events, a reply, an error and events in one read, split everywhere: the view
 * ends at the reply, which is routed before any event is claimed; what follows
 * waits in order behind it. */
START_TEST(view_stops_at_a_reply)
{
    uint8_t b[10 * 32];
    for (size_t cut = 0; cut <= sizeof b; cut++) {
        renew();
        uint64_t s = ask(XW_REQUEST_CHECKED, 0), t = ask(XW_REQUEST_CHECKED, 1);
        size_t n = 0;
        for (uint32_t i = 0; i < 4; i++)
            n += put_event(b + n, 33, s - 1, i);
        n += put_reply(b + n, s, 9, 0);
        n += put_error(b + n, t, 3);
        for (uint32_t i = 4; i < 8; i++)
            n += put_event(b + n, 34, t, i);
        size_t cuts[] = {cut, n};
        feed_cut(b, cut ? cuts : cuts + 1, cut ? 2 : 1, -1, NULL, 0);
        MUST(healthy());
        MUST(has_reply(s, 0, 9, 32));
        MUST(has_error(t, 3));
        for (uint32_t i = 0; i < 8; i++)
            MUST(next_event_word((int)(i + cut) % CLAIM_WAYS, i < 4 ? 33 : 34, i < 4 ? s - 1 : t, i));
        MUST(no_event());
    }
}
END_TEST

/* A run whose sequences cross a 16-bit boundary: the view stops at the boundary
 * (its events share the high bits), the rest queue after it with theirs. */
START_TEST(view_spans_one_16_bit_range)
{
    c->out.seq = c->out.flushed = c->in.last_seq = 0x2fff0;
    c->out.seq += 40; /* void requests, unchecked: tracked by nobody */
    c->out.flushed = c->out.seq;
    uint8_t b[32 * 32];
    size_t n = 0;
    for (uint32_t i = 0; i < 32; i++)
        n += put_event(b + n, 40, 0x2fff0 + i, i);
    feed(b, n);
    MUST(healthy());
    ck_assert_uint_eq(c->in.last_seq, 0x2fff0 + 31);
    for (uint32_t i = 0; i < 32; i++)
        MUST(next_event_word((int)i % CLAIM_WAYS, 40, 0x2fff0 + i, i));
    MUST(no_event());
}
END_TEST

/* One read: an error for an unchecked request (a record at the head of the event
 * queue), events (the view, queued behind it), a reply, events (a batch behind
 * the view); then a second read's events. Split everywhere, and claimed with
 * every way at every step: the error comes first, each event once and in order,
 * the view's only once the record before it is taken; the reply is routed before
 * any claim. A last read, with the queue empty, starts a view claimed at once. */
START_TEST(view_waits_for_what_precedes_it)
{
    uint8_t b[12 * 32], tail[4 * 32];
    for (size_t cut = 0; cut <= sizeof b; cut++) {
        renew();
        uint64_t v = ask(0, 1), s = ask(XW_REQUEST_CHECKED, 0);
        size_t n = put_error(b, v, 3);
        for (uint32_t i = 0; i < 5; i++)
            n += put_event(b + n, 40, v, i);
        n += put_reply(b + n, s, 9, 0);
        for (uint32_t i = 5; i < 10; i++)
            n += put_event(b + n, 41, s, i);
        size_t cuts[] = {cut, n};
        feed_cut(b, cut ? cuts : cuts + 1, cut ? 2 : 1, -1, NULL, 0);
        size_t m = 0;
        for (uint32_t i = 10; i < 14; i++)
            m += put_event(tail + m, 42, s, i);
        feed(tail, m);
        MUST(healthy());
        MUST(has_reply(s, 0, 9, 32));
        int way = (int)cut;
        MUST(next_event_full(way++, 0, 3, v, 0));
        for (uint32_t i = 0; i < 14; i++)
            MUST(next_event_word(way++, i < 5 ? 40 : i < 10 ? 41 : 42, i < 5 ? v : s, i));
        MUST(no_event());
        ck_assert(!c->in.view_on);
        feed(tail, 2 * 32);
        ck_assert(c->in.view_on && c->in.vnext < c->in.vend);
        for (uint32_t i = 10; i < 12; i++)
            MUST(next_event_word(way++, 42, s, i));
        MUST(no_event());
    }
}
END_TEST

/* Events in long stretches of one type and sequence (each told apart by its
 * detail byte and word), their sequences crossing a 16-bit boundary within one
 * read, taken by the view (which stops at the boundary) or, while the view holds
 * an earlier read, in batches: each keeps its own bytes and its full_sequence. A
 * KeymapNotify whose bytes 2..3 match the stretch's sequence still ends a run, and
 * takes the last sequence read. */
START_TEST(runs_keep_full_sequences_across_a_16_bit_wrap)
{
    enum { N = 64 };
    for (int busy = 0; busy < 2; busy++) {
        renew();
        c->out.seq = c->out.flushed = c->in.last_seq = 0x2fff0;
        c->out.seq += 40; /* void requests, unchecked: tracked by nobody */
        c->out.flushed = c->out.seq;
        uint8_t b[(N + 1) * 32];
        if (busy) {
            for (uint32_t i = 0; i < 3; i++)
                put_event(b + 32 * i, 40, 0x2fff0, 1000 + i);
            feed(b, 3 * 32);
            ck_assert(c->in.view_on);
        }
        size_t n = 0;
        uint64_t seqs[N + 1];
        for (uint32_t i = 0; i <= N; i++) {
            uint64_t seq = 0x2fffd + (i > N / 2 ? i - 1 : i) / 9;
            if (i == N / 2) { /* KeymapNotify: no sequence of its own */
                put_event(b + n, XW_KEYMAP_NOTIFY, seqs[i - 1], i);
                seq = seqs[i - 1];
            } else {
                put_event(b + n, (uint8_t)(40 + i / 20), seq, i);
            }
            b[n + 1] = (uint8_t)(i * 7);
            seqs[i] = seq;
            n += 32;
        }
        ck_assert(seqs[0] < 0x30000 && seqs[N] > 0x30000);
        feed(b, n);
        MUST(healthy());
        ck_assert_uint_eq(c->in.last_seq, seqs[N]);
        int way = busy;
        for (uint32_t i = 0; busy && i < 3; i++)
            MUST(next_event_word(way++, 40, 0x2fff0, 1000 + i));
        for (uint32_t i = 0; i <= N; i++) {
            uint8_t code = i == N / 2 ? XW_KEYMAP_NOTIFY : (uint8_t)(40 + i / 20);
            MUST(next_event_full(way++, code, (uint8_t)(i * 7), seqs[i], i));
        }
        MUST(no_event());
    }
}
END_TEST

/* The connection fails while the view holds unclaimed events, in the read that
 * made it or in a later one; or a reply bigger than the read buffer is half
 * received behind it: the events read before still come out, in order, whole,
 * and what followed the failing packet is not parsed. Each connection is then
 * disconnected, the last with a view unclaimed (the sanitizers' build checks
 * that nothing is lost or read after it is freed). */
START_TEST(failure_while_the_view_is_queued)
{
    static uint8_t big[32 + 4 * 50000];
    for (int later = 0; later < 3; later++) {
        renew();
        uint64_t s = ask(XW_REQUEST_CHECKED, 0);
        uint8_t b[16 * 32];
        size_t n = 0;
        for (uint32_t i = 0; i < 6; i++)
            n += put_event(b + n, 40, s - 1, i);
        if (later) {
            feed(b, n);
            MUST(healthy());
            ck_assert(c->in.view_on);
            n = 0;
        }
        if (later == 2) {
            put_reply(big, s, 0x21, 50000);
            feed(big, 100);
            MUST(healthy());
            ck_assert_ptr_nonnull(c->in.pdata);
        } else {
            n += put_reply(b + n, s, 0, 0);
            xw__wr32(b + n - 28, (XW_PACKET_CAP - 32) / 4 + 1); /* past the cap: fatal */
            n += put_event(b + n, 41, s, 99);
            ck_assert_int_eq(xw__route_feed(c, b, n, NULL, 0), -EPIPE);
            MUST(failed(XW_CONN_CLOSED_MALFORMED, "malformed reply"));
        }
        for (uint32_t i = 0; i < 6; i++)
            MUST(next_event_word((int)i % CLAIM_WAYS, 40, s - 1, i));
        MUST(no_event());
        ck_assert(!c->in.view_on);
        if (later == 2) {
            feed(big + 100, sizeof big - 100);
            MUST(healthy());
            MUST(has_reply(s, 0, 0x21, sizeof big));
        }
    }
    renew();
    uint64_t s = ask(XW_REQUEST_CHECKED, 0);
    uint8_t b[3 * 32];
    for (uint32_t i = 0; i < 3; i++)
        put_event(b + 32 * i, 40, s - 1, i);
    feed(b, sizeof b);
    ck_assert(c->in.view_on);
}
END_TEST

/* The heap claims' malloc made to fail once (malloc_fails, through the linker's
 * --wrap=malloc, tests/meson.build): the library's calls come here. */
static int malloc_fails;
void *__real_malloc(size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_malloc(size_t n)
{
    if (malloc_fails) {
        malloc_fails = 0;
        return NULL;
    }
    return __real_malloc(n);
}

/* A heap claim that finds no memory returns NULL and leaves the event queued, from
 * the view, a batch and a record (an error) alike, lock-free or locked: the next
 * claim gets it. Losing it would hand the caller a stream with a hole in it. */
START_TEST(heap_claim_out_of_memory_keeps_the_event)
{
    uint64_t s = ask(0, 1); /* void, unchecked: its error goes to the event queue */
    uint8_t b[8 * 32];
    size_t n = 0;
    for (uint32_t i = 0; i < 3; i++)
        n += put_event(b + n, 33, s - 1, i); /* the view */
    n += put_error(b + n, s, 3);             /* a record on the event queue */
    feed(b, n);
    n = 0;
    for (uint32_t i = 3; i < 6; i++)
        n += put_event(b + n, 34, s, i); /* a batch, behind the view */
    feed(b, n);
    MUST(healthy());
    for (uint32_t i = 0; i < 7; i++) {
        malloc_fails = 1;
        ck_assert_ptr_null(i % 2 ? xw_poll_for_queued_event(c) : xw_wait_for_event(c));
        MUST(healthy());
        xw_generic_event_t *ev = i % 2 ? xw_wait_for_event(c) : xw_poll_for_queued_event(c);
        ck_assert_ptr_nonnull(ev);
        if (i == 3) {
            ck_assert_uint_eq(ev->response_type, 0);
        } else {
            uint32_t k = i < 3 ? i : i - 1;
            ck_assert_uint_eq(ev->response_type, k < 3 ? 33 : 34);
            ck_assert_uint_eq(xw__rd32((uint8_t *)ev + 4), k);
        }
        free(ev);
    }
    MUST(no_event());
}
END_TEST

/* A special event claimed while the view heads the event queue and has given some
 * of its events: the event queue's head did not change, so the view's next event
 * is still the one after those taken, with every claim way before and after. */
START_TEST(special_claim_keeps_the_views_place)
{
    uint8_t b[256];
    for (int way = 0; way < CLAIM_WAYS; way++) {
        uint32_t stamp = 0;
        xw_special_event_t *se = renew_with_special(&stamp);
        uint64_t s = ask(XW_REQUEST_CHECKED, 1);
        size_t n = 0;
        for (uint32_t i = 0; i < 4; i++)
            n += put_event(b + n, 33, s - 1, i); /* the view */
        n += put_xge_of(b + n, s, 0x1234, 1);    /* to the special queue */
        feed(b, n);
        MUST(healthy());
        ck_assert(c->in.view_on);
        MUST(next_event_word(way, 33, s - 1, 0));
        uint8_t *p = (uint8_t *)xw_poll_for_special_event(c, se);
        ck_assert_ptr_nonnull(p);
        free(p);
        for (uint32_t i = 1; i < 4; i++)
            MUST(next_event_word(way + (int)i, 33, s - 1, i));
        MUST(no_event());
        xw_unregister_for_special_event(c, se);
    }
}
END_TEST

int main(void)
{
    Suite *s = xwtest_suite("route");
    TCase *tc = tcase_create("route");
    tcase_set_timeout(tc, 600);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, mixed_stream_one_byte_at_a_time);
    tcase_add_test(tc, mixed_stream_in_two_pieces_at_every_offset);
    tcase_add_test(tc, mixed_stream_in_three_pieces_everywhere);
    tcase_add_test(tc, widening_across_16_and_32_bit_wraps);
    tcase_add_test(tc, widening_event_runs_do_not_advance);
    tcase_add_test(tc, events_finish_the_requests_before_them);
    tcase_add_test(tc, view_and_batches_keep_order);
    tcase_add_test(tc, view_stops_at_a_reply);
    tcase_add_test(tc, view_spans_one_16_bit_range);
    tcase_add_test(tc, view_waits_for_what_precedes_it);
    tcase_add_test(tc, runs_keep_full_sequences_across_a_16_bit_wrap);
    tcase_add_test(tc, fds_follow_their_replies_at_every_split);
    tcase_add_test(tc, fds_of_events_are_not_a_later_replys);
    tcase_add_test(tc, fd_one_read_early_is_kept_for_the_reply);
    tcase_add_test(tc, fd_one_read_late_is_fatal);
    tcase_add_test(tc, fds_nobody_claims_are_closed);
    tcase_add_test(tc, fds_kept_for_a_request_closed_by_its_error);
    tcase_add_test(tc, fds_kept_for_a_reply_that_claims_none_are_closed);
    tcase_add_test(tc, fds_with_a_reply_that_asked_for_none_are_closed);
    tcase_add_test(tc, fewer_fds_than_claimed_is_fatal);
    tcase_add_test(tc, too_many_fds_in_one_read_is_fatal);
    tcase_add_test(tc, more_fds_claimed_than_a_reply_holds_is_fatal);
    tcase_add_test(tc, hostile_fd_counts_are_bounded);
    tcase_add_test(tc, discarded_requests_drop_their_replies);
    tcase_add_test(tc, big_reply_in_pieces);
    tcase_add_test(tc, into_buffer_delivery);
    tcase_add_test(tc, lent_range_goes_to_the_owner);
    tcase_add_test(tc, xge_events_validated_and_sorted_by_id);
    tcase_add_test(tc, special_claim_keeps_the_views_place);
    tcase_add_test(tc, huge_lengths_are_fatal);
    tcase_add_test(tc, unexpected_replies_are_dropped);
    tcase_add_test(tc, error_then_reply_for_one_request);
    tcase_add_test(tc, events_of_any_code_are_data);
    tcase_add_test(tc, sequence_going_backwards);
    tcase_add_test(tc, validator_turns_a_reply_into_an_error);
    tcase_add_test(tc, reply_runs_stop_where_the_general_path_must_route);
    tcase_add_test(tc, reply_runs_meet_discards_voids_errors_and_waiters);
    tcase_add_test(tc, validator_refuses_a_reply_in_the_callers_buffer);
    tcase_add_test(tc, half_a_packet_waits);
    tcase_add_test(tc, heap_claim_out_of_memory_keeps_the_event);
    tcase_add_test(tc, failure_while_the_view_is_queued);
    suite_add_tcase(s, tc);
    /* the view's tests again where the claims take their locked ways */
    TCase *tl = tcase_create("route-locked");
    tcase_set_timeout(tl, 600);
    tcase_add_checked_fixture(tl, setup_threaded, teardown);
    tcase_add_test(tl, view_and_batches_keep_order);
    tcase_add_test(tl, view_stops_at_a_reply);
    tcase_add_test(tl, view_spans_one_16_bit_range);
    tcase_add_test(tl, view_waits_for_what_precedes_it);
    tcase_add_test(tl, runs_keep_full_sequences_across_a_16_bit_wrap);
    tcase_add_test(tl, special_claim_keeps_the_views_place);
    tcase_add_test(tl, heap_claim_out_of_memory_keeps_the_event);
    tcase_add_test(tl, failure_while_the_view_is_queued);
    suite_add_tcase(s, tl);
    return xwtest_run(s);
}
