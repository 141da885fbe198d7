/* SPDX-License-Identifier: MIT */
/* stash.c — the reader's side of a lent socket: which sequences are the owner's, and its packets until claimed. */
#include "stash.h"
#include "conn.h"
#include "fail.h"
#include "lend.h"
#include "queue.h"
#include "route.h"
#include "store.h"

#include <string.h>

/* The read path routes a packet whose sequence xwire's pending ring does not track
 * here; the lent socket's side hands what is kept to the owner's claims. The stash (lend.stash) and the
 * slot (lend.last, the newest 32-byte reply, kept without a record) belong to the
 * connection and are freed at disconnect. */

/* Drops the discarded sequences the server has answered past: nothing more can
 * come for them. */
void xw__stash_discards_trim(xw_connection_t *c)
{
    struct xw_lend *l = &c->lend;
    unsigned k = 0;
    for (unsigned i = 0; i < l->ndiscards; i++)
        if (!xw__stash_answered_past(&c->in, l->discards[i].seq))
            l->discards[k++] = l->discards[i];
    l->ndiscards = k;
}

/* The discard flags for seq's packets: XW_REQUEST_DISCARD_REPLY (and
 * XW_REQUEST_ERROR_TO_EVENTS) when it was discarded, else 0. */
static int discarded(xw_connection_t *c, uint64_t seq)
{
    struct xw_lend *l = &c->lend;
    if (!l->ndiscards)
        return 0;
    xw__stash_discards_trim(c);
    for (unsigned i = 0; i < l->ndiscards; i++)
        if (l->discards[i].seq == seq)
            return XW_REQUEST_DISCARD_REPLY | (l->discards[i].keep_errors ? XW_REQUEST_ERROR_TO_EVENTS : 0);
    return 0;
}

/* Lock held. Whether seq, which xwire's pending ring does not track, is the owner's;
 * if so *e is a finished entry with the flags of the owner's turn, or of a discard
 * (routing then leaves the ring alone). */
int xw__stash_owner(xw_connection_t *c, uint64_t seq, struct xw_pend *e)
{
    const struct xw_lend_range *r = xw__stash_range_of(&c->lend, seq);
    if (r) {
        int flags = r->flags | discarded(c, seq);
        *e = (struct xw_pend){
            .seq = seq,
            .flags = (uint16_t)flags,
            .done = 1,
            .dead = (flags & XW_REQUEST_DISCARD_REPLY) ? 1 : 0,
        };
        return 1;
    }
    return 0;
}

/* Lock held. The reply in the slot (lend.last) moves to a record at the stash's
 * end, where it belongs: it is the newest packet kept for the owner. */
int xw__stash_spill(xw_connection_t *c)
{
    struct xw_lend *l = &c->lend;
    struct xw_pkt *p = xw__store_alloc(c, 32);
    if (!p)
        return xw__fail_conn(c, XW_CONN_CLOSED_MEM_INSUFFICIENT, "out of memory for a 32-byte reply");
    memcpy(XW_PKT_DATA(p), l->last.bytes, 32);
    p->len = 32;
    p->seq = l->last.seq;
    p->kind = XW_PKT_REPLY;
    l->last.full = 0;
    xw__queue_push(&l->stash, p);
    return 0;
}

/* Lock held. Moves the routed packets of q to the stash: they arrive in sequence
 * order, after the slot's reply, so the stash stays sorted. */
void xw__stash_keep(xw_connection_t *c, struct xw_queue *q)
{
    struct xw_pkt *p;
    if (q->head && c->lend.last.full)
        xw__stash_spill(c); /* out of memory fails the connection; the packets are kept anyway */
    while ((p = xw__queue_pop(q)))
        xw__queue_push(&c->lend.stash, p);
}

int xw__stash_slot_push(xw_connection_t *c, uint64_t seq, const uint8_t *w)
{
    if (xw__stash_spill(c) < 0)
        return -EPIPE;
    return xw__stash_slot_keep(&c->lend, seq, w) == 1 ? 0 : -EPIPE;
}
