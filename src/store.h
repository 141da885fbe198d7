/* SPDX-License-Identifier: MIT */
/* store.h — internal: received packets, their size-class store and the queues that hold them. */
#ifndef XW_SRC_STORE_H
#define XW_SRC_STORE_H

#include "base.h"

/* ---- received packets ---- */

/* XW_PKT_BATCH: core events (36 bytes each, libxcb's layout) packed in one record
 * of the event queue; see XW_BATCH_BYTES. XW_PKT_VIEW: the connection's one view
 * record, core events left where they were read (struct xw_in's view). */
enum { XW_PKT_REPLY, XW_PKT_ERROR, XW_PKT_EVENT, XW_PKT_BATCH, XW_PKT_VIEW };

/* A packet held by the connection until a caller claims it. data holds what a
 * caller receives: reply bytes then its fds; events and errors in libxcb's layout
 * (32 bytes, full_sequence at 32, XGE extra data from 36). Records are recycled
 * through per-size-class free lists, so steady state allocates nothing. */
struct xw_pkt {
    struct xw_pkt *next;
    uint64_t seq;
    uint32_t len;  /* bytes of data, fds not included */
    uint16_t nfds; /* ints after len bytes */
    uint8_t cls;   /* size class: capacity is xw__store_class_bytes(cls) bytes including this header */
    uint8_t kind;
    uint8_t *ext; /* large classes: the data lives in its own malloc'd block (owned),
                      which the libxcb-compatible calls hand over without a copy */
};

#define XW_PKT_DATA(p) ((p)->ext ? (p)->ext : (uint8_t *)((p) + 1))
#define XW_STORE_CLASSES 30

/* Core events wait in the event queue packed, XW_BATCH_EVENTS to a record (of the
 * 2 KiB class), rather than one record each: a million unread events cost 38 MB,
 * where a record apiece cost 72 (libxcb's block and list node: 80). In a batch,
 * len is the bytes written (36 per event) and seq, which a batch has no use for,
 * the offset of the first one not yet taken; it leaves the queue once empty. */
#define XW_BATCH_EVENTS 56
#define XW_BATCH_BYTES (XW_BATCH_EVENTS * 36)

struct xw_store {
    struct xw_pkt *free[XW_STORE_CLASSES];
    unsigned nfree[XW_STORE_CLASSES];
    struct xw_slab *slabs; /* owned: records of the small classes live in them */
};

struct xw_pkt *xw__store_alloc(xw_connection_t *c, size_t bytes);
void xw__store_free(xw_connection_t *c, struct xw_pkt *p);
void xw__store_fini(struct xw_store *s);

/* The size class of an event or error record: not a power of two but the header
 * and libxcb's 36 bytes, rounded to the header's alignment (72 bytes), since a
 * queue of a million unread events is a million of these (the power-of-two class,
 * 128 bytes, cost more than libxcb's 36-byte block and list node). Its index is one
 * no power-of-two class uses (those start at 64 bytes, index 6). A slab class, so
 * its records only ever move between the free list and the queues. Core events
 * queue in batches (XW_BATCH_BYTES); errors and short XGE events take these, and
 * the event calls give them back inline. */
#define XW_EVENT_CLASS 1
#define XW_EVENT_REC_BYTES ((sizeof(struct xw_pkt) + 36 + _Alignof(struct xw_pkt) - 1) & ~(_Alignof(struct xw_pkt) - 1))
_Static_assert(sizeof(struct xw_pkt) + XW_BATCH_BYTES > 1024 && sizeof(struct xw_pkt) + XW_BATCH_BYTES <= 2048,
               "a batch fills the 2 KiB class");
_Static_assert(XW_EVENT_REC_BYTES > 64 && XW_EVENT_REC_BYTES < 128,
               "the event class lies between the 64- and 128-byte classes");

/* A class's capacity in bytes, its header included. */
static inline size_t xw__store_class_bytes(unsigned k)
{
    return k == XW_EVENT_CLASS ? XW_EVENT_REC_BYTES : (size_t)1 << k;
}

/* p, a record of the event class, back on its free list. */
static inline void xw__store_event_put(struct xw_store *s, struct xw_pkt *p)
{
    p->next = s->free[XW_EVENT_CLASS];
    s->free[XW_EVENT_CLASS] = p;
    s->nfree[XW_EVENT_CLASS]++;
}

#endif
