/* SPDX-License-Identifier: MIT */
#ifndef XW_RENDERUTIL_H
#define XW_RENDERUTIL_H
/* xw_renderutil.h — xcb-util-renderutil (<xcb/xcb_renderutil.h>) on xwire: picture
 * formats looked up in a QueryPictFormats reply, a per-connection cache of RENDER's
 * version and formats, and a builder for CompositeGlyphs streams. Part of libxwire-util. */
#include <xw/render.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Which fields of the template xw_render_util_find_format compares. */
typedef enum xw_pict_format_t {
    XW_PICT_FORMAT_ID = (1 << 0),
    XW_PICT_FORMAT_TYPE = (1 << 1),
    XW_PICT_FORMAT_DEPTH = (1 << 2),
    XW_PICT_FORMAT_RED = (1 << 3),
    XW_PICT_FORMAT_RED_MASK = (1 << 4),
    XW_PICT_FORMAT_GREEN = (1 << 5),
    XW_PICT_FORMAT_GREEN_MASK = (1 << 6),
    XW_PICT_FORMAT_BLUE = (1 << 7),
    XW_PICT_FORMAT_BLUE_MASK = (1 << 8),
    XW_PICT_FORMAT_ALPHA = (1 << 9),
    XW_PICT_FORMAT_ALPHA_MASK = (1 << 10),
    XW_PICT_FORMAT_COLORMAP = (1 << 11)
} xw_pict_format_t;

/** The standard formats every RENDER server has (the Render specification, "Standard
 * PictFormats"). */
typedef enum xw_pict_standard_t {
    XW_PICT_STANDARD_ARGB_32,
    XW_PICT_STANDARD_RGB_24,
    XW_PICT_STANDARD_A_8,
    XW_PICT_STANDARD_A_4,
    XW_PICT_STANDARD_A_1
} xw_pict_standard_t;

/** The picture visual for `visual` in `formats` (any screen, any depth), or NULL when
 * there is none or `formats` is NULL. Points into `formats`. Never allocates; thread-safe. */
XW_EXPORT xw_render_pictvisual_t *xw_render_util_find_visual_format(const xw_render_query_pict_formats_reply_t *formats,
                                                                    const xw_visualid_t visual);

/** The `count`-th (from 0) format in `formats` whose fields selected by `mask` (a set of
 * xw_pict_format_t bits) equal `ptemplate`'s, or NULL. Points into `formats`. Never
 * allocates; thread-safe. */
XW_EXPORT xw_render_pictforminfo_t *xw_render_util_find_format(const xw_render_query_pict_formats_reply_t *formats,
                                                               unsigned long mask,
                                                               const xw_render_pictforminfo_t *ptemplate, int count);

/** The first format in `formats` matching the standard format `format`, or NULL (also for
 * a `format` outside xw_pict_standard_t). Points into `formats`. Never allocates. */
XW_EXPORT xw_render_pictforminfo_t *xw_render_util_find_standard_format(
    const xw_render_query_pict_formats_reply_t *formats, xw_pict_standard_t format);

/** RENDER's QueryVersion reply for `c` (the client asks for 0.10, as xcb-util does), fetched once per
 * connection together with the formats and cached until xw_render_util_disconnect. NULL
 * when the server has no RENDER or the request failed. The reply stays owned by the cache.
 * The first call per connection allocates and waits for two replies; thread-safe. */
XW_EXPORT const xw_render_query_version_reply_t *xw_render_util_query_version(xw_connection_t *c);

/** RENDER's QueryPictFormats reply for `c`, from the same per-connection cache as
 * xw_render_util_query_version; NULL without RENDER. Owned by the cache. Thread-safe. */
XW_EXPORT const xw_render_query_pict_formats_reply_t *xw_render_util_query_formats(xw_connection_t *c);

/** Frees the cache entry of `c` (call it before xw_disconnect when the queries above were
 * used). Returns 1 when there was an entry, 0 when not. Pointers it handed out become
 * invalid. Thread-safe. */
XW_EXPORT int xw_render_util_disconnect(xw_connection_t *c);

/** A CompositeGlyphs command stream under construction (opaque). */
typedef struct xw_render_util_composite_text_stream_t xw_render_util_composite_text_stream_t;

/** A new, empty stream whose glyphs come from `initial_glyphset`; the sizes are hints for
 * the first allocation (the stream grows as needed). Returns NULL when out of memory. Free
 * it with xw_render_util_composite_text_free. A stream is not thread-safe. */
XW_EXPORT xw_render_util_composite_text_stream_t *xw_render_util_composite_text_stream(
    xw_render_glyphset_t initial_glyphset, uint32_t total_glyphs, uint32_t total_glyphset_changes);

/** Appends one element: `count` 8-bit glyphs drawn from the pen moved by (dx, dy). Like
 * xcb-util's, a call is ignored when `count` exceeds 252 or the stream already holds
 * glyphs of another width; also when memory runs out. Pad bytes are zero. */
XW_EXPORT void xw_render_util_glyphs_8(xw_render_util_composite_text_stream_t *stream, int16_t dx, int16_t dy,
                                       uint32_t count, const uint8_t *glyphs);

/** As xw_render_util_glyphs_8 for 16-bit glyphs (at most 254 per call). */
XW_EXPORT void xw_render_util_glyphs_16(xw_render_util_composite_text_stream_t *stream, int16_t dx, int16_t dy,
                                        uint32_t count, const uint16_t *glyphs);

/** As xw_render_util_glyphs_8 for 32-bit glyphs (at most 254 per call). */
XW_EXPORT void xw_render_util_glyphs_32(xw_render_util_composite_text_stream_t *stream, int16_t dx, int16_t dy,
                                        uint32_t count, const uint32_t *glyphs);

/** Appends a switch to `glyphset` for the glyphs that follow; nothing when it is already
 * the current one. */
XW_EXPORT void xw_render_util_change_glyphset(xw_render_util_composite_text_stream_t *stream,
                                              xw_render_glyphset_t glyphset);

/** Sends the stream as one CompositeGlyphs8/16/32 request (by the width of its glyphs),
 * unchecked; a stream with no glyphs sends NoOperation, as xcb-util does. The stream
 * stays the caller's and can be sent again. Allocation-free. */
XW_EXPORT xw_void_cookie_t xw_render_util_composite_text(xw_connection_t *xc, uint8_t op, xw_render_picture_t src,
                                                         xw_render_picture_t dst, xw_render_pictformat_t mask_format,
                                                         int16_t src_x, int16_t src_y,
                                                         xw_render_util_composite_text_stream_t *stream);

/** As xw_render_util_composite_text, checked: the cookie is for xw_request_check. */
XW_EXPORT xw_void_cookie_t xw_render_util_composite_text_checked(xw_connection_t *xc, uint8_t op,
                                                                 xw_render_picture_t src, xw_render_picture_t dst,
                                                                 xw_render_pictformat_t mask_format, int16_t src_x,
                                                                 int16_t src_y,
                                                                 xw_render_util_composite_text_stream_t *stream);

/** Frees a stream (NULL is allowed). */
XW_EXPORT void xw_render_util_composite_text_free(xw_render_util_composite_text_stream_t *stream);

#ifdef __cplusplus
}
#endif
#endif
