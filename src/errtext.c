/* errtext.c — X errors as text, from the name tables the generator emits. */
#include "xwint.h"

#include <stdio.h>

static const char *lookup(const char *const *names, unsigned n, unsigned i)
{
    return names && i < n ? names[i] : NULL;
}

/* "BadWindow": the tables may carry xcb-proto's bare "Window" or a full "BadOutput". */
static void error_name(xw_connection_t *c, uint8_t code, char *out, size_t cap)
{
    const char *name = NULL;
    if (code == XW_ERROR_MALFORMED_REPLY) {
        snprintf(out, cap, "MalformedReply");
        return;
    }
    if (code < 128) {
        name = lookup(xw_xproto_desc.error_names, xw_xproto_desc.n_errors, code);
    } else {
        struct xw_ext_entry *x = xw__ext_by_error(c, code);
        const xw_ext_desc_t *d = x ? x->desc : NULL;
        if (d)
            name = lookup(d->error_names, d->n_errors, (unsigned)(code - x->reply[11]));
    }
    if (!name)
        snprintf(out, cap, "UnknownError");
    else
        snprintf(out, cap, "%s%s", strncmp(name, "Bad", 3) ? "Bad" : "", name);
}

static void request_name(xw_connection_t *c, uint8_t major, uint16_t minor, char *out, size_t cap)
{
    const char *name = NULL;
    if (major < 128) {
        name = lookup(xw_xproto_desc.request_names, xw_xproto_desc.n_requests, major);
        snprintf(out, cap, "%s", name ? name : "UnknownRequest");
        return;
    }
    struct xw_ext_entry *x = xw__ext_by_major(c, major);
    const xw_ext_desc_t *d = x ? x->desc : NULL;
    if (d)
        name = lookup(d->request_names, d->n_requests, minor);
    if (x && name)
        snprintf(out, cap, "%s:%s", d->xname ? d->xname : x->name, name);
    else if (x)
        snprintf(out, cap, "%s:UnknownRequest", x->name);
    else
        snprintf(out, cap, "UnknownRequest");
}

XW_EXPORT int xw_error_text(xw_connection_t *c, const xw_generic_error_t *e, char *buf, size_t cap)
{
    char ename[96], rname[128];
    xw__lock(c);
    error_name(c, e->error_code, ename, sizeof(ename));
    request_name(c, e->major_code, e->minor_code, rname, sizeof(rname));
    xw__unlock(c);
    return snprintf(buf, cap, "%s (%u) in %s (major %u, minor %u), resource 0x%x", ename, e->error_code, rname,
                    e->major_code, e->minor_code, e->resource_id);
}
