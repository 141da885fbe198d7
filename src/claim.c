/* SPDX-License-Identifier: MIT */
/* claim.c — claiming replies: waits for a request's reply or completion (or a queued packet), hands it out, or
 * delivers it into a waiting caller's own buffer (struct xw_into). The read path is in.c. */
#include "claim.h"
#include "base.h"
#include "conn.h"
#include "fail.h"
#include "in.h"
#include "lend.h"
#include "out.h"
#include "pend.h"
#include "queue.h"
#include "route.h"
#include "store.h"
#include "wait.h"

#include <string.h>

/* The latest sequence number not above ours: every request was ours to number. */
uint64_t xw__claim_widen(xw_connection_t *c, unsigned int seq)
{
    return xw__widen_below(c->out.seq, seq);
}

/* Lock held. Registers buf (cap bytes) for request seq's reply unless another
 * caller's buffer is registered; 1 when registered (into_end must follow). */
static int into_begin(struct xw_in *in, uint64_t seq, void *buf, size_t cap)
{
    if (in->into.seq)
        return 0;
    in->into = (struct xw_into){.seq = seq, .buf = buf, .cap = cap, .state = XW_INTO_WAIT};
    return 1;
}

/* The packet half received into the registered buffer moves to a record, where the
 * rest of it will go (allocates: only when a caller stops waiting mid-reply). */
static __attribute__((noinline)) void into_rescue(xw_connection_t *c)
{
    struct xw_in *in = &c->in;
    const uint8_t *got = in->pdata;
    in->pdata = NULL; /* after a connection error nothing is read any more */
    if (!c->error && xw__route_partial_record(c, in->pneed) == 0)
        memcpy(in->pdata, got, in->pfill);
}

/* Lock held. Ends the registration before the caller gets its buffer back, so
 * nothing is written to it afterwards: a packet half received into it moves to a
 * record. 1 when the reply was delivered into it (*len bytes, fds included). */
static __attribute__((noinline)) int into_end(xw_connection_t *c, size_t *len)
{
    struct xw_in *in = &c->in;
    int done = in->into.state == XW_INTO_DONE;
    if (in->pdata && in->pdata == in->into.buf && !in->partial)
        into_rescue(c);
    if (done)
        *len = in->into.len;
    in->into = (struct xw_into){0};
    return done;
}

/* A caller's buffer offered for its reply while it waits (reply_wait). */
struct into_offer {
    void *buf;
    size_t cap;
    int reg; /* registered (struct xw_into): into_end must follow */
};

/* Before a wait blocks: registers the offer if nobody else's buffer is registered;
 * 1 once the reply has been delivered into it. */
static __attribute__((noinline)) int into_step(struct xw_in *in, uint64_t seq, struct into_offer *o)
{
    if (o->reg)
        return in->into.state == XW_INTO_DONE;
    o->reg = into_begin(in, seq, o->buf, o->cap);
    return 0;
}

/* Lock held. Waits until request seq has something to hand out or is finished.
 * Returns 1 with *ep (NULL when the request is unknown or already claimed), 0 when
 * the deadline passed, -EPIPE on a connection error, 2 when xwire does not track
 * it and has lent its socket (xw__lend_take answers for the owner's requests).
 * With an offer, before it blocks it registers the caller's buffer for the reply
 * (the caller then calls into_end), and returns 1 once the reply is delivered there. */
static inline __attribute__((always_inline)) int wait_body(xw_connection_t *c, uint64_t seq, int64_t deadline,
                                                           struct xw_pend **ep, struct into_offer *o)
{
    *ep = NULL;
    if (seq > c->out.flushed) /* usually on the wire already (the other owner's always are) */
        xw__out_flush_to(c, seq);
    int polled = 0;
    for (;;) {
        struct xw_pend *e = xw__pend_find(&c->in.pend, seq);
        if (!e && XW_UNLIKELY(c->lend.used))
            return 2; /* maybe another owner's request (xw_take_socket) */
        if (!e || (e->dead && !xw__pend_holds(e)))
            return 1;
        if (e->done || e->q.head || (o && into_step(&c->in, seq, o))) { /* an inline reply means done */
            *ep = e;
            return 1;
        }
        /* an offer registered (o->reg) is this thread's buffer */
        int r = xw__wait_step(c, deadline, &polled, o && o->reg);
        if (r <= 0)
            return r;
    }
}

/* reply_wait without an offer (the heap forms, checks) and with one (the _into form). */
static int reply_wait(xw_connection_t *c, uint64_t seq, int64_t deadline, struct xw_pend **ep)
{
    return wait_body(c, seq, deadline, ep, NULL);
}

static __attribute__((noinline)) int reply_wait_offer(xw_connection_t *c, uint64_t seq, int64_t deadline,
                                                      struct xw_pend **ep, struct into_offer *o)
{
    return wait_body(c, seq, deadline, ep, o);
}

/* The entry retires once finished and empty. */
static void retire_if_empty(xw_connection_t *c, struct xw_pend *e)
{
    if (!xw__pend_holds(e) && e->done) {
        xw__pend_retire(&c->in.pend, e);
        xw__pend_trim(&c->in.pend);
    }
}

/* Pops the entry's next packet (an inline reply moves to a record). */
static struct xw_pkt *reply_pop(xw_connection_t *c, struct xw_pend *e)
{
    struct xw_pkt *p;
    if (e->inl) {
        p = xw__store_alloc(c, 32);
        if (p) {
            xw__pend_reply(e, XW_PKT_DATA(p));
            p->len = 32;
            p->seq = e->seq;
            p->kind = XW_PKT_REPLY;
        } else {
            xw__fail_conn(c, XW_CONN_CLOSED_MEM_INSUFFICIENT, "out of memory for a 32-byte reply");
        }
        e->inl = 0;
        e->q = (struct xw_queue){0};
    } else {
        p = xw__queue_pop(&e->q);
    }
    retire_if_empty(c, e);
    return p;
}

/* Lock held. True when seq is not tracked and the socket has been lent, so its
 * answers, if any, are the other owner's (xw__lend_take): reply_wait's first round
 * for such a sequence, without its loop (Xlib's every reply comes this way). */
static int lent_seq(xw_connection_t *c, uint64_t seq)
{
    if (XW_LIKELY(!c->lend.used) || xw__pend_find(&c->in.pend, seq))
        return 0;
    if (seq > c->out.flushed)
        xw__out_flush_to(c, seq);
    return 1;
}

int xw__claim_reply(xw_connection_t *c, uint64_t seq, int64_t deadline, struct xw_pkt **pkt)
{
    struct xw_pend *e;
    *pkt = NULL;
    if (XW_UNLIKELY(lent_seq(c, seq)))
        return xw__lend_take(c, seq, deadline, SIZE_MAX, NULL, pkt, NULL);
    int r = reply_wait(c, seq, deadline, &e);
    if (r == 1 && e)
        *pkt = reply_pop(c, e);
    else if (XW_UNLIKELY(r == 2))
        return xw__lend_take(c, seq, deadline, SIZE_MAX, NULL, pkt, NULL);
    return r;
}

/* The reply was delivered into the registered buffer: the entry, if nobody else
 * retired it meanwhile (another caller waiting for the same request), retires. */
static __attribute__((noinline)) int into_taken(xw_connection_t *c, uint64_t seq)
{
    struct xw_pend *e = xw__pend_find(&c->in.pend, seq);
    if (e)
        retire_if_empty(c, e);
    return 3;
}

/* What a reply wait that ended with r and *e hands a caller with cap bytes at buf:
 * returns as xw__claim_reply_fit. */
static inline __attribute__((always_inline)) int fit_take(xw_connection_t *c, int r, struct xw_pend *e, uint64_t seq,
                                                          int64_t deadline, size_t cap, size_t *need,
                                                          struct xw_pkt **pkt, void *buf)
{
    if (XW_UNLIKELY(r == 2))
        return xw__lend_take(c, seq, deadline, cap, need, pkt, buf);
    if (r != 1 || !e)
        return r;
    if (e->inl) { /* straight from the entry to the caller: no record */
        if (cap < 32) {
            *need = 32;
            return -ENOSPC;
        }
        xw__pend_reply(e, buf);
        e->inl = 0;
        e->q = (struct xw_queue){0};
        retire_if_empty(c, e);
        return 2;
    }
    struct xw_pkt *p = e->q.head;
    if (p && p->kind == XW_PKT_REPLY && p->len + p->nfds * sizeof(int) > cap) {
        *need = p->len + p->nfds * sizeof(int);
        return -ENOSPC;
    }
    *pkt = reply_pop(c, e);
    return 1;
}

/* xw__claim_reply_fit for a caller's buffer of cap bytes, offered for the reply while
 * it waits. */
static __attribute__((noinline)) int fit_offer(xw_connection_t *c, uint64_t seq, int64_t deadline, size_t cap,
                                               size_t *need, struct xw_pkt **pkt, void *buf)
{
    struct xw_pend *e;
    struct into_offer o = {buf, cap, 0};
    int r = reply_wait_offer(c, seq, deadline, &e, &o);
    if (o.reg && into_end(c, need))
        return into_taken(c, seq);
    return fit_take(c, r, e, seq, deadline, cap, need, pkt, buf);
}

/* Like xw__claim_reply but leaves the packet queued when it needs more than cap bytes;
 * a reply held inline in its entry goes straight to buf (returns 2, 32 bytes). When
 * cap is not SIZE_MAX, buf has cap bytes and a reply arriving while this call waits
 * may be received straight into it: returns 3, *need its length. */
int xw__claim_reply_fit(xw_connection_t *c, uint64_t seq, int64_t deadline, size_t cap, size_t *need,
                        struct xw_pkt **pkt, void *buf)
{
    struct xw_pend *e;
    *pkt = NULL;
    if (XW_UNLIKELY(lent_seq(c, seq)))
        return xw__lend_take(c, seq, deadline, cap, need, pkt, buf);
    if (cap != SIZE_MAX)
        return fit_offer(c, seq, deadline, cap, need, pkt, buf);
    int r = reply_wait(c, seq, deadline, &e);
    return fit_take(c, r, e, seq, deadline, cap, need, pkt, buf);
}

/* Lock held. Waits until the server has finished request seq, which has no
 * pending entry (an unchecked void request): a later packet must arrive. */
static int done_wait(xw_connection_t *c, uint64_t seq)
{
    while (seq > xw__route_done_seq(&c->in)) {
        if (c->error)
            return -EPIPE;
        xw__in_wait(c, -1);
    }
    return 1;
}

/* Lock held. Makes sure the server will tell when request seq is finished: a
 * sync after it unless a later reply-bearing request will tell (libxcb's rule),
 * and everything up to that request on the wire (it may sit in the buffer behind
 * a flushed seq). */
static int ask_for_news(xw_connection_t *c, uint64_t seq)
{
    int r = seq > c->out.last_reply ? xw__out_sync(c) : 0;
    return r < 0 ? r : xw__out_flush_to(c, c->out.last_reply);
}

/* Lock held. Waits until a void request is finished, as libxcb does for checked
 * and unchecked ones alike (callers use the check as a barrier). A checked
 * request's error is handed back; an unchecked one's went to the event queue. */
int xw__claim_check(xw_connection_t *c, uint64_t seq, struct xw_pkt **pkt)
{
    *pkt = NULL;
    struct xw_pend *e = xw__pend_find(&c->in.pend, seq);
    int tracked = e != NULL;
    /* an entry retires only once finished, so without one done_seq says it */
    int done = e ? e->done : seq <= xw__route_done_seq(&c->in);
    /* after a connection error the waits below return at once (a checked
     * request's error already read is still handed back) */
    if (!done && !c->error && ask_for_news(c, seq) < 0 && !c->error)
        return -ENOMEM; /* no room for the sync's entry: nothing would tell */
    return tracked ? xw__claim_reply(c, seq, -1, pkt) : done_wait(c, seq);
}

/* Lock held. The reply will be dropped on arrival (or now, if queued); with
 * keep_errors an error still reaches the event queue. */
void xw__claim_discard(xw_connection_t *c, uint64_t seq, int keep_errors)
{
    struct xw_pend *e = xw__pend_find(&c->in.pend, seq);
    if (!e && c->lend.used) { /* maybe the other owner's request (xw_take_socket) */
        xw__lend_discard(c, seq, keep_errors);
        return;
    }
    if (!e || (e->dead && !xw__pend_holds(e)))
        return;
    struct xw_pkt *p;
    if (e->inl) {
        e->inl = 0;
        e->q = (struct xw_queue){0};
    }
    while ((p = xw__queue_pop(&e->q))) {
        if (p->kind == XW_PKT_ERROR && keep_errors) {
            xw__queue_push(&c->in.events, p);
            continue;
        }
        xw__fail_close_fds((int *)(XW_PKT_DATA(p) + p->len), p->nfds);
        xw__store_free(c, p);
    }
    xw__pend_retire(&c->in.pend, e);
    e->flags |= XW_REQUEST_DISCARD_REPLY | (keep_errors ? XW_REQUEST_ERROR_TO_EVENTS : 0);
    xw__pend_trim(&c->in.pend);
}

/* Lock held. 1 when q has a packet, 0 when none arrived in time (deadline 0: one
 * non-blocking read; reading 0: none at all), -EPIPE on a connection error. */
int xw__claim_wait(xw_connection_t *c, struct xw_queue *q, int64_t deadline, int reading)
{
    int polled = 0;
    if (deadline == 0) { /* a poll: one non-blocking read at most, no loop */
        if (!q->head && reading && !c->error)
            xw__in_read_nonblock(c);
        return q->head ? 1 : c->error ? -EPIPE : 0;
    }
    if (reading && deadline != 0)
        xw__out_flush(c);
    for (;;) {
        if (q->head)
            return 1;
        if (c->error)
            return -EPIPE;
        if (!reading || (deadline == 0 && polled++))
            return 0;
        int e = deadline == 0 ? xw__in_read_nonblock(c) : xw__in_wait(c, deadline);
        if (e == -ETIMEDOUT)
            return 0;
    }
}
