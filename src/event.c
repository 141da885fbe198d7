/* event.c — the public event API: the event queue, special XGE queues, caller-storage forms. */
#include "xwint.h"

#include <stdlib.h>

static xw_generic_event_t *heap_copy(xw_connection_t *c, struct xw_pkt *p)
{
    if (!p)
        return NULL;
    xw_generic_event_t *e = malloc(p->len);
    if (e)
        memcpy(e, XW_PKT_DATA(p), p->len);
    xw__pkt_free(c, p);
    return e;
}

/* deadline: -1 forever, 0 one non-blocking read; reading 0: queued only. */
static xw_generic_event_t *take(xw_connection_t *c, struct xw_queue *q, int64_t deadline, int reading)
{
    xw__lock(c);
    struct xw_pkt *p = NULL;
    if (xw__queue_wait(c, q, deadline, reading) == 1)
        p = xw__queue_pop(q);
    xw_generic_event_t *e = heap_copy(c, p);
    xw__unlock(c);
    return e;
}

XW_EXPORT xw_generic_event_t *xw_wait_for_event(xw_connection_t *c)
{
    return take(c, &c->in.events, -1, 1);
}

XW_EXPORT xw_generic_event_t *xw_poll_for_event(xw_connection_t *c)
{
    return take(c, &c->in.events, 0, 1);
}

XW_EXPORT xw_generic_event_t *xw_poll_for_queued_event(xw_connection_t *c)
{
    return take(c, &c->in.events, 0, 0);
}

XW_EXPORT xw_generic_event_t *xw_wait_for_event_timeout(xw_connection_t *c, int timeout_ms)
{
    return take(c, &c->in.events, timeout_ms == 0 ? 0 : xw__deadline(timeout_ms), 1);
}

static int take_into(xw_connection_t *c, void *buf, size_t cap, size_t *len, int64_t deadline, int reading)
{
    xw__lock(c);
    struct xw_queue *q = &c->in.events;
    int r = xw__queue_wait(c, q, deadline, reading);
    if (r == 1 && q->head->len > cap) {
        *len = q->head->len;
        r = -ENOSPC;
    } else if (r == 1) {
        struct xw_pkt *p = xw__queue_pop(q);
        memcpy(buf, XW_PKT_DATA(p), p->len);
        *len = p->len;
        xw__pkt_free(c, p);
    }
    xw__unlock(c);
    return r;
}

XW_EXPORT int xw_wait_for_event_into(xw_connection_t *c, void *buf, size_t cap, size_t *len, int timeout_ms)
{
    return take_into(c, buf, cap, len, timeout_ms == 0 ? 0 : xw__deadline(timeout_ms), 1);
}

XW_EXPORT int xw_poll_for_queued_event_into(xw_connection_t *c, void *buf, size_t cap, size_t *len)
{
    return take_into(c, buf, cap, len, 0, 0);
}

/* ---- special XGE queues (Present and friends) ---- */

XW_EXPORT xw_special_event_t *xw_register_for_special_xge(xw_connection_t *c, xw_extension_t *ext, uint32_t eid,
                                                          uint32_t *stamp)
{
    uint8_t major;
    xw__lock(c);
    struct xw_special_event *se = NULL;
    if (xw__ext_major(c, ext, &major) == 0 && (se = calloc(1, sizeof(*se)))) {
        se->major = major;
        se->eid = eid;
        se->stamp = stamp;
        se->next = c->in.special;
        c->in.special = se;
    }
    xw__unlock(c);
    return se;
}

XW_EXPORT void xw_unregister_for_special_event(xw_connection_t *c, xw_special_event_t *se)
{
    if (!se)
        return;
    xw__lock(c);
    for (struct xw_special_event **pp = &c->in.special; *pp; pp = &(*pp)->next) {
        if (*pp == se) {
            *pp = se->next;
            break;
        }
    }
    xw__queue_free(c, &se->q);
    xw__unlock(c);
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
