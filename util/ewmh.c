/* SPDX-License-Identifier: MIT */
/* ewmh.c — libxcb-ewmh's shared machinery on xwire: atoms, reply parsing, client messages, icons. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <xw/xwext.h>

#include "ewmh_int.h"

/* Every atom of xw_ewmh_connection_t, in the struct's order, which is also the order
 * libxcb-ewmh interns them in (so both send the same bytes). */
/* Laid out by hand: clang-format reads an X-list as one expression and rewraps it on every run. */
/* clang-format off */
#define EWMH_ATOMS(X)                                                                                                  \
    X(_NET_SUPPORTED) X(_NET_CLIENT_LIST) X(_NET_CLIENT_LIST_STACKING) X(_NET_NUMBER_OF_DESKTOPS)                      \
    X(_NET_DESKTOP_GEOMETRY) X(_NET_DESKTOP_VIEWPORT) X(_NET_CURRENT_DESKTOP) X(_NET_DESKTOP_NAMES)                    \
    X(_NET_ACTIVE_WINDOW) X(_NET_WORKAREA) X(_NET_SUPPORTING_WM_CHECK) X(_NET_VIRTUAL_ROOTS) X(_NET_DESKTOP_LAYOUT)    \
    X(_NET_SHOWING_DESKTOP) X(_NET_CLOSE_WINDOW) X(_NET_MOVERESIZE_WINDOW) X(_NET_WM_MOVERESIZE)                       \
    X(_NET_RESTACK_WINDOW) X(_NET_REQUEST_FRAME_EXTENTS) X(_NET_WM_NAME) X(_NET_WM_VISIBLE_NAME) X(_NET_WM_ICON_NAME)  \
    X(_NET_WM_VISIBLE_ICON_NAME) X(_NET_WM_DESKTOP) X(_NET_WM_WINDOW_TYPE) X(_NET_WM_STATE)                            \
    X(_NET_WM_ALLOWED_ACTIONS) X(_NET_WM_STRUT) X(_NET_WM_STRUT_PARTIAL) X(_NET_WM_ICON_GEOMETRY) X(_NET_WM_ICON)      \
    X(_NET_WM_PID) X(_NET_WM_HANDLED_ICONS) X(_NET_WM_USER_TIME) X(_NET_WM_USER_TIME_WINDOW) X(_NET_FRAME_EXTENTS)     \
    X(_NET_WM_PING) X(_NET_WM_SYNC_REQUEST) X(_NET_WM_SYNC_REQUEST_COUNTER) X(_NET_WM_FULLSCREEN_MONITORS)             \
    X(_NET_WM_FULL_PLACEMENT) X(UTF8_STRING) X(WM_PROTOCOLS) X(MANAGER) X(_NET_WM_WINDOW_TYPE_DESKTOP)                 \
    X(_NET_WM_WINDOW_TYPE_DOCK) X(_NET_WM_WINDOW_TYPE_TOOLBAR) X(_NET_WM_WINDOW_TYPE_MENU)                             \
    X(_NET_WM_WINDOW_TYPE_UTILITY) X(_NET_WM_WINDOW_TYPE_SPLASH) X(_NET_WM_WINDOW_TYPE_DIALOG)                         \
    X(_NET_WM_WINDOW_TYPE_DROPDOWN_MENU) X(_NET_WM_WINDOW_TYPE_POPUP_MENU) X(_NET_WM_WINDOW_TYPE_TOOLTIP)              \
    X(_NET_WM_WINDOW_TYPE_NOTIFICATION) X(_NET_WM_WINDOW_TYPE_COMBO) X(_NET_WM_WINDOW_TYPE_DND)                        \
    X(_NET_WM_WINDOW_TYPE_NORMAL) X(_NET_WM_STATE_MODAL) X(_NET_WM_STATE_STICKY) X(_NET_WM_STATE_MAXIMIZED_VERT)       \
    X(_NET_WM_STATE_MAXIMIZED_HORZ) X(_NET_WM_STATE_SHADED) X(_NET_WM_STATE_SKIP_TASKBAR) X(_NET_WM_STATE_SKIP_PAGER)  \
    X(_NET_WM_STATE_HIDDEN) X(_NET_WM_STATE_FULLSCREEN) X(_NET_WM_STATE_ABOVE) X(_NET_WM_STATE_BELOW)                  \
    X(_NET_WM_STATE_DEMANDS_ATTENTION) X(_NET_WM_ACTION_MOVE) X(_NET_WM_ACTION_RESIZE) X(_NET_WM_ACTION_MINIMIZE)      \
    X(_NET_WM_ACTION_SHADE) X(_NET_WM_ACTION_STICK) X(_NET_WM_ACTION_MAXIMIZE_HORZ) X(_NET_WM_ACTION_MAXIMIZE_VERT)    \
    X(_NET_WM_ACTION_FULLSCREEN) X(_NET_WM_ACTION_CHANGE_DESKTOP) X(_NET_WM_ACTION_CLOSE) X(_NET_WM_ACTION_ABOVE)      \
    X(_NET_WM_ACTION_BELOW)
/* clang-format on */

static const struct {
    const char *name;
    uint16_t len;
    uint16_t offset; /* of the field in xw_ewmh_connection_t */
} atom_table[] = {
#define ATOM_ENTRY(n) {#n, sizeof(#n) - 1, offsetof(xw_ewmh_connection_t, n)},
    EWMH_ATOMS(ATOM_ENTRY)
#undef ATOM_ENTRY
};
#define N_ATOMS (sizeof(atom_table) / sizeof(atom_table[0]))

/* The table covers the struct's atoms from first to last without a gap. */
_Static_assert(N_ATOMS * sizeof(xw_atom_t) == offsetof(xw_ewmh_connection_t, _NET_WM_ACTION_BELOW) + sizeof(xw_atom_t) -
                                                  offsetof(xw_ewmh_connection_t, _NET_SUPPORTED),
               "EWMH_ATOMS must list every atom of xw_ewmh_connection_t");

/* ---- the shared pieces ---- */

xw_window_t xw__ewmh_root(const xw_ewmh_connection_t *ewmh, int n)
{
    if (!ewmh->screens || n < 0 || n >= ewmh->nb_screens)
        return XW_NONE;
    return ewmh->screens[n]->root;
}

xw_get_property_cookie_t xw__ewmh_get(xw_ewmh_connection_t *ewmh, int checked, xw_window_t w, xw_atom_t prop,
                                      xw_atom_t type, uint32_t long_length)
{
    if (checked)
        return xw_get_property(ewmh->connection, 0, w, prop, type, 0, long_length);
    return xw_get_property_unchecked(ewmh->connection, 0, w, prop, type, 0, long_length);
}

xw_void_cookie_t xw__ewmh_set(xw_ewmh_connection_t *ewmh, int checked, xw_window_t w, xw_atom_t prop, xw_atom_t type,
                              uint8_t format, uint64_t n, const void *data)
{
    if (n > UINT32_MAX) /* a list count times its item size that overflows the wire's 32 bits */
        return (xw_void_cookie_t){0};
    if (checked)
        return xw_change_property_checked(ewmh->connection, XW_PROP_MODE_REPLACE, w, prop, type, format, (uint32_t)n,
                                          data);
    return xw_change_property(ewmh->connection, XW_PROP_MODE_REPLACE, w, prop, type, format, (uint32_t)n, data);
}

xw_void_cookie_t xw__ewmh_to_root(xw_ewmh_connection_t *ewmh, int n, xw_window_t window, xw_atom_t type,
                                  const uint32_t *data, uint32_t data_len)
{
    return xw_ewmh_send_client_message(ewmh->connection, window, xw__ewmh_root(ewmh, n), type,
                                       data_len * (uint32_t)sizeof(uint32_t), data);
}

const void *xw__ewmh_value(const xw_get_property_reply_t *r, xw_atom_t type, uint8_t format, uint32_t *bytes)
{
    if (!r || r->type != type || r->format != format)
        return NULL;
    uint64_t n = (uint64_t)r->value_len * (format / 8);
    if (n > (uint64_t)r->length * 4)
        return NULL; /* the count claims more than the reply carries */
    *bytes = (uint32_t)n;
    return xw_get_property_value(r);
}

uint8_t xw__ewmh_fixed_from_reply(const xw_get_property_reply_t *r, xw_atom_t type, void *out, uint32_t bytes)
{
    uint32_t have;
    const void *v = xw__ewmh_value(r, type, 32, &have);
    if (!v || have != bytes)
        return 0;
    memcpy(out, v, bytes);
    return 1;
}

/* Hands an X error to the caller as libxcb does: a malloc'd copy in *e. */
static void give_error(xw_generic_error_t **e, const xw_generic_error_t *err)
{
    if (e && (*e = malloc(sizeof(*err))) != NULL)
        memcpy(*e, err, sizeof(*err));
}

/* Storage for a 32-byte reply: the generated reply structs of InternAtom and
 * GetSelectionOwner stop at their last field (12 bytes), the wire packet does not. */
union small_reply {
    xw_intern_atom_reply_t atom;
    xw_get_selection_owner_reply_t owner;
    uint8_t wire[32];
};

/* Waits for the reply to seq into buf (cap bytes); 1 when it came. A reply longer than buf
 * is longer than the request allowed the server to send: it is dropped as malformed. */
static int reply_into(xw_connection_t *c, unsigned int seq, void *buf, size_t cap, xw_generic_error_t **e)
{
    xw_generic_error_t err;
    size_t len;
    if (e)
        *e = NULL;
    int rc = xw_wait_for_reply_into(c, seq, buf, cap, &len, &err, -1);
    if (rc == -ENOSPC)
        xw_discard_reply64(c, seq);
    else if (rc == 2)
        give_error(e, &err);
    return rc == 1;
}

xw_get_property_reply_t *xw__ewmh_wait_small(xw_ewmh_connection_t *ewmh, unsigned int seq, xw__ewmh_small_reply_t *buf,
                                             xw_generic_error_t **e)
{
    return reply_into(ewmh->connection, seq, buf, sizeof(*buf), e) ? &buf->r : NULL;
}

/* ---- atoms ---- */

XW_EXPORT xw_intern_atom_cookie_t *xw_ewmh_init_atoms(xw_connection_t *c, xw_ewmh_connection_t *ewmh)
{
    const xw_setup_t *setup = xw_get_setup(c);
    ewmh->connection = c;
    ewmh->screens = NULL;
    ewmh->_NET_WM_CM_Sn = NULL;
    ewmh->nb_screens = setup ? xw_setup_roots_length(setup) : 0;
    if (ewmh->nb_screens <= 0)
        return NULL;
    size_t ns = (size_t)ewmh->nb_screens;
    xw_intern_atom_cookie_t *cookies = malloc((N_ATOMS + ns) * sizeof(*cookies));
    ewmh->screens = malloc(ns * sizeof(*ewmh->screens));
    ewmh->_NET_WM_CM_Sn = malloc(ns * sizeof(xw_atom_t));
    if (!cookies || !ewmh->screens || !ewmh->_NET_WM_CM_Sn) {
        free(cookies);
        xw_ewmh_connection_wipe(ewmh);
        return NULL;
    }
    int n = 0;
    for (xw_screen_iterator_t i = xw_setup_roots_iterator(setup); i.rem; xw_screen_next(&i))
        ewmh->screens[n++] = i.data;
    for (size_t a = 0; a < N_ATOMS; a++)
        cookies[a] = xw_intern_atom(c, 0, atom_table[a].len, atom_table[a].name);
    for (n = 0; n < ewmh->nb_screens; n++) {
        char name[32];
        int len = snprintf(name, sizeof(name), "_NET_WM_CM_S%d", n);
        cookies[N_ATOMS + (size_t)n] = xw_intern_atom(c, 0, (uint16_t)len, name);
    }
    return cookies;
}

XW_EXPORT uint8_t xw_ewmh_init_atoms_replies(xw_ewmh_connection_t *ewmh, xw_intern_atom_cookie_t *ewmh_cookies,
                                             xw_generic_error_t **e)
{
    if (e)
        *e = NULL;
    if (!ewmh_cookies)
        return 0;
    uint8_t ok = 1;
    /* Every cookie is claimed, also after a failure, so no reply stays queued. */
    for (size_t i = 0; i < N_ATOMS + (size_t)ewmh->nb_screens; i++) {
        union small_reply r;
        xw_generic_error_t *err = NULL;
        if (!reply_into(ewmh->connection, ewmh_cookies[i].sequence, &r, sizeof(r), ok ? e : &err)) {
            free(err);
            ok = 0;
        } else if (i < N_ATOMS) {
            memcpy((char *)ewmh + atom_table[i].offset, &r.atom.atom, sizeof(r.atom.atom));
        } else {
            ewmh->_NET_WM_CM_Sn[i - N_ATOMS] = r.atom.atom;
        }
    }
    if (!ok)
        xw_ewmh_connection_wipe(ewmh);
    free(ewmh_cookies);
    return ok;
}

/* ---- client messages ---- */

XW_EXPORT xw_void_cookie_t xw_ewmh_send_client_message(xw_connection_t *c, xw_window_t window, xw_window_t dest,
                                                       xw_atom_t atom, uint32_t data_len, const uint32_t *data)
{
    xw_client_message_event_t ev;
    memset(&ev, 0, sizeof(ev));
    if (data_len > sizeof(ev.data.data32))
        return (xw_void_cookie_t){0};
    ev.response_type = XW_CLIENT_MESSAGE;
    ev.format = 32;
    ev.window = window;
    ev.type = atom;
    if (data_len)
        memcpy(ev.data.data32, data, data_len);
    return xw_send_event(c, 0, dest, XW_EVENT_MASK_SUBSTRUCTURE_NOTIFY | XW_EVENT_MASK_SUBSTRUCTURE_REDIRECT,
                         (const char *)&ev);
}

XW_EXPORT xw_void_cookie_t xw_ewmh_send_wm_ping(xw_ewmh_connection_t *ewmh, xw_window_t window,
                                                xw_timestamp_t timestamp)
{
    const uint32_t data[] = {ewmh->_NET_WM_PING, timestamp, window};
    return xw_ewmh_send_client_message(ewmh->connection, window, window, ewmh->WM_PROTOCOLS, sizeof(data), data);
}

XW_EXPORT xw_void_cookie_t xw_ewmh_send_wm_sync_request(xw_ewmh_connection_t *ewmh, xw_window_t window,
                                                        xw_atom_t wm_protocols_atom, xw_atom_t wm_sync_request_atom,
                                                        xw_timestamp_t timestamp, uint64_t counter)
{
    (void)wm_protocols_atom; /* unused, as in libxcb-ewmh: the interned atoms are sent */
    (void)wm_sync_request_atom;
    const uint32_t data[] = {ewmh->_NET_WM_SYNC_REQUEST, timestamp, (uint32_t)counter, (uint32_t)(counter >> 32)};
    return xw_ewmh_send_client_message(ewmh->connection, window, window, ewmh->WM_PROTOCOLS, sizeof(data), data);
}

/* ---- the generic reply kinds ---- */

XW_EXPORT uint8_t xw_ewmh_get_window_from_reply(xw_window_t *window, xw_get_property_reply_t *r)
{
    return xw__ewmh_fixed_from_reply(r, XW_ATOM_WINDOW, window, sizeof(*window));
}

XW_EXPORT uint8_t xw_ewmh_get_window_reply(xw_ewmh_connection_t *ewmh, xw_get_property_cookie_t cookie,
                                           xw_window_t *window, xw_generic_error_t **e)
{
    xw__ewmh_small_reply_t buf;
    return xw_ewmh_get_window_from_reply(window, xw__ewmh_wait_small(ewmh, cookie.sequence, &buf, e));
}

XW_EXPORT uint8_t xw_ewmh_get_cardinal_from_reply(uint32_t *cardinal, xw_get_property_reply_t *r)
{
    return xw__ewmh_fixed_from_reply(r, XW_ATOM_CARDINAL, cardinal, sizeof(*cardinal));
}

XW_EXPORT uint8_t xw_ewmh_get_cardinal_reply(xw_ewmh_connection_t *ewmh, xw_get_property_cookie_t cookie,
                                             uint32_t *cardinal, xw_generic_error_t **e)
{
    xw__ewmh_small_reply_t buf;
    return xw_ewmh_get_cardinal_from_reply(cardinal, xw__ewmh_wait_small(ewmh, cookie.sequence, &buf, e));
}

/* A list of `unit`-byte items from r: *items and *count when r is type/format and inside
 * its bytes; r is then kept in *keep. 0 and nothing stored otherwise. */
static uint8_t list_from_reply(xw_get_property_reply_t *r, xw_atom_t type, uint8_t format, uint32_t unit,
                               uint32_t *count, void **items, xw_get_property_reply_t **keep)
{
    uint32_t bytes;
    const void *v = xw__ewmh_value(r, type, format, &bytes);
    if (!v)
        return 0;
    *count = bytes / unit;
    *items = (void *)v;
    *keep = r;
    return 1;
}

/* The malloc'd-reply path of the list getters (libxcb-ewmh's): the reply is freed unless parsed. */
#define LIST_REPLY(kind, rtype, parse)                                                                                 \
    XW_EXPORT uint8_t xw_ewmh_get_##kind##_reply(xw_ewmh_connection_t *ewmh, xw_get_property_cookie_t cookie,          \
                                                 rtype *data, xw_generic_error_t **e)                                  \
    {                                                                                                                  \
        xw_get_property_reply_t *r = xw_get_property_reply(ewmh->connection, cookie, e);                               \
        uint8_t ok = parse;                                                                                            \
        if (!ok)                                                                                                       \
            free(r);                                                                                                   \
        return ok;                                                                                                     \
    }                                                                                                                  \
    XW_EXPORT void xw_ewmh_get_##kind##_reply_wipe(rtype *data)                                                        \
    {                                                                                                                  \
        free(data->_reply);                                                                                            \
    }

#define LIST_KIND(kind, rtype, field, type, unit)                                                                      \
    XW_EXPORT uint8_t xw_ewmh_get_##kind##_from_reply(rtype *data, xw_get_property_reply_t *r)                         \
    {                                                                                                                  \
        void *items;                                                                                                   \
        if (!list_from_reply(r, type, 32, unit, &data->field##_len, &items, &data->_reply))                            \
            return 0;                                                                                                  \
        data->field = items;                                                                                           \
        return 1;                                                                                                      \
    }                                                                                                                  \
    LIST_REPLY(kind, rtype, xw_ewmh_get_##kind##_from_reply(data, r))

LIST_KIND(atoms, xw_ewmh_get_atoms_reply_t, atoms, XW_ATOM_ATOM, sizeof(xw_atom_t))
LIST_KIND(windows, xw_ewmh_get_windows_reply_t, windows, XW_ATOM_WINDOW, sizeof(xw_window_t))
LIST_KIND(desktop_viewport, xw_ewmh_get_desktop_viewport_reply_t, desktop_viewport, XW_ATOM_CARDINAL,
          sizeof(xw_ewmh_coordinates_t))
LIST_KIND(workarea, xw_ewmh_get_workarea_reply_t, workarea, XW_ATOM_CARDINAL, sizeof(xw_ewmh_geometry_t))

XW_EXPORT uint8_t xw_ewmh_get_utf8_strings_from_reply(xw_ewmh_connection_t *ewmh,
                                                      xw_ewmh_get_utf8_strings_reply_t *data,
                                                      xw_get_property_reply_t *r)
{
    void *items;
    if (!list_from_reply(r, ewmh->UTF8_STRING, 8, 1, &data->strings_len, &items, &data->_reply))
        return 0;
    data->strings = items;
    return 1;
}

LIST_REPLY(utf8_strings, xw_ewmh_get_utf8_strings_reply_t, xw_ewmh_get_utf8_strings_from_reply(ewmh, data, r))

/* ---- _NET_WM_ICON ---- */

/* Whole icons in the `bytes` bytes at v: each is width, height and width * height pixels;
 * counting stops at an empty one or one that does not fit. */
static unsigned int count_icons(const uint32_t *v, uint32_t bytes)
{
    unsigned int n = 0;
    while (bytes > 2 * sizeof(uint32_t) && v[0] && v[1]) {
        uint64_t need = ((uint64_t)v[0] * v[1] + 2) * sizeof(uint32_t);
        if (need > bytes)
            break;
        n++;
        bytes -= (uint32_t)need;
        v += need / sizeof(uint32_t);
    }
    return n;
}

XW_EXPORT uint8_t xw_ewmh_get_wm_icon_from_reply(xw_ewmh_get_wm_icon_reply_t *wm_icon, xw_get_property_reply_t *r)
{
    uint32_t bytes;
    const uint32_t *v = xw__ewmh_value(r, XW_ATOM_CARDINAL, 32, &bytes);
    unsigned int n = v ? count_icons(v, bytes) : 0;
    if (!n)
        return 0;
    wm_icon->num_icons = n;
    wm_icon->_reply = r;
    return 1;
}

LIST_REPLY(wm_icon, xw_ewmh_get_wm_icon_reply_t, xw_ewmh_get_wm_icon_from_reply(data, r))

XW_EXPORT xw_ewmh_wm_icon_iterator_t xw_ewmh_get_wm_icon_iterator(const xw_ewmh_get_wm_icon_reply_t *wm_icon)
{
    xw_ewmh_wm_icon_iterator_t i = {0, 0, NULL, wm_icon->num_icons, 0};
    if (i.rem) {
        uint32_t *v = xw_get_property_value(wm_icon->_reply);
        i.width = v[0];
        i.height = v[1];
        i.data = v + 2;
    }
    return i;
}

XW_EXPORT unsigned int xw_ewmh_get_wm_icon_length(const xw_ewmh_get_wm_icon_reply_t *wm_icon)
{
    return wm_icon->num_icons;
}

XW_EXPORT void xw_ewmh_get_wm_icon_next(xw_ewmh_wm_icon_iterator_t *i)
{
    if (i->rem <= 1) { /* past the last: from_reply counted only icons that fit */
        i->index += i->rem;
        i->rem = 0;
        i->width = i->height = 0;
        i->data = NULL;
        return;
    }
    uint32_t *next = i->data + (uint64_t)i->width * i->height;
    i->rem--;
    i->index++;
    i->width = next[0];
    i->height = next[1];
    i->data = next + 2;
}

/* The icon's header and pixels go out as two iovecs after the fixed part: img is never copied. */
static xw_void_cookie_t append_icon(xw_ewmh_connection_t *ewmh, int flags, xw_window_t window, uint32_t width,
                                    uint32_t height, uint32_t img_len, const uint32_t *img)
{
    static const xw_protocol_request_t req = {.count = 3, .opcode = XW_CHANGE_PROPERTY, .isvoid = 1};
    if (img_len > UINT32_MAX - 2 || (img_len && !img))
        return (xw_void_cookie_t){0};
    xw_change_property_request_t fixed = {.mode = XW_PROP_MODE_APPEND,
                                          .window = window,
                                          .property = ewmh->_NET_WM_ICON,
                                          .type = XW_ATOM_CARDINAL,
                                          .format = 32,
                                          .data_len = img_len + 2};
    uint32_t size[2] = {width, height};
    struct iovec parts[5] = {
        [2] = {&fixed, sizeof(fixed)},
        [3] = {size, sizeof(size)},
        [4] = {(void *)img, (size_t)img_len * sizeof(uint32_t)},
    };
    size_t total = sizeof(fixed) + sizeof(size) + parts[4].iov_len;
    return (xw_void_cookie_t){(unsigned int)xw_send(ewmh->connection, flags, parts + 2, &req, total, 0, NULL)};
}

XW_EXPORT xw_void_cookie_t xw_ewmh_append_wm_icon_checked(xw_ewmh_connection_t *ewmh, xw_window_t window,
                                                          uint32_t width, uint32_t height, uint32_t img_len,
                                                          uint32_t *img)
{
    return append_icon(ewmh, XW_REQUEST_CHECKED, window, width, height, img_len, img);
}

XW_EXPORT xw_void_cookie_t xw_ewmh_append_wm_icon(xw_ewmh_connection_t *ewmh, xw_window_t window, uint32_t width,
                                                  uint32_t height, uint32_t img_len, uint32_t *img)
{
    return append_icon(ewmh, 0, window, width, height, img_len, img);
}

/* ---- _NET_WM_CM_Sn ---- */

static xw_atom_t cm_atom(const xw_ewmh_connection_t *ewmh, int n)
{
    return xw__ewmh_root(ewmh, n) != XW_NONE ? ewmh->_NET_WM_CM_Sn[n] : XW_NONE;
}

/* Takes the selection and announces it (ICCCM 2.8 MANAGER message; libxcb-ewmh leaves its
 * window field 0, and so does this, to send the same bytes). */
static xw_void_cookie_t set_cm_owner(xw_ewmh_connection_t *ewmh, int checked, int n, xw_window_t owner,
                                     xw_timestamp_t timestamp, uint32_t data1, uint32_t data2)
{
    xw_client_message_event_t ev;
    memset(&ev, 0, sizeof(ev));
    ev.response_type = XW_CLIENT_MESSAGE;
    ev.format = 32;
    ev.type = ewmh->MANAGER;
    const uint32_t data[5] = {timestamp, cm_atom(ewmh, n), owner, data1, data2};
    memcpy(ev.data.data32, data, sizeof(data));
    xw_set_selection_owner(ewmh->connection, owner, cm_atom(ewmh, n), XW_CURRENT_TIME);
    xw_window_t root = xw__ewmh_root(ewmh, n);
    if (checked)
        return xw_send_event_checked(ewmh->connection, 0, root, XW_EVENT_MASK_STRUCTURE_NOTIFY, (const char *)&ev);
    return xw_send_event(ewmh->connection, 0, root, XW_EVENT_MASK_STRUCTURE_NOTIFY, (const char *)&ev);
}

XW_EXPORT xw_void_cookie_t xw_ewmh_set_wm_cm_owner(xw_ewmh_connection_t *ewmh, int screen_nbr, xw_window_t owner,
                                                   xw_timestamp_t timestamp, uint32_t selection_data1,
                                                   uint32_t selection_data2)
{
    return set_cm_owner(ewmh, 0, screen_nbr, owner, timestamp, selection_data1, selection_data2);
}

XW_EXPORT xw_void_cookie_t xw_ewmh_set_wm_cm_owner_checked(xw_ewmh_connection_t *ewmh, int screen_nbr,
                                                           xw_window_t owner, xw_timestamp_t timestamp,
                                                           uint32_t selection_data1, uint32_t selection_data2)
{
    return set_cm_owner(ewmh, 1, screen_nbr, owner, timestamp, selection_data1, selection_data2);
}

XW_EXPORT xw_get_selection_owner_cookie_t xw_ewmh_get_wm_cm_owner(xw_ewmh_connection_t *ewmh, int screen_nbr)
{
    return xw_get_selection_owner(ewmh->connection, cm_atom(ewmh, screen_nbr));
}

XW_EXPORT xw_get_selection_owner_cookie_t xw_ewmh_get_wm_cm_owner_unchecked(xw_ewmh_connection_t *ewmh, int screen_nbr)
{
    return xw_get_selection_owner_unchecked(ewmh->connection, cm_atom(ewmh, screen_nbr));
}

XW_EXPORT uint8_t xw_ewmh_get_wm_cm_owner_from_reply(xw_window_t *owner, xw_get_selection_owner_reply_t *r)
{
    if (!r)
        return 0;
    *owner = r->owner;
    free(r); /* libxcb-ewmh's contract: this call owns r */
    return 1;
}

XW_EXPORT uint8_t xw_ewmh_get_wm_cm_owner_reply(xw_ewmh_connection_t *ewmh, xw_get_selection_owner_cookie_t cookie,
                                                xw_window_t *owner, xw_generic_error_t **e)
{
    union small_reply r;
    if (!reply_into(ewmh->connection, cookie.sequence, &r, sizeof(r), e))
        return 0;
    *owner = r.owner.owner;
    return 1;
}

/* ---- replies into caller storage ---- */

static int parse_kind(xw_ewmh_connection_t *ewmh, int kind, xw_get_property_reply_t *r, void *out)
{
    switch (kind) {
    case XW_EWMH_REPLY_WINDOWS:
        return xw_ewmh_get_windows_from_reply(out, r);
    case XW_EWMH_REPLY_ATOMS:
        return xw_ewmh_get_atoms_from_reply(out, r);
    case XW_EWMH_REPLY_UTF8_STRINGS:
        return xw_ewmh_get_utf8_strings_from_reply(ewmh, out, r);
    case XW_EWMH_REPLY_DESKTOP_VIEWPORT:
        return xw_ewmh_get_desktop_viewport_from_reply(out, r);
    case XW_EWMH_REPLY_WORKAREA:
        return xw_ewmh_get_workarea_from_reply(out, r);
    case XW_EWMH_REPLY_WM_ICON:
        return xw_ewmh_get_wm_icon_from_reply(out, r);
    }
    return 0;
}

XW_EXPORT int xw_ewmh_get_reply_into(xw_ewmh_connection_t *ewmh, xw_get_property_cookie_t cookie, int kind, void *buf,
                                     size_t cap, size_t *len, void *out, xw_generic_error_t *e)
{
    xw_generic_error_t err;
    size_t got = 0;
    int rc = xw_wait_for_reply_into(ewmh->connection, cookie.sequence, buf, cap, &got, &err, -1);
    if (len)
        *len = got;
    if (rc == 2 && e)
        *e = err;
    if (rc != 1)
        return rc;
    return parse_kind(ewmh, kind, buf, out);
}
