#ifndef XW_AUX_H
#define XW_AUX_H
/* xw_aux.h — xcb-util's aux helpers (<xcb/xcb_aux.h>) on xwire: screens, depths and
 * visuals found in the setup, and a round-trip sync. Part of libxwire-util. */
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

#ifdef __cplusplus
}
#endif
#endif
