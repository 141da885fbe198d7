/* ext.c — extension data (QueryExtension by hand, cached per connection) and BIG-REQUESTS. */
#include "xwint.h"

#include <stdlib.h>

static xw_extension_t bigreq_ext = {"BIG-REQUESTS", 0, NULL};

/* Entries match by pointer or by name, so a hand-written xw_extension_t and the
 * generated one share one query. */
static struct xw_ext_entry *entry_find(xw_connection_t *c, xw_extension_t *ext)
{
    for (struct xw_ext_entry *e = c->exts; e; e = e->next)
        if (e->ext == ext || (e->ext->name && ext->name && !strcmp(e->ext->name, ext->name)))
            return e;
    return NULL;
}

static struct xw_ext_entry *entry_get(xw_connection_t *c, xw_extension_t *ext)
{
    struct xw_ext_entry *e = entry_find(c, ext);
    if (e || !(e = calloc(1, sizeof(*e))))
        return e;
    e->ext = ext;
    e->next = c->exts;
    c->exts = e;
    return e;
}

/* Lock held. QueryExtension: opcode 98, 8-byte header with the name length at
 * offset 4, then the name padded to 4. Checked, so an error comes back to us. */
static void query_send(xw_connection_t *c, struct xw_ext_entry *e)
{
    static const xw_protocol_request_t req = {.count = 3, .opcode = XW_OP_QUERY_EXTENSION};
    size_t n = e->ext->name ? strlen(e->ext->name) : 0;
    if (n > 65535 - 8) {
        e->state = 3;
        return;
    }
    uint8_t hdr[8] = {0};
    xw__wr16(hdr + 4, (uint16_t)n);
    struct iovec iov[5] = {{0}, {0}, {hdr, 8}, {(void *)e->ext->name, n}, {NULL, (4 - (n & 3)) & 3}};
    if (!n)
        iov[3].iov_base = hdr; /* zero length: any non-NULL base */
    size_t total = 8 + n + iov[4].iov_len;
    e->seq = xw__send_locked(c, XW_REQUEST_CHECKED, iov + 2, &req, total, 0, NULL);
    e->state = e->seq ? 1 : 3;
}

/* Lock held. Whoever pops the reply stores it at once, so a thread that finds
 * nothing to pop sees the other's result in state. */
static void query_finish(xw_connection_t *c, struct xw_ext_entry *e)
{
    struct xw_pkt *p;
    xw__reply_take(c, e->seq, -1, &p);
    if (p) {
        int ok = p->kind == XW_PKT_REPLY && p->len >= 32 && XW_PKT_DATA(p)[0] == 1;
        if (ok)
            memcpy(e->reply, XW_PKT_DATA(p), 32);
        e->state = ok ? 2 : 3;
        xw__pkt_free(c, p);
    } else if (e->state == 1) {
        e->state = 3;
    }
}

static struct xw_ext_entry *entry_ready(xw_connection_t *c, xw_extension_t *ext)
{
    struct xw_ext_entry *e = entry_get(c, ext);
    if (!e)
        return NULL;
    if (e->state == 0 && !c->error)
        query_send(c, e);
    if (e->state == 1)
        query_finish(c, e);
    return e;
}

int xw__ext_major(xw_connection_t *c, xw_extension_t *ext, uint8_t *major)
{
    struct xw_ext_entry *e = entry_ready(c, ext);
    if (!e || e->state != 2 || !e->reply[8])
        return -ENOTSUP;
    *major = e->reply[9];
    struct xw_ext_fast *f = &c->ext_fast[((uintptr_t)ext >> 4) & 15];
    f->ext = ext;
    f->major = *major;
    return 0;
}

struct xw_ext_entry *xw__ext_by_major(xw_connection_t *c, uint8_t major)
{
    for (struct xw_ext_entry *e = c->exts; e; e = e->next)
        if (e->state == 2 && e->reply[8] && e->reply[9] == major)
            return e;
    return NULL;
}

/* The present extension with the highest first_error not above code. */
struct xw_ext_entry *xw__ext_by_error(xw_connection_t *c, uint8_t code)
{
    struct xw_ext_entry *best = NULL;
    for (struct xw_ext_entry *e = c->exts; e; e = e->next)
        if (e->state == 2 && e->reply[8] && e->reply[11] && e->reply[11] <= code &&
            (!best || e->reply[11] > best->reply[11]))
            best = e;
    return best;
}

/* Lock held. BigReqEnable: 4-byte request, reply carries the limit at offset 8. */
static void bigreq_send(xw_connection_t *c)
{
    uint8_t major;
    /* "unavailable" while asking: the queries below must not ask again (they are
     * small, but a server may announce an absurdly small limit) */
    c->out.bigreq = -1;
    if (xw__ext_major(c, &bigreq_ext, &major) < 0)
        return;
    static const xw_protocol_request_t req = {.count = 1, .ext = &bigreq_ext, .opcode = 0};
    uint8_t b[4] = {0};
    struct iovec iov[3] = {{0}, {0}, {b, 4}};
    c->out.bigreq_seq = xw__send_locked(c, XW_REQUEST_CHECKED, iov + 2, &req, 4, 0, NULL);
    if (c->out.bigreq_seq)
        c->out.bigreq = 0;
}

int xw__bigreq_max(xw_connection_t *c, uint32_t *max_words)
{
    struct xw_out *o = &c->out;
    if (o->bigreq == 0 && !o->bigreq_seq)
        bigreq_send(c);
    if (o->bigreq == 0 && o->bigreq_seq) {
        struct xw_pkt *p;
        xw__reply_take(c, o->bigreq_seq, -1, &p);
        if (p && p->kind == XW_PKT_REPLY && p->len >= 12) {
            o->big_words = xw__rd32(XW_PKT_DATA(p) + 8);
            o->bigreq = 1;
        } else if (o->bigreq == 0) {
            o->bigreq = -1;
        }
        if (p)
            xw__pkt_free(c, p);
    }
    *max_words = o->bigreq == 1 && o->big_words > o->max_words ? o->big_words : o->max_words;
    return c->error ? -EPIPE : 0;
}

XW_EXPORT const struct xw_query_extension_reply_t *xw_get_extension_data(xw_connection_t *c, xw_extension_t *ext)
{
    xw__lock(c);
    struct xw_ext_entry *e = c->error ? NULL : entry_ready(c, ext);
    const void *r = e && e->state == 2 ? e->reply : NULL;
    xw__unlock(c);
    return r;
}

XW_EXPORT void xw_prefetch_extension_data(xw_connection_t *c, xw_extension_t *ext)
{
    xw__lock(c);
    struct xw_ext_entry *e = c->error ? NULL : entry_get(c, ext);
    if (e && e->state == 0)
        query_send(c, e);
    xw__unlock(c);
}

XW_EXPORT uint32_t xw_get_maximum_request_length(xw_connection_t *c)
{
    uint32_t m = 0;
    xw__lock(c);
    if (!c->error)
        xw__bigreq_max(c, &m);
    xw__unlock(c);
    return c->error ? 0 : m;
}

/* Asks for BIG-REQUESTS without waiting: the query now, the enable as soon as the
 * extension's opcode is known without a round trip. */
XW_EXPORT void xw_prefetch_maximum_request_length(xw_connection_t *c)
{
    xw__lock(c);
    struct xw_ext_entry *e = c->error || c->out.bigreq ? NULL : entry_get(c, &bigreq_ext);
    if (e && e->state == 0)
        query_send(c, e);
    else if (e && e->state == 2 && !c->out.bigreq_seq)
        bigreq_send(c);
    xw__unlock(c);
}

void xw__ext_fini(xw_connection_t *c)
{
    while (c->exts) {
        struct xw_ext_entry *e = c->exts;
        c->exts = e->next;
        free(e);
    }
}
