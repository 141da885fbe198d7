/* SPDX-License-Identifier: MIT */
/* pend.c — the pending store: tracked requests in fixed blocks carved from mapped chunks, oldest first. */
#include "pend.h"
#include "route.h"

#include <stdlib.h>
#include <sys/mman.h>

#define BLOCK_BYTES (XW_PEND_BLOCK * sizeof(struct xw_pend))
/* From this size a chunk asks for transparent huge pages: one fault per 2 MiB. */
#define HUGE_BYTES ((size_t)2 << 20)

/* Free blocks are chained through their first bytes. */
struct spare {
    struct spare *next;
};

/* Chunk i's size: 2^i blocks, rounded up to pages (to huge pages once that big). */
static size_t chunk_bytes(unsigned i)
{
    size_t b = BLOCK_BYTES << i;
    size_t a = b >= HUGE_BYTES ? HUGE_BYTES : 4096;
    return (b + a - 1) & ~(a - 1);
}

/* Chunks given back, one per size, for the next store that needs that size: a
 * pipeline repeated on one connection, or connections opened one after another,
 * get memory already populated instead of having the kernel clear it page by page
 * (at a million pending requests clearing pages was about half the client's CPU).
 * A chunk goes there when its last block comes back (a big one) or its store is
 * freed. Sizes up to POOL_MAX_BYTES are kept, so the process holds at most their
 * sum (~84 MiB of mappings), and as lazily freed memory: the kernel takes the
 * pages back when it needs them, and until then reusing them costs no fault.
 * Slots are taken and filled by atomic exchange: stores of several threads'
 * connections share them. */
#define POOL_MAX_BYTES ((size_t)64 << 20)
static uint8_t *pool[XW_PEND_CHUNKS];

/* Maps chunk i, or takes it from the pool. A small fresh one is populated in one
 * call rather than a page fault at a time; a big one asks for huge pages instead,
 * which fault in 2 MiB at a time as blocks are used, so the unused end of a chunk
 * that doubled costs nothing. The advice is best effort: without it the pages
 * fault in on first use as before. */
static int chunk_map(struct xw_pend_chunk *ch, unsigned i)
{
    size_t bytes = chunk_bytes(i);
    void *p = __atomic_exchange_n(&pool[i], NULL, __ATOMIC_ACQUIRE);
    if (!p) {
        p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            return -ENOMEM;
#ifdef MADV_HUGEPAGE
        if (bytes >= HUGE_BYTES)
            (void)madvise(p, bytes, MADV_HUGEPAGE);
#endif
#ifdef MADV_POPULATE_WRITE
        if (bytes < HUGE_BYTES)
            (void)madvise(p, bytes, MADV_POPULATE_WRITE);
#endif
    }
    *ch = (struct xw_pend_chunk){.base = p, .bytes = bytes, .nblk = (unsigned)(bytes / BLOCK_BYTES)};
    return 0;
}

static void chunk_unmap(struct xw_pend_chunk *ch)
{
    munmap(ch->base, ch->bytes);
    *ch = (struct xw_pend_chunk){0};
}

/* Chunk i, no block of it in use, to the pool (what the pool held for that size
 * is unmapped), or unmapped when it is bigger than the pool keeps. Nothing in it
 * is read again before it is written: a chunk from the pool starts with no free
 * blocks and hands them out from its start. */
static void chunk_pool(struct xw_pend_chunk *ch, unsigned i)
{
    if (ch->bytes <= POOL_MAX_BYTES) {
#ifdef MADV_FREE
        (void)madvise(ch->base, ch->bytes, MADV_FREE);
#endif
        uint8_t *old = __atomic_exchange_n(&pool[i], ch->base, __ATOMIC_ACQ_REL);
        ch->base = old;
    }
    if (ch->base)
        chunk_unmap(ch);
    *ch = (struct xw_pend_chunk){0};
}

/* A block from the smallest chunk with one free, else from a newly mapped chunk. */
static struct xw_pend *block_get(struct xw_pend_store *s)
{
    struct xw_pend_chunk *fresh = NULL;
    for (unsigned i = 0; i < XW_PEND_CHUNKS; i++) {
        struct xw_pend_chunk *ch = &s->chunk[i];
        if (!ch->base) {
            if (!fresh && chunk_map(ch, i) == 0)
                fresh = ch; /* only the first unmapped one is tried */
            else
                continue;
        }
        if (ch->free) {
            struct spare *b = ch->free;
            ch->free = b->next;
            ch->used++;
            return (struct xw_pend *)(void *)b;
        }
        if (ch->bump < ch->nblk) {
            ch->used++;
            return (struct xw_pend *)(void *)(ch->base + BLOCK_BYTES * ch->bump++);
        }
    }
    return NULL;
}

static void block_put(struct xw_pend_store *s, struct xw_pend *blk)
{
    uint8_t *p = (uint8_t *)blk;
    for (unsigned i = 0; i < XW_PEND_CHUNKS; i++) {
        struct xw_pend_chunk *ch = &s->chunk[i];
        if (!ch->base || p < ch->base || p >= ch->base + ch->bytes)
            continue;
        if (--ch->used == 0 && i >= XW_PEND_KEEP) {
            chunk_pool(ch, i);
            return;
        }
        struct spare *b = (struct spare *)(void *)blk;
        b->next = ch->free;
        ch->free = b;
        return;
    }
}

static struct xw_pend **slot_of(struct xw_pend_store *s, uint64_t k)
{
    return &s->blk[(k >> XW_PEND_SHIFT) & (s->bcap - 1)];
}

/* Gives back the blocks holding only indices in [from, to) (from rounded up to a
 * block boundary: the block of a mid-block index still holds the next entry). */
static void blocks_release(struct xw_pend_store *s, uint64_t from, uint64_t to)
{
    for (uint64_t k = (from + XW_PEND_BLOCK - 1) & ~(uint64_t)(XW_PEND_BLOCK - 1); k < to; k += XW_PEND_BLOCK) {
        block_put(s, *slot_of(s, k));
        *slot_of(s, k) = NULL;
    }
}

/* Where entry head + n goes, when its block is there. */
static void set_next(struct xw_pend_store *s)
{
    uint64_t t = s->head + s->n;
    s->next = (t & (XW_PEND_BLOCK - 1)) ? &(*slot_of(s, t))[t & (XW_PEND_BLOCK - 1)] : NULL;
}

/* Squeezes out the entries that are dead and done but not at the head (left behind
 * replies claimed out of order, or one nobody claims), keeping the order. Entries
 * move, and any send may get here: so nobody keeps a struct xw_pend * across a
 * release of the lock (a wait looks its entry up again after every round), and an
 * entry is named by its sequence wherever it must outlive one (a registered reply
 * buffer). Unfinished entries are all kept, so the last undone are still those. */
static void compact(struct xw_pend_store *s)
{
    size_t keep = 0;
    for (size_t i = 0; i < s->n; i++) {
        struct xw_pend *e = xw__pend_at(s, i);
        if (e->dead && e->done)
            continue;
        if (keep != i)
            *xw__pend_at(s, keep) = *e;
        keep++;
    }
    uint64_t end = s->head + s->n;
    s->n = keep;
    s->gone = 0;
    blocks_release(s, s->head + keep, end);
    set_next(s);
    if (keep) /* the head's slot, refilled */
        s->first = xw__pend_at(s, 0);
}

/* The pointer ring doubles when the live blocks fill it: 8 bytes per
 * XW_PEND_BLOCK entries, so it stays small while the entries never move. */
static int ring_grow(struct xw_pend_store *s)
{
    size_t ncap = s->bcap ? s->bcap * 2 : 8;
    struct xw_pend **n = calloc(ncap, sizeof(*n));
    if (!n)
        return -ENOMEM;
    for (uint64_t k = s->head & ~(uint64_t)(XW_PEND_BLOCK - 1); k < s->head + s->n; k += XW_PEND_BLOCK)
        n[(k >> XW_PEND_SHIFT) & (ncap - 1)] = *slot_of(s, k);
    free(s->blk);
    s->blk = n;
    s->bcap = ncap;
    return 0;
}

/* Room for entry head + n (next is NULL, so it starts a block): reclaim the dead
 * entries when they are half the store, else add a block. Returns 0 or -ENOMEM. */
int xw__pend_room(struct xw_pend_store *s)
{
    if (s->gone >= XW_PEND_BLOCK && s->gone * 2 >= s->n) {
        compact(s);
        if (s->next)
            return 0;
    }
    /* next is NULL: head + n starts a block, so the live blocks are those before it */
    uint64_t t = s->head + s->n;
    size_t live = (size_t)((t >> XW_PEND_SHIFT) - (s->head >> XW_PEND_SHIFT));
    if (live + 1 > s->bcap && ring_grow(s) < 0)
        return -ENOMEM;
    struct xw_pend *b = block_get(s);
    if (!b)
        return -ENOMEM;
    *slot_of(s, t) = b;
    s->next = b;
    return 0;
}

/* xw__pend_trim's work once the head entry is finished and claimed: drops such
 * entries from the head, giving back emptied blocks. */
void xw__pend_trim_head(struct xw_pend_store *s)
{
    uint64_t from = s->head;
    while (s->n > 0) {
        struct xw_pend *e = xw__pend_at(s, 0);
        if (!(e->dead && e->done))
            break;
        s->head++;
        s->n--;
        s->gone--;
    }
    /* a block goes back once the head has passed its last entry */
    blocks_release(s, from & ~(uint64_t)(XW_PEND_BLOCK - 1), (s->head & ~(uint64_t)(XW_PEND_BLOCK - 1)));
    if (s->n)
        s->first = xw__pend_at(s, 0);
}

/* Binary search: entries are in increasing sequence order. */
struct xw_pend *xw__pend_search(const struct xw_pend_store *s, uint64_t seq)
{
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        struct xw_pend *e = xw__pend_at(s, mid);
        if (e->seq == seq)
            return e;
        if (e->seq < seq)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* The entries' queues are freed by the caller first. */
void xw__pend_fini(struct xw_pend_store *s)
{
    for (unsigned i = 0; i < XW_PEND_CHUNKS; i++)
        if (s->chunk[i].base)
            chunk_pool(&s->chunk[i], i);
    free(s->blk);
    *s = (struct xw_pend_store){0};
}
