/* SPDX-License-Identifier: MIT */
/* borrow.c — a connection that writes through its owner's socket hand-off and lets the owner read. */
#include "base.h"
#include "clock.h"
#include "conn.h"
#include "connect.h"
#include "fail.h"
#include "limit.h"
#include "lock.h"
#include "out.h"
#include "queue.h"
#include "route.h"
#include "send.h"
#include "setup.h"
#include "store.h"
#include "transport.h"
#include "xid.h"

#include <limits.h>
#include <poll.h>
#include <stdlib.h>

/* Who owns what on a borrowed connection (libxwire-xcb sets one up over libxcb):
 * the socket, the reading and every received packet belong to the owner; xwire owns
 * its write buffer and, between a take and xw_borrow_return_socket(), the write side
 * of the socket. Lock order: xwire's lock is held only around owner hooks that never
 * ask for the socket back (writev, discard); take, send and every wait run with it
 * released, and the owner runs our return callback without its own lock (libxcb
 * releases its iolock first), so the order is always xwire's lock, then the owner's. */

/* Lock held, not writing. The take runs with the lock released: it may call the
 * previous owner's return callback, which takes that owner's locks (Xlib's display
 * lock). writing stays set meanwhile, so no other thread of ours sends, and our own
 * return callback, should the owner call it at once, waits until the take is done. */
static int borrow_take(xw_connection_t *c)
{
    struct xw_out *o = &c->out;
    uint64_t sent = 0;
    o->writing = 1;
    xw__limit_refresh(c);
    xw__conn_unlock(c);
    int ok = c->borrow->take(c, c->borrow_closure, &sent);
    xw__conn_lock(c);
    o->writing = 0;
    if (ok) {
        c->socket_away = 0;
        o->seq = o->accounted = o->flushed = sent;
        /* The hand-off's first-request rule: the owner does not say how many void
         * requests it sent since its last reply-bearing one, so ours must start with
         * a reply-bearing request. With the void budget spent, make_room inserts a
         * sync before a void one; a reply-bearing one resets it (borrow_track). */
        o->last_reply = sent - XW_MAX_VOID_RUN;
    }
    xw__limit_refresh(c);
    xw__lock_broadcast(&c->out_cond);
    if (!ok)
        return xw__fail_conn(c, XW_CONN_ERROR, "the owner's connection has failed: its socket cannot be taken");
    return c->error ? -EPIPE : 0;
}

/* Lock held, writing set, socket owned. Every request up to out.seq is complete in
 * these bytes, so the owner is told of all of them; the hand-off wants at least one
 * byte per call and the kernel at most IOV_MAX slices. */
static void borrow_write(xw_connection_t *c, struct iovec *iov, size_t n)
{
    struct xw_out *o = &c->out;
    while (n > 0 && !c->error) {
        size_t k = n < IOV_MAX ? n : IOV_MAX, bytes = 0;
        for (size_t i = 0; i < k; i++)
            bytes += iov[i].iov_len;
        uint64_t requests = k == n ? o->seq - o->accounted : 0;
        if (bytes && !c->borrow->writev(c->borrow_closure, iov, (int)k, requests)) {
            xw__fail_conn(c, XW_CONN_ERROR, "the owner's connection failed while writing");
            return;
        }
        if (k == n)
            o->accounted = o->seq;
        c->total_written += bytes;
        iov += k;
        n -= k;
    }
}

/* Lock held; released while the owner sends. Checked requests and requests with
 * fds go through the owner, which keeps their errors for a check and carries fds;
 * it first asks for our buffered bytes (xw_borrow_return_socket), so order holds. */
static uint64_t borrow_send(xw_connection_t *c, int flags, struct iovec *vector, const xw_protocol_request_t *req,
                            unsigned nfds, int *fds)
{
    int owner_flags = flags & (XW_REQUEST_CHECKED | XW_REQUEST_RAW | XW_REQUEST_DISCARD_REPLY | XW_REQUEST_REPLY_FDS);
    xw__conn_unlock(c);
    uint64_t seq = c->borrow->send(c->borrow_closure, owner_flags, vector, req, nfds, fds);
    xw__conn_lock(c);
    return seq ? seq : xw__fail_request(c, "the owner's connection could not send the request");
}

/* Lock not held. The owner's write path carries fds; it asks for our bytes first. */
static void borrow_send_fd(xw_connection_t *c, int fd)
{
    c->borrow->send_fd(c->borrow_closure, fd);
}

/* Lock not held. Whatever the owner has queued itself. */
static int borrow_flush(xw_connection_t *c)
{
    return c->borrow->flush(c->borrow_closure) > 0 ? 0 : -EPIPE;
}

/* Lock held. What the pending table does on a connection of our own: nothing is
 * kept, since the owner reads; a reply-bearing request resets the void run, and a
 * reply nobody wants (our syncs) is dropped by the owner when it arrives. */
static int borrow_track(xw_connection_t *c, uint64_t seq, int flags, const struct xw_request *rq)
{
    if (!rq->pub.isvoid) {
        c->out.last_reply = seq;
        xw__limit_refresh(c);
    }
    if (flags & XW_REQUEST_DISCARD_REPLY)
        c->borrow->discard(c->borrow_closure, seq);
    return 0;
}

/* The owner may have sent past our last sequence number, so a 32-bit cookie
 * stands for the nearest value rather than the latest one not above ours. */
static uint64_t borrow_widen(xw_connection_t *c, unsigned int seq)
{
    uint64_t cur = c->out.seq;
    if ((uint32_t)(seq - (uint32_t)cur) < 0x80000000u)
        return cur + (uint32_t)(seq - (uint32_t)cur);
    return xw__widen_below(cur, seq);
}

/* Records the owner's failure as ours (with its code) and returns -EPIPE, or 0
 * when the owner is healthy. */
static int owner_failed(xw_connection_t *c)
{
    int code = c->borrow->has_error(c->borrow_closure);
    if (!code)
        return c->error ? -EPIPE : 0;
    return xw__fail_conn(c, code, "the owner's connection has failed (error %d)", code);
}

/* Lock held. A packet the owner malloc'd, copied into one of our records (so every
 * reply and event call of ours works unchanged, a reply's slack too) and freed. */
static struct xw_pkt *adopt(xw_connection_t *c, void *m, size_t len, int kind, uint64_t seq)
{
    size_t slack = kind == XW_PKT_REPLY ? XW_REPLY_SLACK_AFTER(len) : 0;
    struct xw_pkt *p = xw__store_alloc(c, len + slack);
    if (p) {
        memcpy(XW_PKT_DATA(p), m, len);
        memset(XW_PKT_DATA(p) + len, 0, slack);
        p->len = (uint32_t)len;
        p->seq = seq;
        p->kind = (uint8_t)kind;
        p->nfds = 0;
    } else {
        xw__fail_conn(c, XW_CONN_CLOSED_MEM_INSUFFICIENT, "out of memory for a %zu-byte packet", len);
    }
    free(m);
    return p;
}

/* Sleeps on the owner's socket until something may have arrived, at most 50 ms:
 * another thread inside the owner may read our packet while we sleep. Lock released.
 * Returns 0 when the deadline has passed. */
static int nap(xw_connection_t *c, int64_t deadline)
{
    int tmo = xw__clock_poll_timeout(deadline);
    if (tmo == 0)
        return 0;
    struct pollfd p = {.fd = c->borrow_fd, .events = POLLIN};
    poll(&p, 1, tmo > 50 ? 50 : tmo);
    return 1;
}

/* Lock held on entry and exit, released while the owner waits. 1 when the owner
 * says the request is finished (*r, *e or neither), 0 when the deadline passed. */
static int fetch_reply(xw_connection_t *c, uint64_t seq, int64_t deadline, void **r, xw_generic_error_t **e)
{
    const struct xw_borrow_ops *ops = c->borrow;
    int done = 0;
    xw__conn_unlock(c);
    if (deadline < 0) {
        *r = ops->wait_reply(c->borrow_closure, seq, e);
        done = 1;
    } else {
        while (!(done = ops->poll_reply(c->borrow_closure, seq, r, e)) && deadline != 0 && nap(c, deadline))
            ;
    }
    xw__conn_lock(c);
    return done;
}

/* Replies a caller's buffer could not take (-ENOSPC) wait here for the retry. */
static struct xw_pkt *stash_take(xw_connection_t *c, uint64_t seq)
{
    struct xw_queue *q = &c->borrow_stash;
    struct xw_pkt *prev = NULL;
    for (struct xw_pkt *p = q->head; p; prev = p, p = p->next) {
        if (p->seq != seq)
            continue;
        xw__queue_unlink(q, prev, p);
        return p;
    }
    return NULL;
}

/* Lock held. xw__transport_reply_fit on a borrowed connection (every reply comes as a
 * record, so buf is never written). Our buffer is written first: the owner would
 * wait forever for a request it cannot see. */
static int borrow_reply_fit(xw_connection_t *c, uint64_t seq, int64_t deadline, size_t cap, size_t *need,
                            struct xw_pkt **pkt, void *buf)
{
    (void)buf;
    *pkt = stash_take(c, seq);
    if (!*pkt) {
        void *r = NULL;
        xw_generic_error_t *e = NULL;
        if (xw__out_flush(c) < 0)
            return -EPIPE;
        if (!fetch_reply(c, seq, deadline, &r, &e))
            return c->error ? -EPIPE : 0;
        if (!r && !e)
            return owner_failed(c) < 0 ? -EPIPE : 1;
        if (r)
            *pkt = adopt(c, r, 32 + (size_t)xw__rd32((uint8_t *)r + 4) * 4, XW_PKT_REPLY, seq);
        else
            *pkt = adopt(c, e, 36, XW_PKT_ERROR, seq);
        if (!*pkt)
            return -EPIPE;
    }
    if ((*pkt)->kind == XW_PKT_REPLY && (*pkt)->len > cap) {
        *need = (*pkt)->len;
        xw__queue_push(&c->borrow_stash, *pkt);
        *pkt = NULL;
        return -ENOSPC;
    }
    return 1;
}

/* Lock held. xw__transport_reply: no size limit. */
static int borrow_reply(xw_connection_t *c, uint64_t seq, int64_t deadline, struct xw_pkt **pkt)
{
    return borrow_reply_fit(c, seq, deadline, SIZE_MAX, NULL, pkt, NULL);
}

/* Lock held. The owner checks (and syncs if it must); it takes our bytes first. */
static int borrow_check(xw_connection_t *c, uint64_t seq, struct xw_pkt **pkt)
{
    *pkt = NULL;
    if (xw__out_flush(c) < 0)
        return -EPIPE;
    xw__conn_unlock(c);
    xw_generic_error_t *e = c->borrow->check(c->borrow_closure, (unsigned int)seq);
    xw__conn_lock(c);
    if (e && !(*pkt = adopt(c, e, 36, XW_PKT_ERROR, seq)))
        return -EPIPE;
    return owner_failed(c) < 0 ? -EPIPE : 1;
}

/* Lock held. The reply to seq, stashed or still to come, will be dropped; its
 * error too, whatever keep_errors says: the owner has no mode that keeps it. */
static void borrow_discard(xw_connection_t *c, uint64_t seq, int keep_errors)
{
    (void)keep_errors;
    struct xw_pkt *p;
    while ((p = stash_take(c, seq)))
        xw__store_free(c, p);
    c->borrow->discard(c->borrow_closure, seq);
}

/* Lock held, released while the owner waits. The next event from the owner's
 * queue (deadline and reading as xw__transport_wait): 1 with *pkt, 0 when none came. */
static int fetch_event(xw_connection_t *c, int64_t deadline, int reading, struct xw_pkt **pkt)
{
    const struct xw_borrow_ops *ops = c->borrow;
    xw_generic_event_t *ev;
    *pkt = NULL;
    xw__conn_unlock(c);
    if (!reading)
        ev = ops->event(c->borrow_closure, XW_BORROW_EVENT_QUEUED);
    else if (deadline < 0)
        ev = ops->event(c->borrow_closure, XW_BORROW_EVENT_WAIT);
    else
        while (!(ev = ops->event(c->borrow_closure, XW_BORROW_EVENT_POLL)) && deadline != 0 && nap(c, deadline))
            ;
    xw__conn_lock(c);
    if (!ev)
        return owner_failed(c);
    const uint8_t *w = (const uint8_t *)ev;
    size_t len = 36 + ((w[0] & 0x7f) == XW_GE_GENERIC ? (size_t)xw__rd32(w + 4) * 4 : 0);
    uint64_t seq = xw__widen_below(c->out.seq, ev->full_sequence);
    *pkt = adopt(c, ev, len, w[0] == 0 ? XW_PKT_ERROR : XW_PKT_EVENT, seq);
    return *pkt ? 1 : -EPIPE;
}

/* Lock held. xw__transport_wait on a borrowed connection: the owner reads, and
 * special-event queues are its own (xcb_register_for_special_xge), so only the
 * event queue is fed, from the owner's. */
static int borrow_wait(xw_connection_t *c, struct xw_queue *q, int64_t deadline, int reading)
{
    if (reading && deadline != 0)
        xw__out_flush(c);
    if (q->head)
        return 1;
    if (q != &c->in.events)
        return c->error ? -EPIPE : 0;
    struct xw_pkt *p;
    int r = fetch_event(c, deadline, reading, &p);
    if (r == 1)
        xw__queue_push(q, p);
    return r;
}

static int borrow_error(xw_connection_t *c)
{
    return c->borrow->has_error(c->borrow_closure);
}

static int borrow_fd(xw_connection_t *c)
{
    return c->borrow_fd;
}

/* One id space per connection: the owner hands them out. */
static uint32_t borrow_generate_id(xw_connection_t *c)
{
    return c->error ? (uint32_t)-1 : c->borrow->generate_id(c->borrow_closure);
}

/* The owner takes its socket back for good; its connection stays open. */
static void borrow_close(xw_connection_t *c)
{
    c->borrow->detach(c, c->borrow_closure);
    xw__route_queue_free(c, &c->borrow_stash);
}

/* An empty event queue polled: the owner reads, so this is a wait that gives up at once. */
static void borrow_poll(xw_connection_t *c, struct xw_queue *q)
{
    borrow_wait(c, q, 0, 1);
}

const struct xw_transport xw__borrow_transport = {
    .write = borrow_write,
    .take = borrow_take,
    .send_flags = XW_REQUEST_CHECKED | XW_REQUEST_REPLY_FDS | XW__SEND_WITH_FDS,
    .send = borrow_send,
    .send_fd = borrow_send_fd,
    .flush = borrow_flush,
    .track = borrow_track,
    .widen = borrow_widen,
    .reply = borrow_reply,
    .reply_fit = borrow_reply_fit,
    .check = borrow_check,
    .discard = borrow_discard,
    .wait = borrow_wait,
    .poll = borrow_poll,
    .lendable = 0, /* the owner lends its socket, not us */
    .error = borrow_error,
    .fd = borrow_fd,
    .generate_id = borrow_generate_id,
    .close = borrow_close,
};

/* The owner wants its socket back (libxcb's return_socket callback): everything
 * buffered goes out through it first. A take or a write in progress finishes
 * before (xw__out_flush waits for writing to clear). */
XW_EXPORT void xw_borrow_return_socket(xw_connection_t *c)
{
    xw__conn_lock(c);
    xw__out_flush(c);
    c->socket_away = 1;
    xw__limit_refresh(c);
    xw__conn_unlock(c);
}

/* A connection without a socket of its own (the top of this file says who owns what). The
 * owner's setup is checked like a server's, so the generated iterators stay safe. */
XW_EXPORT xw_connection_t *xw_borrow_connection(const struct xw_borrow_ops *ops, void *closure, const void *setup,
                                                size_t setup_len, int fd)
{
    xw_connection_t *c = xw__connect_new(-1);
    if (c->error) /* out of memory */
        return c;
    char why[200];
    if (!setup || xw__setup_check(setup, setup_len, why, sizeof(why)) < 0) {
        xw__fail_conn(c, XW_CONN_CLOSED_PARSE_ERR, "the owner's setup: %s", setup ? why : "none");
        return c;
    }
    if (!(c->setup = malloc(setup_len))) {
        xw__fail_conn(c, XW_CONN_CLOSED_MEM_INSUFFICIENT, "out of memory for the setup");
        return c;
    }
    memcpy(c->setup, setup, setup_len);
    c->setup_len = setup_len;
    xw__xid_init(c);
    c->out.max_words = xw__rd16(c->setup + 26);
    /* only now: a failed one is an ordinary failed connection, with no owner to call */
    c->tp = &xw__borrow_transport;
    c->borrow = ops;
    c->borrow_closure = closure;
    c->borrow_fd = fd;
    c->socket_away = 1;
    xw__limit_refresh(c); /* closed until the first take */
    return c;
}
