/* SPDX-License-Identifier: MIT */
/* render_glyphs.c — xcb-util-renderutil's CompositeGlyphs stream builder: glyph elements
 * and glyphset switches laid out as the Render protocol's GLYPHITEM list. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <xw/xw_renderutil.h>

/* The stream owns `buf` (malloc'd, grown by doubling); `len` bytes are used, always a
 * multiple of 4 with zeroed padding. `glyph_size` is 0 until the first glyphs fix it. */
struct xw_render_util_composite_text_stream_t {
    uint32_t glyph_size;
    xw_render_glyphset_t initial_glyphset, current_glyphset;
    uint8_t *buf;
    size_t len, cap;
};

/* Each element starts with this header (Render's GLYPHITEM): a count (255: a glyphset
 * switch follows), 3 unused bytes, and the pen movement. */
struct item_header {
    uint8_t count;
    uint8_t pad[3];
    int16_t dx, dy;
};

XW_EXPORT xw_render_util_composite_text_stream_t *xw_render_util_composite_text_stream(
    xw_render_glyphset_t initial_glyphset, uint32_t total_glyphs, uint32_t total_glyphset_changes)
{
    xw_render_util_composite_text_stream_t *s = calloc(1, sizeof(*s));
    if (!s)
        return NULL;
    /* A worst-case first guess: every glyph its own element of 12 bytes. */
    uint64_t want = ((uint64_t)total_glyphs + total_glyphset_changes) * 12;
    s->cap = want && want < (1u << 24) ? (size_t)want : 32;
    s->buf = malloc(s->cap);
    if (!s->buf) {
        free(s);
        return NULL;
    }
    s->initial_glyphset = s->current_glyphset = initial_glyphset;
    return s;
}

/* Room for `more` bytes past len; 0 or -ENOMEM (the stream is left as it was). */
static int reserve(xw_render_util_composite_text_stream_t *s, size_t more)
{
    size_t cap = s->cap;
    while (cap - s->len < more) {
        if (cap > SIZE_MAX / 2)
            return -ENOMEM;
        cap *= 2;
    }
    if (cap == s->cap)
        return 0;
    uint8_t *b = realloc(s->buf, cap);
    if (!b)
        return -ENOMEM;
    s->buf = b;
    s->cap = cap;
    return 0;
}

/* Appends one element of `count` glyphs of `size` bytes each, unless the count is over
 * `max` or the stream already holds another width (xcb-util's rules). */
static void append(xw_render_util_composite_text_stream_t *s, uint32_t size, uint32_t max, int16_t dx, int16_t dy,
                   uint32_t count, const void *glyphs)
{
    if (!s || count > max || (s->glyph_size && s->glyph_size != size))
        return;
    size_t body = (size_t)count * size, padded = (body + 3) & ~(size_t)3;
    if (reserve(s, sizeof(struct item_header) + padded) < 0)
        return;
    s->glyph_size = size;
    struct item_header h = {(uint8_t)count, {0, 0, 0}, dx, dy};
    memcpy(s->buf + s->len, &h, sizeof(h));
    s->len += sizeof(h);
    if (body)
        memcpy(s->buf + s->len, glyphs, body);
    memset(s->buf + s->len + body, 0, padded - body);
    s->len += padded;
}

XW_EXPORT void xw_render_util_glyphs_8(xw_render_util_composite_text_stream_t *stream, int16_t dx, int16_t dy,
                                       uint32_t count, const uint8_t *glyphs)
{
    append(stream, 1, 252, dx, dy, count, glyphs);
}

XW_EXPORT void xw_render_util_glyphs_16(xw_render_util_composite_text_stream_t *stream, int16_t dx, int16_t dy,
                                        uint32_t count, const uint16_t *glyphs)
{
    append(stream, 2, 254, dx, dy, count, glyphs);
}

XW_EXPORT void xw_render_util_glyphs_32(xw_render_util_composite_text_stream_t *stream, int16_t dx, int16_t dy,
                                        uint32_t count, const uint32_t *glyphs)
{
    append(stream, 4, 254, dx, dy, count, glyphs);
}

XW_EXPORT void xw_render_util_change_glyphset(xw_render_util_composite_text_stream_t *stream,
                                              xw_render_glyphset_t glyphset)
{
    if (!stream || glyphset == stream->current_glyphset || reserve(stream, 12) < 0)
        return;
    struct item_header h = {255, {0, 0, 0}, 0, 0};
    memcpy(stream->buf + stream->len, &h, sizeof(h));
    memcpy(stream->buf + stream->len + sizeof(h), &glyphset, 4);
    stream->len += 12;
    stream->current_glyphset = glyphset;
}

typedef xw_void_cookie_t (*glyphs_sender)(xw_connection_t *, uint8_t, xw_render_picture_t, xw_render_picture_t,
                                          xw_render_pictformat_t, xw_render_glyphset_t, int16_t, int16_t, uint32_t,
                                          const uint8_t *);

static xw_void_cookie_t send_stream(xw_connection_t *xc, int checked, uint8_t op, xw_render_picture_t src,
                                    xw_render_picture_t dst, xw_render_pictformat_t mask_format, int16_t src_x,
                                    int16_t src_y, const xw_render_util_composite_text_stream_t *s)
{
    static const glyphs_sender senders[2][3] = {
        {xw_render_composite_glyphs_8, xw_render_composite_glyphs_16, xw_render_composite_glyphs_32},
        {xw_render_composite_glyphs_8_checked, xw_render_composite_glyphs_16_checked,
         xw_render_composite_glyphs_32_checked},
    };
    int width = !s ? -1 : s->glyph_size == 1 ? 0 : s->glyph_size == 2 ? 1 : s->glyph_size == 4 ? 2 : -1;
    if (width < 0) /* nothing to draw: xcb-util sends a NoOperation in its place */
        return checked ? xw_no_operation_checked(xc) : xw_no_operation(xc);
    return senders[checked][width](xc, op, src, dst, mask_format, s->initial_glyphset, src_x, src_y, (uint32_t)s->len,
                                   s->buf);
}

XW_EXPORT xw_void_cookie_t xw_render_util_composite_text(xw_connection_t *xc, uint8_t op, xw_render_picture_t src,
                                                         xw_render_picture_t dst, xw_render_pictformat_t mask_format,
                                                         int16_t src_x, int16_t src_y,
                                                         xw_render_util_composite_text_stream_t *stream)
{
    return send_stream(xc, 0, op, src, dst, mask_format, src_x, src_y, stream);
}

XW_EXPORT xw_void_cookie_t xw_render_util_composite_text_checked(xw_connection_t *xc, uint8_t op,
                                                                 xw_render_picture_t src, xw_render_picture_t dst,
                                                                 xw_render_pictformat_t mask_format, int16_t src_x,
                                                                 int16_t src_y,
                                                                 xw_render_util_composite_text_stream_t *stream)
{
    return send_stream(xc, 1, op, src, dst, mask_format, src_x, src_y, stream);
}

XW_EXPORT void xw_render_util_composite_text_free(xw_render_util_composite_text_stream_t *stream)
{
    if (!stream)
        return;
    free(stream->buf);
    free(stream);
}
