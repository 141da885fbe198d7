/* SPDX-License-Identifier: MIT */
/* send.c — sending a request: vetted, its extension's opcode found, then the fast path or out.c's general one. */
#include "send.h"
#include "base.h"
#include "conn.h"
#include "ext.h"
#include "fail.h"
#include "lock.h"
#include "out.h"
#include "pend.h"
#include "query.h"

#include <stdio.h>

/* The generated description's facts for opcode, when there is one. */
static const struct xw_request *described(const xw_ext_desc_t *d, uint8_t opcode)
{
    return d && d->requests && opcode < d->n_requests ? d->requests[opcode] : NULL;
}

/* A request someone else built (hand-written code, code written for libxcb): its
 * reply's validator and multi-reply rule from the description of the extension of
 * that name (none for an extension xwire has no description of: then the reply is
 * taken as it comes, as libxcb does). */
void xw__send_lookup(const xw_protocol_request_t *req, struct xw_request *rq)
{
    const struct xw_request *d;
    if (!req->ext)
        d = described(&xw_xproto_desc, req->opcode);
    else
        d = described(xw_ext_desc_find(req->ext->name), req->opcode);
    /* through f, so the facts in pub's padding start at zero */
    *rq =
        (struct xw_request){.f = {.count = req->count, .ext = req->ext, .opcode = req->opcode, .isvoid = req->isvoid}};
    if (d && d->pub.isvoid == req->isvoid) {
        rq->validate = d->validate;
        rq->f.multi_reply = d->f.multi_reply;
        rq->f.multi_end = d->f.multi_end;
        rq->f.reply_gap = d->f.reply_gap;
    }
}

/* The slices must add up to total, a multiple of 4 with room for a header;
 * padding slices are short (they are pointed at zeros when written). */
static int check_slices(const struct iovec *v, size_t count, size_t total)
{
    size_t sum = 0;
    for (size_t i = 0; i < count; i++) {
        if (!v[i].iov_base && v[i].iov_len >= XW_COPY_MAX)
            return -EINVAL;
        sum += v[i].iov_len;
    }
    return (sum == total && count > 0 && v[0].iov_len >= 4 && (total & 3) == 0) ? 0 : -EINVAL;
}

/* Lock held. Everything that can make a request fail alone happens here, before a
 * sequence number is taken; round trips (QueryExtension, BigReqEnable) may release
 * the lock. *big is set when BIG-REQUESTS framing is needed. */
static int vet(xw_connection_t *c, int flags, const struct iovec *v, const xw_protocol_request_t *req, size_t total,
               unsigned nfds, uint8_t *major, int *big, char *why, size_t whycap)
{
    *major = req->opcode;
    *big = 0;
    if (nfds > XW_MAX_FDS) {
        snprintf(why, whycap, "%u fds in one request (at most %u)", nfds, XW_MAX_FDS);
        return -EINVAL;
    }
    if (check_slices(v, req->count, total) < 0) {
        snprintf(why, whycap, "request slices do not add up to %zu bytes (a multiple of 4)", total);
        return -EINVAL;
    }
    if (req->ext && !(flags & XW_REQUEST_RAW) && xw__query_ext_major(c, req->ext, major) < 0) {
        snprintf(why, whycap, "extension %s is not present on this server", req->ext->name);
        return -ENOTSUP;
    }
    uint64_t words = total / 4;
    if (words > c->out.max_words && !(flags & XW_REQUEST_RAW)) {
        uint32_t maxw = 0;
        xw__query_bigreq_max(c, &maxw);
        if (words + 1 > maxw) {
            snprintf(why, whycap, "request of %zu bytes is longer than the server's limit of %llu bytes", total,
                     (unsigned long long)(maxw > c->out.max_words ? maxw : c->out.max_words) * 4);
            return -E2BIG;
        }
        *big = 1;
    }
    return c->error ? -EPIPE : 0;
}

/* Lock held: vets the request (may release the lock for QueryExtension or
 * BIG-REQUESTS), then xw__out_place. */
static uint64_t send_locked(xw_connection_t *c, int flags, struct iovec *vector, const struct xw_request *rq,
                            size_t total, unsigned nfds, int *fds)
{
    char why[160];
    uint8_t major;
    int big;
    if (c->error)
        return xw__fail_reject(c, nfds, fds, c->errstr);
    if (vet(c, flags, vector, &rq->pub, total, nfds, &major, &big, why, sizeof(why)) < 0)
        return xw__fail_reject(c, nfds, fds, c->error ? c->errstr : why);
    return xw__out_place(c, flags, vector, rq, total, nfds, fds, major, big);
}

/* Lock held (or the connection single-threaded). The common case, kept a leaf with
 * no calls so it needs no saved registers: a request without fds whose slices are
 * small, for the core or an extension whose opcode is cached, unchecked or checked.
 * Returns 0 when the general path must handle it; nothing is committed then. */
static inline __attribute__((always_inline)) uint64_t send_fast(xw_connection_t *c, int flags, const struct iovec *v,
                                                                const struct xw_request *rq, size_t total,
                                                                unsigned nfds)
{
    const xw_protocol_request_t *req = &rq->pub;
    if (XW_UNLIKELY(total - 4 >= XW_COPY_MAX - 4 ||
                    ((total & 3) | nfds | ((unsigned)flags & ~(unsigned)XW_REQUEST_CHECKED))))
        return 0;
    uint8_t major;
    uint8_t *dst = xw__out_fast_room(c, flags, c->out.fast_limit, req, total, &major);
    if (XW_UNLIKELY(!dst))
        return 0;
    /* The fixed part first (never padding, at least the 4 header bytes, which are
     * framed at once so that major is dead before the loop), then the rest:
     * usually one empty pad. Nothing is committed until every slice is in. */
    const struct iovec *s = v, *end = v + req->count;
    size_t len = s->iov_len;
    if (XW_UNLIKELY(s == end || len - 4 > total - 4 || !xw__out_copy(dst, s->iov_base, len, 1)))
        return 0;
    xw__out_frame(dst, req, major, (uint16_t)(total >> 2));
    uint8_t *p = dst + len, *lim = dst + total;
    while (++s < end) {
        len = s->iov_len;
        if (XW_UNLIKELY(len > (size_t)(lim - p) || !xw__out_copy(p, s->iov_base, len, 1)))
            return 0;
        p += len;
    }
    if (XW_UNLIKELY(p != lim))
        return 0;
    uint64_t seq = xw__out_commit(c, total);
    if (seq == 0) /* never: the sequence before it is below fast_limit, so it cannot wrap; saves callers a test */
        __builtin_unreachable();
    if (XW_UNLIKELY((unsigned)flags | (unsigned)!req->isvoid)) /* tracked: xw__out_fast_room found it room */
        xw__pend_push(c, seq, flags, rq);
    return seq;
}

/* Everything send_fast declines, under the lock xw__send took (none in the
 * single-threaded mode); releases it. */
static __attribute__((noinline)) uint64_t send_slow(xw_connection_t *c, int flags, struct iovec *vector,
                                                    const struct xw_request *rq, size_t total, unsigned nfds, int *fds)
{
    uint64_t seq = send_locked(c, flags, vector, rq, total, nfds, fds);
    xw__conn_unlock(c);
    return seq;
}

/* xw__send when the lock is not free at once: waits for it, then as xw__send. */
static __attribute__((noinline)) uint64_t send_contended(xw_connection_t *c, int flags, struct iovec *vector,
                                                         const struct xw_request *rq, size_t total, unsigned nfds,
                                                         int *fds)
{
    xw__lock_acquire(&c->mu);
    uint64_t seq = send_fast(c, flags, vector, rq, total, nfds);
    if (!seq)
        return send_slow(c, flags, vector, rq, total, nfds, fds);
    xw__lock_release(&c->mu);
    return seq;
}

/* Requests with fds: never the fast path. */
static __attribute__((noinline)) uint64_t send_fds(xw_connection_t *c, int flags, struct iovec *vector,
                                                   const struct xw_request *rq, size_t total, unsigned nfds, int *fds)
{
    xw__conn_lock(c);
    return send_slow(c, flags, vector, rq, total, nfds, fds);
}

/* The general path for a request the fast path declined while no other thread
 * could be in the connection, so it ran without the lock: takes it first. */
static __attribute__((noinline)) uint64_t send_slow_alone(xw_connection_t *c, int flags, struct iovec *vector,
                                                          const struct xw_request *rq, size_t total)
{
    xw__conn_lock(c);
    return send_slow(c, flags, vector, rq, total, 0, NULL);
}

/* xw__send where other threads may be in the connection: the fast path under the
 * lock, out of line so that the lock-free one needs fewer registers. */
static __attribute__((noinline)) uint64_t send_threaded(xw_connection_t *c, int flags, struct iovec *vector,
                                                        const struct xw_request *rq, size_t total)
{
    if (XW_UNLIKELY(!xw__lock_try(&c->mu)))
        return send_contended(c, flags, vector, rq, total, 0, NULL);
    uint64_t seq = send_fast(c, flags, vector, rq, total, 0);
    if (XW_UNLIKELY(!seq))
        return send_slow(c, flags, vector, rq, total, 0, NULL);
    if (XW_UNLIKELY(!xw__lock_drop(&c->mu)))
        return xw__lock_wake_ret(&c->mu, seq);
    return seq;
}

/* The lock is taken once: a request the fast path declines continues under it.
 * Every call here is a tail call, and past the first line fds is not needed (none
 * are sent: NULL stands for it), so the fast path keeps everything in registers it
 * need not save. While no other thread can be in the connection (its
 * single-threaded mode, or a process with one thread) the fast path takes no lock
 * at all: storing the lock word twice and testing the process's thread count again
 * to release it cost every request a handful of instructions. */
uint64_t xw__send(xw_connection_t *c, int flags, struct iovec *vector, const struct xw_request *rq, size_t total,
                  unsigned nfds, int *fds)
{
    if (XW_UNLIKELY(nfds))
        return send_fds(c, flags, vector, rq, total, nfds, fds);
    if (XW_UNLIKELY(!c->single && !XW_PROCESS_SINGLE_THREADED()))
        return send_threaded(c, flags, vector, rq, total);
    uint64_t seq = send_fast(c, flags, vector, rq, total, 0);
    if (XW_UNLIKELY(!seq))
        return send_slow_alone(c, flags, vector, rq, total);
    return seq;
}

/* ---- the common shape: a fixed part of whole words, then one list and its pad ---- */

/* xw__out_list_fast under the lock (or with the connection single-threaded). */
static inline __attribute__((always_inline)) uint64_t send_list_fast(xw_connection_t *c, int flags, const void *fixed,
                                                                     const void *list, size_t n,
                                                                     const struct xw_request *rq)
{
    return xw__out_list_fast(c, flags, c->out.fast_limit, fixed, list, n, rq);
}

/* The same request as the slices the general path takes (rq->count is 3: the fixed
 * part, the list, the pad) in v[2..4], after the two free slots it may write;
 * returns its length. */
static size_t list_slices(struct iovec v[5], const void *fixed, const void *list, size_t n, const struct xw_request *rq)
{
    size_t flen = (size_t)rq->f.fixed_words * 4;
    v[2] = (struct iovec){(void *)fixed, flen};
    v[3] = (struct iovec){(void *)list, n};
    v[4] = (struct iovec){NULL, -n & 3};
    return flen + n + (-n & 3);
}

/* Anything send_list_fast declines, or another thread may be in the connection. */
static __attribute__((noinline)) uint64_t send_list_slices(xw_connection_t *c, int flags, const void *fixed,
                                                           const void *list, size_t n, const struct xw_request *rq)
{
    struct iovec v[5];
    size_t total = list_slices(v, fixed, list, n, rq);
    return xw__send(c, flags, v + 2, rq, total, 0, NULL);
}

/* send_list_fast under the lock, when other threads may be in the connection (as
 * send_threaded); a contended lock or a declined request takes the slices. */
static __attribute__((noinline)) uint64_t send_list_threaded(xw_connection_t *c, int flags, const void *fixed,
                                                             const void *list, size_t n, const struct xw_request *rq)
{
    if (XW_UNLIKELY(!xw__lock_try(&c->mu)))
        return send_list_slices(c, flags, fixed, list, n, rq);
    uint64_t seq = send_list_fast(c, flags, fixed, list, n, rq);
    if (XW_UNLIKELY(!seq)) {
        struct iovec v[5];
        size_t total = list_slices(v, fixed, list, n, rq);
        return send_slow(c, flags, v + 2, rq, total, 0, NULL);
    }
    if (XW_UNLIKELY(!xw__lock_drop(&c->mu)))
        return xw__lock_wake_ret(&c->mu, seq);
    return seq;
}

/* As xw__send: the lock is taken only where another thread may be in the connection. */
uint64_t xw__send_list(xw_connection_t *c, int flags, const void *fixed, const void *list, size_t n,
                       const struct xw_request *rq)
{
    if (XW_UNLIKELY(!c->single && !XW_PROCESS_SINGLE_THREADED()))
        return send_list_threaded(c, flags, fixed, list, n, rq);
    uint64_t seq = send_list_fast(c, flags, fixed, list, n, rq);
    if (XW_UNLIKELY(!seq))
        return send_list_slices(c, flags, fixed, list, n, rq);
    return seq;
}

XW_EXPORT uint64_t xw_send(xw_connection_t *c, int flags, struct iovec *vector, const xw_protocol_request_t *req,
                           size_t total_bytes, unsigned int num_fds, int *fds)
{
    struct xw_request rq;
    xw__send_lookup(req, &rq);
    return xw__send(c, flags | (rq.f.reply_gap ? XW__REQUEST_REPLY_GAP : 0), vector, &rq, total_bytes, num_fds, fds);
}

static size_t sum_slices(const struct iovec *v, size_t n)
{
    size_t t = 0;
    for (size_t i = 0; i < n; i++)
        t += v[i].iov_len;
    return t;
}

/* libxcb's forms. libxcb's contract lets the library write vector[-1] and
 * vector[-2], and libxcb does when a request does not fit its buffer or needs
 * BIG-REQUESTS; xwire's general path would in other cases too (a slice above
 * XW_COPY_MAX). So a foreign caller's iovecs are copied, up to this many, and the
 * copy is what the send path may write around; a longer vector (no generated
 * sender comes near) is used in place, as the contract allows. */
#define XW_FOREIGN_SLICES 64

XW_EXPORT uint64_t xw_send_request_with_fds64(xw_connection_t *c, int flags, struct iovec *vector,
                                              const xw_protocol_request_t *request, unsigned int num_fds, int *fds)
{
    struct xw_request rq;
    struct iovec copy[XW_FOREIGN_SLICES + 2];
    size_t n = request->count;
    xw__send_lookup(request, &rq);
    if (n <= XW_FOREIGN_SLICES) {
        memcpy(copy + 2, vector, n * sizeof(*vector));
        vector = copy + 2;
    }
    return xw__send(c, flags | (rq.f.reply_gap ? XW__REQUEST_REPLY_GAP : 0), vector, &rq, sum_slices(vector, n),
                    num_fds, fds);
}

XW_EXPORT uint64_t xw_send_request64(xw_connection_t *c, int flags, struct iovec *vector,
                                     const xw_protocol_request_t *request)
{
    return xw_send_request_with_fds64(c, flags, vector, request, 0, NULL);
}

XW_EXPORT unsigned int xw_send_request_with_fds(xw_connection_t *c, int flags, struct iovec *vector,
                                                const xw_protocol_request_t *request, unsigned int num_fds, int *fds)
{
    return (unsigned int)xw_send_request_with_fds64(c, flags, vector, request, num_fds, fds);
}

XW_EXPORT unsigned int xw_send_request(xw_connection_t *c, int flags, struct iovec *vector,
                                       const xw_protocol_request_t *request)
{
    return (unsigned int)xw_send_request_with_fds64(c, flags, vector, request, 0, NULL);
}
