/* SPDX-License-Identifier: MIT */
/* out.h — internal: the write path: send limits, the inline reserve-frame-copy-commit path and the
 * buffer flushes (lock held); the send fast path, which the generated senders inline. */
#ifndef XW_SRC_OUT_H
#define XW_SRC_OUT_H

#include "conn.h"
#include "ext.h"
#include "pend.h"
#include "send.h"

/* ---- the one way a request enters the write buffer: reserve, frame and copy, commit ----
 * Used by xw_send's fast path and by the generated senders' inline path. */

/* Lock held, limit = out.fast_limit (or through xw__out_reserve_unlocked).
 * Where a request of total bytes goes when it can take the next sequence number at
 * once: the buffer has room and nothing stands in the way (the limit covers a fatal
 * error, a thread writing, the automatic sync and the 32-bit wrap). NULL: the
 * general path (send.c's send_locked) must take it. The caller frames the request
 * (xw__out_frame), copies it there (xw__out_copy), then commits. */
static inline uint8_t *xw__out_reserve(xw_connection_t *c, size_t total, uint64_t limit)
{
    struct xw_out *o = &c->out;
    if (XW_UNLIKELY(o->seq >= limit || total > (size_t)(o->end - o->ptr)))
        return NULL;
    if (!o->ptr) /* never: the limit stays 0 on a connection without a buffer; saves callers a test */
        __builtin_unreachable();
    return o->ptr;
}

/* Whether a sender that does not take the lock (the generated inline senders) may
 * go on, and with which limit: only while no other thread can be in the
 * connection, its single-threaded mode (inline_limit holds fast_limit then, in one
 * load; other threads write it under the lock, hence the atomic read) or a process
 * with one thread. 0 otherwise, before anything else is read: the caller reads
 * nothing more of the connection then. */
static inline int xw__out_unlocked(xw_connection_t *c, uint64_t *limit)
{
    *limit = __atomic_load_n(&c->out.inline_limit, __ATOMIC_RELAXED);
    if (*limit)
        return 1;
    if (!XW_PROCESS_SINGLE_THREADED())
        return 0;
    *limit = c->out.fast_limit;
    return 1;
}

/* xw__out_reserve for a sender that does not take the lock (xw__out_unlocked):
 * NULL before anything else is read when another thread may be in the connection. */
static inline uint8_t *xw__out_reserve_unlocked(xw_connection_t *c, size_t total)
{
    uint64_t lim;
    return xw__out_unlocked(c, &lim) ? xw__out_reserve(c, total, lim) : NULL;
}

/* The request header: major opcode, an extension's minor opcode, the length in words
 * (0 when a BIG-REQUESTS length follows). */
static inline void xw__out_frame(uint8_t *b, const xw_protocol_request_t *req, uint8_t major, uint16_t words)
{
    b[0] = major;
    if (req->ext)
        b[1] = req->opcode;
    xw__wr16(b + 2, words);
}

/* n bytes, w <= n <= 2 * w, as two overlapping moves of w bytes (a constant, so each
 * is one load and one store). */
static inline __attribute__((always_inline)) void xw__out_copy_ends(uint8_t *dst, const uint8_t *s, size_t n, size_t w)
{
    uint8_t a[16], b[16];
    memcpy(a, s, w);
    memcpy(b, s + n - w, w);
    memcpy(dst, a, w);
    memcpy(dst + n - w, b, w);
}

/* The one copy into the write buffer: n bytes from src (NULL: zeros). Slices up to
 * 32 bytes take two overlapping moves and no call; a padding slice of up to 4 bytes
 * stores 4 zeros (the buffer has XW_OUT_SLACK spare bytes past its end). Any other
 * slice is copied with a call, or, when small_only (a caller that must stay a leaf),
 * refused: returns 0 and copies nothing. */
static inline __attribute__((always_inline)) int xw__out_copy(uint8_t *dst, const void *src, size_t n, int small_only)
{
    const uint8_t *s = src;
    if (!s) {
        if (n <= 4)
            memset(dst, 0, 4);
        else if (small_only)
            return 0;
        else
            memset(dst, 0, n);
    } else if (n - 4 <= 4) {
        xw__out_copy_ends(dst, s, n, 4);
    } else if (n - 9 <= 7) {
        xw__out_copy_ends(dst, s, n, 8);
    } else if (n - 17 <= 15) {
        xw__out_copy_ends(dst, s, n, 16);
    } else if (small_only) {
        return n == 0;
    } else {
        memcpy(dst, s, n);
    }
    return 1;
}

/* A list of n bytes (at most 32) and its pad at d, with no call: the pad's 4 zeros
 * first, the list over them (a pad never reaches past d + n + 3, inside the
 * buffer's slack), in moves chosen by n alone, so src is read only when n > 0. */
static inline __attribute__((always_inline)) void xw__out_short(uint8_t *d, const void *src, size_t n)
{
    const uint8_t *l = src;
    memset(d + (n & ~(size_t)3), 0, 4);
    if (n > 8) {
        if (n > 16)
            xw__out_copy_ends(d, l, n, 16);
        else
            xw__out_copy_ends(d, l, n, 8);
    } else if (n >= 4) {
        xw__out_copy_ends(d, l, n, 4);
    } else if (n) { /* 1 to 3 bytes (a short string): three stores cover each */
        d[0] = l[0];
        d[n / 2] = l[n / 2];
        d[n - 1] = l[n - 1];
    }
}

/* The request of total bytes framed and copied at the reserved place joins the
 * buffer and takes the next sequence number (same lock hold as the reserve). */
static inline uint64_t xw__out_commit(xw_connection_t *c, size_t total)
{
    c->out.ptr += total;
    return ++c->out.seq;
}

/* ---- the send fast path, inline in the runtime's senders and the generated ones ---- */

/* The fast paths' common start: room for total bytes below limit (out.fast_limit
 * with the lock held, else xw__out_unlocked's), a pending entry's room for
 * a reply-bearing or checked request, and the major opcode (an extension's only
 * when cached). NULL when the general path must handle it; nothing is committed
 * either way. */
static inline __attribute__((always_inline)) uint8_t *xw__out_fast_room(xw_connection_t *c, int flags, uint64_t limit,
                                                                        const xw_protocol_request_t *req, size_t total,
                                                                        uint8_t *major)
{
    uint8_t *dst = xw__out_reserve(c, total, limit);
    if (XW_UNLIKELY(!dst))
        return NULL;
    unsigned track = (unsigned)flags | (unsigned)!req->isvoid;
    if (XW_UNLIKELY(track) && !xw__pend_fast_ok(c))
        return NULL;
    *major = req->opcode;
    if (req->ext) {
        const struct xw_ext_fast *e = &c->ext_fast[XW_EXT_FAST_SLOT(req->ext)];
        if (e->ext != req->ext)
            return NULL;
        *major = e->major;
    }
    return dst;
}

/* The common shape, a fixed part of whole words (rq->f.fixed_words) then one list
 * of n bytes and its pad, from the two pieces themselves: nothing to frame into
 * slices and walk. With the lock held, or while no other thread can be in the
 * connection (limit then says which). The sequence number, or 0 when the general
 * path must handle it: nothing is committed then. A list longer than 32 bytes
 * takes the general path: a call here would cost every request the registers it
 * saves. Inlined where rq is a generated constant, every fact it reads from rq
 * (the opcode, the fixed part's length, the entry's facts) is folded away. */
static inline __attribute__((always_inline)) uint64_t xw__out_list_fast(xw_connection_t *c, int flags, uint64_t limit,
                                                                        const void *fixed, const void *list, size_t n,
                                                                        const struct xw_request *rq)
{
    const xw_protocol_request_t *req = &rq->pub;
    size_t flen = (size_t)rq->f.fixed_words * 4, total = flen + ((n + 3) & ~(size_t)3);
    if (XW_UNLIKELY((n > 32) | ((unsigned)flags & ~(unsigned)XW_REQUEST_CHECKED)))
        return 0;
    uint8_t major;
    uint8_t *dst = xw__out_fast_room(c, flags, limit, req, total, &major);
    if (XW_UNLIKELY(!dst))
        return 0;
    if (!fixed) /* never: the caller's own request; saves the copy a test */
        __builtin_unreachable();
    if (XW_UNLIKELY(!xw__out_copy(dst, fixed, flen, 1)))
        return 0;
    xw__out_frame(dst, req, major, (uint16_t)(total >> 2));
    xw__out_short(dst + flen, list, n);
    uint64_t seq = xw__out_commit(c, total);
    if (seq == 0) /* never: the sequence before it is below the limit, so it cannot wrap; saves callers a test */
        __builtin_unreachable();
    if (XW_UNLIKELY((unsigned)flags | (unsigned)!req->isvoid)) /* tracked: xw__out_fast_room found it room */
        xw__pend_push(c, seq, flags, rq);
    return seq;
}

/* out.c (all with the lock held) */
int xw__out_flush(xw_connection_t *c);
int xw__out_flush_to(xw_connection_t *c, uint64_t seq);
uint64_t xw__out_place(xw_connection_t *c, int flags, struct iovec *vector, const struct xw_request *rq, size_t total,
                       unsigned nfds, int *fds, uint8_t major, int big);
int xw__out_sync(xw_connection_t *c);
/* The own socket's side of the transport seam's writing half (own.c's table). */
void xw__out_write_socket(xw_connection_t *c, struct iovec *iov, size_t n);
void xw__out_queue_fd(xw_connection_t *c, int fd);

/* out.c: the owner's bytes, now, after xwire's own; requests joins the count. */
int xw__out_write_through(xw_connection_t *c, struct iovec *iov, size_t n, uint64_t requests);

#endif
