/* SPDX-License-Identifier: MIT */
/* xid.c — resource ids from the setup's base and mask, refilled by XC-MISC GetXIDRange. */
#include "xid.h"
#include "conn.h"
#include "lock.h"
#include "transport.h"

/* The id allocator has its own lock, xid_mu, held across the refill's round trip so
 * two threads never ask for (and get) the same range; the generated sender and the
 * reply wait take the connection's lock inside it, so the order is xid_mu, then mu. */
static void xid_lock(xw_connection_t *c)
{
    if (!c->single)
        xw__lock_acquire(&c->xid_mu);
}

static void xid_unlock(xw_connection_t *c)
{
    if (!c->single)
        xw__lock_release(&c->xid_mu);
}

/* xid_mu held. A fresh range from XC-MISC, copied into a stack buffer (nothing
 * allocated). Returns 0, or -ENOSPC when the server has none or cannot say. */
static int refill(xw_connection_t *c)
{
    xw_xc_misc_get_xid_range_cookie_t ck = xw_xc_misc_get_xid_range(c);
    union {
        xw_xc_misc_get_xid_range_reply_t r;
        uint8_t b[sizeof(xw_xc_misc_get_xid_range_reply_t) + 64]; /* room for a longer reply */
    } u;
    size_t len = 0;
    if (!ck.sequence || xw_wait_for_reply_into(c, ck.sequence, &u, sizeof(u), &len, NULL, -1) != 1 ||
        len < sizeof(u.r) || u.r.start_id == 0 || u.r.count == 0)
        return -ENOSPC;
    c->xid_last = u.r.start_id;
    c->xid_max = u.r.start_id + (u.r.count - 1) * c->xid_inc;
    return 0;
}

/* Ids are base | last, last stepping by the
 * mask's lowest bit. The first call opens the setup's range (so the first id is the
 * base itself, as with libxcb). Returns (uint32_t)-1 when no id is left or the
 * connection failed. */
XW_EXPORT uint32_t xw_generate_id(xw_connection_t *c)
{
    return c->tp->generate_id(c);
}

/* xw_generate_id on a connection with its own id range. */
uint32_t xw__xid_generate(xw_connection_t *c)
{
    uint32_t id = (uint32_t)-1;
    xid_lock(c);
    if (__atomic_load_n(&c->error, __ATOMIC_RELAXED) || !c->xid_inc)
        goto out;
    if (c->xid_max == 0)
        c->xid_max = c->xid_mask; /* first call: the base itself */
    else if (c->xid_last <= c->xid_max - c->xid_inc)
        c->xid_last += c->xid_inc;
    else if (refill(c) < 0)
        goto out;
    id = c->xid_last | c->xid_base;
out:
    xid_unlock(c);
    return id;
}

/* Set up from the setup's resource_id_base and mask. */
void xw__xid_init(xw_connection_t *c)
{
    const xw_setup_t *s = (const xw_setup_t *)(const void *)c->setup;
    c->xid_base = s->resource_id_base;
    c->xid_mask = s->resource_id_mask;
    c->xid_inc = c->xid_mask & (~c->xid_mask + 1);
    c->xid_last = 0;
    c->xid_max = 0; /* the first xw_generate_id opens the range */
}
