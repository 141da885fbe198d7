/* SPDX-License-Identifier: MIT */
/* query.c — QueryExtension and BIG-REQUESTS: each asked once per connection, under the lock, and the answer kept. */
#include "query.h"
#include "conn.h"
#include "ext.h"
#include "fail.h"
#include "out.h"
#include "send.h"
#include "store.h"
#include "transport.h"

/* Lock held. One of this file's checked requests (well formed, built here, so of
 * send.c's vetting only the length limit applies) to out.c: BIG-REQUESTS framing
 * when it is longer than the core limit, which may ask for BIG-REQUESTS first
 * (releasing the lock for that round trip). The sequence number, or 0 with the
 * reason recorded for xw_request_error_string. */
static uint64_t place(xw_connection_t *c, struct iovec *v, const struct xw_request *rq, size_t total, uint8_t major)
{
    int big = 0;
    if (!c->error && total / 4 > c->out.max_words) {
        uint32_t maxw = 0;
        xw__query_bigreq_max(c, &maxw);
        if (!c->error && total / 4 + 1 > maxw)
            return xw__fail_request(c, "request of %zu bytes is longer than the server's limit of %llu bytes", total,
                                    (unsigned long long)(maxw > c->out.max_words ? maxw : c->out.max_words) * 4);
        big = 1;
    }
    if (c->error)
        return xw__fail_reject(c, 0, NULL, c->errstr);
    return xw__out_place(c, XW_REQUEST_CHECKED, v, rq, total, 0, NULL, major, big);
}

/* Lock held. QueryExtension (under the lock, so not through the generated sender,
 * which takes it), checked so an error comes back to us. */
static void query_send(xw_connection_t *c, struct xw_ext_entry *e)
{
    static const struct xw_request req = {.f = {.count = 3, .opcode = XW_QUERY_EXTENSION}};
    size_t n = strlen(e->name);
    if (n > 65535 - sizeof(xw_query_extension_request_t)) {
        e->state = XW_EXT_FAILED;
        return;
    }
    xw_query_extension_request_t r = {.name_len = (uint16_t)n};
    struct iovec iov[5] = {{0}, {0}, {&r, sizeof(r)}, {e->name, n}, {NULL, -n & 3}};
    if (!n)
        iov[3].iov_base = &r; /* zero length: any non-NULL base */
    size_t total = sizeof(r) + n + iov[4].iov_len;
    e->seq = place(c, iov + 2, &req, total, XW_QUERY_EXTENSION);
    e->state = e->seq ? XW_EXT_ASKED : XW_EXT_FAILED;
}

/* Lock held. Whoever pops the reply stores it at once, so a thread that finds
 * nothing to pop sees the other's result in state. */
static void query_finish(xw_connection_t *c, struct xw_ext_entry *e)
{
    struct xw_pkt *p;
    xw__transport_reply(c, e->seq, -1, &p);
    if (p) {
        int ok = p->kind == XW_PKT_REPLY && p->len >= sizeof(e->reply); /* every reply has 32 */
        if (ok)
            memcpy(e->reply, XW_PKT_DATA(p), sizeof(e->reply));
        e->state = ok ? XW_EXT_PRESENT : XW_EXT_FAILED;
        xw__store_free(c, p);
    } else if (e->state == XW_EXT_ASKED) {
        e->state = XW_EXT_FAILED;
    }
}

static struct xw_ext_entry *entry_ready(xw_connection_t *c, xw_extension_t *ext)
{
    struct xw_ext_entry *e = xw__ext_entry_get(c, ext);
    if (!e)
        return NULL;
    if (e->state == XW_EXT_UNASKED && !c->error)
        query_send(c, e);
    if (e->state == XW_EXT_ASKED)
        query_finish(c, e);
    return e;
}

int xw__query_ext_major(xw_connection_t *c, xw_extension_t *ext, uint8_t *major)
{
    struct xw_ext_entry *e = entry_ready(c, ext);
    if (!e || e->state != XW_EXT_PRESENT || !xw__ext_reply(e)->present)
        return -ENOTSUP;
    *major = xw__ext_reply(e)->major_opcode;
    if (e->desc && e->desc->key == ext) { /* a generated key: static, so its address is its name */
        struct xw_ext_fast *f = &c->ext_fast[XW_EXT_FAST_SLOT(ext)];
        f->ext = ext;
        f->major = *major;
    }
    return 0;
}

/* Lock held. BigReqEnable, under the lock like QueryExtension. */
static void bigreq_send(xw_connection_t *c)
{
    uint8_t major;
    /* "unavailable" while asking: the queries below must not ask again (they are
     * small, but a server may announce an absurdly small limit) */
    c->out.bigreq = XW_BIGREQ_UNAVAILABLE;
    if (xw__query_ext_major(c, &xw_big_requests_id, &major) < 0)
        return;
    static const struct xw_request req = {
        .f = {.count = 1, .ext = &xw_big_requests_id, .opcode = XW_BIG_REQUESTS_ENABLE}};
    xw_big_requests_enable_request_t r = {0};
    struct iovec iov[3] = {{0}, {0}, {&r, sizeof(r)}};
    c->out.bigreq_seq = place(c, iov + 2, &req, sizeof(r), major);
    if (c->out.bigreq_seq)
        c->out.bigreq = XW_BIGREQ_UNTRIED;
}

int xw__query_bigreq_max(xw_connection_t *c, uint32_t *max_words)
{
    struct xw_out *o = &c->out;
    if (o->bigreq == XW_BIGREQ_UNTRIED && !o->bigreq_seq)
        bigreq_send(c);
    if (o->bigreq == XW_BIGREQ_UNTRIED && o->bigreq_seq) {
        struct xw_pkt *p;
        xw__transport_reply(c, o->bigreq_seq, -1, &p);
        if (p && p->kind == XW_PKT_REPLY && p->len >= sizeof(xw_big_requests_enable_reply_t)) {
            xw_big_requests_enable_reply_t r;
            memcpy(&r, XW_PKT_DATA(p), sizeof(r));
            o->big_words = r.maximum_request_length;
            o->bigreq = XW_BIGREQ_ENABLED;
        } else if (o->bigreq == XW_BIGREQ_UNTRIED) {
            o->bigreq = XW_BIGREQ_UNAVAILABLE;
        }
        if (p)
            xw__store_free(c, p);
    }
    *max_words = o->bigreq == XW_BIGREQ_ENABLED && o->big_words > o->max_words ? o->big_words : o->max_words;
    return c->error ? -EPIPE : 0;
}

XW_EXPORT const struct xw_query_extension_reply_t *xw_get_extension_data(xw_connection_t *c, xw_extension_t *ext)
{
    xw__conn_lock(c);
    struct xw_ext_entry *e = c->error ? NULL : entry_ready(c, ext);
    const void *r = e && e->state == XW_EXT_PRESENT ? e->reply : NULL;
    xw__conn_unlock(c);
    return r;
}

XW_EXPORT void xw_prefetch_extension_data(xw_connection_t *c, xw_extension_t *ext)
{
    xw__conn_lock(c);
    struct xw_ext_entry *e = c->error ? NULL : xw__ext_entry_get(c, ext);
    if (e && e->state == XW_EXT_UNASKED)
        query_send(c, e);
    xw__conn_unlock(c);
}

XW_EXPORT uint32_t xw_get_maximum_request_length(xw_connection_t *c)
{
    uint32_t m = 0;
    xw__conn_lock(c);
    if (!c->error)
        xw__query_bigreq_max(c, &m);
    xw__conn_unlock(c);
    return c->error ? 0 : m;
}

/* Asks for BIG-REQUESTS without waiting: the query now, the enable as soon as the
 * extension's opcode is known without a round trip. */
XW_EXPORT void xw_prefetch_maximum_request_length(xw_connection_t *c)
{
    xw__conn_lock(c);
    struct xw_ext_entry *e =
        c->error || c->out.bigreq != XW_BIGREQ_UNTRIED ? NULL : xw__ext_entry_get(c, &xw_big_requests_id);
    if (e && e->state == XW_EXT_UNASKED)
        query_send(c, e);
    else if (e && e->state == XW_EXT_PRESENT && !c->out.bigreq_seq)
        bigreq_send(c);
    xw__conn_unlock(c);
}
