/* SPDX-License-Identifier: MIT */
#ifndef XW_AUX_H
#define XW_AUX_H
/* xw_aux.h — xcb-util's aux helpers (<xcb/xcb_aux.h>) on xwire: screens, depths and
 * visuals found in the setup, a round-trip sync, value-list senders and colour parsing. Part of libxwire-util. */
#include <xw/xw.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The screen numbered `screen` in the connection's setup, or NULL when there is no such
 * screen or the connection has failed. Points into the setup the connection owns: valid
 * until xw_disconnect. Never allocates; thread-safe. */
XW_EXPORT xw_screen_t *xw_aux_get_screen(xw_connection_t *c, int screen);

/** The depth of `screen`'s root visual, or 0 when it is not among the screen's depths.
 * `c` is unused (kept for libxcb's signature). Never allocates. */
XW_EXPORT uint8_t xw_aux_get_depth(xw_connection_t *c, xw_screen_t *screen);

/** The depth whose visual list holds `id` on `screen`, or 0 when none does. */
XW_EXPORT uint8_t xw_aux_get_depth_of_visual(xw_screen_t *screen, xw_visualid_t id);

/** The visual type `vid` of screen number `screen`, or NULL. Points into the setup.
 * Unlike xcb-util's, which looks in the screen's first depth only, every depth is searched. */
XW_EXPORT xw_visualtype_t *xw_aux_get_visualtype(xw_connection_t *c, int screen, xw_visualid_t vid);

/** The visual type `id` on `screen`, or NULL. Points into the setup. */
XW_EXPORT xw_visualtype_t *xw_aux_find_visual_by_id(xw_screen_t *screen, xw_visualid_t id);

/** The first visual on `screen` whose class is `class_` and whose depth is `depth`; a
 * negative argument matches any. NULL when none matches. Points into the setup. */
XW_EXPORT xw_visualtype_t *xw_aux_find_visual_by_attrs(xw_screen_t *screen, int8_t class_, int8_t depth);

/** Waits until the server has processed every request sent so far (one GetInputFocus
 * round trip, its reply dropped). Returns nothing, like libxcb's: a failed connection
 * shows in xw_connection_has_error. Allocates nothing once the connection is warm. */
XW_EXPORT void xw_aux_sync(xw_connection_t *c);

/* ---- value-list senders ----
 * Each xw_params_*_t has one 32-bit word per value of its request's value mask, in bit
 * order, so a caller sets fields and mask bits (XW_AUX_ADD_PARAM does both) and the
 * sender packs the words whose bits are set into the request's value list. The packing
 * is done on the stack: these senders never allocate (on a borrowed connection libxcb
 * sends, as it always does). Mask bits beyond the struct's last field are dropped.
 * Threads: as the request they send. */

/** The offset of field `param` in the struct `*paramsp`, counted in 32-bit words: the
 * bit number of that value in the request's mask. */
#define XW_AUX_INTERNAL_OFFSETOF(paramsp, param) ((uint32_t const *)(&((paramsp)->param)) - (uint32_t const *)(paramsp))

/** Sets `(paramsp)->param = value` and the matching bit in `*maskp`. */
#define XW_AUX_ADD_PARAM(maskp, paramsp, param, value)                                                                 \
    ((*(maskp) |= 1 << XW_AUX_INTERNAL_OFFSETOF((paramsp), param)), ((paramsp)->param = (value)))

/** CreateWindow / ChangeWindowAttributes values, in XW_CW_* bit order. */
typedef struct {
    uint32_t back_pixmap;
    uint32_t back_pixel;
    uint32_t border_pixmap;
    uint32_t border_pixel;
    uint32_t bit_gravity;
    uint32_t win_gravity;
    uint32_t backing_store;
    uint32_t backing_planes;
    uint32_t backing_pixel;
    uint32_t override_redirect;
    uint32_t save_under;
    uint32_t event_mask;
    uint32_t dont_propagate;
    uint32_t colormap;
    uint32_t cursor;
} xw_params_cw_t;

/** ConfigureWindow values, in XW_CONFIG_WINDOW_* bit order. */
typedef struct {
    int32_t x;
    int32_t y;
    uint32_t width;
    uint32_t height;
    uint32_t border_width;
    uint32_t sibling;
    uint32_t stack_mode;
} xw_params_configure_window_t;

/** CreateGC / ChangeGC values, in XW_GC_* bit order (field names as xcb-util's). */
typedef struct {
    uint32_t function;
    uint32_t plane_mask;
    uint32_t foreground;
    uint32_t background;
    uint32_t line_width;
    uint32_t line_style;
    uint32_t cap_style;
    uint32_t join_style;
    uint32_t fill_style;
    uint32_t fill_rule;
    uint32_t tile;
    uint32_t stipple;
    uint32_t tile_stipple_origin_x;
    uint32_t tile_stipple_origin_y;
    uint32_t font;
    uint32_t subwindow_mode;
    uint32_t graphics_exposures;
    uint32_t clip_originX;
    uint32_t clip_originY;
    uint32_t mask;
    uint32_t dash_offset;
    uint32_t dash_list;
    uint32_t arc_mode;
} xw_params_gc_t;

/** ChangeKeyboardControl values, in XW_KB_* bit order. */
typedef struct {
    uint32_t key_click_percent;
    uint32_t bell_percent;
    uint32_t bell_pitch;
    uint32_t bell_duration;
    uint32_t led;
    uint32_t led_mode;
    uint32_t key;
    uint32_t auto_repeat_mode;
} xw_params_keyboard_t;

/** CreateWindow with the values of `params` selected by `mask` (XW_CW_*). Returns the
 * request's cookie; errors come as events. */
XW_EXPORT xw_void_cookie_t xw_aux_create_window(xw_connection_t *c, uint8_t depth, xw_window_t wid, xw_window_t parent,
                                                int16_t x, int16_t y, uint16_t width, uint16_t height,
                                                uint16_t border_width, uint16_t class_, xw_visualid_t visual,
                                                uint32_t mask, const xw_params_cw_t *params);
/** xw_aux_create_window, checked: claim the error with xw_request_check. */
XW_EXPORT xw_void_cookie_t xw_aux_create_window_checked(xw_connection_t *c, uint8_t depth, xw_window_t wid,
                                                        xw_window_t parent, int16_t x, int16_t y, uint16_t width,
                                                        uint16_t height, uint16_t border_width, uint16_t class_,
                                                        xw_visualid_t visual, uint32_t mask,
                                                        const xw_params_cw_t *params);
/** ChangeWindowAttributes with the values of `params` selected by `mask` (XW_CW_*). */
XW_EXPORT xw_void_cookie_t xw_aux_change_window_attributes(xw_connection_t *c, xw_window_t window, uint32_t mask,
                                                           const xw_params_cw_t *params);
/** xw_aux_change_window_attributes, checked. */
XW_EXPORT xw_void_cookie_t xw_aux_change_window_attributes_checked(xw_connection_t *c, xw_window_t window,
                                                                   uint32_t mask, const xw_params_cw_t *params);
/** ConfigureWindow with the values of `params` selected by `mask` (XW_CONFIG_WINDOW_*). */
XW_EXPORT xw_void_cookie_t xw_aux_configure_window(xw_connection_t *c, xw_window_t window, uint16_t mask,
                                                   const xw_params_configure_window_t *params);
/** CreateGC with the values of `params` selected by `mask` (XW_GC_*). */
XW_EXPORT xw_void_cookie_t xw_aux_create_gc(xw_connection_t *c, xw_gcontext_t cid, xw_drawable_t drawable,
                                            uint32_t mask, const xw_params_gc_t *params);
/** xw_aux_create_gc, checked. */
XW_EXPORT xw_void_cookie_t xw_aux_create_gc_checked(xw_connection_t *c, xw_gcontext_t gid, xw_drawable_t drawable,
                                                    uint32_t mask, const xw_params_gc_t *params);
/** ChangeGC with the values of `params` selected by `mask` (XW_GC_*). */
XW_EXPORT xw_void_cookie_t xw_aux_change_gc(xw_connection_t *c, xw_gcontext_t gc, uint32_t mask,
                                            const xw_params_gc_t *params);
/** xw_aux_change_gc, checked. */
XW_EXPORT xw_void_cookie_t xw_aux_change_gc_checked(xw_connection_t *c, xw_gcontext_t gc, uint32_t mask,
                                                    const xw_params_gc_t *params);
/** ChangeKeyboardControl with the values of `params` selected by `mask` (XW_KB_*). */
XW_EXPORT xw_void_cookie_t xw_aux_change_keyboard_control(xw_connection_t *c, uint32_t mask,
                                                          const xw_params_keyboard_t *params);
/** A checked ChangeGC of line width, line style, cap style and join style. */
XW_EXPORT xw_void_cookie_t xw_aux_set_line_attributes_checked(xw_connection_t *c, xw_gcontext_t gc, uint16_t linewidth,
                                                              int32_t linestyle, int32_t capstyle, int32_t joinstyle);
/** ClearArea of the whole window `w`, without Expose events. */
XW_EXPORT xw_void_cookie_t xw_aux_clear_window(xw_connection_t *c, xw_window_t w);

/** Parses an X colour of the form "#RGB", "#RRGGBB", "#RRRGGGBBB" or "#RRRRGGGGBBBB"
 * (hex digits, any case; the digits given are each channel's most significant ones).
 * Returns 1 and the three 16-bit channels, or 0 when `color_name` is NULL or not of
 * that form (the outputs are then untouched). Named colours need a server (AllocNamedColor
 * or LookupColor). Pure; never allocates; thread-safe. */
XW_EXPORT int xw_aux_parse_color(const char *color_name, uint16_t *red, uint16_t *green, uint16_t *blue);

#ifdef __cplusplus
}
#endif
#endif
