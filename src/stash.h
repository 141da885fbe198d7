/* SPDX-License-Identifier: MIT */
/* stash.h — internal: what the reader keeps for the lent socket's owner (lock held). */
#ifndef XW_SRC_STASH_H
#define XW_SRC_STASH_H

#include "lend.h"
#include "route.h"

/* The server has answered past seq: no packet for it can come any more. */
static inline int xw__stash_answered_past(const struct xw_in *in, uint64_t seq)
{
    return seq < in->last_seq;
}

/* The owner's turn that sent seq, or NULL. */
static inline const struct xw_lend_range *xw__stash_range_of(const struct xw_lend *l, uint64_t seq)
{
    for (unsigned i = 0; i < l->nranges; i++)
        if (seq >= l->ranges[i].first && seq <= l->ranges[i].last)
            return &l->ranges[i];
    return NULL;
}

/* stash.c (lock held): what the reader keeps for the owner's sequences (in.c puts,
 * lend.c takes). */
int xw__stash_owner(xw_connection_t *c, uint64_t seq, struct xw_pend *e);
void xw__stash_keep(xw_connection_t *c, struct xw_queue *q);
void xw__stash_discards_trim(xw_connection_t *c);
/* The slot's reply to a record at the stash's end; 0, or -EPIPE out of memory. */
int xw__stash_spill(xw_connection_t *c);

/* Lock held. The 32-byte reply w to request seq goes to the slot, without a
 * record, when seq is the owner's and its turn neither drops replies nor wants the
 * fds w[1] counts: 1 when kept; 2 when it would be but the slot is full (then
 * xw__stash_slot_push); 0, nothing changed, when routing must take the general way
 * (also while discarded owner sequences are pending). */
static inline int xw__stash_slot_keep(struct xw_lend *l, uint64_t seq, const uint8_t *w)
{
    if (l->ndiscards) /* the general way looks them up (xw__stash_owner) */
        return 0;
    const struct xw_lend_range *r = xw__stash_range_of(l, seq);
    if (!r || (r->flags & XW_REQUEST_DISCARD_REPLY) || ((r->flags & XW_REQUEST_REPLY_FDS) && w[1]))
        return 0;
    if (l->last.full)
        return 2;
    l->last.seq = seq;
    memcpy(l->last.bytes, w, 32);
    l->last.full = 1;
    return 1;
}
/* The slot is full: its reply moves to the stash, the owner's 32-byte reply w to
 * seq takes its place (a pipeline of Xlib's requests: each reply pushes the one
 * before). 0, or -EPIPE out of memory. */
int xw__stash_slot_push(xw_connection_t *c, uint64_t seq, const uint8_t *w);

#endif
