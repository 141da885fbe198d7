/* SPDX-License-Identifier: MIT */
#ifndef XW_ICCCM_H
#define XW_ICCCM_H
/* xw_icccm.h — libxcb-icccm (<xcb/xcb_icccm.h>) on xwire: the ICCCM client properties
 * (WM_NAME, WM_ICON_NAME, WM_CLIENT_MACHINE, WM_CLASS, WM_TRANSIENT_FOR,
 * WM_COLORMAP_WINDOWS, WM_NORMAL_HINTS / WM_SIZE_HINTS, WM_HINTS, WM_PROTOCOLS): set,
 * get, parse. Part of libxwire-util.
 *
 * Conventions, as xcb-icccm's:
 * - set_* sends one ChangeProperty (mode Replace); _checked lets xw_request_check claim
 *   its error. Never allocates.
 * - get_* sends one GetProperty and returns its cookie; _unchecked sends errors to the
 *   event queue. get_*_reply waits and parses: 1 on success, 0 when the window has no
 *   such property, it has the wrong type or format, or an X error came (then *e, when
 *   e is not NULL, is a malloc'd error the caller frees; NULL otherwise).
 * - Replies the parse points into: get_*_reply keeps the malloc'd reply in `_reply`,
 *   freed by get_*_reply_wipe. The _reply_into forms (xwire only) read the reply into
 *   caller storage instead and never allocate: the parsed pointers point into `buf`
 *   and `_reply` is NULL (wipe is then harmless). They return 1 parsed; 0 no property,
 *   wrong type or X error (copied into *e when e is not NULL); -ENOSPC `buf` is too
 *   small and the reply STAYS QUEUED (retry with more room, or claim it with the
 *   get_*_reply form); -EPIPE the connection failed. `buf` needs 32 bytes plus the
 *   property's value rounded up to 4, and must be 4-byte aligned.
 * - Getters of fixed-size properties (WM_TRANSIENT_FOR, WM_HINTS, WM_SIZE_HINTS) read
 *   the reply into stack storage: they never allocate, except for the error returned.
 * - Thread-safety: as the requests they send; a parsed struct belongs to its caller.
 * - Replies are untrusted: a parse never reads past the reply's value, where
 *   xcb-icccm may (see docs/porting.md's list of differences). */
#include <xw/xw.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- text properties (WM_NAME, WM_ICON_NAME, WM_CLIENT_MACHINE, any other) ---- */

/** A text property: `name_len` bytes (not NUL-terminated) in `encoding` (STRING,
 * UTF8_STRING, COMPOUND_TEXT, ...), of `format` 8, 16 or 32. */
typedef struct {
    /** The reply `name` points into (get_*_reply); NULL from the _into forms. */
    xw_get_property_reply_t *_reply;
    /** The property's type: its encoding. */
    xw_atom_t encoding;
    /** Bytes at `name`. */
    uint32_t name_len;
    /** The value; not NUL-terminated. */
    char *name;
    /** 8, 16 or 32. */
    uint8_t format;
} xw_icccm_get_text_property_reply_t;

/** GetProperty of any type, the whole value, of `property` on `window`. */
XW_EXPORT xw_get_property_cookie_t xw_icccm_get_text_property(xw_connection_t *c, xw_window_t window,
                                                              xw_atom_t property);
/** xw_icccm_get_text_property, errors to the event queue. */
XW_EXPORT xw_get_property_cookie_t xw_icccm_get_text_property_unchecked(xw_connection_t *c, xw_window_t window,
                                                                        xw_atom_t property);
/** Waits for a text property: 1 and `prop` filled (free with
 * xw_icccm_get_text_property_reply_wipe), 0 when there is none (type None) or an error. */
XW_EXPORT uint8_t xw_icccm_get_text_property_reply(xw_connection_t *c, xw_get_property_cookie_t cookie,
                                                   xw_icccm_get_text_property_reply_t *prop, xw_generic_error_t **e);
/** Zero-allocation form: the reply read into `buf` (see the header's conventions). */
XW_EXPORT int xw_icccm_get_text_property_reply_into(xw_connection_t *c, xw_get_property_cookie_t cookie,
                                                    xw_icccm_get_text_property_reply_t *prop, void *buf, size_t cap,
                                                    xw_generic_error_t *e);
/** Frees the reply a get_*_reply form kept in `prop` (nothing for the _into forms). */
XW_EXPORT void xw_icccm_get_text_property_reply_wipe(xw_icccm_get_text_property_reply_t *prop);

/* ---- WM_NAME ---- */

/** Sets WM_NAME to `name_len` units of `name` (type `encoding`, `format` 8/16/32). */
XW_EXPORT xw_void_cookie_t xw_icccm_set_wm_name_checked(xw_connection_t *c, xw_window_t window, xw_atom_t encoding,
                                                        uint8_t format, uint32_t name_len, const char *name);
/** xw_icccm_set_wm_name_checked, errors to the event queue. */
XW_EXPORT xw_void_cookie_t xw_icccm_set_wm_name(xw_connection_t *c, xw_window_t window, xw_atom_t encoding,
                                                uint8_t format, uint32_t name_len, const char *name);
/** Asks for WM_NAME (a text property). */
XW_EXPORT xw_get_property_cookie_t xw_icccm_get_wm_name(xw_connection_t *c, xw_window_t window);
/** xw_icccm_get_wm_name, errors to the event queue. */
XW_EXPORT xw_get_property_cookie_t xw_icccm_get_wm_name_unchecked(xw_connection_t *c, xw_window_t window);
/** As xw_icccm_get_text_property_reply. */
XW_EXPORT uint8_t xw_icccm_get_wm_name_reply(xw_connection_t *c, xw_get_property_cookie_t cookie,
                                             xw_icccm_get_text_property_reply_t *prop, xw_generic_error_t **e);

/* ---- WM_ICON_NAME ---- */

/** Sets WM_ICON_NAME (as xw_icccm_set_wm_name_checked). */
XW_EXPORT xw_void_cookie_t xw_icccm_set_wm_icon_name_checked(xw_connection_t *c, xw_window_t window, xw_atom_t encoding,
                                                             uint8_t format, uint32_t name_len, const char *name);
/** Sets WM_ICON_NAME, errors to the event queue. */
XW_EXPORT xw_void_cookie_t xw_icccm_set_wm_icon_name(xw_connection_t *c, xw_window_t window, xw_atom_t encoding,
                                                     uint8_t format, uint32_t name_len, const char *name);
/** Asks for WM_ICON_NAME (a text property). */
XW_EXPORT xw_get_property_cookie_t xw_icccm_get_wm_icon_name(xw_connection_t *c, xw_window_t window);
/** xw_icccm_get_wm_icon_name, errors to the event queue. */
XW_EXPORT xw_get_property_cookie_t xw_icccm_get_wm_icon_name_unchecked(xw_connection_t *c, xw_window_t window);
/** As xw_icccm_get_text_property_reply. */
XW_EXPORT uint8_t xw_icccm_get_wm_icon_name_reply(xw_connection_t *c, xw_get_property_cookie_t cookie,
                                                  xw_icccm_get_text_property_reply_t *prop, xw_generic_error_t **e);

/* ---- WM_COLORMAP_WINDOWS ---- */

/** Sets the windows whose colormaps differ from the top-level's (`wm_colormap_windows_atom`
 * is the interned WM_COLORMAP_WINDOWS; type WINDOW). */
XW_EXPORT xw_void_cookie_t xw_icccm_set_wm_colormap_windows_checked(xw_connection_t *c, xw_window_t window,
                                                                    xw_atom_t wm_colormap_windows_atom,
                                                                    uint32_t list_len, const xw_window_t *list);
/** xw_icccm_set_wm_colormap_windows_checked, errors to the event queue. */
XW_EXPORT xw_void_cookie_t xw_icccm_set_wm_colormap_windows(xw_connection_t *c, xw_window_t window,
                                                            xw_atom_t wm_colormap_windows_atom, uint32_t list_len,
                                                            const xw_window_t *list);

/** A parsed WM_COLORMAP_WINDOWS. */
typedef struct {
    /** Windows at `windows`. */
    uint32_t windows_len;
    /** The list, inside the reply. */
    xw_window_t *windows;
    /** The reply `windows` points into (get_*_reply); NULL from the _into form. */
    xw_get_property_reply_t *_reply;
} xw_icccm_get_wm_colormap_windows_reply_t;

/** Asks for WM_COLORMAP_WINDOWS (type WINDOW, the whole list). */
XW_EXPORT xw_get_property_cookie_t xw_icccm_get_wm_colormap_windows(xw_connection_t *c, xw_window_t window,
                                                                    xw_atom_t wm_colormap_windows_atom);
/** xw_icccm_get_wm_colormap_windows, errors to the event queue. */
XW_EXPORT xw_get_property_cookie_t xw_icccm_get_wm_colormap_windows_unchecked(xw_connection_t *c, xw_window_t window,
                                                                              xw_atom_t wm_colormap_windows_atom);
/** Parses `reply` (type WINDOW, format 32): 1, or 0 leaving `reply` the caller's. On
 * success `colormap_windows` takes `reply` over (free it with the _wipe). */
XW_EXPORT uint8_t xw_icccm_get_wm_colormap_windows_from_reply(
    xw_get_property_reply_t *reply, xw_icccm_get_wm_colormap_windows_reply_t *colormap_windows);
/** Waits and parses (see the header's conventions). */
XW_EXPORT uint8_t xw_icccm_get_wm_colormap_windows_reply(xw_connection_t *c, xw_get_property_cookie_t cookie,
                                                         xw_icccm_get_wm_colormap_windows_reply_t *windows,
                                                         xw_generic_error_t **e);
/** Zero-allocation form: the reply read into `buf`. */
XW_EXPORT int xw_icccm_get_wm_colormap_windows_reply_into(xw_connection_t *c, xw_get_property_cookie_t cookie,
                                                          xw_icccm_get_wm_colormap_windows_reply_t *windows, void *buf,
                                                          size_t cap, xw_generic_error_t *e);
/** Frees the reply kept by xw_icccm_get_wm_colormap_windows_reply. */
XW_EXPORT void xw_icccm_get_wm_colormap_windows_reply_wipe(xw_icccm_get_wm_colormap_windows_reply_t *windows);

/* ---- WM_CLIENT_MACHINE ---- */

/** Sets WM_CLIENT_MACHINE (as xw_icccm_set_wm_name_checked). */
XW_EXPORT xw_void_cookie_t xw_icccm_set_wm_client_machine_checked(xw_connection_t *c, xw_window_t window,
                                                                  xw_atom_t encoding, uint8_t format, uint32_t name_len,
                                                                  const char *name);
/** Sets WM_CLIENT_MACHINE, errors to the event queue. */
XW_EXPORT xw_void_cookie_t xw_icccm_set_wm_client_machine(xw_connection_t *c, xw_window_t window, xw_atom_t encoding,
                                                          uint8_t format, uint32_t name_len, const char *name);
/** Asks for WM_CLIENT_MACHINE (a text property). */
XW_EXPORT xw_get_property_cookie_t xw_icccm_get_wm_client_machine(xw_connection_t *c, xw_window_t window);
/** xw_icccm_get_wm_client_machine, errors to the event queue. */
XW_EXPORT xw_get_property_cookie_t xw_icccm_get_wm_client_machine_unchecked(xw_connection_t *c, xw_window_t window);
/** As xw_icccm_get_text_property_reply. */
XW_EXPORT uint8_t xw_icccm_get_wm_client_machine_reply(xw_connection_t *c, xw_get_property_cookie_t cookie,
                                                       xw_icccm_get_text_property_reply_t *prop,
                                                       xw_generic_error_t **e);

/* ---- WM_CLASS ---- */

/** Sets WM_CLASS to `class_len` bytes: the instance name, a NUL, the class name, a NUL. */
XW_EXPORT xw_void_cookie_t xw_icccm_set_wm_class_checked(xw_connection_t *c, xw_window_t window, uint32_t class_len,
                                                         const char *class_name);
/** xw_icccm_set_wm_class_checked, errors to the event queue. */
XW_EXPORT xw_void_cookie_t xw_icccm_set_wm_class(xw_connection_t *c, xw_window_t window, uint32_t class_len,
                                                 const char *class_name);

/** A parsed WM_CLASS: two NUL-terminated strings inside the reply. */
typedef struct {
    /** The instance name. */
    char *instance_name;
    /** The class name ("" when the property holds only one string). */
    char *class_name;
    /** The reply both point into (get_*_reply); NULL from the _into form. */
    xw_get_property_reply_t *_reply;
} xw_icccm_get_wm_class_reply_t;

/** Asks for WM_CLASS (type STRING, up to 2048 words). */
XW_EXPORT xw_get_property_cookie_t xw_icccm_get_wm_class(xw_connection_t *c, xw_window_t window);
/** xw_icccm_get_wm_class, errors to the event queue. */
XW_EXPORT xw_get_property_cookie_t xw_icccm_get_wm_class_unchecked(xw_connection_t *c, xw_window_t window);
/** Parses `reply` (type STRING, format 8, not empty), NUL-terminating its value in
 * place (the last byte is replaced when there is no room after it): 1 and `prop` takes
 * `reply` over (free with the _wipe), or 0 leaving it the caller's. */
XW_EXPORT uint8_t xw_icccm_get_wm_class_from_reply(xw_icccm_get_wm_class_reply_t *prop, xw_get_property_reply_t *reply);
/** Waits and parses (see the header's conventions). */
XW_EXPORT uint8_t xw_icccm_get_wm_class_reply(xw_connection_t *c, xw_get_property_cookie_t cookie,
                                              xw_icccm_get_wm_class_reply_t *prop, xw_generic_error_t **e);
/** Zero-allocation form: the reply read into `buf`. */
XW_EXPORT int xw_icccm_get_wm_class_reply_into(xw_connection_t *c, xw_get_property_cookie_t cookie,
                                               xw_icccm_get_wm_class_reply_t *prop, void *buf, size_t cap,
                                               xw_generic_error_t *e);
/** Frees the reply kept by xw_icccm_get_wm_class_reply. */
XW_EXPORT void xw_icccm_get_wm_class_reply_wipe(xw_icccm_get_wm_class_reply_t *prop);

/* ---- WM_TRANSIENT_FOR ---- */

/** Sets WM_TRANSIENT_FOR (type WINDOW) to `transient_for_window`. */
XW_EXPORT xw_void_cookie_t xw_icccm_set_wm_transient_for_checked(xw_connection_t *c, xw_window_t window,
                                                                 xw_window_t transient_for_window);
/** xw_icccm_set_wm_transient_for_checked, errors to the event queue. */
XW_EXPORT xw_void_cookie_t xw_icccm_set_wm_transient_for(xw_connection_t *c, xw_window_t window,
                                                         xw_window_t transient_for_window);
/** Asks for WM_TRANSIENT_FOR (type WINDOW, one word). */
XW_EXPORT xw_get_property_cookie_t xw_icccm_get_wm_transient_for(xw_connection_t *c, xw_window_t window);
/** xw_icccm_get_wm_transient_for, errors to the event queue. */
XW_EXPORT xw_get_property_cookie_t xw_icccm_get_wm_transient_for_unchecked(xw_connection_t *c, xw_window_t window);
/** Parses `reply` (type WINDOW, format 32, at least one window) into *prop: 1 or 0.
 * `reply` stays the caller's. */
XW_EXPORT uint8_t xw_icccm_get_wm_transient_for_from_reply(xw_window_t *prop, xw_get_property_reply_t *reply);
/** Waits and parses; never allocates but for the error returned. */
XW_EXPORT uint8_t xw_icccm_get_wm_transient_for_reply(xw_connection_t *c, xw_get_property_cookie_t cookie,
                                                      xw_window_t *prop, xw_generic_error_t **e);

/* ---- WM_SIZE_HINTS / WM_NORMAL_HINTS ---- */

/** Which fields of xw_size_hints_t are set. */
typedef enum {
    XW_ICCCM_SIZE_HINT_US_POSITION = 1 << 0,
    XW_ICCCM_SIZE_HINT_US_SIZE = 1 << 1,
    XW_ICCCM_SIZE_HINT_P_POSITION = 1 << 2,
    XW_ICCCM_SIZE_HINT_P_SIZE = 1 << 3,
    XW_ICCCM_SIZE_HINT_P_MIN_SIZE = 1 << 4,
    XW_ICCCM_SIZE_HINT_P_MAX_SIZE = 1 << 5,
    XW_ICCCM_SIZE_HINT_P_RESIZE_INC = 1 << 6,
    XW_ICCCM_SIZE_HINT_P_ASPECT = 1 << 7,
    XW_ICCCM_SIZE_HINT_BASE_SIZE = 1 << 8,
    XW_ICCCM_SIZE_HINT_P_WIN_GRAVITY = 1 << 9
} xw_icccm_size_hints_flags_t;

/** WM_SIZE_HINTS as on the wire (18 words, ICCCM 4.1.2.3). */
typedef struct {
    uint32_t flags;
    int32_t x, y;
    int32_t width, height;
    int32_t min_width, min_height;
    int32_t max_width, max_height;
    int32_t width_inc, height_inc;
    int32_t min_aspect_num, min_aspect_den;
    int32_t max_aspect_num, max_aspect_den;
    int32_t base_width, base_height;
    uint32_t win_gravity;
} xw_size_hints_t;

/** Words in WM_SIZE_HINTS. */
#define XW_ICCCM_NUM_WM_SIZE_HINTS_ELEMENTS 18

/** Sets the position and its flag: US_POSITION when `user_specified`, P_POSITION otherwise. */
XW_EXPORT void xw_icccm_size_hints_set_position(xw_size_hints_t *hints, int user_specified, int32_t x, int32_t y);
/** Sets the size and its flag: US_SIZE when `user_specified`, P_SIZE otherwise. */
XW_EXPORT void xw_icccm_size_hints_set_size(xw_size_hints_t *hints, int user_specified, int32_t width, int32_t height);
/** Sets the minimum size and P_MIN_SIZE. */
XW_EXPORT void xw_icccm_size_hints_set_min_size(xw_size_hints_t *hints, int32_t min_width, int32_t min_height);
/** Sets the maximum size and P_MAX_SIZE. */
XW_EXPORT void xw_icccm_size_hints_set_max_size(xw_size_hints_t *hints, int32_t max_width, int32_t max_height);
/** Sets the resize increments and P_RESIZE_INC. */
XW_EXPORT void xw_icccm_size_hints_set_resize_inc(xw_size_hints_t *hints, int32_t width_inc, int32_t height_inc);
/** Sets the aspect ratios and P_ASPECT. */
XW_EXPORT void xw_icccm_size_hints_set_aspect(xw_size_hints_t *hints, int32_t min_aspect_num, int32_t min_aspect_den,
                                              int32_t max_aspect_num, int32_t max_aspect_den);
/** Sets the base size and BASE_SIZE. */
XW_EXPORT void xw_icccm_size_hints_set_base_size(xw_size_hints_t *hints, int32_t base_width, int32_t base_height);
/** Sets the window gravity and P_WIN_GRAVITY. */
XW_EXPORT void xw_icccm_size_hints_set_win_gravity(xw_size_hints_t *hints, xw_gravity_t win_gravity);

/** Sets `property` (type WM_SIZE_HINTS, 18 words) to *hints. */
XW_EXPORT xw_void_cookie_t xw_icccm_set_wm_size_hints_checked(xw_connection_t *c, xw_window_t window,
                                                              xw_atom_t property, xw_size_hints_t *hints);
/** xw_icccm_set_wm_size_hints_checked, errors to the event queue. */
XW_EXPORT xw_void_cookie_t xw_icccm_set_wm_size_hints(xw_connection_t *c, xw_window_t window, xw_atom_t property,
                                                      xw_size_hints_t *hints);
/** Asks for `property` as WM_SIZE_HINTS (18 words). */
XW_EXPORT xw_get_property_cookie_t xw_icccm_get_wm_size_hints(xw_connection_t *c, xw_window_t window,
                                                              xw_atom_t property);
/** xw_icccm_get_wm_size_hints, errors to the event queue. */
XW_EXPORT xw_get_property_cookie_t xw_icccm_get_wm_size_hints_unchecked(xw_connection_t *c, xw_window_t window,
                                                                        xw_atom_t property);
/** Waits and parses (as xw_icccm_get_wm_size_hints_from_reply); never allocates but
 * for the error returned. */
XW_EXPORT uint8_t xw_icccm_get_wm_size_hints_reply(xw_connection_t *c, xw_get_property_cookie_t cookie,
                                                   xw_size_hints_t *hints, xw_generic_error_t **e);

/* ---- WM_NORMAL_HINTS ---- */

/** Sets WM_NORMAL_HINTS to *hints. */
XW_EXPORT xw_void_cookie_t xw_icccm_set_wm_normal_hints_checked(xw_connection_t *c, xw_window_t window,
                                                                xw_size_hints_t *hints);
/** xw_icccm_set_wm_normal_hints_checked, errors to the event queue. */
XW_EXPORT xw_void_cookie_t xw_icccm_set_wm_normal_hints(xw_connection_t *c, xw_window_t window, xw_size_hints_t *hints);
/** Asks for WM_NORMAL_HINTS. */
XW_EXPORT xw_get_property_cookie_t xw_icccm_get_wm_normal_hints(xw_connection_t *c, xw_window_t window);
/** xw_icccm_get_wm_normal_hints, errors to the event queue. */
XW_EXPORT xw_get_property_cookie_t xw_icccm_get_wm_normal_hints_unchecked(xw_connection_t *c, xw_window_t window);
/** Parses `reply` (type WM_SIZE_HINTS, format 32): the words present are copied (at most
 * 18), flags outside the ones those words can carry are cleared, and an old 15-word
 * property gets base size and gravity 0. Returns 1 or 0; `reply` stays the caller's. */
XW_EXPORT uint8_t xw_icccm_get_wm_size_hints_from_reply(xw_size_hints_t *hints, xw_get_property_reply_t *reply);
/** As xw_icccm_get_wm_size_hints_reply. */
XW_EXPORT uint8_t xw_icccm_get_wm_normal_hints_reply(xw_connection_t *c, xw_get_property_cookie_t cookie,
                                                     xw_size_hints_t *hints, xw_generic_error_t **e);

/* ---- WM_HINTS ---- */

/** WM_HINTS as on the wire (9 words, ICCCM 4.1.2.4). */
typedef struct {
    /** Which fields are set (xw_icccm_wm_t). */
    int32_t flags;
    /** Whether the client relies on the window manager for keyboard input. */
    uint32_t input;
    /** xw_icccm_wm_state_t. */
    int32_t initial_state;
    xw_pixmap_t icon_pixmap;
    xw_window_t icon_window;
    int32_t icon_x, icon_y;
    xw_pixmap_t icon_mask;
    /** The window group's leader. */
    xw_window_t window_group;
} xw_icccm_wm_hints_t;

/** Words in WM_HINTS. */
#define XW_ICCCM_NUM_WM_HINTS_ELEMENTS 9

/** Initial window states. */
typedef enum {
    XW_ICCCM_WM_STATE_WITHDRAWN = 0,
    XW_ICCCM_WM_STATE_NORMAL = 1,
    XW_ICCCM_WM_STATE_ICONIC = 3
} xw_icccm_wm_state_t;

/** Which fields of xw_icccm_wm_hints_t are set. */
typedef enum {
    XW_ICCCM_WM_HINT_INPUT = (1L << 0),
    XW_ICCCM_WM_HINT_STATE = (1L << 1),
    XW_ICCCM_WM_HINT_ICON_PIXMAP = (1L << 2),
    XW_ICCCM_WM_HINT_ICON_WINDOW = (1L << 3),
    XW_ICCCM_WM_HINT_ICON_POSITION = (1L << 4),
    XW_ICCCM_WM_HINT_ICON_MASK = (1L << 5),
    XW_ICCCM_WM_HINT_WINDOW_GROUP = (1L << 6),
    XW_ICCCM_WM_HINT_X_URGENCY = (1L << 8)
} xw_icccm_wm_t;

/** Every hint flag but urgency. */
#define XW_ICCCM_WM_ALL_HINTS                                                                                          \
    (XW_ICCCM_WM_HINT_INPUT | XW_ICCCM_WM_HINT_STATE | XW_ICCCM_WM_HINT_ICON_PIXMAP | XW_ICCCM_WM_HINT_ICON_WINDOW |   \
     XW_ICCCM_WM_HINT_ICON_POSITION | XW_ICCCM_WM_HINT_ICON_MASK | XW_ICCCM_WM_HINT_WINDOW_GROUP)

/** The urgency flag of `hints` (non-zero when set). */
XW_EXPORT uint32_t xw_icccm_wm_hints_get_urgency(xw_icccm_wm_hints_t *hints);
/** Sets the input hint and its flag. */
XW_EXPORT void xw_icccm_wm_hints_set_input(xw_icccm_wm_hints_t *hints, uint8_t input);
/** Initial state Iconic, and the state flag. */
XW_EXPORT void xw_icccm_wm_hints_set_iconic(xw_icccm_wm_hints_t *hints);
/** Initial state Normal, and the state flag. */
XW_EXPORT void xw_icccm_wm_hints_set_normal(xw_icccm_wm_hints_t *hints);
/** Initial state Withdrawn, and the state flag. */
XW_EXPORT void xw_icccm_wm_hints_set_withdrawn(xw_icccm_wm_hints_t *hints);
/** Clears the state flag. */
XW_EXPORT void xw_icccm_wm_hints_set_none(xw_icccm_wm_hints_t *hints);
/** Sets the icon pixmap and its flag. */
XW_EXPORT void xw_icccm_wm_hints_set_icon_pixmap(xw_icccm_wm_hints_t *hints, xw_pixmap_t icon_pixmap);
/** Sets the icon mask and its flag. */
XW_EXPORT void xw_icccm_wm_hints_set_icon_mask(xw_icccm_wm_hints_t *hints, xw_pixmap_t icon_mask);
/** Sets the icon window and its flag. */
XW_EXPORT void xw_icccm_wm_hints_set_icon_window(xw_icccm_wm_hints_t *hints, xw_window_t icon_window);
/** Sets the window group and its flag. */
XW_EXPORT void xw_icccm_wm_hints_set_window_group(xw_icccm_wm_hints_t *hints, xw_window_t window_group);
/** Sets the urgency flag. */
XW_EXPORT void xw_icccm_wm_hints_set_urgency(xw_icccm_wm_hints_t *hints);

/** Sets WM_HINTS (type WM_HINTS, 9 words) to *hints. */
XW_EXPORT xw_void_cookie_t xw_icccm_set_wm_hints_checked(xw_connection_t *c, xw_window_t window,
                                                         xw_icccm_wm_hints_t *hints);
/** xw_icccm_set_wm_hints_checked, errors to the event queue. */
XW_EXPORT xw_void_cookie_t xw_icccm_set_wm_hints(xw_connection_t *c, xw_window_t window, xw_icccm_wm_hints_t *hints);
/** Asks for WM_HINTS (9 words). */
XW_EXPORT xw_get_property_cookie_t xw_icccm_get_wm_hints(xw_connection_t *c, xw_window_t window);
/** xw_icccm_get_wm_hints, errors to the event queue. */
XW_EXPORT xw_get_property_cookie_t xw_icccm_get_wm_hints_unchecked(xw_connection_t *c, xw_window_t window);
/** Parses `reply` (type WM_HINTS, format 32, at least 8 words; an 8-word property of
 * ICCCM 1 gets window_group None). Returns 1 or 0; `reply` stays the caller's. */
XW_EXPORT uint8_t xw_icccm_get_wm_hints_from_reply(xw_icccm_wm_hints_t *hints, xw_get_property_reply_t *reply);
/** Waits and parses; never allocates but for the error returned. */
XW_EXPORT uint8_t xw_icccm_get_wm_hints_reply(xw_connection_t *c, xw_get_property_cookie_t cookie,
                                              xw_icccm_wm_hints_t *hints, xw_generic_error_t **e);

/* ---- WM_PROTOCOLS ---- */

/** Sets `wm_protocols` (the interned WM_PROTOCOLS; type ATOM) to `list_len` atoms. */
XW_EXPORT xw_void_cookie_t xw_icccm_set_wm_protocols_checked(xw_connection_t *c, xw_window_t window,
                                                             xw_atom_t wm_protocols, uint32_t list_len,
                                                             xw_atom_t *list);
/** xw_icccm_set_wm_protocols_checked, errors to the event queue. */
XW_EXPORT xw_void_cookie_t xw_icccm_set_wm_protocols(xw_connection_t *c, xw_window_t window, xw_atom_t wm_protocols,
                                                     uint32_t list_len, xw_atom_t *list);

/** A parsed WM_PROTOCOLS. */
typedef struct {
    /** Atoms at `atoms`. */
    uint32_t atoms_len;
    /** The list, inside the reply. */
    xw_atom_t *atoms;
    /** The reply `atoms` points into (get_*_reply); NULL from the _into form. */
    xw_get_property_reply_t *_reply;
} xw_icccm_get_wm_protocols_reply_t;

/** Asks for `wm_protocol_atom` (type ATOM, the whole list). */
XW_EXPORT xw_get_property_cookie_t xw_icccm_get_wm_protocols(xw_connection_t *c, xw_window_t window,
                                                             xw_atom_t wm_protocol_atom);
/** xw_icccm_get_wm_protocols, errors to the event queue. */
XW_EXPORT xw_get_property_cookie_t xw_icccm_get_wm_protocols_unchecked(xw_connection_t *c, xw_window_t window,
                                                                       xw_atom_t wm_protocol_atom);
/** Parses `reply` (type ATOM, format 32): 1 and `protocols` takes `reply` over (free
 * with the _wipe), or 0 leaving it the caller's. */
XW_EXPORT uint8_t xw_icccm_get_wm_protocols_from_reply(xw_get_property_reply_t *reply,
                                                       xw_icccm_get_wm_protocols_reply_t *protocols);
/** Waits and parses (see the header's conventions). */
XW_EXPORT uint8_t xw_icccm_get_wm_protocols_reply(xw_connection_t *c, xw_get_property_cookie_t cookie,
                                                  xw_icccm_get_wm_protocols_reply_t *protocols, xw_generic_error_t **e);
/** Zero-allocation form: the reply read into `buf`. */
XW_EXPORT int xw_icccm_get_wm_protocols_reply_into(xw_connection_t *c, xw_get_property_cookie_t cookie,
                                                   xw_icccm_get_wm_protocols_reply_t *protocols, void *buf, size_t cap,
                                                   xw_generic_error_t *e);
/** Frees the reply kept by xw_icccm_get_wm_protocols_reply. */
XW_EXPORT void xw_icccm_get_wm_protocols_reply_wipe(xw_icccm_get_wm_protocols_reply_t *protocols);

#ifdef __cplusplus
}
#endif
#endif
