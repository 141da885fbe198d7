/* xid.c — resource ids from the setup's base and mask, refilled by XC-MISC GetXIDRange. */
#include "xwint.h"

static xw_extension_t xcmisc_ext = {"XC-MISC", 0, NULL};

/* Lock held. GetXIDRange (minor 1, 4 bytes); the reply has start_id at 8 and
 * count at 12. Returns 0 with a fresh range, -ENOSPC when the server has none. */
static int refill(xw_connection_t *c)
{
    static const xw_protocol_request_t req = {.count = 1, .ext = &xcmisc_ext, .opcode = 1};
    uint8_t b[4] = {0};
    struct iovec iov[3] = {{0}, {0}, {b, 4}};
    uint64_t seq = xw__send_locked(c, XW_REQUEST_CHECKED, iov + 2, &req, 4, 0, NULL);
    struct xw_pkt *p = NULL;
    if (seq)
        xw__reply_take(c, seq, -1, &p);
    if (!p)
        return -ENOSPC;
    uint32_t start = 0, count = 0;
    if (p->kind == XW_PKT_REPLY && p->len >= 16) {
        start = xw__rd32(XW_PKT_DATA(p) + 8);
        count = xw__rd32(XW_PKT_DATA(p) + 12);
    }
    xw__pkt_free(c, p);
    if (start == 0 || count == 0)
        return -ENOSPC;
    c->xid_last = start;
    c->xid_max = start + (count - 1) * c->xid_inc;
    return 0;
}

/* Ids are base | last, last stepping by the mask's lowest bit. The first call opens
 * the setup's range (so the first id is the base itself, as with libxcb). Returns
 * (uint32_t)-1 when no id is left or the connection failed. */
XW_EXPORT uint32_t xw_generate_id(xw_connection_t *c)
{
    uint32_t id = (uint32_t)-1;
    if (c->borrow) /* one id space per connection: the owner hands them out */
        return c->error ? id : c->borrow->generate_id(c->borrow_closure);
    xw__lock(c);
    if (c->error || !c->xid_inc)
        goto out;
    if (c->xid_max == 0)
        c->xid_max = c->xid_mask; /* first call: the base itself */
    else if (c->xid_last <= c->xid_max - c->xid_inc)
        c->xid_last += c->xid_inc;
    else if (refill(c) < 0)
        goto out;
    id = c->xid_last | c->xid_base;
out:
    xw__unlock(c);
    return id;
}
