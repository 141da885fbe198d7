/* SPDX-License-Identifier: MIT */
#ifndef XW_CURSOR_H
#define XW_CURSOR_H
/* xw_cursor.h — xcb-util-cursor (<xcb/xcb_cursor.h>) on xwire: cursors loaded by name
 * from an Xcursor theme and made with RENDER (animated when the server can), or taken
 * from the core "cursor" font when RENDER is missing or too old. Part of libxwire-util. */
#include <xw/xw.h>

#ifdef __cplusplus
extern "C" {
#endif

/** What xw_cursor_load_cursor needs about one screen: its theme, cursor size, RENDER's
 * version and ARGB32 format, and the core cursor font (opaque). */
typedef struct xw_cursor_context_t xw_cursor_context_t;

/** Makes a context for `screen` of `conn` in *ctx. It reads the root window's
 * RESOURCE_MANAGER (`Xcursor.theme`, `Xcursor.size`, `Xft.dpi`), asks RENDER for its
 * version and formats, and opens the "cursor" font; that is one round trip.
 * The theme is $XCURSOR_THEME, else `Xcursor.theme`, else "default" (xcb-util 0.1.4 has
 * no $XCURSOR_THEME: a listed difference). The size is $XCURSOR_SIZE, else
 * `Xcursor.size`, else `Xft.dpi` * 16 / 72, else the screen's smaller side / 48.
 * Returns 0, or a negative errno: -EINVAL for a NULL argument, -EPIPE when the connection
 * has failed, -ENOMEM. Allocates the context (free it with xw_cursor_context_free). Use a
 * context from one thread at a time; the connection may be shared. */
XW_EXPORT int xw_cursor_context_new(xw_connection_t *conn, xw_screen_t *screen, xw_cursor_context_t **ctx);

/** A new cursor for `name` (e.g. "left_ptr", "watch"), or XW_NONE (0) when neither the
 * theme nor the core cursor font has it. Files are searched as the Xcursor specification
 * says: in `theme`/cursors/ under each directory of $XCURSOR_PATH (default
 * ~/.icons:/usr/share/icons:/usr/share/pixmaps:/usr/X11R6/lib/X11/icons), then in the
 * themes `theme`/index.theme Inherits, then in "default"; the theme "core" means the
 * cursor font. Of the file's images the size nearest the context's is used; several
 * images of that size make an animated cursor (RENDER 0.8). Files are untrusted: for
 * one that is truncated, malformed or oversized the answer is XW_NONE, as xcb-util's is
 * for a file it cannot parse (xcb-util sends some malformed ones on; see the tests).
 * The core font is used when no file is found, or when RENDER cannot make cursors (none,
 * older than 0.5, no ARGB32 format, or no depth-32 pixmaps). The cursor is the caller's (free it with xw_free_cursor).
 * Sends
 * unchecked requests; allocates while it loads (a cursor may allocate). */
XW_EXPORT xw_cursor_t xw_cursor_load_cursor(xw_cursor_context_t *ctx, const char *name);

/** Frees the context and closes its cursor font (cursors made from it stay valid).
 * NULL is allowed. */
XW_EXPORT void xw_cursor_context_free(xw_cursor_context_t *ctx);

#ifdef __cplusplus
}
#endif
#endif
