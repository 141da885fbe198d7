/* SPDX-License-Identifier: MIT */
/* lend.h — internal: the socket lent to another owner: xw_take_socket / xw_writev (lock held). */
#ifndef XW_SRC_LEND_H
#define XW_SRC_LEND_H

#include "queue.h"
#include "store.h"

/* ---- the socket lent to another owner: xw_take_socket / xw_writev ---- */

/* Sequences one owner's turn with the socket covered, with the flags it took it
 * with: a packet for a sequence xwire does not track is the owner's only inside one.
 * Ranges the server has answered past are dropped; when all are live the two
 * oldest merge (the merged range then also covers xwire's requests between them). */
#define XW_LEND_RANGES 16u

struct xw_lend_range {
    uint64_t first, last; /* last is UINT64_MAX while the owner holds the socket */
    int flags;            /* XW_REQUEST_CHECKED, _DISCARD_REPLY, _REPLY_FDS */
};

/* Owner sequences discarded (xw_discard_reply64) that the server may still answer:
 * what comes for them is dropped on arrival (errors kept as events with
 * keep_errors). An entry goes once a later packet is read. When all are live the
 * oldest is forgotten: what still comes for it is kept until claimed or disconnect. */
#define XW_LEND_DISCARDS 16u

struct xw_lend_discard {
    uint64_t seq;
    int keep_errors;
};

struct xw_lend {
    void (*give_back)(void *closure); /* the owner's return callback; NULL while xwire holds the socket */
    void *closure;
    int moving; /* give_back is running with the lock released */
    int used;   /* the socket has been lent: unknown sequences may be the owner's */
    unsigned nranges;
    struct xw_lend_range ranges[XW_LEND_RANGES];
    struct xw_queue stash; /* the owner's replies and kept errors, in sequence order (owned) */
    unsigned ndiscards;
    struct xw_lend_discard discards[XW_LEND_DISCARDS];
    /* The owner's newest reply when it is 32 bytes without fds (nearly every reply
     * Xlib waits for), kept here without a record until claimed; anything newer
     * bound for the stash pushes it there first, so stash then slot stay in
     * sequence order (stash.c: xw__stash_spill). */
    struct {
        uint64_t seq;
        int full;
        uint8_t bytes[32];
    } last;
};

/* lend.c (lock held): the socket lent to another owner. take_back runs the owner's
 * callback with the lock released; the others never release it. */
int xw__lend_take_back(xw_connection_t *c);
void xw__lend_discard(xw_connection_t *c, uint64_t seq, int keep_errors);

int xw__lend_take(xw_connection_t *c, uint64_t seq, int64_t deadline, size_t cap, size_t *need, struct xw_pkt **pkt,
                  void *buf);

int xw__lend_wait(xw_connection_t *c, uint64_t seq, int64_t deadline, void *buf, struct xw_pkt **pkt);

/* Lock held. The slot's reply (lend.last, full) to the caller's 32 bytes at buf; the
 * slot is empty afterwards. Returns 2, as xw__transport_reply_fit for a reply in buf. */
static inline int xw__lend_slot_give(struct xw_lend *l, void *buf)
{
    memcpy(buf, l->last.bytes, 32);
    l->last.full = 0;
    return 2;
}

#endif
