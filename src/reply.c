/* SPDX-License-Identifier: MIT */
/* reply.c — the public reply API: libxcb's malloc'd forms and xwire's caller-storage forms. */
#include "base.h"
#include "clock.h"
#include "conn.h"
#include "fail.h"
#include "lend.h"
#include "lock.h"
#include "pend.h"
#include "route.h"
#include "store.h"
#include "transport.h"

#include <stdlib.h>

/* Accepts a 32-bit cookie's sequence too (see xwext.h). Lock held. */
static uint64_t widen_any(xw_connection_t *c, uint64_t seq)
{
    return seq >> 32 ? seq : xw__transport_widen(c, (unsigned int)seq);
}

/* A malloc'd copy of the packet (data, fds, and for a reply the record's zeroed
 * slack) for the libxcb-compatible calls; the record goes back to the store.
 * On allocation failure the fds are closed. */
static void *to_heap(xw_connection_t *c, struct xw_pkt *p)
{
    if (p->ext) { /* a large packet: its block (slack, and the record's header at its end,
                     included) becomes the caller's, no copy */
        void *m = p->ext;
        p->ext = NULL;
        xw__store_free(c, p);
        return m;
    }
    size_t n = p->len + p->nfds * sizeof(int) + (p->kind == XW_PKT_REPLY ? XW_REPLY_SLACK_AFTER(p->len) : 0);
    void *m = malloc(n);
    if (m)
        memcpy(m, XW_PKT_DATA(p), n);
    else
        xw__fail_close_fds((int *)(XW_PKT_DATA(p) + p->len), p->nfds);
    xw__store_free(c, p);
    return m;
}

/* Splits a claimed packet into the reply or the error the caller asked for. */
static void *deliver(xw_connection_t *c, struct xw_pkt *p, xw_generic_error_t **e)
{
    if (!p)
        return NULL;
    if (p->kind == XW_PKT_REPLY)
        return to_heap(c, p);
    if (e)
        *e = to_heap(c, p);
    else
        xw__store_free(c, p);
    return NULL;
}

/* A 32-byte reply claimed into small, to the heap outside the lock (1). */
static int small_to_heap(const uint8_t *small, void **reply)
{
    *reply = malloc(32);
    if (*reply)
        memcpy(*reply, small, 32);
    return 1;
}

/* libxcb's malloc'd forms past the inline claim, the lock held (released here):
 * waits for request seq, then *reply (or *e) is the caller's block. A 32-byte reply
 * comes out of its pending entry (or the lent socket's slot) through small and is
 * copied to the heap after the lock is released. Same returns as xw__transport_reply. */
static __attribute__((noinline)) int take_heap_locked(xw_connection_t *c, uint64_t request, int64_t deadline,
                                                      void **reply, xw_generic_error_t **e)
{
    struct xw_pkt *p = NULL;
    uint8_t small[32];
    size_t need;
    int r = xw__transport_reply_fit(c, widen_any(c, request), deadline, SIZE_MAX, &need, &p, small);
    if (r != 2)
        *reply = r == 1 ? deliver(c, p, e) : NULL;
    xw__conn_unlock(c);
    return r == 2 ? small_to_heap(small, reply) : r;
}

/* take_heap_owner's wait for the owner's request seq (xw__lend_wait), the lock
 * held (released here). */
static __attribute__((noinline)) int owner_wait(xw_connection_t *c, uint64_t seq, int64_t deadline, void **reply,
                                                xw_generic_error_t **e)
{
    struct xw_pkt *p = NULL;
    uint8_t small[32];
    int r = xw__lend_wait(c, seq, deadline, small, &p);
    if (r != 2)
        *reply = r == 1 ? deliver(c, p, e) : NULL;
    xw__conn_unlock(c);
    return r == 2 ? small_to_heap(small, reply) : r;
}

/* The slot's reply (the owner's, 32 bytes) to the heap, the lock held (released
 * here): malloc'd under the lock, as libxcb does, so nothing is copied twice. */
static __attribute__((noinline)) int slot_to_heap(xw_connection_t *c, void **reply)
{
    struct xw_lend *l = &c->lend;
    *reply = malloc(32);
    if (*reply)
        memcpy(*reply, l->last.bytes, 32);
    l->last.full = 0; /* claimed, even when the copy could not be made */
    xw__conn_unlock(c);
    return 1;
}

/* take_heap_locked once the socket has been lent (lend.used) and nothing of
 * xwire's own is tracked: the owner's (Xlib's) claims, straight from the owner's
 * side: the slot's reply, "finished with nothing", or xw__lend_wait (which
 * takes from the stash and waits). Xlib claims each request twice
 * (again once it has taken it), and the second finds nothing: that answer is a
 * leaf here (every other way a tail call), so it saves no registers. The lent
 * socket is the own one, so the sequence widens as xw__claim_widen does (inline here). */
static __attribute__((noinline)) int take_heap_owner(xw_connection_t *c, uint64_t request, int64_t deadline,
                                                     void **reply, xw_generic_error_t **e)
{
    struct xw_lend *l = &c->lend;
    uint64_t seq = request >> 32 ? request : xw__widen_below(c->out.seq, (uint32_t)request);
    if (XW_UNLIKELY(l->stash.head != NULL)) /* a big reply, an error, a pipeline */
        return owner_wait(c, seq, deadline, reply, e);
    if (l->last.full && l->last.seq == seq)
        return slot_to_heap(c, reply);
    if (!seq || seq > xw__route_done_seq(&c->in))
        return owner_wait(c, seq, deadline, reply, e);
    *reply = NULL;
    if (XW_UNLIKELY(!c->single && !xw__lock_drop(&c->mu)))
        return (int)xw__lock_wake_ret(&c->mu, 1);
    return 1;
}

/* One lock hold: the inline claim of a 32-byte reply, else the general wait. */
static int take_heap(xw_connection_t *c, uint64_t request, int timeout_ms, void **reply, xw_generic_error_t **e)
{
    uint8_t small[32];
    xw__conn_lock(c);
    if (!xw__pend_take_inline(&c->in.pend, c->out.seq, request, small)) {
        int64_t deadline = timeout_ms < 0 ? -1 : timeout_ms == 0 ? 0 : xw__clock_deadline(timeout_ms);
        if (XW_UNLIKELY(c->lend.used) && !c->in.pend.n)
            return take_heap_owner(c, request, deadline, reply, e);
        return take_heap_locked(c, request, deadline, reply, e);
    }
    xw__conn_unlock(c);
    return small_to_heap(small, reply); /* outside the lock */
}

XW_EXPORT void *xw_wait_for_reply64(xw_connection_t *c, uint64_t request, xw_generic_error_t **e)
{
    void *r;
    if (e)
        *e = NULL;
    take_heap(c, request, -1, &r, e);
    return r;
}

XW_EXPORT void *xw_wait_for_reply(xw_connection_t *c, unsigned int request, xw_generic_error_t **e)
{
    return xw_wait_for_reply64(c, request, e);
}

XW_EXPORT int xw_wait_for_reply64_timeout(xw_connection_t *c, uint64_t request, int timeout_ms, void **reply,
                                          xw_generic_error_t **error)
{
    if (error)
        *error = NULL;
    return take_heap(c, request, timeout_ms, reply, error);
}

/* libxcb: 1 when finished (reply, error or neither), 0 when not yet; after a
 * connection error 1 with nothing, so callers do not spin. */
XW_EXPORT int xw_poll_for_reply64(xw_connection_t *c, uint64_t request, void **reply, xw_generic_error_t **error)
{
    return xw_wait_for_reply64_timeout(c, request, 0, reply, error) != 0;
}

XW_EXPORT int xw_poll_for_reply(xw_connection_t *c, unsigned int request, void **reply, xw_generic_error_t **error)
{
    return xw_poll_for_reply64(c, request, reply, error);
}

/* A reply fits when cap holds its bytes and fds; the slack's zero bytes that
 * libxcb-layout accessors may read past it are copied only as far as cap allows. */
static int copy_out(xw_connection_t *c, struct xw_pkt *p, void *buf, size_t cap, size_t *len, xw_generic_error_t *error)
{
    int kind = p->kind;
    size_t n = p->len + p->nfds * sizeof(int);
    if (kind == XW_PKT_REPLY) {
        size_t slack = cap - n < XW_REPLY_SLACK_AFTER(p->len) ? cap - n : XW_REPLY_SLACK_AFTER(p->len);
        memcpy(buf, XW_PKT_DATA(p), n + slack);
        *len = n;
    } else if (error) {
        memcpy(error, XW_PKT_DATA(p), sizeof(*error));
    }
    xw__store_free(c, p);
    return kind == XW_PKT_REPLY ? 1 : 2;
}

/* xw_wait_for_reply_into past its fast path, the lock held; releases it. */
static __attribute__((noinline)) int into_locked(xw_connection_t *c, uint64_t request, void *buf, size_t cap,
                                                 size_t *len, xw_generic_error_t *error, int timeout_ms)
{
    struct xw_pkt *p;
    size_t need = 0;
    int64_t deadline = timeout_ms == 0 ? 0 : xw__clock_deadline(timeout_ms);
    int r = xw__transport_reply_fit(c, widen_any(c, request), deadline, cap, &need, &p, buf);
    if (r == 2) { /* a 32-byte reply, already in buf */
        *len = 32;
        r = 1;
    } else if (r == 3) { /* received straight into buf while we waited */
        *len = need;
        r = 1;
    } else if (r == 1)
        r = p ? copy_out(c, p, buf, cap, len, error) : 0;
    else if (r == 0)
        r = -ETIMEDOUT;
    else if (r == -ENOSPC)
        *len = need;
    xw__conn_unlock(c);
    return r;
}

/* xw_wait_for_reply_into when the lock is not free at once, or when its fast path
 * declined without taking it. */
static __attribute__((noinline)) int into_contended(xw_connection_t *c, uint64_t request, void *buf, size_t cap,
                                                    size_t *len, xw_generic_error_t *error, int timeout_ms)
{
    xw__conn_lock(c);
    return into_locked(c, request, buf, cap, len, error, timeout_ms);
}

/* xw_wait_for_reply_into where other threads may be in the connection: its fast
 * path under the lock, out of line so that the lock-free one needs fewer registers. */
static __attribute__((noinline)) int into_threaded(xw_connection_t *c, uint64_t request, void *buf, size_t cap,
                                                   size_t *len, xw_generic_error_t *error, int timeout_ms)
{
    if (XW_UNLIKELY(!xw__lock_try(&c->mu)))
        return into_contended(c, request, buf, cap, len, error, timeout_ms);
    if (XW_UNLIKELY(cap < 32 || !xw__pend_take_inline(&c->in.pend, c->out.seq, request, buf)))
        return into_locked(c, request, buf, cap, len, error, timeout_ms);
    *len = 32;
    if (XW_UNLIKELY(!xw__lock_drop(&c->mu)))
        return (int)xw__lock_wake_ret(&c->mu, 1);
    return 1;
}

/* The fast path, a 32-byte reply already in its pending entry, is a leaf: every
 * call is a tail call, so it saves few registers. While no other thread can be in
 * the connection (its single-threaded mode, or a process with one thread) it takes
 * no lock (as xw__send's): the general path takes it when the fast path declines. */
XW_EXPORT int xw_wait_for_reply_into(xw_connection_t *c, uint64_t request, void *buf, size_t cap, size_t *len,
                                     xw_generic_error_t *error, int timeout_ms)
{
    if (XW_UNLIKELY(!c->single && !XW_PROCESS_SINGLE_THREADED()))
        return into_threaded(c, request, buf, cap, len, error, timeout_ms);
    if (XW_UNLIKELY(cap < 32 || !xw__pend_take_inline(&c->in.pend, c->out.seq, request, buf)))
        return into_contended(c, request, buf, cap, len, error, timeout_ms);
    *len = 32;
    return 1;
}

XW_EXPORT xw_generic_error_t *xw_request_check(xw_connection_t *c, xw_void_cookie_t cookie)
{
    struct xw_pkt *p;
    xw_generic_error_t *e = NULL;
    xw__conn_lock(c);
    xw__transport_check(c, xw__transport_widen(c, cookie.sequence), &p);
    deliver(c, p, &e);
    xw__conn_unlock(c);
    return e;
}

XW_EXPORT void xw_discard_reply64(xw_connection_t *c, uint64_t sequence)
{
    xw__conn_lock(c);
    xw__transport_discard(c, widen_any(c, sequence), 0);
    xw__conn_unlock(c);
}

XW_EXPORT void xw_discard_reply(xw_connection_t *c, unsigned int sequence)
{
    xw_discard_reply64(c, sequence);
}

XW_EXPORT void xw_discard_reply_keep_error64(xw_connection_t *c, uint64_t sequence)
{
    xw__conn_lock(c);
    xw__transport_discard(c, widen_any(c, sequence), 1);
    xw__conn_unlock(c);
}

/* The fds follow the reply's bytes in the block xw_wait_for_reply returned. */
XW_EXPORT int *xw_get_reply_fds(xw_connection_t *c, void *reply, size_t replylen)
{
    (void)c;
    return (int *)((char *)reply + replylen);
}
