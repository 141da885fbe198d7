/* SPDX-License-Identifier: MIT */
/* event.c — the public event API: the event queue, special XGE queues, caller-storage forms. */
#include "base.h"
#include "clock.h"
#include "conn.h"
#include "lock.h"
#include "query.h"
#include "queue.h"
#include "route.h"
#include "store.h"
#include "transport.h"

#include <stdlib.h>

/* xw__store_free, inline for the event class (see XW_EVENT_CLASS). */
static inline void free_event(xw_connection_t *c, struct xw_pkt *p)
{
    if (XW_UNLIKELY(p->cls != XW_EVENT_CLASS)) {
        xw__store_free(c, p);
        return;
    }
    xw__store_event_put(&c->store, p);
}

/* A queued packet's bytes to dst: the 36 of nearly every event and error as fixed
 * moves, anything longer (XGE) with a call. */
static inline void event_copy(void *dst, const struct xw_pkt *p)
{
    if (XW_LIKELY(p->len == 36 && !p->ext))
        memcpy(dst, p + 1, 36);
    else
        memcpy(dst, XW_PKT_DATA(p), p->len);
}

/* Lock held. Batch b, the head of q, is empty: it leaves q, kept as the
 * connection's spare (one record for events that trickle in) or given back to
 * the store. */
static void batch_done(xw_connection_t *c, struct xw_queue *q, struct xw_pkt *b)
{
    xw__queue_pop(q);
    xw__route_view_arm(&c->in);
    if (!c->in.spare)
        c->in.spare = b;
    else
        xw__store_free(c, b);
}

/* Lock held. Batch b, the head of q, has given its next event. */
static void batch_taken(xw_connection_t *c, struct xw_queue *q, struct xw_pkt *b)
{
    b->seq += 36;
    if (b->seq >= b->len)
        batch_done(c, q, b);
}

/* Lock held. The view has given its last event: it leaves the head of the event
 * queue, free for the next run, and the cursor is disarmed. Returns 1 (an event
 * was taken). */
static __attribute__((noinline)) int view_spent(xw_connection_t *c)
{
    xw__queue_pop(&c->in.events);
    c->in.view_on = 0;
    c->in.vnext = c->in.vend = NULL;
    return 1;
}

/* Lock held (or not needed, lock_free). The armed view's next event to dst in
 * libxcb's layout: its 32 bytes and its full_sequence, the view's high half and
 * the event's own low one; *len 36. Returns 1. */
static inline int view_take(xw_connection_t *c, void *dst, size_t *len)
{
    /* everything read before dst is written: the stores could alias it */
    const uint8_t *p = c->in.vnext, *end = c->in.vend;
    uint32_t seq = c->in.view_high | xw__rd16(p + 2);
    /* No software prefetch: the claims walk the run in order, which the hardware
     * prefetcher follows; one eight events on cost 0.2 ns an event (3.2 -> 3.4 ns
     * on the drain server, alternating builds) once the scan was one compare. */
    c->in.vnext = p + 32;
    memcpy(dst, p, 32);
    xw__wr32((uint8_t *)dst + 32, seq);
    *len = 36;
    if (XW_UNLIKELY(p + 32 >= end))
        return view_spent(c);
    return 1;
}

/* The next event is the armed view's. */
static inline int view_ready(const xw_connection_t *c)
{
    return c->in.vnext < c->in.vend;
}

/* Lock held. The first event of q (not empty) to the heap: out of the view or a
 * batch, or its own record. Without memory the event stays queued (NULL), so a
 * later claim still gets it: the stream keeps no hole. */
static xw_generic_event_t *pop_heap(xw_connection_t *c, struct xw_queue *q)
{
    struct xw_pkt *b = q->head;
    size_t len = b->kind >= XW_PKT_BATCH ? 36 : b->len;
    xw_generic_event_t *e = malloc(len);
    if (!e)
        return NULL;
    if (b->kind == XW_PKT_VIEW) {
        view_take(c, e, &len);
        return e;
    }
    if (b->kind == XW_PKT_BATCH) {
        memcpy(e, (uint8_t *)(b + 1) + b->seq, 36);
        batch_taken(c, q, b);
        return e;
    }
    xw__queue_pop(q);
    xw__route_view_arm(&c->in);
    event_copy(e, b);
    free_event(c, b);
    return e;
}

/* Lock held. The next packet of q, waiting for one when q is empty: timeout_ms
 * as xw_wait_for_event_timeout's (-1 forever, 0 one non-blocking read); reading 0:
 * queued only. A queued packet is taken at once: nothing to flush, no clock read. */
static struct xw_pkt *next(xw_connection_t *c, struct xw_queue *q, int timeout_ms, int reading, int *r)
{
    if (XW_LIKELY(q->head != NULL)) {
        *r = 1;
        return q->head;
    }
    *r = xw__transport_wait(c, q, timeout_ms == 0 ? 0 : xw__clock_deadline(timeout_ms), reading);
    return *r == 1 ? q->head : NULL;
}

static xw_generic_event_t *take(xw_connection_t *c, struct xw_queue *q, int timeout_ms, int reading)
{
    int r;
    xw__conn_lock(c);
    xw_generic_event_t *e = next(c, q, timeout_ms, reading, &r) ? pop_heap(c, q) : NULL;
    xw__conn_unlock(c);
    return e;
}

/* Where no other thread can run (the process has one, or the caller said the
 * connection has one), the lock guards nothing and is not touched on the way that
 * takes a queued core event: one flag test, the copy and the cursor. */
static inline int lock_free(const xw_connection_t *c)
{
    return XW_PROCESS_SINGLE_THREADED() || c->single;
}

/* The armed view's next event to e, a block of 36 bytes; returns e. Out of line,
 * so that its caller keeps only c across malloc (the cursor is loaded after it),
 * and jumps here. */
static __attribute__((noinline)) xw_generic_event_t *view_to(xw_connection_t *c, xw_generic_event_t *e)
{
    size_t len;
    view_take(c, e, &len);
    return e;
}

/* xw_wait_for_event past the armed view: a batch's event where the lock is not
 * needed, else the locked claim. */
static __attribute__((noinline)) xw_generic_event_t *wait_other(xw_connection_t *c)
{
    struct xw_pkt *b;
    if (!lock_free(c) || !(b = c->in.events.head) || b->kind != XW_PKT_BATCH)
        return take(c, &c->in.events, -1, 1);
    xw_generic_event_t *e = malloc(36);
    if (XW_UNLIKELY(e == NULL)) /* the event stays queued for the next claim */
        return NULL;
    memcpy(e, (uint8_t *)(b + 1) + b->seq, 36);
    batch_taken(c, &c->in.events, b);
    return e;
}

/* The armed view's next event to a malloc'd block, the claim's whole work where
 * the lock is not needed. */
static inline xw_generic_event_t *view_to_heap(xw_connection_t *c)
{
    xw_generic_event_t *e = malloc(36);
    if (XW_UNLIKELY(e == NULL)) /* the event stays queued for the next claim */
        return NULL;
    return view_to(c, e);
}

/* A stream's reader calls this once per event: where the lock is not needed and
 * the armed view holds the next event, its 36 bytes go to one malloc of their
 * size with nothing else around it but the cursor's move. */
XW_EXPORT xw_generic_event_t *xw_wait_for_event(xw_connection_t *c)
{
    if (XW_UNLIKELY(!lock_free(c) || !view_ready(c)))
        return wait_other(c); /* out of line: this path saves no registers for it */
    return view_to_heap(c);
}

/* The head of the event queue, which has one, to the heap; the lock held, released
 * here. */
static __attribute__((noinline)) xw_generic_event_t *pop_to_heap(xw_connection_t *c)
{
    xw_generic_event_t *e = pop_heap(c, &c->in.events);
    xw__conn_unlock(c);
    return e;
}

/* xw_poll_for_event on an empty queue, the lock held (released here): the transport
 * looks once for new events (on the own socket one non-blocking read, without the
 * general wait). */
static __attribute__((noinline)) xw_generic_event_t *poll_empty(xw_connection_t *c)
{
    struct xw_queue *q = &c->in.events;
    xw__transport_poll(c, q);
    if (q->head)
        return pop_to_heap(c);
    xw__conn_unlock(c);
    return NULL;
}

/* xw_poll_for_event when the lock is not free at once. */
static __attribute__((noinline)) xw_generic_event_t *poll_contended(xw_connection_t *c)
{
    xw__conn_lock(c);
    return c->in.events.head ? pop_to_heap(c) : poll_empty(c);
}

/* xw_poll_for_event's way when the armed view holds the next event and the lock
 * is not needed; out of line, so that xw_poll_for_event stays a leaf. */
static __attribute__((noinline)) xw_generic_event_t *poll_view(xw_connection_t *c)
{
    return view_to_heap(c);
}

/* Xlib calls this around every reply wait, nearly always for nothing. A leaf: every
 * way on is a tail call, so it saves no registers (GCC saves them on entry when the
 * copy to the heap is inline, even on the ways that do not need them), and a poll
 * that finds nothing pays only for its read. */
XW_EXPORT xw_generic_event_t *xw_poll_for_event(xw_connection_t *c)
{
    if (lock_free(c) && view_ready(c))
        return poll_view(c);
    if (XW_UNLIKELY(!c->single && !xw__lock_try(&c->mu)))
        return poll_contended(c);
    if (XW_UNLIKELY(!c->in.events.head))
        return poll_empty(c);
    return pop_to_heap(c);
}

XW_EXPORT xw_generic_event_t *xw_poll_for_queued_event(xw_connection_t *c)
{
    return take(c, &c->in.events, 0, 0);
}

XW_EXPORT xw_generic_event_t *xw_wait_for_event_timeout(xw_connection_t *c, int timeout_ms)
{
    return take(c, &c->in.events, timeout_ms, 1);
}

/* The caller's buffer gets the packet and the record goes back to the store; one
 * too big for cap stays queued (-ENOSPC, *len says what it needs). The lock held,
 * released here. */
static __attribute__((noinline)) int take_into_held(xw_connection_t *c, void *buf, size_t cap, size_t *len,
                                                    int timeout_ms, int reading)
{
    int r;
    struct xw_queue *q = &c->in.events;
    struct xw_pkt *p = next(c, q, timeout_ms, reading, &r);
    if (p && p->kind == XW_PKT_VIEW) {
        *len = 36;
        if (XW_UNLIKELY(cap < 36))
            r = -ENOSPC;
        else
            view_take(c, buf, len);
    } else if (p && p->kind == XW_PKT_BATCH) {
        *len = 36;
        if (XW_UNLIKELY(cap < 36)) {
            r = -ENOSPC;
        } else {
            memcpy(buf, (uint8_t *)(p + 1) + p->seq, 36);
            batch_taken(c, q, p);
        }
    } else if (p) {
        *len = p->len;
        if (XW_UNLIKELY(p->len > cap)) {
            r = -ENOSPC;
        } else {
            q->head = p->next; /* p is the head: popped without a call */
            if (!q->head)
                q->tail = NULL;
            xw__route_view_arm(&c->in);
            event_copy(buf, p);
            free_event(c, p);
        }
    }
    xw__conn_unlock(c);
    return r;
}

static __attribute__((noinline)) int take_into(xw_connection_t *c, void *buf, size_t cap, size_t *len, int timeout_ms,
                                               int reading)
{
    xw__conn_lock(c);
    return take_into_held(c, buf, cap, len, timeout_ms, reading);
}

/* The event just taken emptied batch b, the head of the event queue: batch_taken's
 * last step, then the lock released. */
static __attribute__((noinline)) int batch_emptied(xw_connection_t *c, struct xw_pkt *b)
{
    batch_done(c, &c->in.events, b);
    xw__conn_unlock(c);
    return 1;
}

/* As batch_emptied, where the lock is not taken (lock_free). */
static __attribute__((noinline)) int batch_spent(xw_connection_t *c, struct xw_pkt *b)
{
    batch_done(c, &c->in.events, b);
    return 1;
}

/* xw_wait_for_event_into where another thread may hold the lock: the queued core
 * event's path a leaf as well (the lock's halves never call), the rest in
 * take_into and take_into_held. */
static __attribute__((noinline)) int into_threaded(xw_connection_t *c, void *buf, size_t cap, size_t *len,
                                                   int timeout_ms)
{
    if (XW_UNLIKELY(!xw__lock_try(&c->mu)))
        return take_into(c, buf, cap, len, timeout_ms, 1);
    if (view_ready(c) && cap >= 36) {
        view_take(c, buf, len);
        if (!xw__lock_drop(&c->mu))
            return (int)xw__lock_wake_ret(&c->mu, 1);
        return 1;
    }
    struct xw_pkt *b = c->in.events.head;
    if (XW_UNLIKELY(!b || b->kind != XW_PKT_BATCH || cap < 36))
        return take_into_held(c, buf, cap, len, timeout_ms, 1);
    uint64_t at = b->seq, end = b->len; /* as in xw_wait_for_event_into */
    memcpy(buf, (uint8_t *)(b + 1) + at, 36);
    *len = 36;
    b->seq = at + 36;
    if (XW_UNLIKELY(at + 36 >= end))
        return batch_emptied(c, b);
    if (!xw__lock_drop(&c->mu))
        return (int)xw__lock_wake_ret(&c->mu, 1);
    return 1;
}

/* xw_wait_for_event_into past the armed view: a batch's event where the lock is
 * not needed, else the threaded or the locked claim. */
static __attribute__((noinline)) int into_other(xw_connection_t *c, void *buf, size_t cap, size_t *len, int timeout_ms)
{
    if (XW_UNLIKELY(!lock_free(c)))
        return into_threaded(c, buf, cap, len, timeout_ms);
    struct xw_pkt *b = c->in.events.head;
    if (XW_UNLIKELY(!b || b->kind != XW_PKT_BATCH || cap < 36))
        return take_into(c, buf, cap, len, timeout_ms, 1);
    /* the cursor and the end in locals: the stores to buf and len could alias them */
    uint64_t at = b->seq, end = b->len;
    memcpy(buf, (uint8_t *)(b + 1) + at, 36);
    *len = 36;
    b->seq = at + 36;
    if (XW_UNLIKELY(at + 36 >= end))
        return batch_spent(c, b);
    return 1;
}

/* A stream's reader calls this once per event. Where the lock is not needed and
 * the armed view holds the next event, a leaf: three tests, the copy and the
 * cursor. Every other way is a tail call, so it saves no registers. */
XW_EXPORT int xw_wait_for_event_into(xw_connection_t *c, void *buf, size_t cap, size_t *len, int timeout_ms)
{
    if (XW_LIKELY(lock_free(c) && view_ready(c) && cap >= 36))
        return view_take(c, buf, len);
    return into_other(c, buf, cap, len, timeout_ms);
}

XW_EXPORT int xw_poll_for_queued_event_into(xw_connection_t *c, void *buf, size_t cap, size_t *len)
{
    if (XW_LIKELY(lock_free(c) && view_ready(c) && cap >= 36))
        return view_take(c, buf, len);
    return take_into(c, buf, cap, len, 0, 0);
}

/* ---- special XGE queues (Present and friends) ---- */

XW_EXPORT xw_special_event_t *xw_register_for_special_xge(xw_connection_t *c, xw_extension_t *ext, uint32_t eid,
                                                          uint32_t *stamp)
{
    uint8_t major;
    xw__conn_lock(c);
    struct xw_special_event *se = NULL;
    if (xw__query_ext_major(c, ext, &major) == 0 && (se = calloc(1, sizeof(*se)))) {
        se->major = major;
        se->eid = eid;
        se->stamp = stamp;
        se->next = c->in.special;
        c->in.special = se;
    }
    xw__conn_unlock(c);
    return se;
}

XW_EXPORT void xw_unregister_for_special_event(xw_connection_t *c, xw_special_event_t *se)
{
    if (!se)
        return;
    xw__conn_lock(c);
    for (struct xw_special_event **pp = &c->in.special; *pp; pp = &(*pp)->next) {
        if (*pp == se) {
            *pp = se->next;
            break;
        }
    }
    xw__route_queue_free(c, &se->q);
    xw__conn_unlock(c);
    free(se);
}

XW_EXPORT xw_generic_event_t *xw_poll_for_special_event(xw_connection_t *c, xw_special_event_t *se)
{
    return se ? take(c, &se->q, 0, 1) : NULL;
}

XW_EXPORT xw_generic_event_t *xw_wait_for_special_event(xw_connection_t *c, xw_special_event_t *se)
{
    return se ? take(c, &se->q, -1, 1) : NULL;
}
