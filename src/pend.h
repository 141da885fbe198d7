/* SPDX-License-Identifier: MIT */
/* pend.h — internal: the requests awaiting a reply, an error or a check (lock held). */
#ifndef XW_SRC_PEND_H
#define XW_SRC_PEND_H

#include "store.h"

/* ---- requests awaiting a reply, an error or a check, routed by the read path ---- */

/* One request the connection tracks. 40 bytes: a 32-byte reply (nearly every reply)
 * is kept in the entry itself once it arrives, in the space the waiting fields no
 * longer need, so a reply costs no memory of its own. */
struct xw_pend {
    uint64_t seq;
    union {
        struct { /* while no reply is held inline (inl 0) */
            xw_validate_fn validate;
            struct xw_queue q; /* replies (or one error) not yet claimed */
        };
        uint8_t body[24]; /* inl 1: bytes 8..31 of the 32-byte reply */
    };
    uint8_t flags; /* XW_REQUEST_* (all below 1 << 8) */
    uint8_t isvoid;
    uint8_t multi; /* replies until one whose byte 1 is multi_end (struct xw_request) */
    uint8_t multi_end;
    uint8_t done; /* the server has finished this request */
    uint8_t dead; /* claimed or discarded: the slot may be reused once done */
    uint8_t inl;  /* the reply is held inline: byte 1 in byte1, the rest in body */
    uint8_t byte1;
};

/* Entries live in fixed blocks of XW_PEND_BLOCK, found through a ring of block
 * pointers indexed by the entry's running index; a block is given back as soon as
 * its last entry retires, so a deep pipeline never copies the table. Blocks are
 * carved from mapped chunks that double in size (chunk i holds 2^i blocks), each
 * populated in one call when mapped: a million pending requests took 10k page
 * faults one by one when their blocks came from malloc. The first XW_PEND_KEEP
 * chunks (31 blocks, ~8k entries) stay mapped for reuse; a larger one is unmapped
 * once its last block is back, so a drained store holds at most ~310 KiB. */
#define XW_PEND_SHIFT 8
#define XW_PEND_BLOCK (1u << XW_PEND_SHIFT)
#define XW_PEND_CHUNKS 24
#define XW_PEND_KEEP 5

struct xw_pend_chunk {
    uint8_t *base; /* mapped (owned) or NULL */
    size_t bytes;
    unsigned nblk; /* blocks it holds */
    unsigned bump; /* blocks handed out at least once */
    unsigned used; /* blocks handed out now */
    void *free;    /* blocks given back, chained through their first bytes */
};

struct xw_pend_store {
    struct xw_pend **blk; /* bcap (a power of two) slots; entry index i is in blk[(i >> SHIFT) & (bcap - 1)] */
    size_t bcap;
    uint64_t head;        /* running index of the oldest entry */
    size_t n;             /* entries held: head .. head + n */
    size_t undone;        /* the last undone entries are not finished */
    size_t gone;          /* entries dead and done but not at the head (reclaimed by compaction) */
    struct xw_pend *next; /* where entry head + n goes; NULL: its block is needed first */
    struct xw_pend_chunk chunk[XW_PEND_CHUNKS];
};

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
 * or a 32-bit cookie's, widened as xw__widen32 does) is the oldest entry and its
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

#endif
