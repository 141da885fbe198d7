/* SPDX-License-Identifier: MIT */
/* pend.h — internal: the requests awaiting a reply, an error or a check: the pending
 * store's inline paths and its calls (lock held). Its layout is in route.h, since the
 * routing state embeds it. */
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
    if (s->gone && s->first->dead && s->first->done)
        xw__pend_trim_head(s);
}

/* The entry of request seq, or NULL. Replies are usually taken in the order they
 * were asked for, so the oldest is tried before the search. */
static inline struct xw_pend *xw__pend_find(const struct xw_pend_store *s, uint64_t seq)
{
    if (!s->n) /* nothing tracked: nearly always so while the socket is lent (Xlib) */
        return NULL;
    if (s->first->seq == seq)
        return s->first;
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

/* Keeps the 32-byte reply w in finished entry e itself, in the space its waiting fields
 * no longer need (xw__pend_reply gives it back). */
static inline void xw__pend_keep(struct xw_pend *e, const uint8_t *w)
{
    e->byte1 = w[1];
    memcpy(e->body, w + 8, sizeof(e->body));
    e->inl = 1;
}

/* True when the unfinished entry e can take a reply the way nearly every reply is
 * taken: awaiting exactly one, no fds, not dead. One load of the entry's last
 * word where the layout allows it (xw__pend_push's assertions). */
static inline int xw__pend_plain(const struct xw_pend *e)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t tail;
    /* addressed from the entry, not from flags: the copy spans eight fields, past
     * the one a field's own address names (_FORTIFY_SOURCE=3 checks that bound) */
    memcpy(&tail, (const uint8_t *)e + offsetof(struct xw_pend, flags), sizeof tail);
    /* flags' fds bit, then isvoid, multi and dead, by their bytes */
    return !(tail & ((uint64_t)XW_REQUEST_REPLY_FDS | 0xffull << 8 | 0xffull << 16 | 0xffull << 40));
#else
    return !(e->isvoid | e->multi | e->dead | (e->flags & XW_REQUEST_REPLY_FDS));
#endif
}

/* Finishes the plain, unfinished entry e (xw__pend_plain) with the 32-byte reply w
 * kept in it (xw__pend_keep), its four flag bytes from done on in one store. The
 * store's undone count is the caller's. */
static inline void xw__pend_keep_done(struct xw_pend *e, const uint8_t *w)
{
    memcpy(e->body, w + 8, sizeof(e->body));
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    _Static_assert(offsetof(struct xw_pend, dead) - offsetof(struct xw_pend, done) == 1 &&
                       offsetof(struct xw_pend, inl) - offsetof(struct xw_pend, done) == 2 &&
                       offsetof(struct xw_pend, byte1) - offsetof(struct xw_pend, done) == 3,
                   "pending entry: done, dead, inl, byte1");
    uint32_t v = 1u | 1u << 16 | (uint32_t)w[1] << 24; /* done, dead (0: plain), inl, byte1 */
    memcpy((uint8_t *)e + offsetof(struct xw_pend, done), &v, sizeof v);
#else
    e->done = 1;
    e->byte1 = w[1];
    e->inl = 1;
#endif
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
    struct xw_pend *e = s->first;
    int match =
        request >> 32 ? e->seq == request : (uint32_t)e->seq == (uint32_t)request && last_sent - e->seq <= 0xffffffffu;
    /* inl: done, and not dead */
    if (!match || !e->inl || s->gone || !((s->head + 1) & (XW_PEND_BLOCK - 1)))
        return 0;
    xw__pend_reply(e, buf);
    s->head++;
    s->n--;
    s->first = e + 1; /* e was not its block's last */
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
 * tracked request; a reply-bearing one also restarts the automatic sync's count.
 * The fast limit is left as it was: it can only be lower than the one last_reply
 * now allows, so at worst a send reaches the general path early, which refreshes
 * it (xw__out_place). Recomputing it here cost every reply-bearing request a dozen
 * instructions to move a limit 65534 requests away. */
static inline void xw__pend_push(xw_connection_t *c, uint64_t seq, int flags, const struct xw_request *rq)
{
    struct xw_pend_store *s = &c->in.pend;
    struct xw_pend *e = s->next;
    /* The entry's last 8 bytes in one store: isvoid, multi and multi_end lie in the
     * request's facts as in the entry, after the opcode, whose place flags takes
     * (field by field, building that word cost a dozen instructions per request). */
    _Static_assert(offsetof(struct xw_request, f.multi_end) - offsetof(struct xw_request, f.opcode) == 3 &&
                       offsetof(struct xw_request, f.isvoid) - offsetof(struct xw_request, f.opcode) == 1 &&
                       offsetof(struct xw_request, f.multi_reply) - offsetof(struct xw_request, f.opcode) == 2,
                   "request facts: opcode, isvoid, multi_reply, multi_end");
    _Static_assert(offsetof(struct xw_pend, isvoid) - offsetof(struct xw_pend, flags) == 1 &&
                       offsetof(struct xw_pend, multi) - offsetof(struct xw_pend, flags) == 2 &&
                       offsetof(struct xw_pend, multi_end) - offsetof(struct xw_pend, flags) == 3 &&
                       offsetof(struct xw_pend, dead) - offsetof(struct xw_pend, flags) == 5 &&
                       sizeof(struct xw_pend) - offsetof(struct xw_pend, flags) == 8,
                   "pending entry: flags, isvoid, multi, multi_end, done, dead, inl, byte1 last");
    uint8_t dead = (flags & XW_REQUEST_DISCARD_REPLY) ? 1 : 0;
    e->seq = seq;
    e->validate = rq->validate;
    e->q = (struct xw_queue){0};
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint32_t facts;
    memcpy(&facts, (const uint8_t *)rq + offsetof(struct xw_request, f.opcode), 4);
    uint64_t tail = (facts & ~(uint32_t)0xff) | (uint8_t)flags | (uint64_t)dead << 40;
    memcpy((uint8_t *)e + offsetof(struct xw_pend, flags), &tail, sizeof tail);
#else
    uint8_t tail[8] = {(uint8_t)flags, rq->f.isvoid, rq->f.multi_reply, rq->f.multi_end, 0, dead, 0, 0};
    memcpy((uint8_t *)e + offsetof(struct xw_pend, flags), tail, sizeof tail);
#endif
    if (!s->n)
        s->first = e;
    s->n++;
    s->undone++;
    s->next = ((s->head + s->n) & (XW_PEND_BLOCK - 1)) ? e + 1 : NULL;
    if (!rq->f.isvoid)
        c->out.last_reply = seq;
}

#endif
