/* SPDX-License-Identifier: MIT */
/* errors.c — xcb-util-errors' API: request, event and error names from the generated description tables. */
#include <xw/xw_errors.h>
#include <xw/xwext.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/* Every extension xwire has a description of (the generated xw_<name>_id objects). */
/* Laid out by hand: clang-format reads an X-list as one expression and rewraps it on every run. */
/* clang-format off */
#define XW_ERRORS_EXTENSIONS(X)                                                                                        \
    X(big_requests) X(composite) X(damage) X(dbe) X(dpms) X(dri2) X(dri3) X(genericevent) X(glx) X(present) X(randr)   \
    X(record) X(render) X(res) X(screensaver) X(shape) X(shm) X(sync) X(xc_misc) X(xevie) X(xf86dri) X(xf86vidmode)    \
    X(xfixes) X(xinerama) X(input) X(xkb) X(x_print) X(selinux) X(test) X(xv) X(xvmc)
/* clang-format on */

#define DECLARE(name) XW_EXPORT extern xw_extension_t xw_##name##_id;
XW_ERRORS_EXTENSIONS(DECLARE)
#undef DECLARE

#define ADDRESS(name) &xw_##name##_id,
static xw_extension_t *const all_extensions[] = {XW_ERRORS_EXTENSIONS(ADDRESS)};
#undef ADDRESS

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* One extension the server has. */
struct present_ext {
    const xw_ext_desc_t *desc;
    int is_xkb; /* XKB multiplexes its events on one code, by xkbType (byte 1) */
    uint8_t major, first_event, first_error;
};

struct xw_errors_context_t {
    unsigned n;
    struct present_ext ext[COUNT(all_extensions)];
};

/* ---- "Unknown (N)": static strings, built once ---- */

static char unknown_names[256][16];
static pthread_once_t unknown_once = PTHREAD_ONCE_INIT;

static void build_unknown(void)
{
    for (unsigned i = 0; i < COUNT(unknown_names); i++)
        snprintf(unknown_names[i], sizeof(unknown_names[i]), "Unknown (%u)", i);
}

/* Entry i of a name table of n: its name, "Unknown (i)" for a gap, NULL past the end. */
static const char *entry(const char *const *names, unsigned n, unsigned i)
{
    if (i >= n)
        return NULL;
    if (names && names[i])
        return names[i];
    pthread_once(&unknown_once, build_unknown);
    return i < COUNT(unknown_names) ? unknown_names[i] : NULL;
}

/* The core protocol's tables cover every code (an unnamed one is "Unknown (N)"). */
static const char *core(const char *const *names, unsigned n, uint8_t code)
{
    const char *s = entry(names, n, code);
    return s ? s : entry(NULL, 256, code);
}

/* The core's events: GeGeneric (35) sits in its generic-event table. */
static const char *core_event(uint8_t code)
{
    const xw_ext_desc_t *d = &xw_xproto_desc;
    const char *s = code < d->n_events ? entry(d->event_names, d->n_events, code) : NULL;
    if (code >= d->n_events && code < d->n_xge && d->xge_names[code])
        s = d->xge_names[code];
    return s ? s : entry(NULL, 256, code);
}

/* ---- the context ---- */

XW_EXPORT int xw_errors_context_new(xw_connection_t *conn, xw_errors_context_t **ctx)
{
    *ctx = NULL;
    if (!conn || xw_connection_has_error(conn))
        return -1;
    xw_errors_context_t *x = calloc(1, sizeof(*x));
    if (!x)
        return -1;
    /* all queries go out before the first answer is awaited */
    for (size_t i = 0; i < COUNT(all_extensions); i++)
        xw_prefetch_extension_data(conn, all_extensions[i]);
    for (size_t i = 0; i < COUNT(all_extensions); i++) {
        const xw_query_extension_reply_t *r = xw_get_extension_data(conn, all_extensions[i]);
        const xw_ext_desc_t *d = xw_ext_desc_find(all_extensions[i]->name);
        if (!r || !r->present || !d)
            continue;
        struct present_ext *e = &x->ext[x->n++];
        e->desc = d;
        e->is_xkb = all_extensions[i] == &xw_xkb_id;
        e->major = r->major_opcode;
        e->first_event = r->first_event;
        e->first_error = r->first_error;
    }
    if (xw_connection_has_error(conn)) {
        free(x);
        return -1;
    }
    *ctx = x;
    return 0;
}

XW_EXPORT void xw_errors_context_free(xw_errors_context_t *ctx)
{
    free(ctx);
}

/* ---- lookups ---- */

/* xcb-util-errors answers a NULL context with this text; so does xwire. */
static const char misuse[] = "xcb-errors API misuse: context argument is NULL";

static const struct present_ext *by_major(const xw_errors_context_t *ctx, uint8_t major)
{
    for (unsigned i = 0; i < ctx->n; i++)
        if (ctx->ext[i].major == major)
            return &ctx->ext[i];
    return NULL;
}

/* The extension whose events (or errors) start closest below `code`; NULL when none
 * has any below it. */
static const struct present_ext *by_base(const xw_errors_context_t *ctx, uint8_t code, int errors)
{
    const struct present_ext *best = NULL;
    for (unsigned i = 0; i < ctx->n; i++) {
        uint8_t base = errors ? ctx->ext[i].first_error : ctx->ext[i].first_event;
        if (base && base <= code && (!best || base > (errors ? best->first_error : best->first_event)))
            best = &ctx->ext[i];
    }
    return best;
}

XW_EXPORT const char *xw_errors_get_name_for_major_code(xw_errors_context_t *ctx, uint8_t major_code)
{
    if (!ctx)
        return misuse;
    const struct present_ext *e = by_major(ctx, major_code);
    if (e)
        return e->desc->ext_name;
    return core(xw_xproto_desc.request_names, xw_xproto_desc.n_requests, major_code);
}

XW_EXPORT const char *xw_errors_get_name_for_minor_code(xw_errors_context_t *ctx, uint8_t major_code,
                                                        uint16_t minor_code)
{
    if (!ctx)
        return misuse;
    const struct present_ext *e = by_major(ctx, major_code);
    return e ? entry(e->desc->request_names, e->desc->n_requests, minor_code) : NULL;
}

XW_EXPORT const char *xw_errors_get_name_for_xge_event(xw_errors_context_t *ctx, uint8_t major_code,
                                                       uint16_t event_type)
{
    if (!ctx)
        return misuse;
    const struct present_ext *e = by_major(ctx, major_code);
    if (!e)
        return NULL;
    if (e->is_xkb) /* XKB's event table is by xkbType */
        return entry(e->desc->event_names, e->desc->n_events, event_type);
    return entry(e->desc->xge_names, e->desc->n_xge, event_type);
}

/* XKB has one event code; its description's events are the xkbTypes multiplexed on it. */
static const char *const xkb_base_event[] = {"XKB base event"};

XW_EXPORT const char *xw_errors_get_name_for_core_event(xw_errors_context_t *ctx, uint8_t event_code,
                                                        const char **extension)
{
    if (extension)
        *extension = NULL;
    if (!ctx)
        return misuse;
    event_code &= 0x7f;
    const struct present_ext *e = by_base(ctx, event_code, 0);
    const char *s = NULL;
    if (e) {
        unsigned i = (unsigned)(event_code - e->first_event);
        s = e->is_xkb ? entry(xkb_base_event, 1, i) : entry(e->desc->event_names, e->desc->n_events, i);
    }
    if (!s)
        return core_event(event_code);
    if (extension)
        *extension = e->desc->ext_name;
    return s;
}

XW_EXPORT const char *xw_errors_get_name_for_error(xw_errors_context_t *ctx, uint8_t error_code, const char **extension)
{
    if (extension)
        *extension = NULL;
    if (!ctx)
        return misuse;
    const struct present_ext *e = by_base(ctx, error_code, 1);
    const char *s = e ? entry(e->desc->error_names, e->desc->n_errors, (unsigned)(error_code - e->first_error)) : NULL;
    if (!s)
        return core(xw_xproto_desc.error_names, xw_xproto_desc.n_errors, error_code);
    if (extension)
        *extension = e->desc->ext_name;
    return s;
}

XW_EXPORT const char *xw_errors_get_name_for_xcb_event(xw_errors_context_t *ctx, xw_generic_event_t *event,
                                                       const char **extension)
{
    if (extension)
        *extension = NULL;
    if (!ctx)
        return misuse;
    uint8_t code = event->response_type & 0x7f;
    if (code == XW_GE_GENERIC) {
        const xw_ge_generic_event_t *ge = (const xw_ge_generic_event_t *)event;
        if (extension)
            *extension = xw_errors_get_name_for_major_code(ctx, ge->extension);
        return xw_errors_get_name_for_xge_event(ctx, ge->extension, ge->event_type);
    }
    for (unsigned i = 0; i < ctx->n; i++) {
        const struct present_ext *e = &ctx->ext[i];
        if (e->is_xkb && e->first_event && code == e->first_event) {
            if (extension)
                *extension = e->desc->ext_name;
            return xw_errors_get_name_for_xge_event(ctx, e->major, event->pad0);
        }
    }
    return xw_errors_get_name_for_core_event(ctx, code, extension);
}
