/* SPDX-License-Identifier: MIT */
/* icccm.c — the ICCCM client properties (libxcb-icccm's API): set, get and parse, allocation-free where asked. */
#include <xw/xw_icccm.h>
#include <xw/xwext.h>

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ---- the two requests everything here sends ---- */

static xw_void_cookie_t set_prop(xw_connection_t *c, int checked, xw_window_t window, xw_atom_t property,
                                 xw_atom_t type, uint8_t format, uint32_t len, const void *data)
{
    if (checked)
        return xw_change_property_checked(c, XW_PROP_MODE_REPLACE, window, property, type, format, len, data);
    return xw_change_property(c, XW_PROP_MODE_REPLACE, window, property, type, format, len, data);
}

static xw_get_property_cookie_t get_prop(xw_connection_t *c, int checked, xw_window_t window, xw_atom_t property,
                                         xw_atom_t type, uint32_t words)
{
    if (checked)
        return xw_get_property(c, 0, window, property, type, 0, words);
    return xw_get_property_unchecked(c, 0, window, property, type, 0, words);
}

/* ---- claiming replies ---- */

/* The reply to `cookie` read into buf (the runtime has checked its counts against its
 * length). Returns 1 reply; 2 an X error, in *err; 0 neither; -ENOSPC too big for
 * cap, left queued; -EPIPE. */
static int claim_into(xw_connection_t *c, xw_get_property_cookie_t cookie, void *buf, size_t cap,
                      xw_generic_error_t *err)
{
    size_t len = 0;
    int r = xw_wait_for_reply_into(c, cookie.sequence, buf, cap, &len, err, -1);
    if (r == 1 && len < sizeof(xw_get_property_reply_t))
        return 0;
    return r;
}

/* The _into forms' result: 1 parsed, 0 not (an X error copied to *e), or the claim's
 * negative errno. */
static int into_result(int claimed, uint8_t parsed, const xw_generic_error_t *err, xw_generic_error_t *e)
{
    if (claimed == 2 && e)
        *e = *err;
    if (claimed < 0)
        return claimed;
    return claimed == 1 && parsed;
}

/* A malloc'd copy of an X error for the xcb-style `e` out-parameter (NULL when out of
 * memory). */
static xw_generic_error_t *error_copy(const xw_generic_error_t *err)
{
    xw_generic_error_t *e = malloc(sizeof(*e));
    if (e)
        *e = *err;
    return e;
}

/* Fixed-size properties fit a small reply: read it into stack storage and parse it
 * there. A reply larger than asked for (a misbehaving server) falls back to the
 * allocating path so that it is still consumed and parsed. */
#define SMALL_REPLY (sizeof(xw_get_property_reply_t) + 4 * XW_ICCCM_NUM_WM_SIZE_HINTS_ELEMENTS + 8)

typedef uint8_t (*parse_fn)(void *out, xw_get_property_reply_t *reply);

static uint8_t small_reply(xw_connection_t *c, xw_get_property_cookie_t cookie, void *out, parse_fn parse,
                           xw_generic_error_t **e)
{
    union {
        xw_get_property_reply_t r;
        uint8_t b[SMALL_REPLY];
    } buf;
    xw_generic_error_t err;
    if (e)
        *e = NULL;
    int r = claim_into(c, cookie, &buf, sizeof(buf), &err);
    if (r == 1)
        return parse(out, &buf.r);
    if (r == -ENOSPC) {
        xw_get_property_reply_t *big = xw_get_property_reply(c, cookie, e);
        uint8_t ok = parse(out, big);
        free(big);
        return ok;
    }
    if (r == 2 && e)
        *e = error_copy(&err);
    return 0;
}

/* ---- parsing ----
 * A reply holds 32 + 4 * length bytes. xwire's runtime refuses a GetProperty reply
 * whose value runs past that, but replies on a borrowed connection, and those handed
 * to the public _from_reply functions, come unchecked: every parse checks first. */
static int value_fits(const xw_get_property_reply_t *r)
{
    return (uint64_t)r->value_len * (r->format / 8) <= 4 * (uint64_t)r->length;
}

/* A parse of a GetProperty reply into `out` (one of the reply structs below): 1 and
 * `out` points into the reply (keeping it in its _reply field), or 0. */
typedef uint8_t (*take_fn)(xw_get_property_reply_t *reply, void *out);

/* The xcb-style form: the malloc'd reply stays with `out` when parsed, else is freed. */
static uint8_t reply_kept(xw_connection_t *c, xw_get_property_cookie_t cookie, take_fn take, void *out,
                          xw_generic_error_t **e)
{
    xw_get_property_reply_t *reply = xw_get_property_reply(c, cookie, e);
    if (take(reply, out))
        return 1;
    free(reply);
    return 0;
}

/* The caller-storage form: the reply is read into buf and `*kept` (the struct's _reply)
 * cleared, so the _wipe frees nothing. */
static int reply_into(xw_connection_t *c, xw_get_property_cookie_t cookie, take_fn take, void *out,
                      xw_get_property_reply_t **kept, void *buf, size_t cap, xw_generic_error_t *e)
{
    xw_generic_error_t err;
    int r = claim_into(c, cookie, buf, cap, &err);
    uint8_t ok = r == 1 && take(buf, out);
    if (ok)
        *kept = NULL;
    return into_result(r, ok, &err, e);
}

/* ---- text properties ---- */

XW_EXPORT xw_get_property_cookie_t xw_icccm_get_text_property(xw_connection_t *c, xw_window_t window,
                                                              xw_atom_t property)
{
    return get_prop(c, 1, window, property, XW_GET_PROPERTY_TYPE_ANY, UINT_MAX);
}

XW_EXPORT xw_get_property_cookie_t xw_icccm_get_text_property_unchecked(xw_connection_t *c, xw_window_t window,
                                                                        xw_atom_t property)
{
    return get_prop(c, 0, window, property, XW_GET_PROPERTY_TYPE_ANY, UINT_MAX);
}

/* Any type but None is text; `prop` points into `reply`. */
static uint8_t take_text(xw_get_property_reply_t *reply, void *out)
{
    xw_icccm_get_text_property_reply_t *prop = out;
    if (!reply || !value_fits(reply) || reply->type == XW_NONE)
        return 0;
    prop->_reply = reply;
    prop->encoding = reply->type;
    prop->format = reply->format;
    prop->name_len = (uint32_t)xw_get_property_value_length(reply);
    prop->name = xw_get_property_value(reply);
    return 1;
}

XW_EXPORT uint8_t xw_icccm_get_text_property_reply(xw_connection_t *c, xw_get_property_cookie_t cookie,
                                                   xw_icccm_get_text_property_reply_t *prop, xw_generic_error_t **e)
{
    return reply_kept(c, cookie, take_text, prop, e);
}

XW_EXPORT int xw_icccm_get_text_property_reply_into(xw_connection_t *c, xw_get_property_cookie_t cookie,
                                                    xw_icccm_get_text_property_reply_t *prop, void *buf, size_t cap,
                                                    xw_generic_error_t *e)
{
    return reply_into(c, cookie, take_text, prop, &prop->_reply, buf, cap, e);
}

XW_EXPORT void xw_icccm_get_text_property_reply_wipe(xw_icccm_get_text_property_reply_t *prop)
{
    free(prop->_reply);
}

/* WM_NAME, WM_ICON_NAME and WM_CLIENT_MACHINE are text properties of fixed names. */
#define TEXT_PROPERTY(fn, atom)                                                                                        \
    XW_EXPORT xw_void_cookie_t xw_icccm_set_##fn##_checked(xw_connection_t *c, xw_window_t window, xw_atom_t encoding, \
                                                           uint8_t format, uint32_t name_len, const char *name)        \
    {                                                                                                                  \
        return set_prop(c, 1, window, atom, encoding, format, name_len, name);                                         \
    }                                                                                                                  \
    XW_EXPORT xw_void_cookie_t xw_icccm_set_##fn(xw_connection_t *c, xw_window_t window, xw_atom_t encoding,           \
                                                 uint8_t format, uint32_t name_len, const char *name)                  \
    {                                                                                                                  \
        return set_prop(c, 0, window, atom, encoding, format, name_len, name);                                         \
    }                                                                                                                  \
    XW_EXPORT xw_get_property_cookie_t xw_icccm_get_##fn(xw_connection_t *c, xw_window_t window)                       \
    {                                                                                                                  \
        return xw_icccm_get_text_property(c, window, atom);                                                            \
    }                                                                                                                  \
    XW_EXPORT xw_get_property_cookie_t xw_icccm_get_##fn##_unchecked(xw_connection_t *c, xw_window_t window)           \
    {                                                                                                                  \
        return xw_icccm_get_text_property_unchecked(c, window, atom);                                                  \
    }                                                                                                                  \
    XW_EXPORT uint8_t xw_icccm_get_##fn##_reply(xw_connection_t *c, xw_get_property_cookie_t cookie,                   \
                                                xw_icccm_get_text_property_reply_t *prop, xw_generic_error_t **e)      \
    {                                                                                                                  \
        return xw_icccm_get_text_property_reply(c, cookie, prop, e);                                                   \
    }

TEXT_PROPERTY(wm_name, XW_ATOM_WM_NAME)
TEXT_PROPERTY(wm_icon_name, XW_ATOM_WM_ICON_NAME)
TEXT_PROPERTY(wm_client_machine, XW_ATOM_WM_CLIENT_MACHINE)

/* ---- lists of 32-bit ids: WM_COLORMAP_WINDOWS (WINDOW) and WM_PROTOCOLS (ATOM) ---- */

/* The value as a list of ids when the type is `type` and the format 32; the list
 * points into `reply`. */
static uint8_t parse_ids(xw_get_property_reply_t *reply, xw_atom_t type, uint32_t *len, uint32_t **ids)
{
    if (!reply || !value_fits(reply) || reply->type != type || reply->format != 32)
        return 0;
    *len = (uint32_t)xw_get_property_value_length(reply) / 4;
    *ids = xw_get_property_value(reply);
    return 1;
}

XW_EXPORT xw_void_cookie_t xw_icccm_set_wm_colormap_windows_checked(xw_connection_t *c, xw_window_t window,
                                                                    xw_atom_t wm_colormap_windows_atom,
                                                                    uint32_t list_len, const xw_window_t *list)
{
    return set_prop(c, 1, window, wm_colormap_windows_atom, XW_ATOM_WINDOW, 32, list_len, list);
}

XW_EXPORT xw_void_cookie_t xw_icccm_set_wm_colormap_windows(xw_connection_t *c, xw_window_t window,
                                                            xw_atom_t wm_colormap_windows_atom, uint32_t list_len,
                                                            const xw_window_t *list)
{
    return set_prop(c, 0, window, wm_colormap_windows_atom, XW_ATOM_WINDOW, 32, list_len, list);
}

XW_EXPORT xw_get_property_cookie_t xw_icccm_get_wm_colormap_windows(xw_connection_t *c, xw_window_t window,
                                                                    xw_atom_t wm_colormap_windows_atom)
{
    return get_prop(c, 1, window, wm_colormap_windows_atom, XW_ATOM_WINDOW, UINT_MAX);
}

XW_EXPORT xw_get_property_cookie_t xw_icccm_get_wm_colormap_windows_unchecked(xw_connection_t *c, xw_window_t window,
                                                                              xw_atom_t wm_colormap_windows_atom)
{
    return get_prop(c, 0, window, wm_colormap_windows_atom, XW_ATOM_WINDOW, UINT_MAX);
}

XW_EXPORT uint8_t xw_icccm_get_wm_colormap_windows_from_reply(
    xw_get_property_reply_t *reply, xw_icccm_get_wm_colormap_windows_reply_t *colormap_windows)
{
    if (!parse_ids(reply, XW_ATOM_WINDOW, &colormap_windows->windows_len, &colormap_windows->windows))
        return 0;
    colormap_windows->_reply = reply;
    return 1;
}

static uint8_t take_cmap(xw_get_property_reply_t *reply, void *out)
{
    return xw_icccm_get_wm_colormap_windows_from_reply(reply, out);
}

XW_EXPORT uint8_t xw_icccm_get_wm_colormap_windows_reply(xw_connection_t *c, xw_get_property_cookie_t cookie,
                                                         xw_icccm_get_wm_colormap_windows_reply_t *windows,
                                                         xw_generic_error_t **e)
{
    return reply_kept(c, cookie, take_cmap, windows, e);
}

XW_EXPORT int xw_icccm_get_wm_colormap_windows_reply_into(xw_connection_t *c, xw_get_property_cookie_t cookie,
                                                          xw_icccm_get_wm_colormap_windows_reply_t *windows, void *buf,
                                                          size_t cap, xw_generic_error_t *e)
{
    return reply_into(c, cookie, take_cmap, windows, &windows->_reply, buf, cap, e);
}

XW_EXPORT void xw_icccm_get_wm_colormap_windows_reply_wipe(xw_icccm_get_wm_colormap_windows_reply_t *windows)
{
    free(windows->_reply);
}

XW_EXPORT xw_void_cookie_t xw_icccm_set_wm_protocols_checked(xw_connection_t *c, xw_window_t window,
                                                             xw_atom_t wm_protocols, uint32_t list_len, xw_atom_t *list)
{
    return set_prop(c, 1, window, wm_protocols, XW_ATOM_ATOM, 32, list_len, list);
}

XW_EXPORT xw_void_cookie_t xw_icccm_set_wm_protocols(xw_connection_t *c, xw_window_t window, xw_atom_t wm_protocols,
                                                     uint32_t list_len, xw_atom_t *list)
{
    return set_prop(c, 0, window, wm_protocols, XW_ATOM_ATOM, 32, list_len, list);
}

XW_EXPORT xw_get_property_cookie_t xw_icccm_get_wm_protocols(xw_connection_t *c, xw_window_t window,
                                                             xw_atom_t wm_protocol_atom)
{
    return get_prop(c, 1, window, wm_protocol_atom, XW_ATOM_ATOM, UINT_MAX);
}

XW_EXPORT xw_get_property_cookie_t xw_icccm_get_wm_protocols_unchecked(xw_connection_t *c, xw_window_t window,
                                                                       xw_atom_t wm_protocol_atom)
{
    return get_prop(c, 0, window, wm_protocol_atom, XW_ATOM_ATOM, UINT_MAX);
}

XW_EXPORT uint8_t xw_icccm_get_wm_protocols_from_reply(xw_get_property_reply_t *reply,
                                                       xw_icccm_get_wm_protocols_reply_t *protocols)
{
    if (!parse_ids(reply, XW_ATOM_ATOM, &protocols->atoms_len, &protocols->atoms))
        return 0;
    protocols->_reply = reply;
    return 1;
}

static uint8_t take_protocols(xw_get_property_reply_t *reply, void *out)
{
    return xw_icccm_get_wm_protocols_from_reply(reply, out);
}

XW_EXPORT uint8_t xw_icccm_get_wm_protocols_reply(xw_connection_t *c, xw_get_property_cookie_t cookie,
                                                  xw_icccm_get_wm_protocols_reply_t *protocols, xw_generic_error_t **e)
{
    return reply_kept(c, cookie, take_protocols, protocols, e);
}

XW_EXPORT int xw_icccm_get_wm_protocols_reply_into(xw_connection_t *c, xw_get_property_cookie_t cookie,
                                                   xw_icccm_get_wm_protocols_reply_t *protocols, void *buf, size_t cap,
                                                   xw_generic_error_t *e)
{
    return reply_into(c, cookie, take_protocols, protocols, &protocols->_reply, buf, cap, e);
}

XW_EXPORT void xw_icccm_get_wm_protocols_reply_wipe(xw_icccm_get_wm_protocols_reply_t *protocols)
{
    free(protocols->_reply);
}

/* ---- WM_CLASS ---- */

XW_EXPORT xw_void_cookie_t xw_icccm_set_wm_class_checked(xw_connection_t *c, xw_window_t window, uint32_t class_len,
                                                         const char *class_name)
{
    return set_prop(c, 1, window, XW_ATOM_WM_CLASS, XW_ATOM_STRING, 8, class_len, class_name);
}

XW_EXPORT xw_void_cookie_t xw_icccm_set_wm_class(xw_connection_t *c, xw_window_t window, uint32_t class_len,
                                                 const char *class_name)
{
    return set_prop(c, 0, window, XW_ATOM_WM_CLASS, XW_ATOM_STRING, 8, class_len, class_name);
}

/* WM_CLASS is read up to 2048 words, as xcb-icccm does. */
#define WM_CLASS_WORDS 2048

XW_EXPORT xw_get_property_cookie_t xw_icccm_get_wm_class(xw_connection_t *c, xw_window_t window)
{
    return get_prop(c, 1, window, XW_ATOM_WM_CLASS, XW_ATOM_STRING, WM_CLASS_WORDS);
}

XW_EXPORT xw_get_property_cookie_t xw_icccm_get_wm_class_unchecked(xw_connection_t *c, xw_window_t window)
{
    return get_prop(c, 0, window, XW_ATOM_WM_CLASS, XW_ATOM_STRING, WM_CLASS_WORDS);
}

XW_EXPORT uint8_t xw_icccm_get_wm_class_from_reply(xw_icccm_get_wm_class_reply_t *prop, xw_get_property_reply_t *reply)
{
    if (!reply || !value_fits(reply) || reply->type != XW_ATOM_STRING || reply->format != 8)
        return 0;
    size_t len = (size_t)xw_get_property_value_length(reply);
    if (len == 0)
        return 0; /* nothing to terminate in place */
    char *v = xw_get_property_value(reply);
    /* The value should end in a NUL; make sure it does: in the padding after it when
     * there is any, else over its last byte. `end` is then the terminating NUL. */
    size_t end = len < 4 * (size_t)reply->length ? len : len - 1;
    v[end] = '\0';
    size_t first = strlen(v);
    prop->_reply = reply;
    prop->instance_name = v;
    /* The class follows the instance's NUL; when the value holds one string only it is
     * the empty string at `end` (never past the value). */
    prop->class_name = v + (first + 1 <= end ? first + 1 : end);
    return 1;
}

static uint8_t take_class(xw_get_property_reply_t *reply, void *out)
{
    return xw_icccm_get_wm_class_from_reply(out, reply);
}

XW_EXPORT uint8_t xw_icccm_get_wm_class_reply(xw_connection_t *c, xw_get_property_cookie_t cookie,
                                              xw_icccm_get_wm_class_reply_t *prop, xw_generic_error_t **e)
{
    return reply_kept(c, cookie, take_class, prop, e);
}

XW_EXPORT int xw_icccm_get_wm_class_reply_into(xw_connection_t *c, xw_get_property_cookie_t cookie,
                                               xw_icccm_get_wm_class_reply_t *prop, void *buf, size_t cap,
                                               xw_generic_error_t *e)
{
    return reply_into(c, cookie, take_class, prop, &prop->_reply, buf, cap, e);
}

XW_EXPORT void xw_icccm_get_wm_class_reply_wipe(xw_icccm_get_wm_class_reply_t *prop)
{
    free(prop->_reply);
}

/* ---- WM_TRANSIENT_FOR ---- */

XW_EXPORT xw_void_cookie_t xw_icccm_set_wm_transient_for_checked(xw_connection_t *c, xw_window_t window,
                                                                 xw_window_t transient_for_window)
{
    return set_prop(c, 1, window, XW_ATOM_WM_TRANSIENT_FOR, XW_ATOM_WINDOW, 32, 1, &transient_for_window);
}

XW_EXPORT xw_void_cookie_t xw_icccm_set_wm_transient_for(xw_connection_t *c, xw_window_t window,
                                                         xw_window_t transient_for_window)
{
    return set_prop(c, 0, window, XW_ATOM_WM_TRANSIENT_FOR, XW_ATOM_WINDOW, 32, 1, &transient_for_window);
}

XW_EXPORT xw_get_property_cookie_t xw_icccm_get_wm_transient_for(xw_connection_t *c, xw_window_t window)
{
    return get_prop(c, 1, window, XW_ATOM_WM_TRANSIENT_FOR, XW_ATOM_WINDOW, 1);
}

XW_EXPORT xw_get_property_cookie_t xw_icccm_get_wm_transient_for_unchecked(xw_connection_t *c, xw_window_t window)
{
    return get_prop(c, 0, window, XW_ATOM_WM_TRANSIENT_FOR, XW_ATOM_WINDOW, 1);
}

XW_EXPORT uint8_t xw_icccm_get_wm_transient_for_from_reply(xw_window_t *prop, xw_get_property_reply_t *reply)
{
    /* at least one whole window in the value (not just in the reply's padding) */
    if (!reply || !value_fits(reply) || reply->type != XW_ATOM_WINDOW || reply->format != 32 ||
        xw_get_property_value_length(reply) < 4)
        return 0;
    memcpy(prop, xw_get_property_value(reply), sizeof(*prop));
    return 1;
}

static uint8_t parse_transient_for(void *out, xw_get_property_reply_t *reply)
{
    return xw_icccm_get_wm_transient_for_from_reply(out, reply);
}

XW_EXPORT uint8_t xw_icccm_get_wm_transient_for_reply(xw_connection_t *c, xw_get_property_cookie_t cookie,
                                                      xw_window_t *prop, xw_generic_error_t **e)
{
    return small_reply(c, cookie, prop, parse_transient_for, e);
}

/* ---- WM_SIZE_HINTS ---- */

XW_EXPORT void xw_icccm_size_hints_set_position(xw_size_hints_t *hints, int user_specified, int32_t x, int32_t y)
{
    hints->flags &= ~(uint32_t)(XW_ICCCM_SIZE_HINT_US_POSITION | XW_ICCCM_SIZE_HINT_P_POSITION);
    hints->flags |= user_specified ? XW_ICCCM_SIZE_HINT_US_POSITION : XW_ICCCM_SIZE_HINT_P_POSITION;
    hints->x = x;
    hints->y = y;
}

XW_EXPORT void xw_icccm_size_hints_set_size(xw_size_hints_t *hints, int user_specified, int32_t width, int32_t height)
{
    hints->flags &= ~(uint32_t)(XW_ICCCM_SIZE_HINT_US_SIZE | XW_ICCCM_SIZE_HINT_P_SIZE);
    hints->flags |= user_specified ? XW_ICCCM_SIZE_HINT_US_SIZE : XW_ICCCM_SIZE_HINT_P_SIZE;
    hints->width = width;
    hints->height = height;
}

XW_EXPORT void xw_icccm_size_hints_set_min_size(xw_size_hints_t *hints, int32_t min_width, int32_t min_height)
{
    hints->flags |= XW_ICCCM_SIZE_HINT_P_MIN_SIZE;
    hints->min_width = min_width;
    hints->min_height = min_height;
}

XW_EXPORT void xw_icccm_size_hints_set_max_size(xw_size_hints_t *hints, int32_t max_width, int32_t max_height)
{
    hints->flags |= XW_ICCCM_SIZE_HINT_P_MAX_SIZE;
    hints->max_width = max_width;
    hints->max_height = max_height;
}

XW_EXPORT void xw_icccm_size_hints_set_resize_inc(xw_size_hints_t *hints, int32_t width_inc, int32_t height_inc)
{
    hints->flags |= XW_ICCCM_SIZE_HINT_P_RESIZE_INC;
    hints->width_inc = width_inc;
    hints->height_inc = height_inc;
}

XW_EXPORT void xw_icccm_size_hints_set_aspect(xw_size_hints_t *hints, int32_t min_aspect_num, int32_t min_aspect_den,
                                              int32_t max_aspect_num, int32_t max_aspect_den)
{
    hints->flags |= XW_ICCCM_SIZE_HINT_P_ASPECT;
    hints->min_aspect_num = min_aspect_num;
    hints->min_aspect_den = min_aspect_den;
    hints->max_aspect_num = max_aspect_num;
    hints->max_aspect_den = max_aspect_den;
}

XW_EXPORT void xw_icccm_size_hints_set_base_size(xw_size_hints_t *hints, int32_t base_width, int32_t base_height)
{
    hints->flags |= XW_ICCCM_SIZE_HINT_BASE_SIZE;
    hints->base_width = base_width;
    hints->base_height = base_height;
}

XW_EXPORT void xw_icccm_size_hints_set_win_gravity(xw_size_hints_t *hints, xw_gravity_t win_gravity)
{
    hints->flags |= XW_ICCCM_SIZE_HINT_P_WIN_GRAVITY;
    hints->win_gravity = (uint32_t)win_gravity;
}

XW_EXPORT xw_void_cookie_t xw_icccm_set_wm_size_hints_checked(xw_connection_t *c, xw_window_t window,
                                                              xw_atom_t property, xw_size_hints_t *hints)
{
    return set_prop(c, 1, window, property, XW_ATOM_WM_SIZE_HINTS, 32, XW_ICCCM_NUM_WM_SIZE_HINTS_ELEMENTS, hints);
}

XW_EXPORT xw_void_cookie_t xw_icccm_set_wm_size_hints(xw_connection_t *c, xw_window_t window, xw_atom_t property,
                                                      xw_size_hints_t *hints)
{
    return set_prop(c, 0, window, property, XW_ATOM_WM_SIZE_HINTS, 32, XW_ICCCM_NUM_WM_SIZE_HINTS_ELEMENTS, hints);
}

XW_EXPORT xw_get_property_cookie_t xw_icccm_get_wm_size_hints(xw_connection_t *c, xw_window_t window,
                                                              xw_atom_t property)
{
    return get_prop(c, 1, window, property, XW_ATOM_WM_SIZE_HINTS, XW_ICCCM_NUM_WM_SIZE_HINTS_ELEMENTS);
}

XW_EXPORT xw_get_property_cookie_t xw_icccm_get_wm_size_hints_unchecked(xw_connection_t *c, xw_window_t window,
                                                                        xw_atom_t property)
{
    return get_prop(c, 0, window, property, XW_ATOM_WM_SIZE_HINTS, XW_ICCCM_NUM_WM_SIZE_HINTS_ELEMENTS);
}

XW_EXPORT uint8_t xw_icccm_get_wm_size_hints_from_reply(xw_size_hints_t *hints, xw_get_property_reply_t *reply)
{
    if (!reply || !value_fits(reply) || reply->type != XW_ATOM_WM_SIZE_HINTS || reply->format != 32)
        return 0;
    size_t words = (size_t)xw_get_property_value_length(reply) / 4;
    if (words > XW_ICCCM_NUM_WM_SIZE_HINTS_ELEMENTS)
        words = XW_ICCCM_NUM_WM_SIZE_HINTS_ELEMENTS;
    memcpy(hints, xw_get_property_value(reply), 4 * words);
    /* ICCCM 1 had 15 words; base size and gravity came with the 18-word version 2 */
    uint32_t known = XW_ICCCM_SIZE_HINT_US_POSITION | XW_ICCCM_SIZE_HINT_US_SIZE | XW_ICCCM_SIZE_HINT_P_POSITION |
                     XW_ICCCM_SIZE_HINT_P_SIZE | XW_ICCCM_SIZE_HINT_P_MIN_SIZE | XW_ICCCM_SIZE_HINT_P_MAX_SIZE |
                     XW_ICCCM_SIZE_HINT_P_RESIZE_INC | XW_ICCCM_SIZE_HINT_P_ASPECT;
    if (words == XW_ICCCM_NUM_WM_SIZE_HINTS_ELEMENTS) {
        known |= XW_ICCCM_SIZE_HINT_BASE_SIZE | XW_ICCCM_SIZE_HINT_P_WIN_GRAVITY;
    } else {
        hints->base_width = 0;
        hints->base_height = 0;
        hints->win_gravity = 0;
    }
    hints->flags &= known;
    return 1;
}

static uint8_t parse_size_hints(void *out, xw_get_property_reply_t *reply)
{
    return xw_icccm_get_wm_size_hints_from_reply(out, reply);
}

XW_EXPORT uint8_t xw_icccm_get_wm_size_hints_reply(xw_connection_t *c, xw_get_property_cookie_t cookie,
                                                   xw_size_hints_t *hints, xw_generic_error_t **e)
{
    return small_reply(c, cookie, hints, parse_size_hints, e);
}

XW_EXPORT xw_void_cookie_t xw_icccm_set_wm_normal_hints_checked(xw_connection_t *c, xw_window_t window,
                                                                xw_size_hints_t *hints)
{
    return xw_icccm_set_wm_size_hints_checked(c, window, XW_ATOM_WM_NORMAL_HINTS, hints);
}

XW_EXPORT xw_void_cookie_t xw_icccm_set_wm_normal_hints(xw_connection_t *c, xw_window_t window, xw_size_hints_t *hints)
{
    return xw_icccm_set_wm_size_hints(c, window, XW_ATOM_WM_NORMAL_HINTS, hints);
}

XW_EXPORT xw_get_property_cookie_t xw_icccm_get_wm_normal_hints(xw_connection_t *c, xw_window_t window)
{
    return xw_icccm_get_wm_size_hints(c, window, XW_ATOM_WM_NORMAL_HINTS);
}

XW_EXPORT xw_get_property_cookie_t xw_icccm_get_wm_normal_hints_unchecked(xw_connection_t *c, xw_window_t window)
{
    return xw_icccm_get_wm_size_hints_unchecked(c, window, XW_ATOM_WM_NORMAL_HINTS);
}

XW_EXPORT uint8_t xw_icccm_get_wm_normal_hints_reply(xw_connection_t *c, xw_get_property_cookie_t cookie,
                                                     xw_size_hints_t *hints, xw_generic_error_t **e)
{
    return xw_icccm_get_wm_size_hints_reply(c, cookie, hints, e);
}

/* ---- WM_HINTS ---- */

XW_EXPORT uint32_t xw_icccm_wm_hints_get_urgency(xw_icccm_wm_hints_t *hints)
{
    return (uint32_t)hints->flags & XW_ICCCM_WM_HINT_X_URGENCY;
}

XW_EXPORT void xw_icccm_wm_hints_set_input(xw_icccm_wm_hints_t *hints, uint8_t input)
{
    hints->input = input;
    hints->flags |= XW_ICCCM_WM_HINT_INPUT;
}

static void set_state(xw_icccm_wm_hints_t *hints, int32_t state)
{
    hints->initial_state = state;
    hints->flags |= XW_ICCCM_WM_HINT_STATE;
}

XW_EXPORT void xw_icccm_wm_hints_set_iconic(xw_icccm_wm_hints_t *hints)
{
    set_state(hints, XW_ICCCM_WM_STATE_ICONIC);
}

XW_EXPORT void xw_icccm_wm_hints_set_normal(xw_icccm_wm_hints_t *hints)
{
    set_state(hints, XW_ICCCM_WM_STATE_NORMAL);
}

XW_EXPORT void xw_icccm_wm_hints_set_withdrawn(xw_icccm_wm_hints_t *hints)
{
    set_state(hints, XW_ICCCM_WM_STATE_WITHDRAWN);
}

XW_EXPORT void xw_icccm_wm_hints_set_none(xw_icccm_wm_hints_t *hints)
{
    hints->flags &= ~XW_ICCCM_WM_HINT_STATE;
}

XW_EXPORT void xw_icccm_wm_hints_set_icon_pixmap(xw_icccm_wm_hints_t *hints, xw_pixmap_t icon_pixmap)
{
    hints->icon_pixmap = icon_pixmap;
    hints->flags |= XW_ICCCM_WM_HINT_ICON_PIXMAP;
}

XW_EXPORT void xw_icccm_wm_hints_set_icon_mask(xw_icccm_wm_hints_t *hints, xw_pixmap_t icon_mask)
{
    hints->icon_mask = icon_mask;
    hints->flags |= XW_ICCCM_WM_HINT_ICON_MASK;
}

XW_EXPORT void xw_icccm_wm_hints_set_icon_window(xw_icccm_wm_hints_t *hints, xw_window_t icon_window)
{
    hints->icon_window = icon_window;
    hints->flags |= XW_ICCCM_WM_HINT_ICON_WINDOW;
}

XW_EXPORT void xw_icccm_wm_hints_set_window_group(xw_icccm_wm_hints_t *hints, xw_window_t window_group)
{
    hints->window_group = window_group;
    hints->flags |= XW_ICCCM_WM_HINT_WINDOW_GROUP;
}

XW_EXPORT void xw_icccm_wm_hints_set_urgency(xw_icccm_wm_hints_t *hints)
{
    hints->flags |= XW_ICCCM_WM_HINT_X_URGENCY;
}

XW_EXPORT xw_void_cookie_t xw_icccm_set_wm_hints_checked(xw_connection_t *c, xw_window_t window,
                                                         xw_icccm_wm_hints_t *hints)
{
    return set_prop(c, 1, window, XW_ATOM_WM_HINTS, XW_ATOM_WM_HINTS, 32, XW_ICCCM_NUM_WM_HINTS_ELEMENTS, hints);
}

XW_EXPORT xw_void_cookie_t xw_icccm_set_wm_hints(xw_connection_t *c, xw_window_t window, xw_icccm_wm_hints_t *hints)
{
    return set_prop(c, 0, window, XW_ATOM_WM_HINTS, XW_ATOM_WM_HINTS, 32, XW_ICCCM_NUM_WM_HINTS_ELEMENTS, hints);
}

XW_EXPORT xw_get_property_cookie_t xw_icccm_get_wm_hints(xw_connection_t *c, xw_window_t window)
{
    return get_prop(c, 1, window, XW_ATOM_WM_HINTS, XW_ATOM_WM_HINTS, XW_ICCCM_NUM_WM_HINTS_ELEMENTS);
}

XW_EXPORT xw_get_property_cookie_t xw_icccm_get_wm_hints_unchecked(xw_connection_t *c, xw_window_t window)
{
    return get_prop(c, 0, window, XW_ATOM_WM_HINTS, XW_ATOM_WM_HINTS, XW_ICCCM_NUM_WM_HINTS_ELEMENTS);
}

XW_EXPORT uint8_t xw_icccm_get_wm_hints_from_reply(xw_icccm_wm_hints_t *hints, xw_get_property_reply_t *reply)
{
    if (!reply || !value_fits(reply) || reply->type != XW_ATOM_WM_HINTS || reply->format != 32)
        return 0;
    size_t bytes = (size_t)xw_get_property_value_length(reply), words = bytes / 4;
    /* ICCCM 1's WM_HINTS had no window group: 8 words are accepted */
    if (words < XW_ICCCM_NUM_WM_HINTS_ELEMENTS - 1)
        return 0;
    memcpy(hints, xw_get_property_value(reply), bytes < sizeof(*hints) ? bytes : sizeof(*hints));
    if (words < XW_ICCCM_NUM_WM_HINTS_ELEMENTS)
        hints->window_group = XW_NONE;
    return 1;
}

static uint8_t parse_wm_hints(void *out, xw_get_property_reply_t *reply)
{
    return xw_icccm_get_wm_hints_from_reply(out, reply);
}

XW_EXPORT uint8_t xw_icccm_get_wm_hints_reply(xw_connection_t *c, xw_get_property_cookie_t cookie,
                                              xw_icccm_wm_hints_t *hints, xw_generic_error_t **e)
{
    return small_reply(c, cookie, hints, parse_wm_hints, e);
}
