/* SPDX-License-Identifier: MIT */
/* errtext.c — X errors as text, from the name tables the generator emits. */
#include "errtext.h"
#include "base.h"
#include "callsite.h"
#include "conn.h"
#include "ext.h"

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

/* Lock held. The error's text as xw_error_text gives it, without the call site. */
static int error_text(xw_connection_t *c, const xw_generic_error_t *e, char *buf, size_t cap)
{
    char ename[96], rname[128];
    error_name(c, e->error_code, ename, sizeof(ename));
    request_name(c, e->major_code, e->minor_code, rname, sizeof(rname));
    return snprintf(buf, cap, "%s (%u) in %s (major %u, minor %u), resource 0x%x", ename, e->error_code, rname,
                    e->major_code, e->minor_code, e->resource_id);
}

/* With call sites on, the text goes on with where the request was sent from. */
XW_EXPORT int xw_error_text(xw_connection_t *c, const xw_generic_error_t *e, char *buf, size_t cap)
{
    char site[512];
    xw__conn_lock(c);
    int n = error_text(c, e, buf, cap);
    uint64_t seq = xw__widen_below(c->out.seq, e->full_sequence);
    int on = c->cs != NULL;
    xw__conn_unlock(c);
    if (n < 0 || !on)
        return n;
    if (!xw__callsite_text(c, seq, site, sizeof(site)))
        return n;
    size_t at = (size_t)n < cap ? (size_t)n : (cap ? cap - 1 : 0);
    int m = snprintf(buf + at, cap - at, ", sent from %s", site);
    return m < 0 ? n : n + m;
}

/* Lock held, call sites on: the error w (32 wire bytes) to request seq has just
 * arrived. The library prints here, and only here, because the user asked for it
 * (XWIRE_ERRORS=callsite): an X error arrives long after its call returned, and
 * a program's own handler (Xlib's default one exits) sees only a sequence number. */
void xw__errtext_shown(xw_connection_t *c, const uint8_t *w, uint64_t seq)
{
    xw_generic_error_t e;
    char text[256], site[512], line[800];
    if (!xw__callsite_wanted()) /* on for a trace only: the trace carries it */
        return;
    memcpy(&e, w, 32);
    e.full_sequence = (uint32_t)seq;
    error_text(c, &e, text, sizeof(text));
    const char *at = xw__callsite_text(c, seq, site, sizeof(site));
    int n = snprintf(line, sizeof(line), "xwire: X error %s, request %llu, sent from %s\n", text,
                     (unsigned long long)seq, at ? at : "an unrecorded call site");
    if (n > 0)
        fputs(line, stderr); /* one line, one write: stderr is unbuffered */
}
