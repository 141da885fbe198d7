/* SPDX-License-Identifier: MIT */
/* ewmh_props.c — the EWMH properties as thin wrappers over ewmh.c's shared get/set/parse. */
#include "ewmh_int.h"

/* Where a property lives: ROOT(n) is screen n's root window, WIN(w) a window. */
#define ROOT(t) xw__ewmh_root(ewmh, t)
#define WIN(t) (t)
#define ROOT_T int
#define WIN_T xw_window_t

/* GetProperty senders, checked and unchecked. */
#define GETTERS(fname, where, prop, type, length)                                                                      \
    XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_##fname(xw_ewmh_connection_t *ewmh, where##_T t)                    \
    {                                                                                                                  \
        return xw__ewmh_get(ewmh, 1, where(t), ewmh->prop, type, length);                                              \
    }                                                                                                                  \
    XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_##fname##_unchecked(xw_ewmh_connection_t *ewmh, where##_T t)        \
    {                                                                                                                  \
        return xw__ewmh_get(ewmh, 0, where(t), ewmh->prop, type, length);                                              \
    }

/* ChangeProperty setters, unchecked and checked, over (params) sending n items of data. */
#define SETTERS(fname, params, w, prop, type, format, n, data)                                                         \
    XW_EXPORT xw_void_cookie_t xw_ewmh_set_##fname params                                                              \
    {                                                                                                                  \
        return xw__ewmh_set(ewmh, 0, w, ewmh->prop, type, format, n, data);                                            \
    }                                                                                                                  \
    XW_EXPORT xw_void_cookie_t xw_ewmh_set_##fname##_checked params                                                    \
    {                                                                                                                  \
        return xw__ewmh_set(ewmh, 1, w, ewmh->prop, type, format, n, data);                                            \
    }

/* One 32-bit value (parsed by the header's inline forms). */
#define SINGLE(fname, where, prop, type, ctype)                                                                        \
    GETTERS(fname, where, prop, type, 1)                                                                               \
    SETTERS(fname, (xw_ewmh_connection_t * ewmh, where##_T t, ctype value), where(t), prop, type, 32, 1, &value)

/* A list of ctype on a root window (ctype a multiple of 32 bits). */
#define ROOT_LIST(fname, prop, type, ctype)                                                                            \
    GETTERS(fname, ROOT, prop, type, UINT32_MAX)                                                                       \
    SETTERS(fname, (xw_ewmh_connection_t * ewmh, int t, uint32_t list_len, ctype *list), ROOT(t), prop, type, 32,      \
            (uint64_t)list_len *(sizeof(ctype) / 4), list)

/* An ATOM list on a window, parsed as the atoms kind. */
#define ATOM_LIST(fname, prop)                                                                                         \
    GETTERS(fname, WIN, prop, XW_ATOM_ATOM, UINT32_MAX)                                                                \
    SETTERS(fname, (xw_ewmh_connection_t * ewmh, xw_window_t t, uint32_t list_len, xw_atom_t * list), t, prop,         \
            XW_ATOM_ATOM, 32, list_len, list)                                                                          \
    XW_EXPORT uint8_t xw_ewmh_get_##fname##_from_reply(xw_ewmh_get_atoms_reply_t *data, xw_get_property_reply_t *r)    \
    {                                                                                                                  \
        return xw_ewmh_get_atoms_from_reply(data, r);                                                                  \
    }                                                                                                                  \
    XW_EXPORT uint8_t xw_ewmh_get_##fname##_reply(xw_ewmh_connection_t *ewmh, xw_get_property_cookie_t cookie,         \
                                                  xw_ewmh_get_atoms_reply_t *data, xw_generic_error_t **e)             \
    {                                                                                                                  \
        return xw_ewmh_get_atoms_reply(ewmh, cookie, data, e);                                                         \
    }

/* UTF8_STRING/8 text; read with type AnyPropertyType, as libxcb-ewmh does. */
#define UTF8(fname, where, prop)                                                                                       \
    GETTERS(fname, where, prop, XW_GET_PROPERTY_TYPE_ANY, UINT32_MAX)                                                  \
    SETTERS(fname, (xw_ewmh_connection_t * ewmh, where##_T t, uint32_t strings_len, const char *strings), where(t),    \
            prop, ewmh->UTF8_STRING, 8, strings_len, strings)

/* A fixed structure of 32-bit CARDINALs, parsed into rtype. */
#define STRUCT_REPLY(fname, rtype)                                                                                     \
    XW_EXPORT uint8_t xw_ewmh_get_##fname##_from_reply(rtype *out, xw_get_property_reply_t *r)                         \
    {                                                                                                                  \
        return xw__ewmh_fixed_from_reply(r, XW_ATOM_CARDINAL, out, sizeof(*out));                                      \
    }                                                                                                                  \
    XW_EXPORT uint8_t xw_ewmh_get_##fname##_reply(xw_ewmh_connection_t *ewmh, xw_get_property_cookie_t cookie,         \
                                                  rtype *out, xw_generic_error_t **e)                                  \
    {                                                                                                                  \
        xw__ewmh_small_reply_t buf;                                                                                    \
        return xw_ewmh_get_##fname##_from_reply(out, xw__ewmh_wait_small(ewmh, cookie.sequence, &buf, e));             \
    }

/* Four CARDINALs set from four arguments, read back as rtype. */
#define FOUR(fname, where, prop, a, b, c, d, rtype)                                                                    \
    GETTERS(fname, where, prop, XW_ATOM_CARDINAL, 4)                                                                   \
    SETTERS(fname, (xw_ewmh_connection_t * ewmh, where##_T t, uint32_t a, uint32_t b, uint32_t c, uint32_t d),         \
            where(t), prop, XW_ATOM_CARDINAL, 32, 4, ((const uint32_t[]){a, b, c, d}))                                 \
    STRUCT_REPLY(fname, rtype)

/* Root window properties. */
ROOT_LIST(supported, _NET_SUPPORTED, XW_ATOM_ATOM, xw_atom_t)
ROOT_LIST(client_list, _NET_CLIENT_LIST, XW_ATOM_WINDOW, xw_window_t)
ROOT_LIST(client_list_stacking, _NET_CLIENT_LIST_STACKING, XW_ATOM_WINDOW, xw_window_t)
ROOT_LIST(virtual_roots, _NET_VIRTUAL_ROOTS, XW_ATOM_WINDOW, xw_window_t)
ROOT_LIST(desktop_viewport, _NET_DESKTOP_VIEWPORT, XW_ATOM_CARDINAL, xw_ewmh_coordinates_t)
ROOT_LIST(workarea, _NET_WORKAREA, XW_ATOM_CARDINAL, xw_ewmh_geometry_t)
SINGLE(number_of_desktops, ROOT, _NET_NUMBER_OF_DESKTOPS, XW_ATOM_CARDINAL, uint32_t)
SINGLE(current_desktop, ROOT, _NET_CURRENT_DESKTOP, XW_ATOM_CARDINAL, uint32_t)
SINGLE(active_window, ROOT, _NET_ACTIVE_WINDOW, XW_ATOM_WINDOW, xw_window_t)
SINGLE(showing_desktop, ROOT, _NET_SHOWING_DESKTOP, XW_ATOM_CARDINAL, uint32_t)
UTF8(desktop_names, ROOT, _NET_DESKTOP_NAMES)

/* _NET_SUPPORTING_WM_CHECK is read from any window and set on the root (or the check window). */
GETTERS(supporting_wm_check, WIN, _NET_SUPPORTING_WM_CHECK, XW_ATOM_WINDOW, 1)
SETTERS(supporting_wm_check, (xw_ewmh_connection_t * ewmh, xw_window_t parent_window, xw_window_t child_window),
        parent_window, _NET_SUPPORTING_WM_CHECK, XW_ATOM_WINDOW, 32, 1, &child_window)

GETTERS(desktop_geometry, ROOT, _NET_DESKTOP_GEOMETRY, XW_ATOM_CARDINAL, 2)
SETTERS(desktop_geometry, (xw_ewmh_connection_t * ewmh, int t, uint32_t new_width, uint32_t new_height), ROOT(t),
        _NET_DESKTOP_GEOMETRY, XW_ATOM_CARDINAL, 32, 2, ((const uint32_t[]){new_width, new_height}))

XW_EXPORT uint8_t xw_ewmh_get_desktop_geometry_from_reply(uint32_t *width, uint32_t *height, xw_get_property_reply_t *r)
{
    uint32_t v[2];
    if (!xw__ewmh_fixed_from_reply(r, XW_ATOM_CARDINAL, v, sizeof(v)))
        return 0;
    *width = v[0];
    *height = v[1];
    return 1;
}

XW_EXPORT uint8_t xw_ewmh_get_desktop_geometry_reply(xw_ewmh_connection_t *ewmh, xw_get_property_cookie_t cookie,
                                                     uint32_t *width, uint32_t *height, xw_generic_error_t **e)
{
    xw__ewmh_small_reply_t buf;
    return xw_ewmh_get_desktop_geometry_from_reply(width, height, xw__ewmh_wait_small(ewmh, cookie.sequence, &buf, e));
}

GETTERS(desktop_layout, ROOT, _NET_DESKTOP_LAYOUT, XW_ATOM_CARDINAL, 4)
SETTERS(desktop_layout,
        (xw_ewmh_connection_t * ewmh, int t, xw_ewmh_desktop_layout_orientation_t orientation, uint32_t columns,
         uint32_t rows, xw_ewmh_desktop_layout_starting_corner_t starting_corner),
        ROOT(t), _NET_DESKTOP_LAYOUT, XW_ATOM_CARDINAL, 32, 4,
        ((const uint32_t[]){orientation, columns, rows, starting_corner}))
STRUCT_REPLY(desktop_layout, xw_ewmh_get_desktop_layout_reply_t)

/* Application window properties. */
UTF8(wm_name, WIN, _NET_WM_NAME)
UTF8(wm_visible_name, WIN, _NET_WM_VISIBLE_NAME)
UTF8(wm_icon_name, WIN, _NET_WM_ICON_NAME)
UTF8(wm_visible_icon_name, WIN, _NET_WM_VISIBLE_ICON_NAME)
SINGLE(wm_desktop, WIN, _NET_WM_DESKTOP, XW_ATOM_CARDINAL, uint32_t)
SINGLE(wm_pid, WIN, _NET_WM_PID, XW_ATOM_CARDINAL, uint32_t)
SINGLE(wm_handled_icons, WIN, _NET_WM_HANDLED_ICONS, XW_ATOM_CARDINAL, uint32_t)
SINGLE(wm_user_time, WIN, _NET_WM_USER_TIME, XW_ATOM_CARDINAL, uint32_t)
/* CARDINAL, not WINDOW as the specification has it: libxcb-ewmh's type, kept for the same bytes. */
SINGLE(wm_user_time_window, WIN, _NET_WM_USER_TIME_WINDOW, XW_ATOM_CARDINAL, uint32_t)
ATOM_LIST(wm_window_type, _NET_WM_WINDOW_TYPE)
ATOM_LIST(wm_state, _NET_WM_STATE)
ATOM_LIST(wm_allowed_actions, _NET_WM_ALLOWED_ACTIONS)
FOUR(wm_strut, WIN, _NET_WM_STRUT, left, right, top, bottom, xw_ewmh_get_extents_reply_t)
FOUR(frame_extents, WIN, _NET_FRAME_EXTENTS, left, right, top, bottom, xw_ewmh_get_extents_reply_t)
FOUR(wm_icon_geometry, WIN, _NET_WM_ICON_GEOMETRY, left, right, top, bottom, xw_ewmh_geometry_t)
FOUR(wm_fullscreen_monitors, WIN, _NET_WM_FULLSCREEN_MONITORS, top, bottom, left, right,
     xw_ewmh_get_wm_fullscreen_monitors_reply_t)

GETTERS(wm_strut_partial, WIN, _NET_WM_STRUT_PARTIAL, XW_ATOM_CARDINAL, 12)
SETTERS(wm_strut_partial, (xw_ewmh_connection_t * ewmh, xw_window_t t, xw_ewmh_wm_strut_partial_t wm_strut), t,
        _NET_WM_STRUT_PARTIAL, XW_ATOM_CARDINAL, 32, 12, &wm_strut)
STRUCT_REPLY(wm_strut_partial, xw_ewmh_wm_strut_partial_t)

GETTERS(wm_icon, WIN, _NET_WM_ICON, XW_ATOM_CARDINAL, UINT32_MAX)

/* The counter atom argument is unused, as in libxcb-ewmh: the interned atom is the property. */
GETTERS(wm_sync_request_counter, WIN, _NET_WM_SYNC_REQUEST_COUNTER, XW_ATOM_CARDINAL, 2)
SETTERS(wm_sync_request_counter,
        (xw_ewmh_connection_t * ewmh, xw_window_t t, xw_atom_t wm_sync_request_counter_atom, uint32_t low,
         uint32_t high),
        ((void)wm_sync_request_counter_atom, t), _NET_WM_SYNC_REQUEST_COUNTER, XW_ATOM_CARDINAL, 32, 2,
        ((const uint32_t[]){low, high}))

XW_EXPORT uint8_t xw_ewmh_get_wm_sync_request_counter_from_reply(uint64_t *counter, xw_get_property_reply_t *r)
{
    uint32_t v[2];
    if (!xw__ewmh_fixed_from_reply(r, XW_ATOM_CARDINAL, v, sizeof(v)))
        return 0;
    *counter = v[0] | (uint64_t)v[1] << 32;
    return 1;
}

XW_EXPORT uint8_t xw_ewmh_get_wm_sync_request_counter_reply(xw_ewmh_connection_t *ewmh, xw_get_property_cookie_t cookie,
                                                            uint64_t *counter, xw_generic_error_t **e)
{
    xw__ewmh_small_reply_t buf;
    return xw_ewmh_get_wm_sync_request_counter_from_reply(counter, xw__ewmh_wait_small(ewmh, cookie.sequence, &buf, e));
}

/* Client messages to the root window (EWMH 1.5 section 3 and 4): the data words in the
 * specification's order, the window they are about in the message's window field. */
XW_EXPORT xw_void_cookie_t xw_ewmh_request_change_desktop_geometry(xw_ewmh_connection_t *ewmh, int screen_nbr,
                                                                   uint32_t new_width, uint32_t new_height)
{
    const uint32_t d[] = {new_width, new_height};
    return xw__ewmh_to_root(ewmh, screen_nbr, ROOT(screen_nbr), ewmh->_NET_DESKTOP_GEOMETRY, d, 2);
}

XW_EXPORT xw_void_cookie_t xw_ewmh_request_change_desktop_viewport(xw_ewmh_connection_t *ewmh, int screen_nbr,
                                                                   uint32_t x, uint32_t y)
{
    const uint32_t d[] = {x, y};
    return xw__ewmh_to_root(ewmh, screen_nbr, ROOT(screen_nbr), ewmh->_NET_DESKTOP_VIEWPORT, d, 2);
}

XW_EXPORT xw_void_cookie_t xw_ewmh_request_change_current_desktop(xw_ewmh_connection_t *ewmh, int screen_nbr,
                                                                  uint32_t new_desktop, xw_timestamp_t timestamp)
{
    const uint32_t d[] = {new_desktop, timestamp};
    return xw__ewmh_to_root(ewmh, screen_nbr, ROOT(screen_nbr), ewmh->_NET_CURRENT_DESKTOP, d, 2);
}

XW_EXPORT xw_void_cookie_t xw_ewmh_request_change_active_window(xw_ewmh_connection_t *ewmh, int screen_nbr,
                                                                xw_window_t window_to_activate,
                                                                xw_ewmh_client_source_type_t source_indication,
                                                                xw_timestamp_t timestamp,
                                                                xw_window_t current_active_window)
{
    const uint32_t d[] = {source_indication, timestamp, current_active_window};
    return xw__ewmh_to_root(ewmh, screen_nbr, window_to_activate, ewmh->_NET_ACTIVE_WINDOW, d, 3);
}

XW_EXPORT xw_void_cookie_t xw_ewmh_request_close_window(xw_ewmh_connection_t *ewmh, int screen_nbr,
                                                        xw_window_t window_to_close, xw_timestamp_t timestamp,
                                                        xw_ewmh_client_source_type_t source_indication)
{
    const uint32_t d[] = {timestamp, source_indication};
    return xw__ewmh_to_root(ewmh, screen_nbr, window_to_close, ewmh->_NET_CLOSE_WINDOW, d, 2);
}

XW_EXPORT xw_void_cookie_t xw_ewmh_request_moveresize_window(xw_ewmh_connection_t *ewmh, int screen_nbr,
                                                             xw_window_t moveresize_window, xw_gravity_t gravity,
                                                             xw_ewmh_client_source_type_t source_indication,
                                                             xw_ewmh_moveresize_window_opt_flags_t flags, uint32_t x,
                                                             uint32_t y, uint32_t width, uint32_t height)
{
    /* data.l[0]: gravity in bits 0-7, the flags in 8-11, the source in 12-13 */
    const uint32_t d[] = {(uint32_t)gravity | (uint32_t)flags | (uint32_t)source_indication << 12, x, y, width, height};
    return xw__ewmh_to_root(ewmh, screen_nbr, moveresize_window, ewmh->_NET_MOVERESIZE_WINDOW, d, 5);
}

XW_EXPORT xw_void_cookie_t xw_ewmh_request_wm_moveresize(xw_ewmh_connection_t *ewmh, int screen_nbr,
                                                         xw_window_t moveresize_window, uint32_t x_root,
                                                         uint32_t y_root, xw_ewmh_moveresize_direction_t direction,
                                                         xw_button_index_t button,
                                                         xw_ewmh_client_source_type_t source_indication)
{
    const uint32_t d[] = {x_root, y_root, direction, button, source_indication};
    return xw__ewmh_to_root(ewmh, screen_nbr, moveresize_window, ewmh->_NET_WM_MOVERESIZE, d, 5);
}

XW_EXPORT xw_void_cookie_t xw_ewmh_request_restack_window(xw_ewmh_connection_t *ewmh, int screen_nbr,
                                                          xw_window_t window_to_restack, xw_window_t sibling_window,
                                                          xw_stack_mode_t detail)
{
    const uint32_t d[] = {XW_EWMH_CLIENT_SOURCE_TYPE_OTHER, sibling_window, detail};
    return xw__ewmh_to_root(ewmh, screen_nbr, window_to_restack, ewmh->_NET_RESTACK_WINDOW, d, 3);
}

XW_EXPORT xw_void_cookie_t xw_ewmh_request_change_wm_desktop(xw_ewmh_connection_t *ewmh, int screen_nbr,
                                                             xw_window_t client_window, uint32_t new_desktop,
                                                             xw_ewmh_client_source_type_t source_indication)
{
    const uint32_t d[] = {new_desktop, source_indication};
    return xw__ewmh_to_root(ewmh, screen_nbr, client_window, ewmh->_NET_WM_DESKTOP, d, 2);
}

XW_EXPORT xw_void_cookie_t xw_ewmh_request_change_wm_state(xw_ewmh_connection_t *ewmh, int screen_nbr,
                                                           xw_window_t client_window, xw_ewmh_wm_state_action_t action,
                                                           xw_atom_t first_property, xw_atom_t second_property,
                                                           xw_ewmh_client_source_type_t source_indication)
{
    const uint32_t d[] = {action, first_property, second_property, source_indication};
    return xw__ewmh_to_root(ewmh, screen_nbr, client_window, ewmh->_NET_WM_STATE, d, 4);
}

XW_EXPORT xw_void_cookie_t xw_ewmh_request_change_wm_fullscreen_monitors(xw_ewmh_connection_t *ewmh, int screen_nbr,
                                                                         xw_window_t window, uint32_t top,
                                                                         uint32_t bottom, uint32_t left, uint32_t right,
                                                                         xw_ewmh_client_source_type_t source_indication)
{
    const uint32_t d[] = {top, bottom, left, right, source_indication};
    return xw__ewmh_to_root(ewmh, screen_nbr, window, ewmh->_NET_WM_FULLSCREEN_MONITORS, d, 5);
}
