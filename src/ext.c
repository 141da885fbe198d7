/* SPDX-License-Identifier: MIT */
/* ext.c — extensions by name: the registry of descriptions and each connection's entries (query.c fills them). */
#include "ext.h"
#include "conn.h"

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

/* Entries match by name: a key is only the caller's way of naming the extension. */
static struct xw_ext_entry *entry_find(xw_connection_t *c, const char *name)
{
    for (struct xw_ext_entry *e = c->exts; e; e = e->next)
        if (!strcmp(e->name, name))
            return e;
    return NULL;
}

/* The connection's entry for ext's name, made (unasked) when there is none; NULL when
 * out of memory, or for a key without a name. */
struct xw_ext_entry *xw__ext_entry_get(xw_connection_t *c, const xw_extension_t *ext)
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

struct xw_ext_entry *xw__ext_by_major(xw_connection_t *c, uint8_t major)
{
    for (struct xw_ext_entry *e = c->exts; e; e = e->next)
        if (e->state == XW_EXT_PRESENT && xw__ext_reply(e)->present && xw__ext_reply(e)->major_opcode == major)
            return e;
    return NULL;
}

/* The present extension with the highest first_error not above code. */
struct xw_ext_entry *xw__ext_by_error(xw_connection_t *c, uint8_t code)
{
    struct xw_ext_entry *best = NULL;
    for (struct xw_ext_entry *e = c->exts; e; e = e->next) {
        const xw_query_extension_reply_t *r = xw__ext_reply(e);
        if (e->state == XW_EXT_PRESENT && r->present && r->first_error && r->first_error <= code &&
            (!best || r->first_error > xw__ext_reply(best)->first_error))
            best = e;
    }
    return best;
}

void xw__ext_fini(xw_connection_t *c)
{
    while (c->exts) {
        struct xw_ext_entry *e = c->exts;
        c->exts = e->next;
        free(e);
    }
}
