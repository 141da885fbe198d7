/* SPDX-License-Identifier: MIT */
/* pend.h — internal: the requests awaiting a reply, an error or a check: the pending
 * store's inline paths and its calls (lock held). Its layout is in in.h, since the
 * reader's state embeds it. */
#ifndef XW_SRC_PEND_H
#define XW_SRC_PEND_H

#include "conn.h"
#include "limit.h"
#include "send.h"

/* Entry i of the store, counted from its head. */
static inline struct xw_pend *xw__pend_at(const struct xw_pend_store *s, size_t i)
{
    uint64_t k = s->head + i;
    return &s->blk[(k >> XW_PEND_SHIFT) & (s->bcap - 1)][k & (XW_PEND_BLOCK - 1)];
}

/* pend.c (lock held): the store behind xw__pend_at / xw__pend_push. */
int xw__pend_room(struct xw_pend_store *s);
void xw__pend_trim_head(struct xw_pend_store *s);
struct xw_pend *xw__pend_search(const struct xw_pend_store *s, uint64_t seq);
void xw__pend_fini(struct xw_pend_store *s);

/* Drops finished, claimed entries from the head. Inline: nearly always there is
 * nothing to drop, and gone says so in one load. */
static inline void xw__pend_trim(struct xw_pend_store *s)
{
    if (s->gone && xw__pend_at(s, 0)->dead && xw__pend_at(s, 0)->done)
        xw__pend_trim_head(s);
}

/* The entry of request seq, or NULL. Replies are usually taken in the order they
 * were asked for, so the oldest is tried before the search. */
static inline struct xw_pend *xw__pend_find(const struct xw_pend_store *s, uint64_t seq)
{
    if (!s->n) /* nothing tracked: nearly always so while the socket is lent (Xlib) */
        return NULL;
    if (xw__pend_at(s, 0)->seq == seq)
        return xw__pend_at(s, 0);
    return xw__pend_search(s, seq);
}

/* The server has finished e (the oldest unfinished entry). */
static inline void xw__pend_finish(struct xw_pend_store *s, struct xw_pend *e)
{
    if (e->done)
        return;
    e->done = 1;
    s->undone--;
    s->gone += e->dead;
}

/* The 32-byte reply held inline in e, as the server sent it. */
static inline void xw__pend_reply(const struct xw_pend *e, uint8_t *dst)
{
    dst[0] = 1;
    dst[1] = e->byte1;
    xw__wr16(dst + 2, (uint16_t)e->seq);
    xw__wr32(dst + 4, 0);
    memcpy(dst + 8, e->body, sizeof(e->body));
}

/* The claim of nearly every reply, with no call: when request (a 64-bit sequence,
 * or a 32-bit cookie's, widened as xw__transport_widen does) is the oldest entry and its
 * 32-byte reply is held inline, copies the reply to buf (32 bytes), drops the
 * entry and returns 1; else 0 and nothing changed. (A reply that has arrived was
 * flushed, so the caller's flush is not needed either; a borrowed connection has
 * no entries.) It declines, for the general claim to do the work, when the entry
 * is the last of its block (the block goes back then) or dead entries wait to be
 * trimmed behind it: so it stays a leaf, for callers that must. */
static inline int xw__pend_take_inline(struct xw_pend_store *s, uint64_t last_sent, uint64_t request, void *buf)
{
    if (!s->n)
        return 0;
    struct xw_pend *e = xw__pend_at(s, 0);
    int match =
        request >> 32 ? e->seq == request : (uint32_t)e->seq == (uint32_t)request && last_sent - e->seq <= 0xffffffffu;
    /* inl: done, and not dead */
    if (!match || !e->inl || s->gone || !((s->head + 1) & (XW_PEND_BLOCK - 1)))
        return 0;
    xw__pend_reply(e, buf);
    s->head++;
    s->n--;
    return 1;
}

/* Nobody will claim e any more. */
static inline void xw__pend_retire(struct xw_pend_store *s, struct xw_pend *e)
{
    if (e->dead)
        return;
    e->dead = 1;
    s->gone += e->done;
}

/* Something a caller can claim: a reply inline, or packets queued. */
static inline int xw__pend_holds(const struct xw_pend *e)
{
    return e->inl || e->q.head;
}

/* Lock held. True when a tracked request may take a pending entry without a call:
 * the current block has room. (A borrowed connection never allocates a block, since
 * the owner tracks its replies, so this is false there.) */
static inline int xw__pend_fast_ok(const xw_connection_t *c)
{
    return c->in.pend.next != NULL;
}

/* Lock held, xw__pend_fast_ok, seq just taken. Appends the pending entry of a
 * tracked request; a reply-bearing one also moves the automatic sync's limit. */
static inline void xw__pend_push(xw_connection_t *c, uint64_t seq, int flags, const struct xw_request *rq)
{
    struct xw_pend_store *s = &c->in.pend;
    *s->next = (struct xw_pend){
        .seq = seq,
        .validate = rq->validate,
        .flags = (uint8_t)flags,
        .isvoid = rq->f.isvoid,
        .multi = rq->f.multi_reply,
        .multi_end = rq->f.multi_end,
        .dead = (flags & XW_REQUEST_DISCARD_REPLY) ? 1 : 0,
    };
    s->n++;
    s->undone++;
    s->next = ((s->head + s->n) & (XW_PEND_BLOCK - 1)) ? s->next + 1 : NULL;
    if (!rq->f.isvoid) {
        struct xw_out *o = &c->out;
        o->last_reply = seq;
        if (!o->fast_limit) { /* closed: a request is going out, so the socket is not lent */
            xw__limit_set(c, 0);
            return;
        }
        /* open (fast_limit says so): only the automatic sync's limit moves */
        uint64_t run = seq + XW_MAX_VOID_RUN, wrap = o->seq | 0xffffffffu;
        o->fast_limit = run < wrap ? run : wrap;
        if (c->single)
            __atomic_store_n(&o->inline_limit, o->fast_limit, __ATOMIC_RELAXED);
    }
}

#endif
