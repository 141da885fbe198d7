/* SPDX-License-Identifier: MIT */
/* store.c — recycled records for received packets: power-of-two size classes with free lists. */
#include "store.h"
#include "conn.h"

#include <stdlib.h>

/* Classes below 64 bytes waste more in headers than they save. */
#define XW_MIN_CLASS 6
_Static_assert(XW_EVENT_CLASS < XW_MIN_CLASS, "the event class's index is one no power of two uses");
/* Above 1 MiB a class keeps at most this many free records; the rest go back to
 * malloc so one huge reply does not pin memory forever. */
#define XW_BIG_CLASS 20
#define XW_BIG_KEEP 2
/* Records up to 4 KiB (and the event class) come in slabs of 64 KiB: a burst of queued replies (100k
 * pipelined InternAtoms) costs one malloc per slab, not one per packet. */
#define XW_SLAB_CLASS 12
#define XW_SLAB_BYTES (64 * 1024)
/* From 64 KiB on, a record is one malloc'd block with its data at the start (so the
 * libxcb-compatible calls can hand the block over as the caller's reply, which the
 * caller frees) and its header in the block's last bytes, past the class's room
 * for data: one malloc per record, and none to free once the block is handed over. */
#define XW_EXT_CLASS 16

struct xw_slab {
    struct xw_slab *next;
    uint64_t pad; /* keeps the power-of-two classes' records 16-byte aligned (the event
                     class's 72-byte records are 8-byte aligned, all their header needs) */
};

/* The smallest class whose records hold total bytes: a count of leading zeros, not
 * a loop (a 1 MiB reply's record took 15 rounds, ~75 instructions). Events and
 * errors have their own class between the first two powers of two. */
static unsigned class_of(size_t total)
{
    if (total <= ((size_t)1 << XW_MIN_CLASS))
        return XW_MIN_CLASS;
    if (total <= XW_EVENT_REC_BYTES)
        return XW_EVENT_CLASS;
    return (unsigned)(sizeof(unsigned long long) * 8) - (unsigned)__builtin_clzll((unsigned long long)total - 1);
}

/* Carves a new slab into free records of class k. */
static int refill(struct xw_store *s, unsigned k)
{
    struct xw_slab *slab = malloc(XW_SLAB_BYTES);
    if (!slab)
        return -1;
    slab->next = s->slabs;
    s->slabs = slab;
    size_t size = xw__store_class_bytes(k);
    for (uint8_t *r = (uint8_t *)(slab + 1); r + size <= (uint8_t *)slab + XW_SLAB_BYTES; r += size) {
        struct xw_pkt *p = (struct xw_pkt *)(void *)r;
        p->cls = (uint8_t)k;
        p->ext = NULL;
        p->next = s->free[k];
        s->free[k] = p;
        s->nfree[k]++;
    }
    return 0;
}

/* bytes: payload including fds. Callers have already capped it at XW_PACKET_CAP, so
 * the class index stays in range. Allocates only when the class's list is empty. */
struct xw_pkt *xw__store_alloc(xw_connection_t *c, size_t bytes)
{
    unsigned k = class_of(sizeof(struct xw_pkt) + bytes);
    if (k >= XW_STORE_CLASSES)
        return NULL;
    struct xw_store *s = &c->store;
    if (!s->free[k] && k <= XW_SLAB_CLASS && refill(s, k) < 0) /* the event class's index is below it too */
        return NULL;
    struct xw_pkt *p = s->free[k];
    if (p) {
        s->free[k] = p->next;
        s->nfree[k]--;
    } else if (k >= XW_EXT_CLASS) {
        uint8_t *data = malloc((size_t)1 << k);
        if (!data)
            return NULL;
        p = (struct xw_pkt *)(void *)(data + ((size_t)1 << k) - sizeof(*p));
        p->cls = (uint8_t)k;
        p->ext = data;
    } else {
        p = malloc((size_t)1 << k);
        if (!p)
            return NULL;
        p->cls = (uint8_t)k;
        p->ext = NULL;
    }
    p->next = NULL;
    p->nfds = 0;
    return p;
}

void xw__store_free(xw_connection_t *c, struct xw_pkt *p)
{
    struct xw_store *s = &c->store;
    unsigned k = p->cls;
    if (k >= XW_EXT_CLASS && !p->ext)
        return; /* its block, header and all, was handed to a caller, who frees it */
    if (k >= XW_BIG_CLASS && s->nfree[k] >= XW_BIG_KEEP) {
        free(p->ext); /* the header goes with it */
        return;
    }
    p->next = s->free[k];
    s->free[k] = p;
    s->nfree[k]++;
}

/* Every record must be back on its free list (the queues are freed first). */
void xw__store_fini(struct xw_store *s)
{
    for (unsigned k = 0; k < XW_STORE_CLASSES; k++) {
        while (s->free[k]) {
            struct xw_pkt *p = s->free[k];
            s->free[k] = p->next;
            if (k >= XW_EXT_CLASS)
                free(p->ext); /* the header goes with it */
            else if (k > XW_SLAB_CLASS)
                free(p);
        }
        s->nfree[k] = 0;
    }
    while (s->slabs) {
        struct xw_slab *next = s->slabs->next;
        free(s->slabs);
        s->slabs = next;
    }
}
