/* SPDX-License-Identifier: MIT */
/* lend.c — the socket lent to another owner (xw_take_socket, xw_writev): Xlib's side of its I/O on xwire. */
#include "lend.h"
#include "conn.h"
#include "fail.h"
#include "hooks.h"
#include "in.h"
#include "limit.h"
#include "lock.h"
#include "out.h"
#include "queue.h"
#include "route.h"
#include "stash.h"
#include "store.h"
#include "transport.h"
#include "wait.h"

/* Who owns what: between xw_take_socket() and the next xwire send, the owner (Xlib)
 * writes its own requests through xw_writev() and numbers them itself; xwire still
 * reads everything. Replies and kept errors to the owner's requests go to
 * lend.stash (owned by the connection, freed at disconnect) until the owner claims
 * them with xw_poll_for_reply64()/xw_wait_for_reply64(); its other errors and every
 * event go to the event queue as usual.
 * Locks: the owner's return callback runs with xwire's lock released (it takes the
 * owner's locks and re-enters xw_writev); lend.moving keeps the other threads of
 * ours from sending meanwhile, since the fast path stays closed while socket_away
 * is set (xw__limit_refresh). */

static void range_drop(xw_connection_t *c, unsigned i)
{
    struct xw_lend *l = &c->lend;
    if (l->ranges[i].flags & XW_REQUEST_REPLY_FDS)
        c->in.fdwait--; /* its fds no longer need keeping */
    memmove(l->ranges + i, l->ranges + i + 1, (l->nranges - i - 1) * sizeof(l->ranges[0]));
    l->nranges--;
}

/* Room for one more range: drop the answered ones, else merge the two oldest. */
static void range_room(xw_connection_t *c)
{
    struct xw_lend *l = &c->lend;
    for (unsigned i = l->nranges; i-- > 0;)
        if (l->ranges[i].last != UINT64_MAX && xw__stash_answered_past(&c->in, l->ranges[i].last))
            range_drop(c, i);
    if (l->nranges < XW_LEND_RANGES)
        return;
    /* the merged range keeps both turns' flags; range_drop releases the second's fd wait */
    if ((l->ranges[1].flags & ~l->ranges[0].flags) & XW_REQUEST_REPLY_FDS)
        c->in.fdwait++;
    l->ranges[0].flags |= l->ranges[1].flags;
    l->ranges[0].last = l->ranges[1].last;
    range_drop(c, 1);
}

/* The owner's turn ends at out.seq; a turn in which it sent nothing leaves no range. */
static void range_close(xw_connection_t *c)
{
    struct xw_lend *l = &c->lend;
    struct xw_lend_range *r = &l->ranges[l->nranges - 1];
    if (r->first <= c->out.seq)
        r->last = c->out.seq;
    else
        range_drop(c, l->nranges - 1);
}

int xw__lend_take_back(xw_connection_t *c)
{
    struct xw_lend *l = &c->lend;
    while (l->give_back && l->moving && !c->error)
        xw__lock_wait(&c->out_cond, &c->mu, -1);
    if (!l->give_back || c->error)
        return c->error ? -EPIPE : 0;
    void (*give_back)(void *) = l->give_back;
    l->moving = 1;
    xw__conn_unlock(c);
    give_back(l->closure); /* the owner writes what it holds through xw_writev */
    xw__conn_lock(c);
    l->moving = 0;
    l->give_back = NULL;
    l->closure = NULL;
    c->socket_away = 0;
    range_close(c);
    xw__limit_refresh(c);
    xw__lock_broadcast(&c->out_cond);
    return c->error ? -EPIPE : 0;
}

/* The first stashed packet of seq and the one before it (NULL: it is the head). */
static struct xw_pkt *stash_find(struct xw_queue *s, uint64_t seq, struct xw_pkt **prev)
{
    *prev = NULL;
    for (struct xw_pkt *p = s->head; p && p->seq <= seq; *prev = p, p = p->next)
        if (p->seq == seq)
            return p;
    return NULL;
}

/* Lock held. The stashed packet of seq, when there is one: as xw__lend_take. */
static int stash_take(xw_connection_t *c, uint64_t seq, size_t cap, size_t *need, struct xw_pkt **pkt)
{
    struct xw_pkt *prev, *p = stash_find(&c->lend.stash, seq, &prev);
    if (!p)
        return 0;
    if (p->kind == XW_PKT_REPLY && p->len + p->nfds * sizeof(int) > cap) {
        *need = p->len + p->nfds * sizeof(int);
        return -ENOSPC;
    }
    xw__queue_unlink(&c->lend.stash, prev, p);
    *pkt = p;
    return 1;
}

/* Lock held. The slot's reply, which is seq's: to buf (32 bytes there, returns 2),
 * or through the stash for a caller that wants a record (no buf). */
static int slot_take(xw_connection_t *c, uint64_t seq, size_t cap, size_t *need, struct xw_pkt **pkt, void *buf)
{
    struct xw_lend *l = &c->lend;
    if (cap < 32) {
        *need = 32;
        return -ENOSPC;
    }
    if (!buf)
        return xw__stash_spill(c) < 0 ? -EPIPE : stash_take(c, seq, cap, need, pkt);
    return xw__lend_slot_give(l, buf);
}

/* Lock held. libxcb's answer for a request xwire does not track: its next stashed
 * reply or error (the stash first: the slot holds the newest); nothing once the
 * server is past it (a later packet, or its own error, was read) or when it was
 * never sent; else wait for input until the deadline. Returns as
 * xw__transport_reply_fit does (buf: 32 bytes or more when cap is, or NULL). */
int xw__lend_take(xw_connection_t *c, uint64_t seq, int64_t deadline, size_t cap, size_t *need, struct xw_pkt **pkt,
                  void *buf)
{
    struct xw_lend *l = &c->lend;
    int polled = 0;
    *pkt = NULL;
    for (;;) {
        int r = l->stash.head ? stash_take(c, seq, cap, need, pkt) : 0;
        if (r)
            return r;
        if (l->last.full && l->last.seq == seq)
            return slot_take(c, seq, cap, need, pkt, buf);
        if (seq <= xw__route_done_seq(&c->in) || seq > c->out.seq || !seq)
            return 1;
        r = xw__wait_step(c, deadline, &polled, 0);
        if (r <= 0)
            return r;
    }
}

/* Lock held. The heap-form claim's wait: what xw__claim_reply_fit does for a sequence it
 * does not track once the socket has been lent. Xlib's own wait (no deadline, the
 * stash empty) is xw__lend_take's loop without its general checks: reads (the
 * rest of a big reply as xw__wait_step does) until the slot has seq's reply or seq is
 * finished; anything else, or a packet bound for the stash, goes to xw__lend_take. */
int xw__lend_wait(xw_connection_t *c, uint64_t seq, int64_t deadline, void *buf, struct xw_pkt **pkt)
{
    struct xw_lend *l = &c->lend;
    size_t need;
    if (seq > c->out.flushed)
        xw__out_flush_to(c, seq);
    while (deadline < 0 && !l->stash.head && !c->error) {
        if (l->last.full && l->last.seq == seq)
            return xw__lend_slot_give(l, buf);
        if (seq <= xw__route_done_seq(&c->in) || seq > c->out.seq || !seq)
            return 1;
        c->in.for_reply = 1;
        /* a packet half read (a big reply) is finished in one blocking read when it may be */
        if (!c->in.pdata || !xw__in_fill_partial(c, -1, 0))
            xw__in_wait(c, -1);
    }
    return xw__lend_take(c, seq, deadline, SIZE_MAX, &need, pkt, buf);
}

/* Lock held. xw_discard_reply64 for the owner's request seq, which xwire does not
 * track: what is kept for it (the slot, the stash) goes now, its fds closed, a
 * kept error to the event queue with keep_errors; what may still come is dropped
 * on arrival (struct xw_lend_discard). */
void xw__lend_discard(xw_connection_t *c, uint64_t seq, int keep_errors)
{
    struct xw_lend *l = &c->lend;
    if (!xw__stash_range_of(l, seq))
        return;
    if (l->last.full && l->last.seq == seq)
        l->last.full = 0;
    struct xw_pkt *prev, *p;
    while ((p = stash_find(&l->stash, seq, &prev))) {
        xw__queue_unlink(&l->stash, prev, p);
        if (p->kind == XW_PKT_ERROR && keep_errors) {
            xw__queue_push(&c->in.events, p);
            continue;
        }
        xw__fail_close_fds((int *)(XW_PKT_DATA(p) + p->len), p->nfds);
        xw__store_free(c, p);
    }
    if (xw__stash_answered_past(&c->in, seq))
        return;
    xw__stash_discards_trim(c);
    for (unsigned i = 0; i < l->ndiscards; i++)
        if (l->discards[i].seq == seq) {
            l->discards[i].keep_errors = keep_errors;
            return;
        }
    if (l->ndiscards == XW_LEND_DISCARDS) { /* all live: the oldest is forgotten */
        memmove(l->discards, l->discards + 1, (XW_LEND_DISCARDS - 1) * sizeof(l->discards[0]));
        l->ndiscards--;
    }
    l->discards[l->ndiscards++] = (struct xw_lend_discard){seq, keep_errors};
}

/* Lock held. Takes the socket back from a current owner and writes everything
 * buffered, however often other threads add to it meanwhile. */
static int settle(xw_connection_t *c)
{
    for (;;) {
        if (xw__lend_take_back(c) < 0 || xw__out_flush(c) < 0)
            return -EPIPE;
        if (!c->lend.give_back && !c->out.writing && c->out.ptr == c->out.buf)
            return 0;
    }
}

XW_EXPORT int xw_take_socket(xw_connection_t *c, void (*return_socket)(void *closure), void *closure, int flags,
                             uint64_t *sent)
{
    int ok = 0;
    xw__conn_lock(c);
    int callsite = c->cs != NULL;
    if (!c->error && c->tp->lendable && return_socket && settle(c) == 0) {
        struct xw_lend *l = &c->lend;
        range_room(c);
        l->ranges[l->nranges++] = (struct xw_lend_range){c->out.seq + 1, UINT64_MAX, flags};
        if (flags & XW_REQUEST_REPLY_FDS)
            c->in.fdwait++;
        l->give_back = return_socket;
        l->closure = closure;
        l->used = 1;
        c->socket_away = 1; /* the next send of ours takes it back (socket_take) */
        xw__limit_refresh(c);
        *sent = c->out.seq;
        ok = 1;
    }
    xw__conn_unlock(c);
    /* Xlib's requests are written long after its call returned: libxcb.so.1 from
     * xwire gives its owner an after-function that records them as they are made. */
    if (ok && callsite && xw__hooks.lent)
        xw__hooks.lent(c, return_socket, closure, *sent, 1);
    return ok;
}

XW_EXPORT int xw_writev(xw_connection_t *c, struct iovec *vector, int count, uint64_t requests)
{
    int ok = 0;
    xw__conn_lock(c);
    if (!c->error && c->tp->lendable && count >= 0)
        ok = xw__out_write_through(c, vector, (size_t)count, requests) == 0;
    void (*owner)(void *) = c->cs ? c->lend.give_back : NULL;
    void *closure = c->lend.closure;
    uint64_t upto = c->out.seq;
    xw__conn_unlock(c);
    if (ok && owner && xw__hooks.lent) /* the owner may have replaced our after-function */
        xw__hooks.lent(c, owner, closure, upto, 0);
    return ok;
}
