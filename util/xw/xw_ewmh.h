/* SPDX-License-Identifier: MIT */
#ifndef XW_EWMH_H
#define XW_EWMH_H
/* xw_ewmh.h — libxcb-ewmh (<xcb/xcb_ewmh.h>) on xwire: the Extended Window Manager Hints
 * (freedesktop.org EWMH 1.5) as property getters and setters and client messages, with the
 * same names (xcb_ -> xw_), arguments and struct layouts. Part of libxwire-util.
 *
 * The forms, for every property P:
 *   xw_ewmh_set_P[_checked]      one ChangeProperty (mode Replace) on the root window of screen
 *                                screen_nbr or on a window; never allocates.
 *   xw_ewmh_get_P[_unchecked]    one GetProperty; never allocates.
 *   xw_ewmh_get_P_from_reply     parses a GetProperty reply the caller holds: 1 when its type,
 *                                format and lengths fit the property, else 0 and nothing stored.
 *                                Unlike libxcb-ewmh, a value whose count runs past the reply's
 *                                bytes is refused instead of read.
 *   xw_ewmh_get_P_reply          waits for the reply and parses it. For single values and fixed
 *                                structures the reply is read into stack storage: no allocation
 *                                (a borrowed connection's replies still pass through libxcb's).
 *                                For lists and strings it is malloc'd as in libxcb-ewmh and kept in
 *                                the result's _reply until the _wipe call; xw_ewmh_get_reply_into
 *                                is their allocation-free form.
 *   xw_ewmh_request_*            a ClientMessage to the root window for the window manager.
 * Errors: a getter's X error comes back from the _reply call through *e (malloc'd, the caller
 * frees it) when e is not NULL; a refused request (sequence 0) has its reason in
 * xw_request_error_string. Threads: every call is as thread-safe as the connection; an
 * xw_ewmh_connection_t is read-only after xw_ewmh_init_atoms_replies. Works on xwire's own
 * connections and on those borrowed from libxcb (xw_xcb_borrow).
 *
 * Where xwire differs from libxcb-ewmh 0.4.1 (the bytes on the wire are the same except 1.):
 *   1. xw_ewmh_append_wm_icon sends every pixel, from img itself; libxcb-ewmh copies img_len
 *      bytes (not values) into a stack array and sends the rest of it uninitialised.
 *   2. Values whose counts run past the reply are refused (see _from_reply above).
 *   3. A screen_nbr ewmh has no screen for sends to window None (the server answers BadWindow)
 *      instead of reading past ewmh->screens.
 *   4. xw_ewmh_send_client_message with data_len > 20 sends nothing (sequence 0) instead of
 *      failing an assertion; a list setter whose length overflows 32 bits likewise.
 *   5. xw_ewmh_set_wm_cm_owner_checked checks the announcement it returns the cookie of; the
 *      SetSelectionOwner before it goes unchecked (libxcb-ewmh checks it and drops the cookie).
 *   6. xw_ewmh_init_atoms_replies keeps the first error in *e (libxcb-ewmh overwrites it with
 *      each, leaking the others), and xw_ewmh_connection_wipe leaves NULL pointers behind. */
#include <stdlib.h>

#include <xw/xw.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The connection and the EWMH atoms interned on it (layout-identical to xcb_ewmh_connection_t). */
typedef struct {
    xw_connection_t *connection;
    xw_screen_t **screens; /* malloc'd by xw_ewmh_init_atoms, nb_screens of them (into the setup) */
    int nb_screens;
    xw_atom_t *_NET_WM_CM_Sn; /* malloc'd: one per screen */
    xw_atom_t _NET_SUPPORTED;
    xw_atom_t _NET_CLIENT_LIST;
    xw_atom_t _NET_CLIENT_LIST_STACKING;
    xw_atom_t _NET_NUMBER_OF_DESKTOPS;
    xw_atom_t _NET_DESKTOP_GEOMETRY;
    xw_atom_t _NET_DESKTOP_VIEWPORT;
    xw_atom_t _NET_CURRENT_DESKTOP;
    xw_atom_t _NET_DESKTOP_NAMES;
    xw_atom_t _NET_ACTIVE_WINDOW;
    xw_atom_t _NET_WORKAREA;
    xw_atom_t _NET_SUPPORTING_WM_CHECK;
    xw_atom_t _NET_VIRTUAL_ROOTS;
    xw_atom_t _NET_DESKTOP_LAYOUT;
    xw_atom_t _NET_SHOWING_DESKTOP;
    xw_atom_t _NET_CLOSE_WINDOW;
    xw_atom_t _NET_MOVERESIZE_WINDOW;
    xw_atom_t _NET_WM_MOVERESIZE;
    xw_atom_t _NET_RESTACK_WINDOW;
    xw_atom_t _NET_REQUEST_FRAME_EXTENTS;
    xw_atom_t _NET_WM_NAME;
    xw_atom_t _NET_WM_VISIBLE_NAME;
    xw_atom_t _NET_WM_ICON_NAME;
    xw_atom_t _NET_WM_VISIBLE_ICON_NAME;
    xw_atom_t _NET_WM_DESKTOP;
    xw_atom_t _NET_WM_WINDOW_TYPE;
    xw_atom_t _NET_WM_STATE;
    xw_atom_t _NET_WM_ALLOWED_ACTIONS;
    xw_atom_t _NET_WM_STRUT;
    xw_atom_t _NET_WM_STRUT_PARTIAL;
    xw_atom_t _NET_WM_ICON_GEOMETRY;
    xw_atom_t _NET_WM_ICON;
    xw_atom_t _NET_WM_PID;
    xw_atom_t _NET_WM_HANDLED_ICONS;
    xw_atom_t _NET_WM_USER_TIME;
    xw_atom_t _NET_WM_USER_TIME_WINDOW;
    xw_atom_t _NET_FRAME_EXTENTS;
    xw_atom_t _NET_WM_PING;
    xw_atom_t _NET_WM_SYNC_REQUEST;
    xw_atom_t _NET_WM_SYNC_REQUEST_COUNTER;
    xw_atom_t _NET_WM_FULLSCREEN_MONITORS;
    xw_atom_t _NET_WM_FULL_PLACEMENT;
    xw_atom_t UTF8_STRING;
    xw_atom_t WM_PROTOCOLS;
    xw_atom_t MANAGER;
    xw_atom_t _NET_WM_WINDOW_TYPE_DESKTOP;
    xw_atom_t _NET_WM_WINDOW_TYPE_DOCK;
    xw_atom_t _NET_WM_WINDOW_TYPE_TOOLBAR;
    xw_atom_t _NET_WM_WINDOW_TYPE_MENU;
    xw_atom_t _NET_WM_WINDOW_TYPE_UTILITY;
    xw_atom_t _NET_WM_WINDOW_TYPE_SPLASH;
    xw_atom_t _NET_WM_WINDOW_TYPE_DIALOG;
    xw_atom_t _NET_WM_WINDOW_TYPE_DROPDOWN_MENU;
    xw_atom_t _NET_WM_WINDOW_TYPE_POPUP_MENU;
    xw_atom_t _NET_WM_WINDOW_TYPE_TOOLTIP;
    xw_atom_t _NET_WM_WINDOW_TYPE_NOTIFICATION;
    xw_atom_t _NET_WM_WINDOW_TYPE_COMBO;
    xw_atom_t _NET_WM_WINDOW_TYPE_DND;
    xw_atom_t _NET_WM_WINDOW_TYPE_NORMAL;
    xw_atom_t _NET_WM_STATE_MODAL;
    xw_atom_t _NET_WM_STATE_STICKY;
    xw_atom_t _NET_WM_STATE_MAXIMIZED_VERT;
    xw_atom_t _NET_WM_STATE_MAXIMIZED_HORZ;
    xw_atom_t _NET_WM_STATE_SHADED;
    xw_atom_t _NET_WM_STATE_SKIP_TASKBAR;
    xw_atom_t _NET_WM_STATE_SKIP_PAGER;
    xw_atom_t _NET_WM_STATE_HIDDEN;
    xw_atom_t _NET_WM_STATE_FULLSCREEN;
    xw_atom_t _NET_WM_STATE_ABOVE;
    xw_atom_t _NET_WM_STATE_BELOW;
    xw_atom_t _NET_WM_STATE_DEMANDS_ATTENTION;
    xw_atom_t _NET_WM_ACTION_MOVE;
    xw_atom_t _NET_WM_ACTION_RESIZE;
    xw_atom_t _NET_WM_ACTION_MINIMIZE;
    xw_atom_t _NET_WM_ACTION_SHADE;
    xw_atom_t _NET_WM_ACTION_STICK;
    xw_atom_t _NET_WM_ACTION_MAXIMIZE_HORZ;
    xw_atom_t _NET_WM_ACTION_MAXIMIZE_VERT;
    xw_atom_t _NET_WM_ACTION_FULLSCREEN;
    xw_atom_t _NET_WM_ACTION_CHANGE_DESKTOP;
    xw_atom_t _NET_WM_ACTION_CLOSE;
    xw_atom_t _NET_WM_ACTION_ABOVE;
    xw_atom_t _NET_WM_ACTION_BELOW;
} xw_ewmh_connection_t;

/** An ATOM list parsed from a GetProperty reply; atoms points into _reply. */
typedef struct {
    uint32_t atoms_len;
    xw_atom_t *atoms;
    xw_get_property_reply_t *_reply;
} xw_ewmh_get_atoms_reply_t;

/** A WINDOW list parsed from a GetProperty reply; windows points into _reply. */
typedef struct {
    uint32_t windows_len;
    xw_window_t *windows;
    xw_get_property_reply_t *_reply;
} xw_ewmh_get_windows_reply_t;

/** UTF-8 strings, NUL-separated (strings_len bytes, not NUL-terminated), in _reply. */
typedef struct {
    uint32_t strings_len;
    char *strings;
    xw_get_property_reply_t *_reply;
} xw_ewmh_get_utf8_strings_reply_t;

/** A desktop viewport's top-left corner. */
typedef struct {
    uint32_t x;
    uint32_t y;
} xw_ewmh_coordinates_t;

/** _NET_DESKTOP_VIEWPORT: one corner per desktop, in _reply. */
typedef struct {
    uint32_t desktop_viewport_len;
    xw_ewmh_coordinates_t *desktop_viewport;
    xw_get_property_reply_t *_reply;
} xw_ewmh_get_desktop_viewport_reply_t;

/** A rectangle (x, y, width, height). */
typedef struct {
    uint32_t x;
    uint32_t y;
    uint32_t width;
    uint32_t height;
} xw_ewmh_geometry_t;

/** _NET_WORKAREA: one rectangle per desktop, in _reply. */
typedef struct {
    uint32_t workarea_len;
    xw_ewmh_geometry_t *workarea;
    xw_get_property_reply_t *_reply;
} xw_ewmh_get_workarea_reply_t;

/** Who asks, in client messages (EWMH "source indication"). */
typedef enum {
    XW_EWMH_CLIENT_SOURCE_TYPE_NONE = 0,
    XW_EWMH_CLIENT_SOURCE_TYPE_NORMAL = 1,
    XW_EWMH_CLIENT_SOURCE_TYPE_OTHER = 2
} xw_ewmh_client_source_type_t;

/** _NET_DESKTOP_LAYOUT orientation. */
typedef enum { XW_EWMH_WM_ORIENTATION_HORZ = 0, XW_EWMH_WM_ORIENTATION_VERT = 1 } xw_ewmh_desktop_layout_orientation_t;

/** _NET_DESKTOP_LAYOUT starting corner. */
typedef enum {
    XW_EWMH_WM_TOPLEFT = 0,
    XW_EWMH_WM_TOPRIGHT = 1,
    XW_EWMH_WM_BOTTOMRIGHT = 2,
    XW_EWMH_WM_BOTTOMLEFT = 3
} xw_ewmh_desktop_layout_starting_corner_t;

/** _NET_DESKTOP_LAYOUT. */
typedef struct {
    uint32_t orientation;
    uint32_t columns;
    uint32_t rows;
    uint32_t starting_corner;
} xw_ewmh_get_desktop_layout_reply_t;

/** _NET_MOVERESIZE_WINDOW: which of x, y, width, height the message sets. */
typedef enum {
    XW_EWMH_MOVERESIZE_WINDOW_X = (1 << 8),
    XW_EWMH_MOVERESIZE_WINDOW_Y = (1 << 9),
    XW_EWMH_MOVERESIZE_WINDOW_WIDTH = (1 << 10),
    XW_EWMH_MOVERESIZE_WINDOW_HEIGHT = (1 << 11)
} xw_ewmh_moveresize_window_opt_flags_t;

/** _NET_WM_MOVERESIZE direction. */
typedef enum {
    XW_EWMH_WM_MOVERESIZE_SIZE_TOPLEFT = 0,
    XW_EWMH_WM_MOVERESIZE_SIZE_TOP = 1,
    XW_EWMH_WM_MOVERESIZE_SIZE_TOPRIGHT = 2,
    XW_EWMH_WM_MOVERESIZE_SIZE_RIGHT = 3,
    XW_EWMH_WM_MOVERESIZE_SIZE_BOTTOMRIGHT = 4,
    XW_EWMH_WM_MOVERESIZE_SIZE_BOTTOM = 5,
    XW_EWMH_WM_MOVERESIZE_SIZE_BOTTOMLEFT = 6,
    XW_EWMH_WM_MOVERESIZE_SIZE_LEFT = 7,
    XW_EWMH_WM_MOVERESIZE_MOVE = 8,
    XW_EWMH_WM_MOVERESIZE_SIZE_KEYBOARD = 9,
    XW_EWMH_WM_MOVERESIZE_MOVE_KEYBOARD = 10,
    XW_EWMH_WM_MOVERESIZE_CANCEL = 11
} xw_ewmh_moveresize_direction_t;

/** _NET_WM_STATE client message action. */
typedef enum {
    XW_EWMH_WM_STATE_REMOVE = 0,
    XW_EWMH_WM_STATE_ADD = 1,
    XW_EWMH_WM_STATE_TOGGLE = 2
} xw_ewmh_wm_state_action_t;

/** _NET_WM_STRUT_PARTIAL. */
typedef struct {
    uint32_t left;
    uint32_t right;
    uint32_t top;
    uint32_t bottom;
    uint32_t left_start_y;
    uint32_t left_end_y;
    uint32_t right_start_y;
    uint32_t right_end_y;
    uint32_t top_start_x;
    uint32_t top_end_x;
    uint32_t bottom_start_x;
    uint32_t bottom_end_x;
} xw_ewmh_wm_strut_partial_t;

/** Walks the icons of _NET_WM_ICON: the current one's size and ARGB rows, icons left. */
typedef struct {
    uint32_t width;
    uint32_t height;
    uint32_t *data;
    unsigned int rem;
    unsigned int index;
} xw_ewmh_wm_icon_iterator_t;

/** _NET_WM_ICON: how many whole icons the reply holds. */
typedef struct {
    unsigned int num_icons;
    xw_get_property_reply_t *_reply;
} xw_ewmh_get_wm_icon_reply_t;

/** _NET_WM_STRUT and _NET_FRAME_EXTENTS: widths of the four borders. */
typedef struct {
    uint32_t left;
    uint32_t right;
    uint32_t top;
    uint32_t bottom;
} xw_ewmh_get_extents_reply_t;

/** _NET_WM_FULLSCREEN_MONITORS: the monitors (Xinerama indices) whose edges bound the window. */
typedef struct {
    uint32_t top;
    uint32_t bottom;
    uint32_t left;
    uint32_t right;
} xw_ewmh_get_wm_fullscreen_monitors_reply_t;

/** xwire only: what xw_ewmh_get_reply_into parses the reply as (its `kind`). */
enum xw_ewmh_reply_kind {
    XW_EWMH_REPLY_WINDOWS,
    XW_EWMH_REPLY_ATOMS,
    XW_EWMH_REPLY_UTF8_STRINGS,
    XW_EWMH_REPLY_DESKTOP_VIEWPORT,
    XW_EWMH_REPLY_WORKAREA,
    XW_EWMH_REPLY_WM_ICON
};

/* ---- atoms ---- */

/** Fills ewmh->connection and ewmh->screens and sends, without waiting, one InternAtom for every atom of
 * xw_ewmh_connection_t and for _NET_WM_CM_Sn of each screen (libxcb-ewmh's order). Returns a malloc'd array of their
 * cookies, to be passed to xw_ewmh_init_atoms_replies (which frees it), or NULL when the connection has no screen or
 * memory runs out (nothing is kept). ewmh->screens and ewmh->_NET_WM_CM_Sn are malloc'd: release them with
 * xw_ewmh_connection_wipe. Thread-safe as any request. */
XW_EXPORT xw_intern_atom_cookie_t *xw_ewmh_init_atoms(xw_connection_t *c, xw_ewmh_connection_t *ewmh);
/** Waits for the InternAtom replies of xw_ewmh_init_atoms and stores the atoms in ewmh; frees ewmh_cookies. Returns 1,
 * or 0 when any reply is missing (X error or connection failure): ewmh is then wiped, and *e (when e is not NULL) is a
 * malloc'd copy of the first error, NULL when none came. Reads the replies into stack storage (no allocation per
 * atom). */
XW_EXPORT uint8_t xw_ewmh_init_atoms_replies(xw_ewmh_connection_t *ewmh, xw_intern_atom_cookie_t *ewmh_cookies,
                                             xw_generic_error_t **e);
/** Frees what xw_ewmh_init_atoms allocated (ewmh->screens, ewmh->_NET_WM_CM_Sn) and sets both to NULL; the connection
 * stays the caller's. */
static inline void xw_ewmh_connection_wipe(xw_ewmh_connection_t *ewmh)
{
    free(ewmh->screens);
    free(ewmh->_NET_WM_CM_Sn);
    ewmh->screens = NULL;
    ewmh->_NET_WM_CM_Sn = NULL;
}

/* ---- generic parts: client messages and the reply kinds ---- */

/** Sends a 32-bit ClientMessage of type `atom` about `window` to `dest` (SendEvent, propagate 0, mask
 * SubstructureNotify|SubstructureRedirect). `data_len` is in BYTES (at most 20), the rest of the 20 data bytes are
 * zero. Returns sequence 0 without sending when data_len > 20 (libxcb-ewmh asserts). Never allocates; thread-safe. */
XW_EXPORT xw_void_cookie_t xw_ewmh_send_client_message(xw_connection_t *c, xw_window_t window, xw_window_t dest,
                                                       xw_atom_t atom, uint32_t data_len, const uint32_t *data);
/** Stores the one WINDOW/32 value of r in *window and returns 1; 0 (*window untouched) when r is NULL, not WINDOW/32,
 * or holds other than exactly one value. r stays the caller's. */
XW_EXPORT uint8_t xw_ewmh_get_window_from_reply(xw_window_t *window, xw_get_property_reply_t *r);
/** Waits for the reply and parses it as xw_ewmh_get_window_from_reply. On an X error returns 0 and *e (when e is not
 * NULL) is a malloc'd copy the caller frees. Allocation-free: the reply is read into stack storage. Thread-safe. */
XW_EXPORT uint8_t xw_ewmh_get_window_reply(xw_ewmh_connection_t *ewmh, xw_get_property_cookie_t cookie,
                                           xw_window_t *window, xw_generic_error_t **e);
/** Stores the one CARDINAL/32 value of r in *cardinal and returns 1; 0 (*cardinal untouched) when r is NULL, not
 * CARDINAL/32, or holds other than exactly one value. r stays the caller's. */
XW_EXPORT uint8_t xw_ewmh_get_cardinal_from_reply(uint32_t *cardinal, xw_get_property_reply_t *r);
/** Waits for the reply and parses it as xw_ewmh_get_cardinal_from_reply. On an X error returns 0 and *e (when e is not
 * NULL) is a malloc'd copy the caller frees. Allocation-free: the reply is read into stack storage. Thread-safe. */
XW_EXPORT uint8_t xw_ewmh_get_cardinal_reply(xw_ewmh_connection_t *ewmh, xw_get_property_cookie_t cookie,
                                             uint32_t *cardinal, xw_generic_error_t **e);
/** Points data at the ATOM/32 list in r (data->_reply = r, which data now owns: free it with the _wipe call) and
 * returns 1; 0, r untouched, when r is NULL, of another type or format, or its value runs past the reply's bytes
 * (libxcb-ewmh reads on there). */
XW_EXPORT uint8_t xw_ewmh_get_atoms_from_reply(xw_ewmh_get_atoms_reply_t *data, xw_get_property_reply_t *r);
/** Waits for the reply and parses it as xw_ewmh_get_atoms_from_reply; on failure the reply is freed and 0 returned (*e
 * as in xw_get_property_reply). Allocates the reply, as libxcb-ewmh: xw_ewmh_get_reply_into is the allocation-free
 * form. */
XW_EXPORT uint8_t xw_ewmh_get_atoms_reply(xw_ewmh_connection_t *ewmh, xw_get_property_cookie_t cookie,
                                          xw_ewmh_get_atoms_reply_t *data, xw_generic_error_t **e);
/** Frees the reply data holds. */
XW_EXPORT void xw_ewmh_get_atoms_reply_wipe(xw_ewmh_get_atoms_reply_t *data);
/** Points data at the WINDOW/32 list in r (data->_reply = r, which data now owns: free it with the _wipe call) and
 * returns 1; 0, r untouched, when r is NULL, of another type or format, or its value runs past the reply's bytes
 * (libxcb-ewmh reads on there). */
XW_EXPORT uint8_t xw_ewmh_get_windows_from_reply(xw_ewmh_get_windows_reply_t *data, xw_get_property_reply_t *r);
/** Waits for the reply and parses it as xw_ewmh_get_windows_from_reply; on failure the reply is freed and 0 returned
 * (*e as in xw_get_property_reply). Allocates the reply, as libxcb-ewmh: xw_ewmh_get_reply_into is the allocation-free
 * form. */
XW_EXPORT uint8_t xw_ewmh_get_windows_reply(xw_ewmh_connection_t *ewmh, xw_get_property_cookie_t cookie,
                                            xw_ewmh_get_windows_reply_t *data, xw_generic_error_t **e);
/** Frees the reply data holds. */
XW_EXPORT void xw_ewmh_get_windows_reply_wipe(xw_ewmh_get_windows_reply_t *data);
/** Points data at the UTF8_STRING/8 value of r (NUL-separated strings, not NUL-terminated; data->_reply = r, now
 * data's: free it with the _wipe call) and returns 1; 0, r untouched, when r is NULL, of another type or format, or its
 * value runs past the reply's bytes. */
XW_EXPORT uint8_t xw_ewmh_get_utf8_strings_from_reply(xw_ewmh_connection_t *ewmh,
                                                      xw_ewmh_get_utf8_strings_reply_t *data,
                                                      xw_get_property_reply_t *r);
/** Waits for the reply and parses it as xw_ewmh_get_utf8_strings_from_reply; on failure the reply is freed and 0
 * returned. Allocates the reply, as libxcb-ewmh. */
XW_EXPORT uint8_t xw_ewmh_get_utf8_strings_reply(xw_ewmh_connection_t *ewmh, xw_get_property_cookie_t cookie,
                                                 xw_ewmh_get_utf8_strings_reply_t *data, xw_generic_error_t **e);
/** Frees the reply data holds. */
XW_EXPORT void xw_ewmh_get_utf8_strings_reply_wipe(xw_ewmh_get_utf8_strings_reply_t *data);

/* ---- root window properties ---- */

/* _NET_SUPPORTED */
/** Sets _NET_SUPPORTED (ATOM[]) on the root window of screen `screen_nbr` (ChangeProperty, mode Replace). Returns the
 * cookie; sequence 0 when the request was refused (see xw_request_error_string). Never allocates; thread-safe. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_supported(xw_ewmh_connection_t *ewmh, int screen_nbr, uint32_t list_len,
                                                 xw_atom_t *list);
/** As xw_ewmh_set_supported, checked: its error waits for xw_request_check. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_supported_checked(xw_ewmh_connection_t *ewmh, int screen_nbr, uint32_t list_len,
                                                         xw_atom_t *list);
/** Sends the GetProperty for _NET_SUPPORTED (ATOM[]) on the root window of screen `screen_nbr`; errors are kept for the
 * _reply call (or go to the event queue with _unchecked). Never allocates; thread-safe. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_supported(xw_ewmh_connection_t *ewmh, int screen_nbr);
/** As xw_ewmh_get_supported, unchecked. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_supported_unchecked(xw_ewmh_connection_t *ewmh, int screen_nbr);
/** Parses _NET_SUPPORTED (ATOM[]) from a GetProperty reply (see xw_ewmh_get_atoms_from_reply). */
static inline uint8_t xw_ewmh_get_supported_from_reply(xw_ewmh_get_atoms_reply_t *data, xw_get_property_reply_t *r)
{
    return xw_ewmh_get_atoms_from_reply(data, r);
}
/** Waits for and parses _NET_SUPPORTED (ATOM[]) (see xw_ewmh_get_atoms_reply). */
static inline uint8_t xw_ewmh_get_supported_reply(xw_ewmh_connection_t *ewmh, xw_get_property_cookie_t cookie,
                                                  xw_ewmh_get_atoms_reply_t *data, xw_generic_error_t **e)
{
    return xw_ewmh_get_atoms_reply(ewmh, cookie, data, e);
}

/* _NET_CLIENT_LIST */
/** Sets _NET_CLIENT_LIST (WINDOW[]) on the root window of screen `screen_nbr` (ChangeProperty, mode Replace). Returns
 * the cookie; sequence 0 when the request was refused (see xw_request_error_string). Never allocates; thread-safe. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_client_list(xw_ewmh_connection_t *ewmh, int screen_nbr, uint32_t list_len,
                                                   xw_window_t *list);
/** As xw_ewmh_set_client_list, checked: its error waits for xw_request_check. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_client_list_checked(xw_ewmh_connection_t *ewmh, int screen_nbr,
                                                           uint32_t list_len, xw_window_t *list);
/** Sends the GetProperty for _NET_CLIENT_LIST (WINDOW[]) on the root window of screen `screen_nbr`; errors are kept for
 * the _reply call (or go to the event queue with _unchecked). Never allocates; thread-safe. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_client_list(xw_ewmh_connection_t *ewmh, int screen_nbr);
/** As xw_ewmh_get_client_list, unchecked. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_client_list_unchecked(xw_ewmh_connection_t *ewmh, int screen_nbr);
/** Parses _NET_CLIENT_LIST (WINDOW[]) from a GetProperty reply (see xw_ewmh_get_windows_from_reply). */
static inline uint8_t xw_ewmh_get_client_list_from_reply(xw_ewmh_get_windows_reply_t *data, xw_get_property_reply_t *r)
{
    return xw_ewmh_get_windows_from_reply(data, r);
}
/** Waits for and parses _NET_CLIENT_LIST (WINDOW[]) (see xw_ewmh_get_windows_reply). */
static inline uint8_t xw_ewmh_get_client_list_reply(xw_ewmh_connection_t *ewmh, xw_get_property_cookie_t cookie,
                                                    xw_ewmh_get_windows_reply_t *data, xw_generic_error_t **e)
{
    return xw_ewmh_get_windows_reply(ewmh, cookie, data, e);
}

/* _NET_CLIENT_LIST_STACKING */
/** Sets _NET_CLIENT_LIST_STACKING (WINDOW[]) on the root window of screen `screen_nbr` (ChangeProperty, mode Replace).
 * Returns the cookie; sequence 0 when the request was refused (see xw_request_error_string). Never allocates;
 * thread-safe. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_client_list_stacking(xw_ewmh_connection_t *ewmh, int screen_nbr,
                                                            uint32_t list_len, xw_window_t *list);
/** As xw_ewmh_set_client_list_stacking, checked: its error waits for xw_request_check. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_client_list_stacking_checked(xw_ewmh_connection_t *ewmh, int screen_nbr,
                                                                    uint32_t list_len, xw_window_t *list);
/** Sends the GetProperty for _NET_CLIENT_LIST_STACKING (WINDOW[]) on the root window of screen `screen_nbr`; errors are
 * kept for the _reply call (or go to the event queue with _unchecked). Never allocates; thread-safe. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_client_list_stacking(xw_ewmh_connection_t *ewmh, int screen_nbr);
/** As xw_ewmh_get_client_list_stacking, unchecked. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_client_list_stacking_unchecked(xw_ewmh_connection_t *ewmh,
                                                                              int screen_nbr);
/** Parses _NET_CLIENT_LIST_STACKING (WINDOW[]) from a GetProperty reply (see xw_ewmh_get_windows_from_reply). */
static inline uint8_t xw_ewmh_get_client_list_stacking_from_reply(xw_ewmh_get_windows_reply_t *data,
                                                                  xw_get_property_reply_t *r)
{
    return xw_ewmh_get_windows_from_reply(data, r);
}
/** Waits for and parses _NET_CLIENT_LIST_STACKING (WINDOW[]) (see xw_ewmh_get_windows_reply). */
static inline uint8_t xw_ewmh_get_client_list_stacking_reply(xw_ewmh_connection_t *ewmh,
                                                             xw_get_property_cookie_t cookie,
                                                             xw_ewmh_get_windows_reply_t *data, xw_generic_error_t **e)
{
    return xw_ewmh_get_windows_reply(ewmh, cookie, data, e);
}

/* _NET_NUMBER_OF_DESKTOPS */
/** Sets _NET_NUMBER_OF_DESKTOPS (CARDINAL) on the root window of screen `screen_nbr` (ChangeProperty, mode Replace).
 * Returns the cookie; sequence 0 when the request was refused (see xw_request_error_string). Never allocates;
 * thread-safe. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_number_of_desktops(xw_ewmh_connection_t *ewmh, int screen_nbr,
                                                          uint32_t number_of_desktops);
/** As xw_ewmh_set_number_of_desktops, checked: its error waits for xw_request_check. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_number_of_desktops_checked(xw_ewmh_connection_t *ewmh, int screen_nbr,
                                                                  uint32_t number_of_desktops);
/** Sends the GetProperty for _NET_NUMBER_OF_DESKTOPS (CARDINAL) on the root window of screen `screen_nbr`; errors are
 * kept for the _reply call (or go to the event queue with _unchecked). Never allocates; thread-safe. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_number_of_desktops(xw_ewmh_connection_t *ewmh, int screen_nbr);
/** As xw_ewmh_get_number_of_desktops, unchecked. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_number_of_desktops_unchecked(xw_ewmh_connection_t *ewmh, int screen_nbr);
/** Parses _NET_NUMBER_OF_DESKTOPS (CARDINAL) from a GetProperty reply (see xw_ewmh_get_cardinal_from_reply). */
static inline uint8_t xw_ewmh_get_number_of_desktops_from_reply(uint32_t *value, xw_get_property_reply_t *r)
{
    return xw_ewmh_get_cardinal_from_reply(value, r);
}
/** Waits for and parses _NET_NUMBER_OF_DESKTOPS (CARDINAL) (see xw_ewmh_get_cardinal_reply). */
static inline uint8_t xw_ewmh_get_number_of_desktops_reply(xw_ewmh_connection_t *ewmh, xw_get_property_cookie_t cookie,
                                                           uint32_t *value, xw_generic_error_t **e)
{
    return xw_ewmh_get_cardinal_reply(ewmh, cookie, value, e);
}
/** Asks the window manager to change _NET_NUMBER_OF_DESKTOPS (a ClientMessage to the root). */
static inline xw_void_cookie_t xw_ewmh_request_change_number_of_desktops(xw_ewmh_connection_t *ewmh, int screen_nbr,
                                                                         uint32_t new_number_of_desktops)
{
    return xw_ewmh_send_client_message(ewmh->connection, XW_NONE, ewmh->screens[screen_nbr]->root,
                                       ewmh->_NET_NUMBER_OF_DESKTOPS, sizeof(new_number_of_desktops),
                                       &new_number_of_desktops);
}

/* _NET_DESKTOP_GEOMETRY */
/** Sets _NET_DESKTOP_GEOMETRY (CARDINAL[2]) on the root window of screen `screen_nbr` (ChangeProperty, mode Replace).
 * Returns the cookie; sequence 0 when the request was refused (see xw_request_error_string). Never allocates;
 * thread-safe. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_desktop_geometry(xw_ewmh_connection_t *ewmh, int screen_nbr, uint32_t new_width,
                                                        uint32_t new_height);
/** As xw_ewmh_set_desktop_geometry, checked: its error waits for xw_request_check. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_desktop_geometry_checked(xw_ewmh_connection_t *ewmh, int screen_nbr,
                                                                uint32_t new_width, uint32_t new_height);
/** Sends the GetProperty for _NET_DESKTOP_GEOMETRY (CARDINAL[2]) on the root window of screen `screen_nbr`; errors are
 * kept for the _reply call (or go to the event queue with _unchecked). Never allocates; thread-safe. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_desktop_geometry(xw_ewmh_connection_t *ewmh, int screen_nbr);
/** As xw_ewmh_get_desktop_geometry, unchecked. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_desktop_geometry_unchecked(xw_ewmh_connection_t *ewmh, int screen_nbr);
/** Asks the window manager to change _NET_DESKTOP_GEOMETRY (a ClientMessage to the root). Never allocates. */
XW_EXPORT xw_void_cookie_t xw_ewmh_request_change_desktop_geometry(xw_ewmh_connection_t *ewmh, int screen_nbr,
                                                                   uint32_t new_width, uint32_t new_height);
/** Parses _NET_DESKTOP_GEOMETRY: 1 and *width, *height when r is CARDINAL/32 with exactly two values; 0 otherwise. r
 * stays the caller's. */
XW_EXPORT uint8_t xw_ewmh_get_desktop_geometry_from_reply(uint32_t *width, uint32_t *height,
                                                          xw_get_property_reply_t *r);
/** Waits for _NET_DESKTOP_GEOMETRY and parses it; 0 on failure (*e, when e is not NULL, a malloc'd copy of an X error).
 * Allocation-free. */
XW_EXPORT uint8_t xw_ewmh_get_desktop_geometry_reply(xw_ewmh_connection_t *ewmh, xw_get_property_cookie_t cookie,
                                                     uint32_t *width, uint32_t *height, xw_generic_error_t **e);

/* _NET_DESKTOP_VIEWPORT */
/** Sets _NET_DESKTOP_VIEWPORT (CARDINAL[][2]) on the root window of screen `screen_nbr` (ChangeProperty, mode Replace).
 * Returns the cookie; sequence 0 when the request was refused (see xw_request_error_string). Never allocates;
 * thread-safe. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_desktop_viewport(xw_ewmh_connection_t *ewmh, int screen_nbr, uint32_t list_len,
                                                        xw_ewmh_coordinates_t *list);
/** As xw_ewmh_set_desktop_viewport, checked: its error waits for xw_request_check. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_desktop_viewport_checked(xw_ewmh_connection_t *ewmh, int screen_nbr,
                                                                uint32_t list_len, xw_ewmh_coordinates_t *list);
/** Sends the GetProperty for _NET_DESKTOP_VIEWPORT (CARDINAL[][2]) on the root window of screen `screen_nbr`; errors
 * are kept for the _reply call (or go to the event queue with _unchecked). Never allocates; thread-safe. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_desktop_viewport(xw_ewmh_connection_t *ewmh, int screen_nbr);
/** As xw_ewmh_get_desktop_viewport, unchecked. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_desktop_viewport_unchecked(xw_ewmh_connection_t *ewmh, int screen_nbr);
/** Asks the window manager to change _NET_DESKTOP_VIEWPORT (a ClientMessage to the root). Never allocates. */
XW_EXPORT xw_void_cookie_t xw_ewmh_request_change_desktop_viewport(xw_ewmh_connection_t *ewmh, int screen_nbr,
                                                                   uint32_t x, uint32_t y);
/** Parses _NET_DESKTOP_VIEWPORT from a GetProperty reply (CARDINAL/32): data points into r, which data now owns (free
 * both with the _wipe call). 1 on success; 0, r untouched, when the type, format or lengths do not fit. */
XW_EXPORT uint8_t xw_ewmh_get_desktop_viewport_from_reply(xw_ewmh_get_desktop_viewport_reply_t *data,
                                                          xw_get_property_reply_t *r);
/** Waits for _NET_DESKTOP_VIEWPORT and parses it as the _from_reply call; 0 on failure (the reply freed, *e as in
 * xw_get_property_reply). The reply is malloc'd: release it with the _wipe call. */
XW_EXPORT uint8_t xw_ewmh_get_desktop_viewport_reply(xw_ewmh_connection_t *ewmh, xw_get_property_cookie_t cookie,
                                                     xw_ewmh_get_desktop_viewport_reply_t *data,
                                                     xw_generic_error_t **e);
/** Frees the reply a successful _reply or _from_reply call left in data. */
XW_EXPORT void xw_ewmh_get_desktop_viewport_reply_wipe(xw_ewmh_get_desktop_viewport_reply_t *data);

/* _NET_CURRENT_DESKTOP */
/** Sets _NET_CURRENT_DESKTOP (CARDINAL) on the root window of screen `screen_nbr` (ChangeProperty, mode Replace).
 * Returns the cookie; sequence 0 when the request was refused (see xw_request_error_string). Never allocates;
 * thread-safe. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_current_desktop(xw_ewmh_connection_t *ewmh, int screen_nbr,
                                                       uint32_t new_current_desktop);
/** As xw_ewmh_set_current_desktop, checked: its error waits for xw_request_check. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_current_desktop_checked(xw_ewmh_connection_t *ewmh, int screen_nbr,
                                                               uint32_t new_current_desktop);
/** Sends the GetProperty for _NET_CURRENT_DESKTOP (CARDINAL) on the root window of screen `screen_nbr`; errors are kept
 * for the _reply call (or go to the event queue with _unchecked). Never allocates; thread-safe. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_current_desktop(xw_ewmh_connection_t *ewmh, int screen_nbr);
/** As xw_ewmh_get_current_desktop, unchecked. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_current_desktop_unchecked(xw_ewmh_connection_t *ewmh, int screen_nbr);
/** Parses _NET_CURRENT_DESKTOP (CARDINAL) from a GetProperty reply (see xw_ewmh_get_cardinal_from_reply). */
static inline uint8_t xw_ewmh_get_current_desktop_from_reply(uint32_t *value, xw_get_property_reply_t *r)
{
    return xw_ewmh_get_cardinal_from_reply(value, r);
}
/** Waits for and parses _NET_CURRENT_DESKTOP (CARDINAL) (see xw_ewmh_get_cardinal_reply). */
static inline uint8_t xw_ewmh_get_current_desktop_reply(xw_ewmh_connection_t *ewmh, xw_get_property_cookie_t cookie,
                                                        uint32_t *value, xw_generic_error_t **e)
{
    return xw_ewmh_get_cardinal_reply(ewmh, cookie, value, e);
}
/** Asks the window manager to switch to desktop `new_desktop` (a ClientMessage to the root). */
XW_EXPORT xw_void_cookie_t xw_ewmh_request_change_current_desktop(xw_ewmh_connection_t *ewmh, int screen_nbr,
                                                                  uint32_t new_desktop, xw_timestamp_t timestamp);

/* _NET_DESKTOP_NAMES */
/** Sets _NET_DESKTOP_NAMES (UTF8_STRING[]) on the root window of screen `screen_nbr` (ChangeProperty, mode Replace).
 * Returns the cookie; sequence 0 when the request was refused (see xw_request_error_string). Never allocates;
 * thread-safe. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_desktop_names(xw_ewmh_connection_t *ewmh, int screen_nbr, uint32_t strings_len,
                                                     const char *strings);
/** As xw_ewmh_set_desktop_names, checked: its error waits for xw_request_check. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_desktop_names_checked(xw_ewmh_connection_t *ewmh, int screen_nbr,
                                                             uint32_t strings_len, const char *strings);
/** Sends the GetProperty for _NET_DESKTOP_NAMES (UTF8_STRING[]) on the root window of screen `screen_nbr`; errors are
 * kept for the _reply call (or go to the event queue with _unchecked). Never allocates; thread-safe. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_desktop_names(xw_ewmh_connection_t *ewmh, int screen_nbr);
/** As xw_ewmh_get_desktop_names, unchecked. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_desktop_names_unchecked(xw_ewmh_connection_t *ewmh, int screen_nbr);
/** Parses _NET_DESKTOP_NAMES (UTF8_STRING[]) from a GetProperty reply (see xw_ewmh_get_utf8_strings_from_reply). */
static inline uint8_t xw_ewmh_get_desktop_names_from_reply(xw_ewmh_connection_t *ewmh,
                                                           xw_ewmh_get_utf8_strings_reply_t *data,
                                                           xw_get_property_reply_t *r)
{
    return xw_ewmh_get_utf8_strings_from_reply(ewmh, data, r);
}
/** Waits for and parses _NET_DESKTOP_NAMES (UTF8_STRING[]) (see xw_ewmh_get_utf8_strings_reply). */
static inline uint8_t xw_ewmh_get_desktop_names_reply(xw_ewmh_connection_t *ewmh, xw_get_property_cookie_t cookie,
                                                      xw_ewmh_get_utf8_strings_reply_t *data, xw_generic_error_t **e)
{
    return xw_ewmh_get_utf8_strings_reply(ewmh, cookie, data, e);
}

/* _NET_ACTIVE_WINDOW */
/** Sets _NET_ACTIVE_WINDOW (WINDOW) on the root window of screen `screen_nbr` (ChangeProperty, mode Replace). Returns
 * the cookie; sequence 0 when the request was refused (see xw_request_error_string). Never allocates; thread-safe. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_active_window(xw_ewmh_connection_t *ewmh, int screen_nbr,
                                                     xw_window_t new_active_window);
/** As xw_ewmh_set_active_window, checked: its error waits for xw_request_check. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_active_window_checked(xw_ewmh_connection_t *ewmh, int screen_nbr,
                                                             xw_window_t new_active_window);
/** Sends the GetProperty for _NET_ACTIVE_WINDOW (WINDOW) on the root window of screen `screen_nbr`; errors are kept for
 * the _reply call (or go to the event queue with _unchecked). Never allocates; thread-safe. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_active_window(xw_ewmh_connection_t *ewmh, int screen_nbr);
/** As xw_ewmh_get_active_window, unchecked. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_active_window_unchecked(xw_ewmh_connection_t *ewmh, int screen_nbr);
/** Parses _NET_ACTIVE_WINDOW (WINDOW) from a GetProperty reply (see xw_ewmh_get_window_from_reply). */
static inline uint8_t xw_ewmh_get_active_window_from_reply(xw_window_t *value, xw_get_property_reply_t *r)
{
    return xw_ewmh_get_window_from_reply(value, r);
}
/** Waits for and parses _NET_ACTIVE_WINDOW (WINDOW) (see xw_ewmh_get_window_reply). */
static inline uint8_t xw_ewmh_get_active_window_reply(xw_ewmh_connection_t *ewmh, xw_get_property_cookie_t cookie,
                                                      xw_window_t *value, xw_generic_error_t **e)
{
    return xw_ewmh_get_window_reply(ewmh, cookie, value, e);
}
/** Asks the window manager to activate `window_to_activate` (a ClientMessage to the root). */
XW_EXPORT xw_void_cookie_t xw_ewmh_request_change_active_window(xw_ewmh_connection_t *ewmh, int screen_nbr,
                                                                xw_window_t window_to_activate,
                                                                xw_ewmh_client_source_type_t source_indication,
                                                                xw_timestamp_t timestamp,
                                                                xw_window_t current_active_window);

/* _NET_WORKAREA */
/** Sets _NET_WORKAREA (CARDINAL[][4]) on the root window of screen `screen_nbr` (ChangeProperty, mode Replace). Returns
 * the cookie; sequence 0 when the request was refused (see xw_request_error_string). Never allocates; thread-safe. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_workarea(xw_ewmh_connection_t *ewmh, int screen_nbr, uint32_t list_len,
                                                xw_ewmh_geometry_t *list);
/** As xw_ewmh_set_workarea, checked: its error waits for xw_request_check. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_workarea_checked(xw_ewmh_connection_t *ewmh, int screen_nbr, uint32_t list_len,
                                                        xw_ewmh_geometry_t *list);
/** Sends the GetProperty for _NET_WORKAREA (CARDINAL[][4]) on the root window of screen `screen_nbr`; errors are kept
 * for the _reply call (or go to the event queue with _unchecked). Never allocates; thread-safe. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_workarea(xw_ewmh_connection_t *ewmh, int screen_nbr);
/** As xw_ewmh_get_workarea, unchecked. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_workarea_unchecked(xw_ewmh_connection_t *ewmh, int screen_nbr);
/** Parses _NET_WORKAREA from a GetProperty reply (CARDINAL/32): data points into r, which data now owns (free both with
 * the _wipe call). 1 on success; 0, r untouched, when the type, format or lengths do not fit. */
XW_EXPORT uint8_t xw_ewmh_get_workarea_from_reply(xw_ewmh_get_workarea_reply_t *data, xw_get_property_reply_t *r);
/** Waits for _NET_WORKAREA and parses it as the _from_reply call; 0 on failure (the reply freed, *e as in
 * xw_get_property_reply). The reply is malloc'd: release it with the _wipe call. */
XW_EXPORT uint8_t xw_ewmh_get_workarea_reply(xw_ewmh_connection_t *ewmh, xw_get_property_cookie_t cookie,
                                             xw_ewmh_get_workarea_reply_t *data, xw_generic_error_t **e);
/** Frees the reply a successful _reply or _from_reply call left in data. */
XW_EXPORT void xw_ewmh_get_workarea_reply_wipe(xw_ewmh_get_workarea_reply_t *data);

/* _NET_SUPPORTING_WM_CHECK */
/** Sets _NET_SUPPORTING_WM_CHECK (WINDOW) on `parent_window` to `child_window`. Never allocates. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_supporting_wm_check(xw_ewmh_connection_t *ewmh, xw_window_t parent_window,
                                                           xw_window_t child_window);
/** As xw_ewmh_set_supporting_wm_check, checked. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_supporting_wm_check_checked(xw_ewmh_connection_t *ewmh,
                                                                   xw_window_t parent_window, xw_window_t child_window);
/** Sends the GetProperty for _NET_SUPPORTING_WM_CHECK (WINDOW) on `window`; errors are kept for the _reply call (or go
 * to the event queue with _unchecked). Never allocates; thread-safe. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_supporting_wm_check(xw_ewmh_connection_t *ewmh, xw_window_t window);
/** As xw_ewmh_get_supporting_wm_check, unchecked. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_supporting_wm_check_unchecked(xw_ewmh_connection_t *ewmh,
                                                                             xw_window_t window);
/** Parses _NET_SUPPORTING_WM_CHECK (see xw_ewmh_get_window_from_reply). */
static inline uint8_t xw_ewmh_get_supporting_wm_check_from_reply(xw_window_t *window, xw_get_property_reply_t *r)
{
    return xw_ewmh_get_window_from_reply(window, r);
}
/** Waits for and parses _NET_SUPPORTING_WM_CHECK (see xw_ewmh_get_window_reply). */
static inline uint8_t xw_ewmh_get_supporting_wm_check_reply(xw_ewmh_connection_t *ewmh, xw_get_property_cookie_t cookie,
                                                            xw_window_t *window, xw_generic_error_t **e)
{
    return xw_ewmh_get_window_reply(ewmh, cookie, window, e);
}

/* _NET_VIRTUAL_ROOTS */
/** Sets _NET_VIRTUAL_ROOTS (WINDOW[]) on the root window of screen `screen_nbr` (ChangeProperty, mode Replace). Returns
 * the cookie; sequence 0 when the request was refused (see xw_request_error_string). Never allocates; thread-safe. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_virtual_roots(xw_ewmh_connection_t *ewmh, int screen_nbr, uint32_t list_len,
                                                     xw_window_t *list);
/** As xw_ewmh_set_virtual_roots, checked: its error waits for xw_request_check. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_virtual_roots_checked(xw_ewmh_connection_t *ewmh, int screen_nbr,
                                                             uint32_t list_len, xw_window_t *list);
/** Sends the GetProperty for _NET_VIRTUAL_ROOTS (WINDOW[]) on the root window of screen `screen_nbr`; errors are kept
 * for the _reply call (or go to the event queue with _unchecked). Never allocates; thread-safe. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_virtual_roots(xw_ewmh_connection_t *ewmh, int screen_nbr);
/** As xw_ewmh_get_virtual_roots, unchecked. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_virtual_roots_unchecked(xw_ewmh_connection_t *ewmh, int screen_nbr);
/** Parses _NET_VIRTUAL_ROOTS (WINDOW[]) from a GetProperty reply (see xw_ewmh_get_windows_from_reply). */
static inline uint8_t xw_ewmh_get_virtual_roots_from_reply(xw_ewmh_get_windows_reply_t *data,
                                                           xw_get_property_reply_t *r)
{
    return xw_ewmh_get_windows_from_reply(data, r);
}
/** Waits for and parses _NET_VIRTUAL_ROOTS (WINDOW[]) (see xw_ewmh_get_windows_reply). */
static inline uint8_t xw_ewmh_get_virtual_roots_reply(xw_ewmh_connection_t *ewmh, xw_get_property_cookie_t cookie,
                                                      xw_ewmh_get_windows_reply_t *data, xw_generic_error_t **e)
{
    return xw_ewmh_get_windows_reply(ewmh, cookie, data, e);
}

/* _NET_DESKTOP_LAYOUT */
/** Sets _NET_DESKTOP_LAYOUT (CARDINAL[4]) on the root window of screen `screen_nbr` (ChangeProperty, mode Replace).
 * Returns the cookie; sequence 0 when the request was refused (see xw_request_error_string). Never allocates;
 * thread-safe. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_desktop_layout(xw_ewmh_connection_t *ewmh, int screen_nbr,
                                                      xw_ewmh_desktop_layout_orientation_t orientation,
                                                      uint32_t columns, uint32_t rows,
                                                      xw_ewmh_desktop_layout_starting_corner_t starting_corner);
/** As xw_ewmh_set_desktop_layout, checked: its error waits for xw_request_check. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_desktop_layout_checked(xw_ewmh_connection_t *ewmh, int screen_nbr,
                                                              xw_ewmh_desktop_layout_orientation_t orientation,
                                                              uint32_t columns, uint32_t rows,
                                                              xw_ewmh_desktop_layout_starting_corner_t starting_corner);
/** Sends the GetProperty for _NET_DESKTOP_LAYOUT (CARDINAL[4]) on the root window of screen `screen_nbr`; errors are
 * kept for the _reply call (or go to the event queue with _unchecked). Never allocates; thread-safe. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_desktop_layout(xw_ewmh_connection_t *ewmh, int screen_nbr);
/** As xw_ewmh_get_desktop_layout, unchecked. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_desktop_layout_unchecked(xw_ewmh_connection_t *ewmh, int screen_nbr);
/** Parses _NET_DESKTOP_LAYOUT (CARDINAL[4]) from a GetProperty reply into *out: 1 when r is CARDINAL/32 with exactly
 * the fields *out has, inside the reply's bytes; 0 otherwise (*out untouched). r stays the caller's. */
XW_EXPORT uint8_t xw_ewmh_get_desktop_layout_from_reply(xw_ewmh_get_desktop_layout_reply_t *out,
                                                        xw_get_property_reply_t *r);
/** Waits for _NET_DESKTOP_LAYOUT (CARDINAL[4]) and parses it into *out (1) or returns 0 (no such property, another
 * type, malformed, or an X error: *e, when e is not NULL, is then a malloc'd copy the caller frees). Allocation-free:
 * the reply is read into stack storage. Thread-safe. */
XW_EXPORT uint8_t xw_ewmh_get_desktop_layout_reply(xw_ewmh_connection_t *ewmh, xw_get_property_cookie_t cookie,
                                                   xw_ewmh_get_desktop_layout_reply_t *out, xw_generic_error_t **e);

/* _NET_SHOWING_DESKTOP */
/** Sets _NET_SHOWING_DESKTOP (CARDINAL) on the root window of screen `screen_nbr` (ChangeProperty, mode Replace).
 * Returns the cookie; sequence 0 when the request was refused (see xw_request_error_string). Never allocates;
 * thread-safe. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_showing_desktop(xw_ewmh_connection_t *ewmh, int screen_nbr, uint32_t desktop);
/** As xw_ewmh_set_showing_desktop, checked: its error waits for xw_request_check. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_showing_desktop_checked(xw_ewmh_connection_t *ewmh, int screen_nbr,
                                                               uint32_t desktop);
/** Sends the GetProperty for _NET_SHOWING_DESKTOP (CARDINAL) on the root window of screen `screen_nbr`; errors are kept
 * for the _reply call (or go to the event queue with _unchecked). Never allocates; thread-safe. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_showing_desktop(xw_ewmh_connection_t *ewmh, int screen_nbr);
/** As xw_ewmh_get_showing_desktop, unchecked. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_showing_desktop_unchecked(xw_ewmh_connection_t *ewmh, int screen_nbr);
/** Parses _NET_SHOWING_DESKTOP (CARDINAL) from a GetProperty reply (see xw_ewmh_get_cardinal_from_reply). */
static inline uint8_t xw_ewmh_get_showing_desktop_from_reply(uint32_t *value, xw_get_property_reply_t *r)
{
    return xw_ewmh_get_cardinal_from_reply(value, r);
}
/** Waits for and parses _NET_SHOWING_DESKTOP (CARDINAL) (see xw_ewmh_get_cardinal_reply). */
static inline uint8_t xw_ewmh_get_showing_desktop_reply(xw_ewmh_connection_t *ewmh, xw_get_property_cookie_t cookie,
                                                        uint32_t *value, xw_generic_error_t **e)
{
    return xw_ewmh_get_cardinal_reply(ewmh, cookie, value, e);
}
/** Asks the window manager to enter (1) or leave (0) showing-the-desktop mode. */
static inline xw_void_cookie_t xw_ewmh_request_change_showing_desktop(xw_ewmh_connection_t *ewmh, int screen_nbr,
                                                                      uint32_t enter)
{
    return xw_ewmh_send_client_message(ewmh->connection, XW_NONE, ewmh->screens[screen_nbr]->root,
                                       ewmh->_NET_SHOWING_DESKTOP, sizeof(enter), &enter);
}

/* ---- other root window messages ---- */

/** _NET_CLOSE_WINDOW: asks the window manager to close `window_to_close`. Never allocates. */
XW_EXPORT xw_void_cookie_t xw_ewmh_request_close_window(xw_ewmh_connection_t *ewmh, int screen_nbr,
                                                        xw_window_t window_to_close, xw_timestamp_t timestamp,
                                                        xw_ewmh_client_source_type_t source_indication);
/** _NET_MOVERESIZE_WINDOW: asks the window manager to move and/or resize (fields chosen by `flags`). */
XW_EXPORT xw_void_cookie_t xw_ewmh_request_moveresize_window(xw_ewmh_connection_t *ewmh, int screen_nbr,
                                                             xw_window_t moveresize_window, xw_gravity_t gravity,
                                                             xw_ewmh_client_source_type_t source_indication,
                                                             xw_ewmh_moveresize_window_opt_flags_t flags, uint32_t x,
                                                             uint32_t y, uint32_t width, uint32_t height);
/** _NET_WM_MOVERESIZE: asks the window manager to start an interactive move or resize. */
XW_EXPORT xw_void_cookie_t xw_ewmh_request_wm_moveresize(xw_ewmh_connection_t *ewmh, int screen_nbr,
                                                         xw_window_t moveresize_window, uint32_t x_root,
                                                         uint32_t y_root, xw_ewmh_moveresize_direction_t direction,
                                                         xw_button_index_t button,
                                                         xw_ewmh_client_source_type_t source_indication);
/** _NET_RESTACK_WINDOW: asks the window manager to restack `window_to_restack` (source: pager). */
XW_EXPORT xw_void_cookie_t xw_ewmh_request_restack_window(xw_ewmh_connection_t *ewmh, int screen_nbr,
                                                          xw_window_t window_to_restack, xw_window_t sibling_window,
                                                          xw_stack_mode_t detail);
/** _NET_REQUEST_FRAME_EXTENTS: asks the window manager to set _NET_FRAME_EXTENTS on `client_window`. */
static inline xw_void_cookie_t xw_ewmh_request_frame_extents(xw_ewmh_connection_t *ewmh, int screen_nbr,
                                                             xw_window_t client_window)
{
    return xw_ewmh_send_client_message(ewmh->connection, client_window, ewmh->screens[screen_nbr]->root,
                                       ewmh->_NET_REQUEST_FRAME_EXTENTS, 0, NULL);
}

/* ---- application window properties ---- */

/* _NET_WM_NAME */
/** Sets _NET_WM_NAME (UTF8_STRING) on `window` (ChangeProperty, mode Replace). Returns the cookie; sequence 0 when the
 * request was refused (see xw_request_error_string). Never allocates; thread-safe. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_wm_name(xw_ewmh_connection_t *ewmh, xw_window_t window, uint32_t strings_len,
                                               const char *strings);
/** As xw_ewmh_set_wm_name, checked: its error waits for xw_request_check. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_wm_name_checked(xw_ewmh_connection_t *ewmh, xw_window_t window,
                                                       uint32_t strings_len, const char *strings);
/** Sends the GetProperty for _NET_WM_NAME (UTF8_STRING) on `window`; errors are kept for the _reply call (or go to the
 * event queue with _unchecked). Never allocates; thread-safe. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_wm_name(xw_ewmh_connection_t *ewmh, xw_window_t window);
/** As xw_ewmh_get_wm_name, unchecked. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_wm_name_unchecked(xw_ewmh_connection_t *ewmh, xw_window_t window);
/** Parses _NET_WM_NAME (UTF8_STRING) from a GetProperty reply (see xw_ewmh_get_utf8_strings_from_reply). */
static inline uint8_t xw_ewmh_get_wm_name_from_reply(xw_ewmh_connection_t *ewmh, xw_ewmh_get_utf8_strings_reply_t *data,
                                                     xw_get_property_reply_t *r)
{
    return xw_ewmh_get_utf8_strings_from_reply(ewmh, data, r);
}
/** Waits for and parses _NET_WM_NAME (UTF8_STRING) (see xw_ewmh_get_utf8_strings_reply). */
static inline uint8_t xw_ewmh_get_wm_name_reply(xw_ewmh_connection_t *ewmh, xw_get_property_cookie_t cookie,
                                                xw_ewmh_get_utf8_strings_reply_t *data, xw_generic_error_t **e)
{
    return xw_ewmh_get_utf8_strings_reply(ewmh, cookie, data, e);
}

/* _NET_WM_VISIBLE_NAME */
/** Sets _NET_WM_VISIBLE_NAME (UTF8_STRING) on `window` (ChangeProperty, mode Replace). Returns the cookie; sequence 0
 * when the request was refused (see xw_request_error_string). Never allocates; thread-safe. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_wm_visible_name(xw_ewmh_connection_t *ewmh, xw_window_t window,
                                                       uint32_t strings_len, const char *strings);
/** As xw_ewmh_set_wm_visible_name, checked: its error waits for xw_request_check. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_wm_visible_name_checked(xw_ewmh_connection_t *ewmh, xw_window_t window,
                                                               uint32_t strings_len, const char *strings);
/** Sends the GetProperty for _NET_WM_VISIBLE_NAME (UTF8_STRING) on `window`; errors are kept for the _reply call (or go
 * to the event queue with _unchecked). Never allocates; thread-safe. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_wm_visible_name(xw_ewmh_connection_t *ewmh, xw_window_t window);
/** As xw_ewmh_get_wm_visible_name, unchecked. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_wm_visible_name_unchecked(xw_ewmh_connection_t *ewmh,
                                                                         xw_window_t window);
/** Parses _NET_WM_VISIBLE_NAME (UTF8_STRING) from a GetProperty reply (see xw_ewmh_get_utf8_strings_from_reply). */
static inline uint8_t xw_ewmh_get_wm_visible_name_from_reply(xw_ewmh_connection_t *ewmh,
                                                             xw_ewmh_get_utf8_strings_reply_t *data,
                                                             xw_get_property_reply_t *r)
{
    return xw_ewmh_get_utf8_strings_from_reply(ewmh, data, r);
}
/** Waits for and parses _NET_WM_VISIBLE_NAME (UTF8_STRING) (see xw_ewmh_get_utf8_strings_reply). */
static inline uint8_t xw_ewmh_get_wm_visible_name_reply(xw_ewmh_connection_t *ewmh, xw_get_property_cookie_t cookie,
                                                        xw_ewmh_get_utf8_strings_reply_t *data, xw_generic_error_t **e)
{
    return xw_ewmh_get_utf8_strings_reply(ewmh, cookie, data, e);
}

/* _NET_WM_ICON_NAME */
/** Sets _NET_WM_ICON_NAME (UTF8_STRING) on `window` (ChangeProperty, mode Replace). Returns the cookie; sequence 0 when
 * the request was refused (see xw_request_error_string). Never allocates; thread-safe. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_wm_icon_name(xw_ewmh_connection_t *ewmh, xw_window_t window,
                                                    uint32_t strings_len, const char *strings);
/** As xw_ewmh_set_wm_icon_name, checked: its error waits for xw_request_check. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_wm_icon_name_checked(xw_ewmh_connection_t *ewmh, xw_window_t window,
                                                            uint32_t strings_len, const char *strings);
/** Sends the GetProperty for _NET_WM_ICON_NAME (UTF8_STRING) on `window`; errors are kept for the _reply call (or go to
 * the event queue with _unchecked). Never allocates; thread-safe. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_wm_icon_name(xw_ewmh_connection_t *ewmh, xw_window_t window);
/** As xw_ewmh_get_wm_icon_name, unchecked. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_wm_icon_name_unchecked(xw_ewmh_connection_t *ewmh, xw_window_t window);
/** Parses _NET_WM_ICON_NAME (UTF8_STRING) from a GetProperty reply (see xw_ewmh_get_utf8_strings_from_reply). */
static inline uint8_t xw_ewmh_get_wm_icon_name_from_reply(xw_ewmh_connection_t *ewmh,
                                                          xw_ewmh_get_utf8_strings_reply_t *data,
                                                          xw_get_property_reply_t *r)
{
    return xw_ewmh_get_utf8_strings_from_reply(ewmh, data, r);
}
/** Waits for and parses _NET_WM_ICON_NAME (UTF8_STRING) (see xw_ewmh_get_utf8_strings_reply). */
static inline uint8_t xw_ewmh_get_wm_icon_name_reply(xw_ewmh_connection_t *ewmh, xw_get_property_cookie_t cookie,
                                                     xw_ewmh_get_utf8_strings_reply_t *data, xw_generic_error_t **e)
{
    return xw_ewmh_get_utf8_strings_reply(ewmh, cookie, data, e);
}

/* _NET_WM_VISIBLE_ICON_NAME */
/** Sets _NET_WM_VISIBLE_ICON_NAME (UTF8_STRING) on `window` (ChangeProperty, mode Replace). Returns the cookie;
 * sequence 0 when the request was refused (see xw_request_error_string). Never allocates; thread-safe. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_wm_visible_icon_name(xw_ewmh_connection_t *ewmh, xw_window_t window,
                                                            uint32_t strings_len, const char *strings);
/** As xw_ewmh_set_wm_visible_icon_name, checked: its error waits for xw_request_check. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_wm_visible_icon_name_checked(xw_ewmh_connection_t *ewmh, xw_window_t window,
                                                                    uint32_t strings_len, const char *strings);
/** Sends the GetProperty for _NET_WM_VISIBLE_ICON_NAME (UTF8_STRING) on `window`; errors are kept for the _reply call
 * (or go to the event queue with _unchecked). Never allocates; thread-safe. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_wm_visible_icon_name(xw_ewmh_connection_t *ewmh, xw_window_t window);
/** As xw_ewmh_get_wm_visible_icon_name, unchecked. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_wm_visible_icon_name_unchecked(xw_ewmh_connection_t *ewmh,
                                                                              xw_window_t window);
/** Parses _NET_WM_VISIBLE_ICON_NAME (UTF8_STRING) from a GetProperty reply (see
 * xw_ewmh_get_utf8_strings_from_reply). */
static inline uint8_t xw_ewmh_get_wm_visible_icon_name_from_reply(xw_ewmh_connection_t *ewmh,
                                                                  xw_ewmh_get_utf8_strings_reply_t *data,
                                                                  xw_get_property_reply_t *r)
{
    return xw_ewmh_get_utf8_strings_from_reply(ewmh, data, r);
}
/** Waits for and parses _NET_WM_VISIBLE_ICON_NAME (UTF8_STRING) (see xw_ewmh_get_utf8_strings_reply). */
static inline uint8_t xw_ewmh_get_wm_visible_icon_name_reply(xw_ewmh_connection_t *ewmh,
                                                             xw_get_property_cookie_t cookie,
                                                             xw_ewmh_get_utf8_strings_reply_t *data,
                                                             xw_generic_error_t **e)
{
    return xw_ewmh_get_utf8_strings_reply(ewmh, cookie, data, e);
}

/* _NET_WM_DESKTOP */
/** Sets _NET_WM_DESKTOP (CARDINAL) on `window` (ChangeProperty, mode Replace). Returns the cookie; sequence 0 when the
 * request was refused (see xw_request_error_string). Never allocates; thread-safe. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_wm_desktop(xw_ewmh_connection_t *ewmh, xw_window_t window, uint32_t desktop);
/** As xw_ewmh_set_wm_desktop, checked: its error waits for xw_request_check. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_wm_desktop_checked(xw_ewmh_connection_t *ewmh, xw_window_t window,
                                                          uint32_t desktop);
/** Sends the GetProperty for _NET_WM_DESKTOP (CARDINAL) on `window`; errors are kept for the _reply call (or go to the
 * event queue with _unchecked). Never allocates; thread-safe. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_wm_desktop(xw_ewmh_connection_t *ewmh, xw_window_t window);
/** As xw_ewmh_get_wm_desktop, unchecked. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_wm_desktop_unchecked(xw_ewmh_connection_t *ewmh, xw_window_t window);
/** Parses _NET_WM_DESKTOP (CARDINAL) from a GetProperty reply (see xw_ewmh_get_cardinal_from_reply). */
static inline uint8_t xw_ewmh_get_wm_desktop_from_reply(uint32_t *value, xw_get_property_reply_t *r)
{
    return xw_ewmh_get_cardinal_from_reply(value, r);
}
/** Waits for and parses _NET_WM_DESKTOP (CARDINAL) (see xw_ewmh_get_cardinal_reply). */
static inline uint8_t xw_ewmh_get_wm_desktop_reply(xw_ewmh_connection_t *ewmh, xw_get_property_cookie_t cookie,
                                                   uint32_t *value, xw_generic_error_t **e)
{
    return xw_ewmh_get_cardinal_reply(ewmh, cookie, value, e);
}
/** Asks the window manager to move `client_window` to desktop `new_desktop`. */
XW_EXPORT xw_void_cookie_t xw_ewmh_request_change_wm_desktop(xw_ewmh_connection_t *ewmh, int screen_nbr,
                                                             xw_window_t client_window, uint32_t new_desktop,
                                                             xw_ewmh_client_source_type_t source_indication);

/* _NET_WM_WINDOW_TYPE */
/** Sets _NET_WM_WINDOW_TYPE (ATOM[]) on `window` (ChangeProperty, mode Replace). Returns the cookie; sequence 0 when
 * the request was refused (see xw_request_error_string). Never allocates; thread-safe. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_wm_window_type(xw_ewmh_connection_t *ewmh, xw_window_t window, uint32_t list_len,
                                                      xw_atom_t *list);
/** As xw_ewmh_set_wm_window_type, checked: its error waits for xw_request_check. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_wm_window_type_checked(xw_ewmh_connection_t *ewmh, xw_window_t window,
                                                              uint32_t list_len, xw_atom_t *list);
/** Sends the GetProperty for _NET_WM_WINDOW_TYPE (ATOM[]) on `window`; errors are kept for the _reply call (or go to
 * the event queue with _unchecked). Never allocates; thread-safe. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_wm_window_type(xw_ewmh_connection_t *ewmh, xw_window_t window);
/** As xw_ewmh_get_wm_window_type, unchecked. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_wm_window_type_unchecked(xw_ewmh_connection_t *ewmh, xw_window_t window);
/** Parses _NET_WM_WINDOW_TYPE (ATOM[]) from a GetProperty reply, as xw_ewmh_get_atoms_from_reply. */
XW_EXPORT uint8_t xw_ewmh_get_wm_window_type_from_reply(xw_ewmh_get_atoms_reply_t *data, xw_get_property_reply_t *r);
/** Waits for and parses _NET_WM_WINDOW_TYPE (ATOM[]), as xw_ewmh_get_atoms_reply. */
XW_EXPORT uint8_t xw_ewmh_get_wm_window_type_reply(xw_ewmh_connection_t *ewmh, xw_get_property_cookie_t cookie,
                                                   xw_ewmh_get_atoms_reply_t *data, xw_generic_error_t **e);

/* _NET_WM_STATE */
/** Sets _NET_WM_STATE (ATOM[]) on `window` (ChangeProperty, mode Replace). Returns the cookie; sequence 0 when the
 * request was refused (see xw_request_error_string). Never allocates; thread-safe. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_wm_state(xw_ewmh_connection_t *ewmh, xw_window_t window, uint32_t list_len,
                                                xw_atom_t *list);
/** As xw_ewmh_set_wm_state, checked: its error waits for xw_request_check. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_wm_state_checked(xw_ewmh_connection_t *ewmh, xw_window_t window,
                                                        uint32_t list_len, xw_atom_t *list);
/** Sends the GetProperty for _NET_WM_STATE (ATOM[]) on `window`; errors are kept for the _reply call (or go to the
 * event queue with _unchecked). Never allocates; thread-safe. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_wm_state(xw_ewmh_connection_t *ewmh, xw_window_t window);
/** As xw_ewmh_get_wm_state, unchecked. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_wm_state_unchecked(xw_ewmh_connection_t *ewmh, xw_window_t window);
/** Parses _NET_WM_STATE (ATOM[]) from a GetProperty reply, as xw_ewmh_get_atoms_from_reply. */
XW_EXPORT uint8_t xw_ewmh_get_wm_state_from_reply(xw_ewmh_get_atoms_reply_t *data, xw_get_property_reply_t *r);
/** Waits for and parses _NET_WM_STATE (ATOM[]), as xw_ewmh_get_atoms_reply. */
XW_EXPORT uint8_t xw_ewmh_get_wm_state_reply(xw_ewmh_connection_t *ewmh, xw_get_property_cookie_t cookie,
                                             xw_ewmh_get_atoms_reply_t *data, xw_generic_error_t **e);
/** Asks the window manager to add, remove or toggle one or two _NET_WM_STATE atoms of `client_window`. */
XW_EXPORT xw_void_cookie_t xw_ewmh_request_change_wm_state(xw_ewmh_connection_t *ewmh, int screen_nbr,
                                                           xw_window_t client_window, xw_ewmh_wm_state_action_t action,
                                                           xw_atom_t first_property, xw_atom_t second_property,
                                                           xw_ewmh_client_source_type_t source_indication);

/* _NET_WM_ALLOWED_ACTIONS */
/** Sets _NET_WM_ALLOWED_ACTIONS (ATOM[]) on `window` (ChangeProperty, mode Replace). Returns the cookie; sequence 0
 * when the request was refused (see xw_request_error_string). Never allocates; thread-safe. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_wm_allowed_actions(xw_ewmh_connection_t *ewmh, xw_window_t window,
                                                          uint32_t list_len, xw_atom_t *list);
/** As xw_ewmh_set_wm_allowed_actions, checked: its error waits for xw_request_check. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_wm_allowed_actions_checked(xw_ewmh_connection_t *ewmh, xw_window_t window,
                                                                  uint32_t list_len, xw_atom_t *list);
/** Sends the GetProperty for _NET_WM_ALLOWED_ACTIONS (ATOM[]) on `window`; errors are kept for the _reply call (or go
 * to the event queue with _unchecked). Never allocates; thread-safe. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_wm_allowed_actions(xw_ewmh_connection_t *ewmh, xw_window_t window);
/** As xw_ewmh_get_wm_allowed_actions, unchecked. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_wm_allowed_actions_unchecked(xw_ewmh_connection_t *ewmh,
                                                                            xw_window_t window);
/** Parses _NET_WM_ALLOWED_ACTIONS (ATOM[]) from a GetProperty reply, as xw_ewmh_get_atoms_from_reply. */
XW_EXPORT uint8_t xw_ewmh_get_wm_allowed_actions_from_reply(xw_ewmh_get_atoms_reply_t *data,
                                                            xw_get_property_reply_t *r);
/** Waits for and parses _NET_WM_ALLOWED_ACTIONS (ATOM[]), as xw_ewmh_get_atoms_reply. */
XW_EXPORT uint8_t xw_ewmh_get_wm_allowed_actions_reply(xw_ewmh_connection_t *ewmh, xw_get_property_cookie_t cookie,
                                                       xw_ewmh_get_atoms_reply_t *data, xw_generic_error_t **e);

/* _NET_WM_STRUT */
/** Sets _NET_WM_STRUT (CARDINAL[4]) on `window` (ChangeProperty, mode Replace). Returns the cookie; sequence 0 when the
 * request was refused (see xw_request_error_string). Never allocates; thread-safe. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_wm_strut(xw_ewmh_connection_t *ewmh, xw_window_t window, uint32_t left,
                                                uint32_t right, uint32_t top, uint32_t bottom);
/** As xw_ewmh_set_wm_strut, checked: its error waits for xw_request_check. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_wm_strut_checked(xw_ewmh_connection_t *ewmh, xw_window_t window, uint32_t left,
                                                        uint32_t right, uint32_t top, uint32_t bottom);
/** Sends the GetProperty for _NET_WM_STRUT (CARDINAL[4]) on `window`; errors are kept for the _reply call (or go to the
 * event queue with _unchecked). Never allocates; thread-safe. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_wm_strut(xw_ewmh_connection_t *ewmh, xw_window_t window);
/** As xw_ewmh_get_wm_strut, unchecked. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_wm_strut_unchecked(xw_ewmh_connection_t *ewmh, xw_window_t window);
/** Parses _NET_WM_STRUT (CARDINAL[4]) from a GetProperty reply into *out: 1 when r is CARDINAL/32 with exactly the
 * fields *out has, inside the reply's bytes; 0 otherwise (*out untouched). r stays the caller's. */
XW_EXPORT uint8_t xw_ewmh_get_wm_strut_from_reply(xw_ewmh_get_extents_reply_t *out, xw_get_property_reply_t *r);
/** Waits for _NET_WM_STRUT (CARDINAL[4]) and parses it into *out (1) or returns 0 (no such property, another type,
 * malformed, or an X error: *e, when e is not NULL, is then a malloc'd copy the caller frees). Allocation-free: the
 * reply is read into stack storage. Thread-safe. */
XW_EXPORT uint8_t xw_ewmh_get_wm_strut_reply(xw_ewmh_connection_t *ewmh, xw_get_property_cookie_t cookie,
                                             xw_ewmh_get_extents_reply_t *out, xw_generic_error_t **e);

/* _NET_WM_STRUT_PARTIAL */
/** Sets _NET_WM_STRUT_PARTIAL (CARDINAL[12]) on `window` (ChangeProperty, mode Replace). Returns the cookie; sequence 0
 * when the request was refused (see xw_request_error_string). Never allocates; thread-safe. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_wm_strut_partial(xw_ewmh_connection_t *ewmh, xw_window_t window,
                                                        xw_ewmh_wm_strut_partial_t wm_strut);
/** As xw_ewmh_set_wm_strut_partial, checked: its error waits for xw_request_check. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_wm_strut_partial_checked(xw_ewmh_connection_t *ewmh, xw_window_t window,
                                                                xw_ewmh_wm_strut_partial_t wm_strut);
/** Sends the GetProperty for _NET_WM_STRUT_PARTIAL (CARDINAL[12]) on `window`; errors are kept for the _reply call (or
 * go to the event queue with _unchecked). Never allocates; thread-safe. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_wm_strut_partial(xw_ewmh_connection_t *ewmh, xw_window_t window);
/** As xw_ewmh_get_wm_strut_partial, unchecked. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_wm_strut_partial_unchecked(xw_ewmh_connection_t *ewmh,
                                                                          xw_window_t window);
/** Parses _NET_WM_STRUT_PARTIAL into *out (1), or 0 unless r is CARDINAL/32 with exactly 12 values. */
XW_EXPORT uint8_t xw_ewmh_get_wm_strut_partial_from_reply(xw_ewmh_wm_strut_partial_t *out, xw_get_property_reply_t *r);
/** Waits for _NET_WM_STRUT_PARTIAL and parses it (allocation-free; *e as in xw_ewmh_get_cardinal_reply). */
XW_EXPORT uint8_t xw_ewmh_get_wm_strut_partial_reply(xw_ewmh_connection_t *ewmh, xw_get_property_cookie_t cookie,
                                                     xw_ewmh_wm_strut_partial_t *out, xw_generic_error_t **e);

/* _NET_WM_ICON_GEOMETRY */
/** Sets _NET_WM_ICON_GEOMETRY (CARDINAL[4]) on `window` (ChangeProperty, mode Replace). Returns the cookie; sequence 0
 * when the request was refused (see xw_request_error_string). Never allocates; thread-safe. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_wm_icon_geometry(xw_ewmh_connection_t *ewmh, xw_window_t window, uint32_t left,
                                                        uint32_t right, uint32_t top, uint32_t bottom);
/** As xw_ewmh_set_wm_icon_geometry, checked: its error waits for xw_request_check. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_wm_icon_geometry_checked(xw_ewmh_connection_t *ewmh, xw_window_t window,
                                                                uint32_t left, uint32_t right, uint32_t top,
                                                                uint32_t bottom);
/** Sends the GetProperty for _NET_WM_ICON_GEOMETRY (CARDINAL[4]) on `window`; errors are kept for the _reply call (or
 * go to the event queue with _unchecked). Never allocates; thread-safe. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_wm_icon_geometry(xw_ewmh_connection_t *ewmh, xw_window_t window);
/** As xw_ewmh_get_wm_icon_geometry, unchecked. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_wm_icon_geometry_unchecked(xw_ewmh_connection_t *ewmh,
                                                                          xw_window_t window);
/** Parses _NET_WM_ICON_GEOMETRY (CARDINAL[4]) from a GetProperty reply into *out: 1 when r is CARDINAL/32 with exactly
 * the fields *out has, inside the reply's bytes; 0 otherwise (*out untouched). r stays the caller's. */
XW_EXPORT uint8_t xw_ewmh_get_wm_icon_geometry_from_reply(xw_ewmh_geometry_t *out, xw_get_property_reply_t *r);
/** Waits for _NET_WM_ICON_GEOMETRY (CARDINAL[4]) and parses it into *out (1) or returns 0 (no such property, another
 * type, malformed, or an X error: *e, when e is not NULL, is then a malloc'd copy the caller frees). Allocation-free:
 * the reply is read into stack storage. Thread-safe. */
XW_EXPORT uint8_t xw_ewmh_get_wm_icon_geometry_reply(xw_ewmh_connection_t *ewmh, xw_get_property_cookie_t cookie,
                                                     xw_ewmh_geometry_t *out, xw_generic_error_t **e);

/* _NET_WM_ICON */
/** Sets (mode Replace) or extends (mode Append) _NET_WM_ICON (CARDINAL[]/32): data_len values, each
 * icon as width, height, then width * height ARGB pixels. Never allocates. */
static inline xw_void_cookie_t xw_ewmh_set_wm_icon_checked(xw_ewmh_connection_t *ewmh, uint8_t mode, xw_window_t window,
                                                           uint32_t data_len, uint32_t *data)
{
    return xw_change_property_checked(ewmh->connection, mode, window, ewmh->_NET_WM_ICON, XW_ATOM_CARDINAL, 32,
                                      data_len, data);
}
/** As xw_ewmh_set_wm_icon_checked, unchecked. */
static inline xw_void_cookie_t xw_ewmh_set_wm_icon(xw_ewmh_connection_t *ewmh, uint8_t mode, xw_window_t window,
                                                   uint32_t data_len, uint32_t *data)
{
    return xw_change_property(ewmh->connection, mode, window, ewmh->_NET_WM_ICON, XW_ATOM_CARDINAL, 32, data_len, data);
}
/** Appends one icon (width, height, then the img_len ARGB values of img) to _NET_WM_ICON, as one ChangeProperty whose
 * value is sent straight from img (no copy, no allocation). Checked. */
XW_EXPORT xw_void_cookie_t xw_ewmh_append_wm_icon_checked(xw_ewmh_connection_t *ewmh, xw_window_t window,
                                                          uint32_t width, uint32_t height, uint32_t img_len,
                                                          uint32_t *img);
/** As xw_ewmh_append_wm_icon_checked, unchecked. */
XW_EXPORT xw_void_cookie_t xw_ewmh_append_wm_icon(xw_ewmh_connection_t *ewmh, xw_window_t window, uint32_t width,
                                                  uint32_t height, uint32_t img_len, uint32_t *img);
/** Sends the GetProperty for _NET_WM_ICON (CARDINAL[]) on `window`; errors are kept for the _reply call (or go to the
 * event queue with _unchecked). Never allocates; thread-safe. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_wm_icon(xw_ewmh_connection_t *ewmh, xw_window_t window);
/** As xw_ewmh_get_wm_icon, unchecked. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_wm_icon_unchecked(xw_ewmh_connection_t *ewmh, xw_window_t window);
/** Counts the whole icons in r (each width, height and width * height values, inside the reply's bytes; counting stops
 * at the first that is empty or does not fit) and keeps r in wm_icon (now its owner: free with
 * xw_ewmh_get_wm_icon_reply_wipe). 1 when there is at least one icon; 0, r untouched, otherwise. */
XW_EXPORT uint8_t xw_ewmh_get_wm_icon_from_reply(xw_ewmh_get_wm_icon_reply_t *wm_icon, xw_get_property_reply_t *r);
/** Waits for _NET_WM_ICON and parses it as xw_ewmh_get_wm_icon_from_reply (the reply freed on failure). Allocates the
 * reply, as libxcb-ewmh. */
XW_EXPORT uint8_t xw_ewmh_get_wm_icon_reply(xw_ewmh_connection_t *ewmh, xw_get_property_cookie_t cookie,
                                            xw_ewmh_get_wm_icon_reply_t *wm_icon, xw_generic_error_t **e);
/** An iterator over the icons wm_icon holds (width, height, data of the first; rem icons left). */
XW_EXPORT xw_ewmh_wm_icon_iterator_t xw_ewmh_get_wm_icon_iterator(const xw_ewmh_get_wm_icon_reply_t *wm_icon);
/** The number of icons wm_icon holds. */
XW_EXPORT unsigned int xw_ewmh_get_wm_icon_length(const xw_ewmh_get_wm_icon_reply_t *wm_icon);
/** Moves the iterator to the next icon; past the last, rem is 0 and data NULL. */
XW_EXPORT void xw_ewmh_get_wm_icon_next(xw_ewmh_wm_icon_iterator_t *iterator);
/** Frees the reply wm_icon holds. */
XW_EXPORT void xw_ewmh_get_wm_icon_reply_wipe(xw_ewmh_get_wm_icon_reply_t *wm_icon);

/* _NET_WM_PID */
/** Sets _NET_WM_PID (CARDINAL) on `window` (ChangeProperty, mode Replace). Returns the cookie; sequence 0 when the
 * request was refused (see xw_request_error_string). Never allocates; thread-safe. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_wm_pid(xw_ewmh_connection_t *ewmh, xw_window_t window, uint32_t pid);
/** As xw_ewmh_set_wm_pid, checked: its error waits for xw_request_check. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_wm_pid_checked(xw_ewmh_connection_t *ewmh, xw_window_t window, uint32_t pid);
/** Sends the GetProperty for _NET_WM_PID (CARDINAL) on `window`; errors are kept for the _reply call (or go to the
 * event queue with _unchecked). Never allocates; thread-safe. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_wm_pid(xw_ewmh_connection_t *ewmh, xw_window_t window);
/** As xw_ewmh_get_wm_pid, unchecked. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_wm_pid_unchecked(xw_ewmh_connection_t *ewmh, xw_window_t window);
/** Parses _NET_WM_PID (CARDINAL) from a GetProperty reply (see xw_ewmh_get_cardinal_from_reply). */
static inline uint8_t xw_ewmh_get_wm_pid_from_reply(uint32_t *value, xw_get_property_reply_t *r)
{
    return xw_ewmh_get_cardinal_from_reply(value, r);
}
/** Waits for and parses _NET_WM_PID (CARDINAL) (see xw_ewmh_get_cardinal_reply). */
static inline uint8_t xw_ewmh_get_wm_pid_reply(xw_ewmh_connection_t *ewmh, xw_get_property_cookie_t cookie,
                                               uint32_t *value, xw_generic_error_t **e)
{
    return xw_ewmh_get_cardinal_reply(ewmh, cookie, value, e);
}

/* _NET_WM_HANDLED_ICONS */
/** Sets _NET_WM_HANDLED_ICONS (CARDINAL) on `window` (ChangeProperty, mode Replace). Returns the cookie; sequence 0
 * when the request was refused (see xw_request_error_string). Never allocates; thread-safe. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_wm_handled_icons(xw_ewmh_connection_t *ewmh, xw_window_t window,
                                                        uint32_t handled_icons);
/** As xw_ewmh_set_wm_handled_icons, checked: its error waits for xw_request_check. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_wm_handled_icons_checked(xw_ewmh_connection_t *ewmh, xw_window_t window,
                                                                uint32_t handled_icons);
/** Sends the GetProperty for _NET_WM_HANDLED_ICONS (CARDINAL) on `window`; errors are kept for the _reply call (or go
 * to the event queue with _unchecked). Never allocates; thread-safe. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_wm_handled_icons(xw_ewmh_connection_t *ewmh, xw_window_t window);
/** As xw_ewmh_get_wm_handled_icons, unchecked. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_wm_handled_icons_unchecked(xw_ewmh_connection_t *ewmh,
                                                                          xw_window_t window);
/** Parses _NET_WM_HANDLED_ICONS (CARDINAL) from a GetProperty reply (see xw_ewmh_get_cardinal_from_reply). */
static inline uint8_t xw_ewmh_get_wm_handled_icons_from_reply(uint32_t *value, xw_get_property_reply_t *r)
{
    return xw_ewmh_get_cardinal_from_reply(value, r);
}
/** Waits for and parses _NET_WM_HANDLED_ICONS (CARDINAL) (see xw_ewmh_get_cardinal_reply). */
static inline uint8_t xw_ewmh_get_wm_handled_icons_reply(xw_ewmh_connection_t *ewmh, xw_get_property_cookie_t cookie,
                                                         uint32_t *value, xw_generic_error_t **e)
{
    return xw_ewmh_get_cardinal_reply(ewmh, cookie, value, e);
}

/* _NET_WM_USER_TIME */
/** Sets _NET_WM_USER_TIME (CARDINAL) on `window` (ChangeProperty, mode Replace). Returns the cookie; sequence 0 when
 * the request was refused (see xw_request_error_string). Never allocates; thread-safe. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_wm_user_time(xw_ewmh_connection_t *ewmh, xw_window_t window, uint32_t xtime);
/** As xw_ewmh_set_wm_user_time, checked: its error waits for xw_request_check. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_wm_user_time_checked(xw_ewmh_connection_t *ewmh, xw_window_t window,
                                                            uint32_t xtime);
/** Sends the GetProperty for _NET_WM_USER_TIME (CARDINAL) on `window`; errors are kept for the _reply call (or go to
 * the event queue with _unchecked). Never allocates; thread-safe. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_wm_user_time(xw_ewmh_connection_t *ewmh, xw_window_t window);
/** As xw_ewmh_get_wm_user_time, unchecked. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_wm_user_time_unchecked(xw_ewmh_connection_t *ewmh, xw_window_t window);
/** Parses _NET_WM_USER_TIME (CARDINAL) from a GetProperty reply (see xw_ewmh_get_cardinal_from_reply). */
static inline uint8_t xw_ewmh_get_wm_user_time_from_reply(uint32_t *value, xw_get_property_reply_t *r)
{
    return xw_ewmh_get_cardinal_from_reply(value, r);
}
/** Waits for and parses _NET_WM_USER_TIME (CARDINAL) (see xw_ewmh_get_cardinal_reply). */
static inline uint8_t xw_ewmh_get_wm_user_time_reply(xw_ewmh_connection_t *ewmh, xw_get_property_cookie_t cookie,
                                                     uint32_t *value, xw_generic_error_t **e)
{
    return xw_ewmh_get_cardinal_reply(ewmh, cookie, value, e);
}

/* _NET_WM_USER_TIME_WINDOW */
/** Sets _NET_WM_USER_TIME_WINDOW (CARDINAL/32 as libxcb-ewmh writes it; the specification says WINDOW) on `window`
 * (ChangeProperty, mode Replace). Returns the cookie; sequence 0 when the request was refused (see
 * xw_request_error_string). Never allocates; thread-safe. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_wm_user_time_window(xw_ewmh_connection_t *ewmh, xw_window_t window,
                                                           uint32_t xtime);
/** As xw_ewmh_set_wm_user_time_window, checked: its error waits for xw_request_check. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_wm_user_time_window_checked(xw_ewmh_connection_t *ewmh, xw_window_t window,
                                                                   uint32_t xtime);
/** Sends the GetProperty for _NET_WM_USER_TIME_WINDOW (CARDINAL/32 as libxcb-ewmh writes it; the specification says
 * WINDOW) on `window`; errors are kept for the _reply call (or go to the event queue with _unchecked). Never allocates;
 * thread-safe. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_wm_user_time_window(xw_ewmh_connection_t *ewmh, xw_window_t window);
/** As xw_ewmh_get_wm_user_time_window, unchecked. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_wm_user_time_window_unchecked(xw_ewmh_connection_t *ewmh,
                                                                             xw_window_t window);
/** Parses _NET_WM_USER_TIME_WINDOW (CARDINAL/32 as libxcb-ewmh writes it; the specification says WINDOW) from a
 * GetProperty reply (see xw_ewmh_get_cardinal_from_reply). */
static inline uint8_t xw_ewmh_get_wm_user_time_window_from_reply(uint32_t *value, xw_get_property_reply_t *r)
{
    return xw_ewmh_get_cardinal_from_reply(value, r);
}
/** Waits for and parses _NET_WM_USER_TIME_WINDOW (CARDINAL/32 as libxcb-ewmh writes it; the specification says WINDOW)
 * (see xw_ewmh_get_cardinal_reply). */
static inline uint8_t xw_ewmh_get_wm_user_time_window_reply(xw_ewmh_connection_t *ewmh, xw_get_property_cookie_t cookie,
                                                            uint32_t *value, xw_generic_error_t **e)
{
    return xw_ewmh_get_cardinal_reply(ewmh, cookie, value, e);
}

/* _NET_FRAME_EXTENTS */
/** Sets _NET_FRAME_EXTENTS (CARDINAL[4]) on `window` (ChangeProperty, mode Replace). Returns the cookie; sequence 0
 * when the request was refused (see xw_request_error_string). Never allocates; thread-safe. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_frame_extents(xw_ewmh_connection_t *ewmh, xw_window_t window, uint32_t left,
                                                     uint32_t right, uint32_t top, uint32_t bottom);
/** As xw_ewmh_set_frame_extents, checked: its error waits for xw_request_check. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_frame_extents_checked(xw_ewmh_connection_t *ewmh, xw_window_t window,
                                                             uint32_t left, uint32_t right, uint32_t top,
                                                             uint32_t bottom);
/** Sends the GetProperty for _NET_FRAME_EXTENTS (CARDINAL[4]) on `window`; errors are kept for the _reply call (or go
 * to the event queue with _unchecked). Never allocates; thread-safe. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_frame_extents(xw_ewmh_connection_t *ewmh, xw_window_t window);
/** As xw_ewmh_get_frame_extents, unchecked. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_frame_extents_unchecked(xw_ewmh_connection_t *ewmh, xw_window_t window);
/** Parses _NET_FRAME_EXTENTS (CARDINAL[4]) from a GetProperty reply into *out: 1 when r is CARDINAL/32 with exactly the
 * fields *out has, inside the reply's bytes; 0 otherwise (*out untouched). r stays the caller's. */
XW_EXPORT uint8_t xw_ewmh_get_frame_extents_from_reply(xw_ewmh_get_extents_reply_t *out, xw_get_property_reply_t *r);
/** Waits for _NET_FRAME_EXTENTS (CARDINAL[4]) and parses it into *out (1) or returns 0 (no such property, another type,
 * malformed, or an X error: *e, when e is not NULL, is then a malloc'd copy the caller frees). Allocation-free: the
 * reply is read into stack storage. Thread-safe. */
XW_EXPORT uint8_t xw_ewmh_get_frame_extents_reply(xw_ewmh_connection_t *ewmh, xw_get_property_cookie_t cookie,
                                                  xw_ewmh_get_extents_reply_t *out, xw_generic_error_t **e);

/* _NET_WM_PING */
/** Sends the window manager's _NET_WM_PING (a WM_PROTOCOLS ClientMessage) to `window`. Never allocates. */
XW_EXPORT xw_void_cookie_t xw_ewmh_send_wm_ping(xw_ewmh_connection_t *ewmh, xw_window_t window,
                                                xw_timestamp_t timestamp);

/* _NET_WM_SYNC_REQUEST, _NET_WM_SYNC_REQUEST_COUNTER */
/** Sets _NET_WM_SYNC_REQUEST_COUNTER (CARDINAL[2]; `wm_sync_request_counter_atom` is unused, as in libxcb-ewmh: the
 * atom interned in ewmh is used) on `window` (ChangeProperty, mode Replace). Returns the cookie; sequence 0 when the
 * request was refused (see xw_request_error_string). Never allocates; thread-safe. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_wm_sync_request_counter(xw_ewmh_connection_t *ewmh, xw_window_t window,
                                                               xw_atom_t wm_sync_request_counter_atom, uint32_t low,
                                                               uint32_t high);
/** As xw_ewmh_set_wm_sync_request_counter, checked: its error waits for xw_request_check. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_wm_sync_request_counter_checked(xw_ewmh_connection_t *ewmh, xw_window_t window,
                                                                       xw_atom_t wm_sync_request_counter_atom,
                                                                       uint32_t low, uint32_t high);
/** Sends the GetProperty for _NET_WM_SYNC_REQUEST_COUNTER (CARDINAL[2]) on `window`; errors are kept for the _reply
 * call (or go to the event queue with _unchecked). Never allocates; thread-safe. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_wm_sync_request_counter(xw_ewmh_connection_t *ewmh, xw_window_t window);
/** As xw_ewmh_get_wm_sync_request_counter, unchecked. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_wm_sync_request_counter_unchecked(xw_ewmh_connection_t *ewmh,
                                                                                 xw_window_t window);
/** Parses _NET_WM_SYNC_REQUEST_COUNTER: *counter = low | high << 32, 1 when r is CARDINAL/32 with exactly two values; 0
 * otherwise. */
XW_EXPORT uint8_t xw_ewmh_get_wm_sync_request_counter_from_reply(uint64_t *counter, xw_get_property_reply_t *r);
/** Waits for _NET_WM_SYNC_REQUEST_COUNTER and parses it (allocation-free; *e as in xw_ewmh_get_cardinal_reply). */
XW_EXPORT uint8_t xw_ewmh_get_wm_sync_request_counter_reply(xw_ewmh_connection_t *ewmh, xw_get_property_cookie_t cookie,
                                                            uint64_t *counter, xw_generic_error_t **e);
/** Sends _NET_WM_SYNC_REQUEST with `counter` to `window` (a WM_PROTOCOLS ClientMessage). The two atom arguments are
 * unused, as in libxcb-ewmh: the atoms interned in ewmh are sent. */
XW_EXPORT xw_void_cookie_t xw_ewmh_send_wm_sync_request(xw_ewmh_connection_t *ewmh, xw_window_t window,
                                                        xw_atom_t wm_protocols_atom, xw_atom_t wm_sync_request_atom,
                                                        xw_timestamp_t timestamp, uint64_t counter);

/* _NET_WM_FULLSCREEN_MONITORS */
/** Sets _NET_WM_FULLSCREEN_MONITORS (CARDINAL[4]) on `window` (ChangeProperty, mode Replace). Returns the cookie;
 * sequence 0 when the request was refused (see xw_request_error_string). Never allocates; thread-safe. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_wm_fullscreen_monitors(xw_ewmh_connection_t *ewmh, xw_window_t window,
                                                              uint32_t top, uint32_t bottom, uint32_t left,
                                                              uint32_t right);
/** As xw_ewmh_set_wm_fullscreen_monitors, checked: its error waits for xw_request_check. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_wm_fullscreen_monitors_checked(xw_ewmh_connection_t *ewmh, xw_window_t window,
                                                                      uint32_t top, uint32_t bottom, uint32_t left,
                                                                      uint32_t right);
/** Sends the GetProperty for _NET_WM_FULLSCREEN_MONITORS (CARDINAL[4]) on `window`; errors are kept for the _reply call
 * (or go to the event queue with _unchecked). Never allocates; thread-safe. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_wm_fullscreen_monitors(xw_ewmh_connection_t *ewmh, xw_window_t window);
/** As xw_ewmh_get_wm_fullscreen_monitors, unchecked. */
XW_EXPORT xw_get_property_cookie_t xw_ewmh_get_wm_fullscreen_monitors_unchecked(xw_ewmh_connection_t *ewmh,
                                                                                xw_window_t window);
/** Parses _NET_WM_FULLSCREEN_MONITORS (CARDINAL[4]) from a GetProperty reply into *out: 1 when r is CARDINAL/32 with
 * exactly the fields *out has, inside the reply's bytes; 0 otherwise (*out untouched). r stays the caller's. */
XW_EXPORT uint8_t xw_ewmh_get_wm_fullscreen_monitors_from_reply(xw_ewmh_get_wm_fullscreen_monitors_reply_t *out,
                                                                xw_get_property_reply_t *r);
/** Waits for _NET_WM_FULLSCREEN_MONITORS (CARDINAL[4]) and parses it into *out (1) or returns 0 (no such property,
 * another type, malformed, or an X error: *e, when e is not NULL, is then a malloc'd copy the caller frees).
 * Allocation-free: the reply is read into stack storage. Thread-safe. */
XW_EXPORT uint8_t xw_ewmh_get_wm_fullscreen_monitors_reply(xw_ewmh_connection_t *ewmh, xw_get_property_cookie_t cookie,
                                                           xw_ewmh_get_wm_fullscreen_monitors_reply_t *out,
                                                           xw_generic_error_t **e);
/** Asks the window manager to change _NET_WM_FULLSCREEN_MONITORS of `window`. */
XW_EXPORT xw_void_cookie_t xw_ewmh_request_change_wm_fullscreen_monitors(
    xw_ewmh_connection_t *ewmh, int screen_nbr, xw_window_t window, uint32_t top, uint32_t bottom, uint32_t left,
    uint32_t right, xw_ewmh_client_source_type_t source_indication);

/* _NET_WM_CM_Sn */
/** Takes the _NET_WM_CM_Sn selection of screen `screen_nbr` for `owner` (SetSelectionOwner, time CurrentTime) and
 * announces it with a MANAGER ClientMessage to the root (StructureNotify). Returns the announcement's cookie. Never
 * allocates. */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_wm_cm_owner(xw_ewmh_connection_t *ewmh, int screen_nbr, xw_window_t owner,
                                                   xw_timestamp_t timestamp, uint32_t selection_data1,
                                                   uint32_t selection_data2);
/** As xw_ewmh_set_wm_cm_owner with the announcement checked (the SetSelectionOwner goes unchecked: its error, if any,
 * to the event queue; libxcb-ewmh sends it checked and drops the cookie). */
XW_EXPORT xw_void_cookie_t xw_ewmh_set_wm_cm_owner_checked(xw_ewmh_connection_t *ewmh, int screen_nbr,
                                                           xw_window_t owner, xw_timestamp_t timestamp,
                                                           uint32_t selection_data1, uint32_t selection_data2);
/** Sends GetSelectionOwner for _NET_WM_CM_Sn of screen `screen_nbr`. Never allocates. */
XW_EXPORT xw_get_selection_owner_cookie_t xw_ewmh_get_wm_cm_owner(xw_ewmh_connection_t *ewmh, int screen_nbr);
/** As xw_ewmh_get_wm_cm_owner, unchecked. */
XW_EXPORT xw_get_selection_owner_cookie_t xw_ewmh_get_wm_cm_owner_unchecked(xw_ewmh_connection_t *ewmh, int screen_nbr);
/** Stores the owner r names and FREES r (as libxcb-ewmh does); 1, or 0 when r is NULL. */
XW_EXPORT uint8_t xw_ewmh_get_wm_cm_owner_from_reply(xw_window_t *owner, xw_get_selection_owner_reply_t *r);
/** Waits for the GetSelectionOwner reply and stores its owner (1), or returns 0 (*e as in xw_ewmh_get_cardinal_reply).
 * Allocation-free. */
XW_EXPORT uint8_t xw_ewmh_get_wm_cm_owner_reply(xw_ewmh_connection_t *ewmh, xw_get_selection_owner_cookie_t cookie,
                                                xw_window_t *owner, xw_generic_error_t **e);

/* ---- xwire only: replies into caller storage ---- */

/** The allocation-free form of the list getters. Waits for the GetProperty reply `cookie` names and
 * copies it into buf (cap bytes; 4-byte aligned), as xw_wait_for_reply_into does, then parses it as
 * the _from_reply call of `kind` would, with out's pointers into buf:
 *   XW_EWMH_REPLY_WINDOWS  -> xw_ewmh_get_windows_reply_t (_NET_CLIENT_LIST[_STACKING], _NET_VIRTUAL_ROOTS)
 *   XW_EWMH_REPLY_ATOMS    -> xw_ewmh_get_atoms_reply_t (_NET_SUPPORTED, _NET_WM_WINDOW_TYPE, _STATE,
 *                             _ALLOWED_ACTIONS)
 *   XW_EWMH_REPLY_UTF8_STRINGS -> xw_ewmh_get_utf8_strings_reply_t (names)
 *   XW_EWMH_REPLY_DESKTOP_VIEWPORT, XW_EWMH_REPLY_WORKAREA, XW_EWMH_REPLY_WM_ICON -> their reply types.
 * out->_reply points into buf: never pass out to a _wipe call.
 * Returns 1 parsed; 0 not parsed (no such property, another type or format, counts that run past
 * the reply, or no reply: a void or already claimed cookie); 2 an X error, copied into *e when e
 * is not NULL (also XW_ERROR_MALFORMED_REPLY when the connection refused the reply); -ENOSPC when
 * the reply needs more than cap bytes (*len = bytes needed; the reply stays queued: call again with
 * more room); -EPIPE on a connection error. *len (when len is not NULL) = bytes copied. Never
 * allocates on xwire's own connection once it is warm (a borrowed one receives through libxcb,
 * which does).
 * Thread-safe. */
XW_EXPORT int xw_ewmh_get_reply_into(xw_ewmh_connection_t *ewmh, xw_get_property_cookie_t cookie, int kind, void *buf,
                                     size_t cap, size_t *len, void *out, xw_generic_error_t *e);

#ifdef __cplusplus
}
#endif
#endif
