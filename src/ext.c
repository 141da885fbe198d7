/* ext.c — extensions by name: the registry of descriptions, QueryExtension cached per connection, BIG-REQUESTS. */
#include "xwint.h"

#include <stdlib.h>

/* The process-wide registry of descriptions, a list each generated description
 * pushes itself onto at load (a constructor; also from an extension library loaded
 * later, so the push is atomic). Nodes are static and never removed. */
static struct xw_ext_reg *registry;

void xw__ext_register(struct xw_ext_reg *r)
{
    struct xw_ext_reg *head = __atomic_load_n(&registry, __ATOMIC_ACQUIRE);
    do
        r->next = head;
    while (!__atomic_compare_exchange_n(&registry, &head, r, 1, __ATOMIC_RELEASE, __ATOMIC_ACQUIRE));
}

XW_EXPORT const xw_ext_desc_t *xw_ext_desc_find(const char *name)
{
    if (!name)
        return NULL;
    for (struct xw_ext_reg *r = __atomic_load_n(&registry, __ATOMIC_ACQUIRE); r; r = r->next)
        if (!strcmp(r->desc->xname, name))
            return r->desc;
    return NULL;
}

/* The generated description's facts for opcode, when there is one. */
static const struct xw_request *described(const xw_ext_desc_t *d, uint8_t opcode)
{
    return d && d->requests && opcode < d->n_requests ? d->requests[opcode] : NULL;
}

/* A request someone else built (hand-written code, code written for libxcb): its
 * reply's validator and multi-reply rule from the description of the extension of
 * that name (none for an extension xwire has no description of: then the reply is
 * taken as it comes, as libxcb does). */
void xw__request_lookup(const xw_protocol_request_t *req, struct xw_request *rq)
{
    const struct xw_request *d;
    if (!req->ext)
        d = described(&xw_xproto_desc, req->opcode);
    else
        d = described(xw_ext_desc_find(req->ext->name), req->opcode);
    /* through f, so the facts in pub's padding start at zero */
    *rq = (struct xw_request){
        .f = {.count = req->count, .ext = req->ext, .opcode = req->opcode, .isvoid = req->isvoid}};
    if (d && d->pub.isvoid == req->isvoid) {
        rq->validate = d->validate;
        rq->f.multi_reply = d->f.multi_reply;
        rq->f.multi_end = d->f.multi_end;
        rq->f.reply_gap = d->f.reply_gap;
    }
}

/* Entries match by name: a key is only the caller's way of naming the extension. */
static struct xw_ext_entry *entry_find(xw_connection_t *c, const char *name)
{
    for (struct xw_ext_entry *e = c->exts; e; e = e->next)
        if (!strcmp(e->name, name))
            return e;
    return NULL;
}

/* The reply an entry keeps once state is XW_EXT_PRESENT. */
static const xw_query_extension_reply_t *reply_of(const struct xw_ext_entry *e)
{
    return (const xw_query_extension_reply_t *)(const void *)e->reply;
}

/* NULL when out of memory, or for a key without a name. */
static struct xw_ext_entry *entry_get(xw_connection_t *c, const xw_extension_t *ext)
{
    if (!ext || !ext->name)
        return NULL;
    struct xw_ext_entry *e = entry_find(c, ext->name);
    size_t n = strlen(ext->name);
    if (e || !(e = calloc(1, sizeof(*e) + n + 1)))
        return e;
    memcpy(e->name, ext->name, n + 1);
    e->desc = xw_ext_desc_find(e->name);
    e->next = c->exts;
    c->exts = e;
    return e;
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
    e->seq = xw__send_locked(c, XW_REQUEST_CHECKED, iov + 2, &req, total, 0, NULL);
    e->state = e->seq ? XW_EXT_ASKED : XW_EXT_FAILED;
}

/* Lock held. Whoever pops the reply stores it at once, so a thread that finds
 * nothing to pop sees the other's result in state. */
static void query_finish(xw_connection_t *c, struct xw_ext_entry *e)
{
    struct xw_pkt *p;
    xw__reply_take(c, e->seq, -1, &p);
    if (p) {
        int ok = p->kind == XW_PKT_REPLY && p->len >= sizeof(e->reply);
        if (ok)
            memcpy(e->reply, XW_PKT_DATA(p), sizeof(e->reply));
        e->state = ok ? XW_EXT_PRESENT : XW_EXT_FAILED;
        xw__pkt_free(c, p);
    } else if (e->state == XW_EXT_ASKED) {
        e->state = XW_EXT_FAILED;
    }
}

static struct xw_ext_entry *entry_ready(xw_connection_t *c, xw_extension_t *ext)
{
    struct xw_ext_entry *e = entry_get(c, ext);
    if (!e)
        return NULL;
    if (e->state == XW_EXT_UNASKED && !c->error)
        query_send(c, e);
    if (e->state == XW_EXT_ASKED)
        query_finish(c, e);
    return e;
}

int xw__ext_major(xw_connection_t *c, xw_extension_t *ext, uint8_t *major)
{
    struct xw_ext_entry *e = entry_ready(c, ext);
    if (!e || e->state != XW_EXT_PRESENT || !reply_of(e)->present)
        return -ENOTSUP;
    *major = reply_of(e)->major_opcode;
    if (e->desc && e->desc->key == ext) { /* a generated key: static, so its address is its name */
        struct xw_ext_fast *f = &c->ext_fast[((uintptr_t)ext >> 4) & 15];
        f->ext = ext;
        f->major = *major;
    }
    return 0;
}

struct xw_ext_entry *xw__ext_by_major(xw_connection_t *c, uint8_t major)
{
    for (struct xw_ext_entry *e = c->exts; e; e = e->next)
        if (e->state == XW_EXT_PRESENT && reply_of(e)->present && reply_of(e)->major_opcode == major)
            return e;
    return NULL;
}

/* The present extension with the highest first_error not above code. */
struct xw_ext_entry *xw__ext_by_error(xw_connection_t *c, uint8_t code)
{
    struct xw_ext_entry *best = NULL;
    for (struct xw_ext_entry *e = c->exts; e; e = e->next) {
        const xw_query_extension_reply_t *r = reply_of(e);
        if (e->state == XW_EXT_PRESENT && r->present && r->first_error && r->first_error <= code &&
            (!best || r->first_error > reply_of(best)->first_error))
            best = e;
    }
    return best;
}

/* Lock held. BigReqEnable, under the lock like QueryExtension. */
static void bigreq_send(xw_connection_t *c)
{
    uint8_t major;
    /* "unavailable" while asking: the queries below must not ask again (they are
     * small, but a server may announce an absurdly small limit) */
    c->out.bigreq = XW_BIGREQ_UNAVAILABLE;
    if (xw__ext_major(c, &xw_big_requests_id, &major) < 0)
        return;
    static const struct xw_request req = {
        .f = {.count = 1, .ext = &xw_big_requests_id, .opcode = XW_BIG_REQUESTS_ENABLE}};
    xw_big_requests_enable_request_t r = {0};
    struct iovec iov[3] = {{0}, {0}, {&r, sizeof(r)}};
    c->out.bigreq_seq = xw__send_locked(c, XW_REQUEST_CHECKED, iov + 2, &req, sizeof(r), 0, NULL);
    if (c->out.bigreq_seq)
        c->out.bigreq = XW_BIGREQ_UNTRIED;
}

int xw__bigreq_max(xw_connection_t *c, uint32_t *max_words)
{
    struct xw_out *o = &c->out;
    if (o->bigreq == XW_BIGREQ_UNTRIED && !o->bigreq_seq)
        bigreq_send(c);
    if (o->bigreq == XW_BIGREQ_UNTRIED && o->bigreq_seq) {
        struct xw_pkt *p;
        xw__reply_take(c, o->bigreq_seq, -1, &p);
        if (p && p->kind == XW_PKT_REPLY && p->len >= sizeof(xw_big_requests_enable_reply_t)) {
            xw_big_requests_enable_reply_t r;
            memcpy(&r, XW_PKT_DATA(p), sizeof(r));
            o->big_words = r.maximum_request_length;
            o->bigreq = XW_BIGREQ_ENABLED;
        } else if (o->bigreq == XW_BIGREQ_UNTRIED) {
            o->bigreq = XW_BIGREQ_UNAVAILABLE;
        }
        if (p)
            xw__pkt_free(c, p);
    }
    *max_words = o->bigreq == XW_BIGREQ_ENABLED && o->big_words > o->max_words ? o->big_words : o->max_words;
    return c->error ? -EPIPE : 0;
}

XW_EXPORT const struct xw_query_extension_reply_t *xw_get_extension_data(xw_connection_t *c, xw_extension_t *ext)
{
    xw__lock(c);
    struct xw_ext_entry *e = c->error ? NULL : entry_ready(c, ext);
    const void *r = e && e->state == XW_EXT_PRESENT ? e->reply : NULL;
    xw__unlock(c);
    return r;
}

XW_EXPORT void xw_prefetch_extension_data(xw_connection_t *c, xw_extension_t *ext)
{
    xw__lock(c);
    struct xw_ext_entry *e = c->error ? NULL : entry_get(c, ext);
    if (e && e->state == XW_EXT_UNASKED)
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
    struct xw_ext_entry *e = c->error || c->out.bigreq != XW_BIGREQ_UNTRIED ? NULL : entry_get(c, &xw_big_requests_id);
    if (e && e->state == XW_EXT_UNASKED)
        query_send(c, e);
    else if (e && e->state == XW_EXT_PRESENT && !c->out.bigreq_seq)
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
