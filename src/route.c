/* SPDX-License-Identifier: MIT */
/* route.c — the routing core: frames received bytes in place, widens sequences, and hands each
 * packet and fd to whom it belongs (requests' pending entries, the event queues, a lent socket's owner). */
#include "route.h"
#include "base.h"
#include "conn.h"
#include "errtext.h"
#include "ext.h"
#include "fail.h"
#include "pend.h"
#include "queue.h"
#include "send.h"
#include "stash.h"
#include "store.h"

#include <stdio.h>
#include <stdlib.h>

/* ---- the pending store: requests whose reply, error or completion someone awaits ---- */

/* The oldest request the server has not finished; all later ones are unfinished too. */
static struct xw_pend *first_undone(struct xw_in *in)
{
    struct xw_pend_store *s = &in->pend;
    return s->undone ? xw__pend_at(s, s->n - s->undone) : NULL;
}

int xw__route_track(xw_connection_t *c, uint64_t seq, int flags, const struct xw_request *rq)
{
    struct xw_in *in = &c->in;
    if (XW_UNLIKELY(!in->pend.next) && xw__pend_room(&in->pend) < 0)
        return -ENOMEM;
    xw__pend_push(c, seq, flags, rq);
    if (flags & XW_REQUEST_REPLY_FDS)
        in->fdwait++;
    return 0;
}

static void finish(struct xw_in *in, struct xw_pend *e)
{
    if (!e->done && (e->flags & XW_REQUEST_REPLY_FDS))
        in->fdwait--;
    xw__pend_finish(&in->pend, e);
}

/* A packet with sequence seq means the server finished every request before it.
 * A request finished with nothing to hand out (a void one without an error, or
 * one whose reply never came) retires now, as libxcb frees it, so cookies nobody
 * claims do not pile up (a later claim finds no entry and knows from done_seq
 * that it is finished, with nothing: the same answer the entry would give).
 * Always inlined: route runs it for every packet, and as a call (route_older is its
 * second caller) it cost ~10 instructions per pipelined InternAtom. */
static inline __attribute__((always_inline)) struct xw_pend *complete_before(struct xw_in *in, uint64_t seq)
{
    struct xw_pend *e;
    while ((e = first_undone(in)) && e->seq < seq) {
        finish(in, e);
        if (!xw__pend_holds(e))
            xw__pend_retire(&in->pend, e);
    }
    xw__pend_trim(&in->pend);
    return e; /* now the oldest unfinished entry (trimming drops finished ones only) */
}

static void queue_free(xw_connection_t *c, struct xw_queue *q)
{
    struct xw_pkt *p;
    while ((p = xw__queue_pop(q))) {
        if (p->kind == XW_PKT_VIEW) { /* the connection's own record, its bytes in a read buffer */
            c->in.view_on = 0;
            c->in.vnext = c->in.vend = NULL;
            continue;
        }
        xw__fail_close_fds((int *)(XW_PKT_DATA(p) + p->len), p->nfds);
        xw__store_free(c, p);
    }
}

/* ---- routing complete packets ---- */

static int fail_pkt(xw_connection_t *c, struct xw_pkt *rec, const char *fmt, unsigned long long a, unsigned long long b)
{
    if (rec)
        xw__store_free(c, rec);
    char msg[200];
    snprintf(msg, sizeof(msg), fmt, a, b);
    return xw__fail_conn(c, XW_CONN_CLOSED_MALFORMED, "%s", msg);
}

/* ---- received fds: each read's batch belongs to the bytes it came with ---- */

/* Fds a reply at stream bytes [s, e) may claim from batch b: own (it overlaps b)
 * or earlier (b ended before it: kept for a waiting request, see fds_sweep). */
static int batch_is(const struct xw_fd_batch *b, uint64_t s, uint64_t e, int own)
{
    return b->start < e && (b->end > s) == own;
}

/* Drops batch i (its fds claimed or closed). */
static void batch_drop(struct xw_in *in, unsigned i)
{
    memmove(in->fdb + i, in->fdb + i + 1, (in->nfdb - i - 1) * sizeof(in->fdb[0]));
    in->nfdb--;
}

/* Moves up to n fds of the batches of one kind to dst, oldest first; returns how many. */
static unsigned take_from(struct xw_in *in, uint64_t s, uint64_t e, int own, int *dst, unsigned n)
{
    unsigned got = 0;
    for (unsigned i = 0; i < in->nfdb && got < n; i++) {
        struct xw_fd_batch *b = &in->fdb[i];
        if (!batch_is(b, s, e, own))
            continue;
        unsigned k = b->n - b->used < n - got ? b->n - b->used : n - got;
        memcpy(dst + got, b->fds + b->used, k * sizeof(int));
        b->used += k;
        got += k;
    }
    return got;
}

/* Fds received no later than stream offset e and not claimed yet. */
static unsigned fds_before(const struct xw_in *in, uint64_t e)
{
    unsigned have = 0;
    for (unsigned i = 0; i < in->nfdb; i++)
        if (in->fdb[i].start < e)
            have += in->fdb[i].n - in->fdb[i].used;
    return have;
}

/* Moves n fds (at most fds_before(e)) to dst, the caller owns them then, for the
 * reply at stream bytes [s, e): first from the reads it came with, then from
 * earlier reads kept for it. */
static void take_fds(struct xw_in *in, uint64_t s, uint64_t e, int *dst, unsigned n)
{
    unsigned got = take_from(in, s, e, 1, dst, n);
    take_from(in, s, e, 0, dst + got, n - got);
    for (unsigned i = in->nfdb; i-- > 0;)
        if (in->fdb[i].used == in->fdb[i].n)
            batch_drop(in, i);
}

/* Stream offset up to which every received byte has been parsed. */
static uint64_t parsed_to(const struct xw_in *in)
{
    return in->pdata ? in->pstart : in->rpos - in->len;
}

/* Closes the unclaimed fds of each batch whose bytes are all parsed. While a
 * request whose reply brings fds is unfinished they are kept for it instead: a
 * server sends fds with the first segment of a flush, which can end before the
 * reply (Linux cuts a large sendmsg into ~36 KiB segments and hands the fds out
 * with the first). A full queue drops the oldest parsed batch. */
static void fds_sweep(struct xw_in *in, int room)
{
    uint64_t done = parsed_to(in);
    for (unsigned i = in->nfdb; i-- > 0;) {
        struct xw_fd_batch *b = &in->fdb[i];
        int full = room && in->nfdb == XW_FD_BATCHES && i == 0;
        if (b->end <= done && (!in->fdwait || full)) {
            xw__fail_close_fds(b->fds + b->used, b->n - b->used);
            batch_drop(in, i);
        }
    }
}

/* Events, errors and XGE events in libxcb's layout: 32 bytes, the widened sequence
 * (low 32 bits) at 32, any XGE extra data from 36. rec, when given, already holds
 * the wire bytes and has room for 4 more. */
static struct xw_pkt *event_record(xw_connection_t *c, const uint8_t *w, size_t n, struct xw_pkt *rec, uint64_t seq)
{
    if (!rec) {
        rec = xw__store_alloc(c, n + 4);
        if (!rec)
            return NULL;
        memcpy(XW_PKT_DATA(rec), w, 32);
        memcpy(XW_PKT_DATA(rec) + 36, w + 32, n - 32);
    } else {
        memmove(XW_PKT_DATA(rec) + 36, XW_PKT_DATA(rec) + 32, n - 32);
    }
    xw__wr32(XW_PKT_DATA(rec) + 32, (uint32_t)seq);
    rec->len = (uint32_t)(n + 4);
    rec->seq = seq;
    rec->nfds = 0;
    return rec;
}

/* An error standing in for a reply or XGE event whose counts overrun its length. */
static struct xw_pkt *malformed_record(xw_connection_t *c, struct xw_pkt *rec, uint64_t seq, uint8_t major,
                                       uint16_t minor)
{
    if (rec)
        xw__store_free(c, rec);
    uint8_t e[32] = {0};
    e[1] = XW_ERROR_MALFORMED_REPLY;
    xw__wr16(e + 2, (uint16_t)seq);
    xw__wr16(e + 8, minor);
    e[10] = major;
    struct xw_pkt *p = event_record(c, e, 32, NULL, seq);
    if (p)
        p->kind = XW_PKT_ERROR;
    return p;
}

/* The record of a reply of n bytes at w (or already in rec): the bytes, its nfds fds,
 * then XW_REPLY_SLACK_AFTER(n) zero bytes. NULL, with the fds closed, when out of memory. */
static struct xw_pkt *reply_record(xw_connection_t *c, const uint8_t *w, size_t n, struct xw_pkt *rec, int *fds,
                                   unsigned nfds)
{
    struct xw_pkt *p = rec ? rec : xw__store_alloc(c, n + nfds * sizeof(int) + XW_REPLY_SLACK_AFTER(n));
    if (!p) {
        xw__fail_close_fds(fds, nfds);
        return NULL;
    }
    if (!rec)
        memcpy(XW_PKT_DATA(p), w, n);
    p->len = (uint32_t)n;
    p->kind = XW_PKT_REPLY;
    if (nfds) /* nearly every reply has none, and then fds may be NULL */
        memcpy(XW_PKT_DATA(p) + n, fds, nfds * sizeof(int));
    if (n > 32) /* XW_REPLY_SLACK_AFTER: none after a 32-byte reply */
        memset(XW_PKT_DATA(p) + n + nfds * sizeof(int), 0, XW_REPLY_SLACK_AFTER(n));
    p->nfds = (uint16_t)nfds;
    return p;
}

/* A multi-reply request (struct xw_request's multi_reply) ends with the reply
 * whose byte 1 is its multi_end; any other request with its first reply. */
static int is_last_reply(const struct xw_pend *e, const uint8_t *w)
{
    return !e->multi || w[1] == e->multi_end;
}

/* ---- replies straight into a waiting caller's buffer (struct xw_into) ---- */

/* The registered caller takes e's next reply (request seq): it waits for it, has not
 * been given one, and nothing of e's is queued ahead of it. */
static int into_wants(const struct xw_in *in, const struct xw_pend *e, uint64_t seq)
{
    return in->into.seq == seq && in->into.state != XW_INTO_DONE && !xw__pend_holds(e) && !e->dead;
}

/* The reply of n bytes with nfds fds fits the registered buffer: its bytes and fds,
 * and the slack too when its validator reads that far (XW__REQUEST_REPLY_GAP). */
static int into_fits(const struct xw_in *in, const struct xw_pend *e, size_t n, unsigned nfds)
{
    size_t gap = (e->flags & XW__REQUEST_REPLY_GAP) ? XW_REPLY_SLACK_AFTER(n) : 0;
    return n + nfds * sizeof(int) + gap <= in->into.cap;
}

/* Hands the reply of n bytes at w (already there when w is the caller's buffer; else
 * in rec, when given, or the read buffer) and its nfds fds (the caller's from now on)
 * to the registered caller, validated where it lands; a reply that fails validation
 * is queued as an error instead. */
static __attribute__((noinline)) int into_deliver(xw_connection_t *c, struct xw_pend *e, const uint8_t *w, size_t n,
                                                  struct xw_pkt *rec, uint64_t seq, const int *fds, unsigned nfds)
{
    struct xw_into *t = &c->in.into;
    size_t len = n + nfds * sizeof(int);
    size_t slack = t->cap - len < XW_REPLY_SLACK_AFTER(n) ? t->cap - len : XW_REPLY_SLACK_AFTER(n);
    if (w != t->buf)
        memcpy(t->buf, w, n);
    if (rec)
        xw__store_free(c, rec);
    if (nfds)
        memcpy(t->buf + n, fds, nfds * sizeof(int));
    memset(t->buf + len, 0, slack);
    if (e->validate && e->validate(t->buf, n) != 0) {
        xw__fail_close_fds((int *)fds, nfds);
        struct xw_pkt *p = malformed_record(c, NULL, seq, 0, 0);
        if (!p)
            return xw__fail_conn(c, XW_CONN_CLOSED_MEM_INSUFFICIENT, "out of memory for an error");
        xw__queue_push(&e->q, p);
        t->state = XW_INTO_WAIT;
        return 0;
    }
    t->len = len;
    t->state = XW_INTO_DONE;
    return 0;
}

/* Finishes entry e with the reply of n bytes at w (in rec, when given) and queues
 * it for its caller with the nfds fds at fds (owned here), or drops it when nobody
 * will claim it. */
static inline __attribute__((always_inline)) int keep_reply(xw_connection_t *c, struct xw_pend *e, const uint8_t *w,
                                                            size_t n, struct xw_pkt *rec, uint64_t seq, const int *fds,
                                                            unsigned nfds, int may_inline, int may_into)
{
    struct xw_in *in = &c->in;
    if (is_last_reply(e, w))
        finish(in, e);
    if (e->dead) {
        xw__fail_close_fds((int *)fds, nfds);
        if (rec)
            xw__store_free(c, rec);
        xw__pend_trim(&in->pend);
        return 0;
    }
    if (may_inline && n == 32 && !nfds && e->done && !e->q.head && (!e->validate || e->validate(w, n) == 0)) {
        /* the common reply: kept in the entry, no record (the waiting fields it
         * overwrites are not needed once the request is finished; a 32-byte reply
         * has no slack to validate against) */
        xw__pend_keep(e, w);
        if (rec)
            xw__store_free(c, rec);
        return 0;
    }
    if (may_into && XW_UNLIKELY(in->into.seq == seq) && into_wants(in, e, seq) && into_fits(in, e, n, nfds))
        return into_deliver(c, e, w, n, rec, seq, fds, nfds);
    struct xw_pkt *p = reply_record(c, w, n, rec, (int *)fds, nfds);
    if (p)
        p->seq = seq;
    /* validated as stored, with the slack libxcb's layout may read into */
    if (p && e->validate && e->validate(XW_PKT_DATA(p), n) != 0) {
        xw__fail_close_fds((int *)fds, nfds);
        p = malformed_record(c, p, seq, 0, 0);
    }
    if (!p)
        return xw__fail_conn(c, XW_CONN_CLOSED_MEM_INSUFFICIENT, "out of memory for a %zu-byte reply", n);
    xw__queue_push(&e->q, p);
    return 0;
}

/* A reply that claims fds (its request asked for them, byte 1 counts them): they
 * come from the reads that brought its bytes [at, at + n), or earlier ones. */
static __attribute__((noinline)) int route_reply_fds(xw_connection_t *c, struct xw_pend *e, const uint8_t *w, size_t n,
                                                     struct xw_pkt *rec, uint64_t seq, uint64_t at)
{
    struct xw_in *in = &c->in;
    unsigned nfds = w[1];
    int fds[XW_MAX_FDS]; /* owned here until they move into the packet or are closed */
    unsigned have = fds_before(in, at + n);
    if (nfds > have || nfds > XW_MAX_FDS)
        return fail_pkt(c, rec, "malformed reply: claims %llu fds, %llu received", nfds, have);
    take_fds(in, at, at + n, fds, nfds);
    return keep_reply(c, e, w, n, rec, seq, fds, nfds, 0, 1);
}

/* A reply to no request of ours: one another owner wrote through xw_writev while it
 * held the socket (xw_take_socket) goes, with its fds, to the stash by sequence
 * (never inline: the entry is a stand-in on the stack); any other is dropped (see
 * "Packets no request expects" at route()). e: the oldest unfinished entry. */
static __attribute__((noinline)) int route_owner_general(xw_connection_t *c, struct xw_pend *e, const uint8_t *w,
                                                         size_t n, struct xw_pkt *rec, uint64_t seq, uint64_t at)
{
    struct xw_pend own;
    if ((e && e->seq == seq) || !xw__stash_owner(c, seq, &own)) {
        if (rec)
            xw__store_free(c, rec);
        c->in.dropped++;
        return 0; /* its fds, if any, stay in their batch and fds_sweep closes them */
    }
    int r = (own.flags & XW_REQUEST_REPLY_FDS) && w[1] ? route_reply_fds(c, &own, w, n, rec, seq, at)
                                                       : keep_reply(c, &own, w, n, rec, seq, NULL, 0, 0, 0);
    xw__stash_keep(c, &own.q);
    return r;
}

/* route_owner_general's common case first: the owner's 32-byte reply to the slot
 * (xw__stash_slot_keep), no record. A leaf, every other way a tail call, so it
 * saves no registers. */
static __attribute__((noinline)) int route_owner_reply(xw_connection_t *c, struct xw_pend *e, const uint8_t *w,
                                                       size_t n, struct xw_pkt *rec, uint64_t seq, uint64_t at)
{
    int k = n == 32 && !rec && !(e && e->seq == seq) ? xw__stash_slot_keep(&c->lend, seq, w) : 0;
    if (k == 1)
        return 0;
    if (k == 2)
        return xw__stash_slot_push(c, seq, w);
    return route_owner_general(c, e, w, n, rec, seq, at);
}

/* e: the oldest unfinished entry. */
static int route_reply(xw_connection_t *c, struct xw_pend *e, const uint8_t *w, size_t n, struct xw_pkt *rec,
                       uint64_t seq, uint64_t at)
{
    if (XW_UNLIKELY(!e || e->seq != seq || e->isvoid))
        return route_owner_reply(c, e, w, n, rec, seq, at);
    if (XW_UNLIKELY(e->flags & XW_REQUEST_REPLY_FDS) && w[1]) /* nearly every reply claims none */
        return route_reply_fds(c, e, w, n, rec, seq, at);
    return keep_reply(c, e, w, n, rec, seq, NULL, 0, 1, 1);
}

static int route_error(xw_connection_t *c, const uint8_t *w, struct xw_pkt *rec, uint64_t seq)
{
    struct xw_in *in = &c->in;
    if (seq > in->err_seq) /* an error finishes its own request too (done_seq) */
        in->err_seq = seq;
    if (XW_UNLIKELY(c->cs != NULL))
        xw__errtext_shown(c, w, seq);
    struct xw_pend own, *e = first_undone(in);
    if (e && e->seq != seq)
        e = NULL;
    if (!e && xw__stash_owner(c, seq, &own)) /* another owner's request (xw_writev) */
        e = &own;
    if (e)
        finish(in, e);
    if (e && e->dead && !(e->flags & XW_REQUEST_ERROR_TO_EVENTS)) {
        if (rec)
            xw__store_free(c, rec);
        xw__pend_trim(&in->pend);
        return 0;
    }
    struct xw_pkt *p = event_record(c, w, 32, rec, seq);
    if (!p)
        return xw__fail_conn(c, XW_CONN_CLOSED_MEM_INSUFFICIENT, "out of memory for an error");
    p->kind = XW_PKT_ERROR;
    if (e && !e->dead && (e->flags & XW_REQUEST_CHECKED)) {
        xw__queue_push(&e->q, p);
        if (e == &own)
            xw__stash_keep(c, &own.q);
    } else {
        xw__queue_push(&in->events, p);
        if (e && e != &own && !xw__pend_holds(e)) /* the error went to the events: nothing left to claim */
            xw__pend_retire(&in->pend, e);
    }
    xw__pend_trim(&in->pend);
    return 0;
}

/* The event queue's last record when it is a batch with room for one more core
 * event, else NULL. */
static inline struct xw_pkt *batch_room(const struct xw_in *in)
{
    struct xw_pkt *t = in->events.tail;
    return t && t->kind == XW_PKT_BATCH && t->len < XW_BATCH_BYTES ? t : NULL;
}

/* The core event at w (32 bytes) with its widened sequence at the end of batch b. */
static inline void batch_put(struct xw_pkt *b, const uint8_t *w, uint64_t seq)
{
    uint8_t *d = (uint8_t *)(b + 1) + b->len;
    memcpy(d, w, 32);
    xw__wr32(d + 32, (uint32_t)seq);
    b->len += 36;
}

/* A new, empty batch at the end of the event queue: the spare, else a record from
 * the store. NULL when out of memory. */
static struct xw_pkt *batch_new(xw_connection_t *c)
{
    struct xw_pkt *b = c->in.spare;
    if (b)
        c->in.spare = NULL;
    else if (!(b = xw__store_alloc(c, XW_BATCH_BYTES)))
        return NULL;
    b->len = 0;
    b->seq = 0;
    b->kind = XW_PKT_BATCH;
    xw__queue_push(&c->in.events, b);
    return b;
}

/* A core event (32 bytes, never a partial packet) into the queue's last batch, or
 * a new one. */
static int route_core_event(xw_connection_t *c, const uint8_t *w, uint64_t seq)
{
    struct xw_pkt *b = batch_room(&c->in);
    if (!b && XW_UNLIKELY(!(b = batch_new(c))))
        return xw__fail_conn(c, XW_CONN_CLOSED_MEM_INSUFFICIENT, "out of memory for an event");
    batch_put(b, w, seq);
    return 0;
}

/* Core events go to the event queue; XGE events are validated by the owning
 * extension's generated validator, then delivered to a matching special-event
 * queue or the event queue. */
static int route_event(xw_connection_t *c, const uint8_t *w, size_t n, struct xw_pkt *rec, uint64_t seq)
{
    /* no XW_LIKELY: the hint reorders route()'s blocks and costs each reply an instruction */
    if ((w[0] & 0x7f) != XW_GE_GENERIC && !rec)
        return route_core_event(c, w, seq);
    struct xw_queue *q = &c->in.events;
    struct xw_special_event *se = NULL;
    struct xw_pkt *p;
    xw_validate_fn check = NULL;
    uint16_t type = 0;
    if ((w[0] & 0x7f) == XW_GE_GENERIC) {
        type = xw__rd16(w + 8);
        struct xw_ext_entry *x = xw__ext_by_major(c, w[1]);
        const xw_ext_desc_t *d = x ? x->desc : NULL;
        if (d && d->xge_validators && type < d->n_xge)
            check = d->xge_validators[type];
        for (se = c->in.special; se; se = se->next)
            if (se->major == w[1] && se->eid == xw__rd32(w + 12))
                break;
    }
    p = event_record(c, w, n, rec, seq);
    if (!p)
        return xw__fail_conn(c, XW_CONN_CLOSED_MEM_INSUFFICIENT, "out of memory for an event");
    /* generated XGE validators read the event as stored (full_sequence at 32), the
     * layout the accessors use */
    if (check && check(XW_PKT_DATA(p), p->len)) {
        p = malformed_record(c, p, seq, XW_GE_GENERIC, type);
        if (!p)
            return xw__fail_conn(c, XW_CONN_CLOSED_MEM_INSUFFICIENT, "out of memory for an event");
        xw__queue_push(q, p);
        return 0;
    }
    p->kind = XW_PKT_EVENT;
    if (se) {
        q = &se->q;
        if (se->stamp)
            (*se->stamp)++;
    }
    xw__queue_push(q, p);
    return 0;
}

/* The request an older reply may stand in for (see route_older): the oldest one
 * still awaiting a reply; every request sent so far when the socket has been lent
 * (which of the owner's requests await replies is not known); 0 when none awaits. */
static uint64_t stand_in_for(xw_connection_t *c)
{
    struct xw_pend_store *s = &c->in.pend;
    if (c->lend.nranges)
        return c->out.seq;
    for (size_t i = s->n - s->undone; i < s->n; i++) {
        struct xw_pend *e = xw__pend_at(s, i);
        if (!e->isvoid)
            return e->seq;
    }
    return 0;
}

/* A packet whose 16-bit sequence, widened forward from the last one read, names a
 * request never sent (seq). Read backwards it names one older than the last
 * packet's: the server has finished that request already, and its caller has had
 * its answer (a reply, an error, or nothing).
 * - A reply is dropped: handing it to anyone would be wrong. It may be a stray copy
 *   (the replies still due come as usual) or the reply of the oldest request still
 *   awaiting one, its sequence damaged: that reply will never come, and a caller
 *   waiting for it would wait forever (libxcb, which widens it forward, takes every
 *   request sent as finished and hands each waiter nothing). So the oldest request
 *   awaiting a reply (stand_in_for) is finished with nothing now: one caller gets
 *   nothing, as on libxcb, and nobody hangs; its own reply, should it still come,
 *   is dropped as no request expects it.
 * - An error or an event is the server's word on a finished request and goes to the
 *   event queue with its older sequence, as an unchecked error would.
 * last_seq stays. Only a sequence older than the connection itself is fatal: then
 * nothing can be trusted. */
static __attribute__((noinline)) int route_older(xw_connection_t *c, const uint8_t *w, size_t n, struct xw_pkt *rec,
                                                 uint64_t seq)
{
    struct xw_in *in = &c->in;
    if (seq < 0x10000)
        return fail_pkt(c, rec, "malformed packet: sequence %llu was never sent (last sent %llu)",
                        (unsigned long long)seq, (unsigned long long)c->out.seq);
    seq -= 0x10000;
    if (w[0] == 1) {
        if (rec)
            xw__store_free(c, rec);
        in->dropped++;
        uint64_t x = stand_in_for(c);
        if (x) {
            complete_before(in, x + 1);
            if (x > in->err_seq) /* done_seq: finished, nothing more to come */
                in->err_seq = x;
        }
        return 0;
    }
    if (w[0] != 0)
        return route_event(c, w, n, rec, seq);
    struct xw_pkt *p = event_record(c, w, 32, rec, seq);
    if (!p)
        return xw__fail_conn(c, XW_CONN_CLOSED_MEM_INSUFFICIENT, "out of memory for an error");
    p->kind = XW_PKT_ERROR;
    xw__queue_push(&in->events, p);
    return 0;
}

/* Routes the packet of n bytes at w, which the stream carried at offset at.
 *
 * Framing: only type byte 1 is a reply and only 0 an error, as libxcb reads them;
 * with the SendEvent bit (0x81, 0x80) the packet is an event another client sent,
 * 32 bytes like every core event. Type 35 with or without the bit is an XGE event.
 *
 * Packets no request expects. A server that follows the protocol sends none; a
 * proxy or a broken server may. libxcb carries on in each case, and where that
 * gives every caller the right answer xwire carries on too:
 * - a reply whose sequence names no request awaiting a reply (sequence 0 right after
 *   the setup, a void request's), a reply sent twice, or a reply after the error
 *   that finished its request: dropped, counted in in.dropped. The request it names
 *   has its answer already (its first reply, the error) or gets the one it would
 *   get anyway, nothing, once a later packet finishes it. libxcb keeps such a reply
 *   where no caller will look, or hands it to the request after an error it also
 *   handed out; either way the caller sees the first answer, as here. A socket
 *   owner's (Xlib's) request is the exception: every reply to it is kept for the
 *   owner, which decides, as libxcb's list of replies per sequence does.
 * - a packet older than the last one read (sequence 0 after the first reply is one):
 *   route_older.
 * Strict where continuing would mislead: a length past the cap, fds that never came,
 * a sequence from before the connection began. */
static int route(xw_connection_t *c, const uint8_t *w, size_t n, struct xw_pkt *rec, uint64_t at)
{
    struct xw_in *in = &c->in;
    uint8_t type = w[0];
    uint64_t seq = in->last_seq;
    if ((type & 0x7f) != XW_KEYMAP_NOTIFY) {
        uint16_t low = xw__rd16(w + 2);
        seq += (uint16_t)(low - (uint16_t)in->last_seq);
        if (XW_UNLIKELY(seq > c->out.seq))
            return route_older(c, w, n, rec, seq);
        in->last_seq = seq;
    }
    struct xw_pend *e = complete_before(in, seq);
    if (type == 1)
        return route_reply(c, e, w, n, rec, seq, at);
    if (type == 0)
        return route_error(c, w, rec, seq);
    return route_event(c, w, n, rec, seq);
}

/* The unfinished entry e takes the 32-byte reply at p (type 1, length word 0) the
 * way route() would keep it: e awaits exactly one reply, no fds, holds nothing yet,
 * and is the reply's request (*last: the sequence read before it, then its own).
 * 0: nothing changed. */
static inline __attribute__((always_inline)) int reply_keep_fast(struct xw_pend *e, const uint8_t *p, uint64_t *last)
{
    if (p[0] != 1 || xw__rd32(p + 4))
        return 0;
    uint64_t seq = *last + (uint16_t)(xw__rd16(p + 2) - (uint16_t)*last);
    /* e->seq was sent, so seq is no later than out.seq, as route() checks */
    if (e->seq != seq || !xw__pend_plain(e) || e->q.head)
        return 0;
    if (e->validate && e->validate(p, 32) != 0)
        return 0;
    *last = seq;
    xw__pend_keep_done(e, p);
    return 1;
}

/* The common replies, what route() would do for them without its call and saved
 * registers: a run of 32-byte replies at w (have bytes), each to the oldest
 * unfinished request (reply_keep_fast), so it finishes no other request and is kept
 * inline in the entry (keep_reply's first choice, which also comes before a
 * registered into buffer). A pipeline's replies come in long runs to consecutive
 * entries, so the entry is found through the ring once per run, not per reply; the
 * run stops at its block's end. A round trip's one reply pays for no bound. Returns
 * the bytes taken (0: route() takes w, nothing changed). */
static inline __attribute__((always_inline)) size_t route_reply_run(struct xw_in *in, const uint8_t *w, size_t have)
{
    struct xw_pend_store *s = &in->pend;
    size_t undone = s->undone;
    if (!undone)
        return 0;
    struct xw_pend *e = xw__pend_at(s, s->n - undone);
    uint64_t last = in->last_seq;
    if (!reply_keep_fast(e, w, &last))
        return 0;
    const uint8_t *p = w + 32;
    if (have >= 64 && undone > 1) {
        uint64_t i = s->head + s->n - undone;                    /* e's running index */
        size_t left = XW_PEND_BLOCK - (i & (XW_PEND_BLOCK - 1)); /* e's block's entries from e on */
        size_t end = have / 32 < left ? have / 32 : left;
        const uint8_t *stop = w + 32 * (end < undone ? end : undone);
        while (p < stop && reply_keep_fast(++e, p, &last))
            p += 32;
    }
    size_t k = (size_t)(p - w) / 32;
    in->last_seq = last;
    s->undone = undone - k;
    xw__pend_trim(s); /* as complete_before */
    return 32 * k;
}

/* ---- framing ---- */

/* Size of the packet starting at w (32 bytes available); refuses absurd lengths
 * before anything is allocated for them. */
static int packet_size(xw_connection_t *c, const uint8_t *w, size_t *need)
{
    uint8_t type = w[0];
    *need = 32;
    if (type != 1 && (type & 0x7f) != XW_GE_GENERIC) /* 0x81: a sent event (see route) */
        return 0;
    uint32_t words = xw__rd32(w + 4);
    if (words > (XW_PACKET_CAP - 32) / 4)
        return xw__fail_conn(c, XW_CONN_CLOSED_MALFORMED, "malformed %s: length %u words",
                             type == 1 ? "reply" : "event", words);
    *need = 32 + (size_t)words * 4;
    return 0;
}

/* The record a packet of need bytes bigger than the read buffer is filled in: room
 * for 4 more bytes (XGE layout) and a reply's fds and slack. Becomes in->partial. */
int xw__route_partial_record(xw_connection_t *c, size_t need)
{
    struct xw_pkt *p = xw__store_alloc(c, need + 4 + XW_MAX_FDS * sizeof(int) + XW_REPLY_SLACK);
    if (!p)
        return xw__fail_conn(c, XW_CONN_CLOSED_MEM_INSUFFICIENT, "out of memory for a %zu-byte packet", need);
    c->in.partial = p;
    c->in.pdata = XW_PKT_DATA(p);
    return 0;
}

/* The packet at w, of need bytes, is the reply a registered caller waits for and fits
 * its buffer: it is received there (XW_INTO_FILL) and never copied again. */
static int partial_into(struct xw_in *in, const uint8_t *w, size_t need)
{
    if (!in->into.seq || w[0] != 1)
        return 0;
    uint64_t seq = in->last_seq + (uint16_t)(xw__rd16(w + 2) - (uint16_t)in->last_seq); /* as route widens */
    struct xw_pend *e = seq == in->into.seq ? xw__pend_find(&in->pend, seq) : NULL;
    unsigned nfds = e && (e->flags & XW_REQUEST_REPLY_FDS) ? w[1] : 0;
    if (!e || e->done || !into_wants(in, e, seq) || !into_fits(in, e, need, nfds))
        return 0;
    in->into.state = XW_INTO_FILL;
    in->partial = NULL;
    in->pdata = in->into.buf;
    return 1;
}

/* A packet bigger than the read buffer is filled where it ends up (the waiting
 * caller's buffer, or its record), so its bytes are copied at most once. */
static int start_partial(xw_connection_t *c, const uint8_t *w, size_t have, size_t need)
{
    struct xw_in *in = &c->in;
    if (!partial_into(in, w, need) && xw__route_partial_record(c, need) < 0)
        return -1;
    memcpy(in->pdata, w, have);
    in->pstart = in->rpos - have;
    in->pfill = have;
    in->pneed = need;
    return 0;
}

/* Types that end a run of events, by their first byte: errors, replies,
 * KeymapNotify, XGE, sent or not. The extension events that share their low six
 * bits (64, 65, 75, 99, and those with the sent bit) end it too: route() takes
 * them, only more slowly. A byte table: one load and compare per event. */
#define XW_RUN_END4(t) [t] = 1, [(t) + 64] = 1, [(t) + 128] = 1, [(t) + 192] = 1
static const uint8_t run_ends[256] = {XW_RUN_END4(0), XW_RUN_END4(1), XW_RUN_END4(XW_KEYMAP_NOTIFY),
                                      XW_RUN_END4(XW_GE_GENERIC)};
_Static_assert(XW_KEYMAP_NOTIFY < 64 && XW_GE_GENERIC < 64, "the run's end types");
#undef XW_RUN_END4

/* The run of core events at w (bound bytes, whole packets) that route() would
 * only queue: KeymapNotify (no sequence), errors, replies and XGE end it, and so
 * does a sequence that finishes a request (past limit). Each event goes to d, 36
 * bytes apart with its widened sequence, unless d is NULL (the view: left in
 * place). *last: the widened sequence before the run, then of its last event.
 * Returns the bytes taken.
 * An event whose type and sequence (its first word less the detail byte) are the
 * last checked one's passes as that one did, with one compare: a stream's events
 * share both for long stretches (every event until the client's next request has
 * the same sequence), so the type table and the widening run once per change.
 * The first key has a detail byte no masked word has, so the first event is
 * always checked. The mask is built from bytes, so it holds in either byte order. */
static inline __attribute__((always_inline)) size_t run_scan(const uint8_t *w, size_t bound, uint64_t limit,
                                                             uint64_t *last, uint8_t *d)
{
    static const uint8_t no_detail[4] = {0xff, 0, 0xff, 0xff};
    uint64_t l = *last;
    uint32_t mask = xw__rd32(no_detail), key = ~mask;
    size_t pos = 0;
#pragma GCC unroll 4
    for (; pos < bound; pos += 32) {
        const uint8_t *p = w + pos;
        uint32_t k = xw__rd32(p) & mask;
        if (XW_UNLIKELY(k != key)) {
            if (run_ends[p[0]])
                break;
            uint64_t seq = l + (uint16_t)(xw__rd16(p + 2) - (uint16_t)l);
            if (seq > limit)
                break;
            l = seq;
            key = k;
        }
        if (d) {
            memcpy(d, p, 32);
            xw__wr32(d + 32, (uint32_t)l);
            d += 36;
        }
    }
    *last = l;
    return pos;
}

/* The sequence bound of a run: its events finish no request, so none may reach
 * the oldest unfinished one (or pass the last sent). Found once per run, not per
 * event: queuing an event finishes nothing. */
static inline uint64_t run_limit(xw_connection_t *c)
{
    struct xw_pend *e = first_undone(&c->in);
    return e && e->seq < c->out.seq ? e->seq : c->out.seq;
}

/* The packets of an event stream routed inside the parse loop, without route()'s
 * call and its saved registers: core events whose sequences finish no request
 * (run_scan), into the queue's last batch until it is full. What route() would do
 * for them, and nothing else. Returns the bytes taken (0: route() takes w, and
 * finds any fault in it). */
static inline __attribute__((always_inline)) size_t route_stream_run(xw_connection_t *c, const uint8_t *w, size_t have)
{
    struct xw_in *in = &c->in;
    struct xw_pkt *b = batch_room(in);
    if (!b)
        return 0;
    uint64_t last = in->last_seq;
    /* the run's bound, packets whole in w and room in b, counted once */
    size_t k = have / 32, room = (XW_BATCH_BYTES - b->len) / 36, bound = 32 * (k < room ? k : room);
    size_t pos = run_scan(w, bound, run_limit(c), &last, (uint8_t *)(b + 1) + b->len);
    if (pos) {
        in->last_seq = last;
        b->len += (uint32_t)(pos / 32 * 36);
        xw__pend_trim(&in->pend); /* as complete_before, which would finish nothing */
    }
    return pos;
}

/* As route_stream_run, but the run stays where it was read: routed here and
 * queued as the view (struct xw_in), so its bytes are copied once, by the claim,
 * rather than into a batch and out again; it ends where the sequences' high 48
 * bits would change. The view must be free. */
static inline __attribute__((always_inline)) size_t route_view_run(xw_connection_t *c, const uint8_t *w, size_t have)
{
    struct xw_in *in = &c->in;
    uint64_t last = in->last_seq, limit = run_limit(c), high = last | 0xffff;
    /* bounded by high too: its sequences keep last's high 48 bits, so a claim
     * finds each from the event's own 16 without widening it again */
    size_t pos = run_scan(w, have & ~(size_t)31, limit < high ? limit : high, &last, NULL);
    if (pos) {
        struct xw_pkt *v = &in->view;
        v->ext = in->buf;
        v->seq = (uint64_t)(w - in->buf);
        v->len = (uint32_t)(v->seq + pos);
        v->kind = XW_PKT_VIEW;
        in->view_high = (uint32_t)last & 0xffff0000u;
        in->view_on = 1;
        xw__queue_push(&in->events, v);
        xw__route_view_arm(in);
        in->last_seq = last;
        xw__pend_trim(&in->pend);
    }
    return pos;
}

/* The parse is over and the unparsed rest of buf (less than a packet, or a packet
 * not read whole) goes to the start of the buffer the next read appends to: buf's
 * own, or, when this parse queued the view in buf, the other buffer, which the
 * two then swap, so that no read overwrites what the view shows. */
static void keep_rest(struct xw_in *in, size_t pos)
{
    size_t rest = in->len - pos;
    if (in->view_on && in->view.ext == in->buf) {
        uint8_t *b = in->buf;
        memcpy(in->alt, b + pos, rest);
        in->buf = in->alt;
        in->alt = b;
    } else if (rest && pos) {
        memmove(in->buf, in->buf + pos, rest);
    }
    in->len = rest;
}

static inline __attribute__((always_inline)) int parse(xw_connection_t *c)
{
    struct xw_in *in = &c->in;
    size_t pos = 0;
    while (in->len - pos >= 32 && !c->error) {
        const uint8_t *w = in->buf + pos;
        if (w[0] > 1) { /* a reply stream's packets (and errors) skip both with one test */
            size_t run = in->view_on ? route_stream_run(c, w, in->len - pos) : route_view_run(c, w, in->len - pos);
            if (run) {
                pos += run;
                continue;
            }
        }
        if (w[0] == 1 && !xw__rd32(w + 4)) { /* a longer reply never starts a run */
            size_t run = route_reply_run(in, w, in->len - pos);
            if (run) {
                pos += run;
                continue;
            }
        }
        size_t need;
        if (packet_size(c, w, &need) < 0)
            break;
        size_t have = in->len - pos;
        if (have >= need) {
            route(c, w, need, NULL, in->rpos - have);
            pos += need;
            continue;
        }
        if (need > XW_IN_SIZE && start_partial(c, w, have, need) == 0)
            pos = in->len;
        break;
    }
    keep_rest(in, pos);
    if (in->nfdb)
        fds_sweep(in, 0);
    return c->error ? -EPIPE : 0;
}

/* The first *got bytes of a read go to the partial packet, up to its end; routes it
 * once complete. *got: what is left for the read buffer. */
static void finish_partial(xw_connection_t *c, size_t *got)
{
    struct xw_in *in = &c->in;
    size_t take = in->pneed - in->pfill < *got ? in->pneed - in->pfill : *got;
    in->pfill += take;
    *got -= take;
    if (in->pfill == in->pneed) {
        struct xw_pkt *p = in->partial; /* NULL: the bytes are in the registered caller's buffer */
        const uint8_t *w = in->pdata;
        in->partial = NULL;
        in->pdata = NULL;
        route(c, w, in->pneed, p, in->pstart);
    }
}

/* ---- the entry points: bytes and fds in ---- */

int xw__route_fds(xw_connection_t *c, const int *fds, unsigned n, size_t got)
{
    struct xw_in *in = &c->in;
    if (n > XW_MAX_FDS) {
        xw__fail_close_fds((int *)fds, n);
        return -ENOBUFS;
    }
    if (in->nfdb == XW_FD_BATCHES)
        fds_sweep(in, 1);
    if (in->nfdb == XW_FD_BATCHES) {
        xw__fail_close_fds((int *)fds, n);
        return -ENOBUFS;
    }
    struct xw_fd_batch *b = &in->fdb[in->nfdb++];
    *b = (struct xw_fd_batch){.start = in->rpos, .end = in->rpos + got, .n = n};
    memcpy(b->fds, fds, n * sizeof(int));
    return 0;
}

int xw__route_input(xw_connection_t *c, size_t got)
{
    struct xw_in *in = &c->in;
    in->rpos += (uint64_t)got;
    if (in->pdata)
        finish_partial(c, &got);
    in->len += got;
    return parse(c);
}

int xw__route_feed(xw_connection_t *c, const uint8_t *bytes, size_t n, const int *fds, unsigned nfds)
{
    struct xw_in *in = &c->in;
    if (c->error) {
        xw__fail_close_fds((int *)fds, nfds);
        return -EPIPE;
    }
    do { /* one read's worth: the partial packet's rest, then the buffer's room */
        size_t part = in->pdata ? in->pneed - in->pfill : 0;
        size_t room = part + XW_IN_SIZE - in->len;
        size_t k = n < room ? n : room, a = k < part ? k : part;
        if (nfds && xw__route_fds(c, fds, nfds, k) < 0)
            return xw__fail_conn(c, XW_CONN_CLOSED_FDPASSING_FAILED, "file descriptors from the server were lost");
        nfds = 0;
        if (a)
            memcpy(in->pdata + in->pfill, bytes, a);
        if (k > a)
            memcpy(in->buf + in->len, bytes + a, k - a);
        bytes += k;
        n -= k;
        if (xw__route_input(c, k) < 0)
            return -EPIPE;
    } while (n);
    return 0;
}

/* ---- the end of the connection ---- */

void xw__route_queue_free(xw_connection_t *c, struct xw_queue *q)
{
    queue_free(c, q);
}

void xw__route_fini(xw_connection_t *c)
{
    struct xw_in *in = &c->in;
    for (size_t i = 0; i < in->pend.n; i++) {
        struct xw_pend *e = xw__pend_at(&in->pend, i);
        if (!e->inl)
            queue_free(c, &e->q);
    }
    xw__pend_fini(&in->pend);
    queue_free(c, &in->events);
    if (in->spare)
        xw__store_free(c, in->spare);
    in->spare = NULL;
    while (in->special) {
        struct xw_special_event *se = in->special;
        in->special = se->next;
        queue_free(c, &se->q);
        free(se);
    }
    if (in->partial)
        xw__store_free(c, in->partial);
    queue_free(c, &c->lend.stash);
    xw__fail_close_in_fds(c);
}
