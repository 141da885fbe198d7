/* SPDX-License-Identifier: MIT */
/* cursor.c — xcb-util-cursor's context and loader: settings from the environment and
 * RESOURCE_MANAGER, RENDER cursors (animated when possible) made from Xcursor images,
 * and the core cursor font as the fallback. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xw/xw_cursor.h>
#include <xw/xw_renderutil.h>
#include <xw/xwext.h>

#include "cursor_int.h"

enum render_level {
    RENDER_NONE,   /* no RENDER, too old, no ARGB32 format or no depth-32 pixmaps: core cursors only */
    RENDER_CURSOR, /* CreateCursor (RENDER 0.5) */
    RENDER_ANIM    /* CreateAnimCursor (RENDER 0.8) */
};

/* Owns formats (the reply, malloc'd by xwire; argb points into it) and theme. */
struct xw_cursor_context_t {
    xw_connection_t *conn;
    xw_window_t root;
    xw_font_t cursor_font;
    xw_render_query_pict_formats_reply_t *formats;
    const xw_render_pictforminfo_t *argb;
    enum render_level render;
    char *theme; /* NULL: none set, "default" is searched */
    uint32_t size;
    int msb_first; /* the server's image byte order */
};

/* RESOURCE_MANAGER settings as xcb-util reads them: lines "key:value", the value after
 * leading blanks; a line without ':' ends the parse; a NUL ends the text. Views into
 * the property value. */
struct rm_settings {
    const char *theme, *size, *dpi;
    size_t theme_len, size_len, dpi_len;
};

static void rm_parse(const char *text, size_t len, struct rm_settings *rm)
{
    const char *nul = memchr(text, '\0', len);
    const char *end = nul ? nul : text + len;
    for (const char *line = text; line < end;) {
        const char *eol = memchr(line, '\n', (size_t)(end - line));
        if (!eol)
            eol = end;
        if (eol > line) {
            const char *colon = memchr(line, ':', (size_t)(eol - line));
            if (!colon)
                return;
            size_t klen = (size_t)(colon - line);
            const char *v = colon + 1;
            while (v < eol && isspace((unsigned char)*v))
                v++;
            size_t vlen = (size_t)(eol - v);
            if (klen == 13 && !memcmp(line, "Xcursor.theme", 13))
                rm->theme = v, rm->theme_len = vlen;
            else if (klen == 12 && !memcmp(line, "Xcursor.size", 12))
                rm->size = v, rm->size_len = vlen;
            else if (klen == 7 && !memcmp(line, "Xft.dpi", 7))
                rm->dpi = v, rm->dpi_len = vlen;
        }
        line = eol + 1;
    }
}

/* atoi over a counted string. */
static int count_atoi(const char *s, size_t len)
{
    char buf[32];
    if (len >= sizeof(buf))
        len = sizeof(buf) - 1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    return atoi(buf);
}

static uint32_t default_size(const struct rm_settings *rm, const xw_screen_t *screen)
{
    const char *env = getenv("XCURSOR_SIZE");
    if (env)
        return (uint32_t)atoi(env);
    if (rm->size)
        return (uint32_t)count_atoi(rm->size, rm->size_len);
    int dpi = rm->dpi ? count_atoi(rm->dpi, rm->dpi_len) : 0;
    if (dpi > 0)
        return (uint32_t)(dpi * 16 / 72);
    uint16_t side =
        screen->width_in_pixels < screen->height_in_pixels ? screen->width_in_pixels : screen->height_in_pixels;
    return side / 48u;
}

/* The theme: $XCURSOR_THEME, else Xcursor.theme; NULL when neither (or out of memory). */
static char *pick_theme(const struct rm_settings *rm)
{
    const char *env = getenv("XCURSOR_THEME");
    if (env && *env)
        return strdup(env);
    if (!rm->theme)
        return NULL;
    /* not strndup: the value is a view into the reply, with no NUL after it */
    char *t = malloc(rm->theme_len + 1);
    if (t) {
        memcpy(t, rm->theme, rm->theme_len);
        t[rm->theme_len] = '\0';
    }
    return t;
}

/* Whether the server has 32-bit pixmaps of depth 32, which the cursor images are put in
 * (xcb-util assumes so and crashes in xcb_image_put without them). */
static int has_argb_pixmaps(xw_connection_t *conn)
{
    for (xw_format_iterator_t f = xw_setup_pixmap_formats_iterator(xw_get_setup(conn)); f.rem; xw_format_next(&f))
        if (f.data->depth == 32 && f.data->bits_per_pixel == 32)
            return 1;
    return 0;
}

static enum render_level render_level(const xw_render_query_version_reply_t *v, const xw_render_pictforminfo_t *argb,
                                      int argb_pixmaps)
{
    if (!v || !argb || !argb_pixmaps)
        return RENDER_NONE;
    if (v->major_version >= 1 || v->minor_version >= 8)
        return RENDER_ANIM;
    return v->minor_version >= 5 ? RENDER_CURSOR : RENDER_NONE;
}

/* Collects the replies asked for in xw_cursor_context_new; errors are dropped (a
 * missing reply only means fewer features). */
static void take_replies(struct xw_cursor_context_t *c, const xw_screen_t *screen, xw_get_property_cookie_t rmc,
                         int have_render, xw_render_query_version_cookie_t vc, xw_render_query_pict_formats_cookie_t fc)
{
    xw_generic_error_t *e = NULL;
    xw_get_property_reply_t *rmr = xw_get_property_reply(c->conn, rmc, &e);
    free(e);
    struct rm_settings rm = {0};
    if (rmr)
        rm_parse(xw_get_property_value(rmr), (size_t)xw_get_property_value_length(rmr), &rm);
    c->theme = pick_theme(&rm);
    c->size = default_size(&rm, screen);
    free(rmr);
    if (!have_render)
        return;
    e = NULL;
    xw_render_query_version_reply_t *v = xw_render_query_version_reply(c->conn, vc, &e);
    free(e);
    e = NULL;
    c->formats = xw_render_query_pict_formats_reply(c->conn, fc, &e);
    free(e);
    c->argb = xw_render_util_find_standard_format(c->formats, XW_PICT_STANDARD_ARGB_32);
    c->render = render_level(v, c->argb, has_argb_pixmaps(c->conn));
    free(v);
}

XW_EXPORT int xw_cursor_context_new(xw_connection_t *conn, xw_screen_t *screen, xw_cursor_context_t **ctx)
{
    if (!conn || !screen || !ctx)
        return -EINVAL;
    *ctx = NULL;
    if (xw_connection_has_error(conn))
        return -EPIPE;
    struct xw_cursor_context_t *c = calloc(1, sizeof(*c));
    if (!c)
        return -ENOMEM;
    c->conn = conn;
    c->root = screen->root;
    c->msb_first = xw_get_setup(conn)->image_byte_order == XW_IMAGE_ORDER_MSB_FIRST;
    /* All requests first, then the replies: one round trip. 16 Ki words of resources
     * is what xcb-util reads too. */
    const xw_query_extension_reply_t *ext = xw_get_extension_data(conn, &xw_render_id);
    int have_render = ext && ext->present;
    xw_get_property_cookie_t rmc =
        xw_get_property(conn, 0, c->root, XW_ATOM_RESOURCE_MANAGER, XW_ATOM_STRING, 0, 16 * 1024);
    xw_render_query_version_cookie_t vc = {0};
    xw_render_query_pict_formats_cookie_t fc = {0};
    if (have_render) {
        vc = xw_render_query_version(conn, XW_RENDER_MAJOR_VERSION, XW_RENDER_MINOR_VERSION);
        fc = xw_render_query_pict_formats(conn);
    }
    c->cursor_font = xw_generate_id(conn);
    xw_open_font(conn, c->cursor_font, 6, "cursor");
    take_replies(c, screen, rmc, have_render, vc, fc);
    *ctx = c;
    return 0;
}

XW_EXPORT void xw_cursor_context_free(xw_cursor_context_t *ctx)
{
    if (!ctx)
        return;
    xw_close_font(ctx->conn, ctx->cursor_font);
    free(ctx->formats);
    free(ctx->theme);
    free(ctx);
}

/* PutImage of a depth-32 Z-pixmap image, in strips when the whole would exceed the
 * maximum request length (libxcb would drop the connection instead). Pixels go out in
 * the server's byte order, from `wire` (width * height words of scratch). */
static void put_pixels(struct xw_cursor_context_t *c, xw_pixmap_t pixmap, xw_gcontext_t gc,
                       const struct xw__cursor_image *img, uint32_t *wire)
{
    int swap = c->msb_first != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
    for (size_t i = 0; i < (size_t)img->width * img->height; i++)
        wire[i] = swap ? __builtin_bswap32(img->pixels[i]) : img->pixels[i];
    uint64_t row = (uint64_t)img->width * 4;
    /* The setup's limit first: asking for BIG-REQUESTS costs a round trip (and a
     * request xcb-util does not send) that cursor-sized images never need. */
    uint64_t max_bytes = (uint64_t)xw_get_setup(c->conn)->maximum_request_length * 4;
    if (24 + row * img->height > max_bytes)
        max_bytes = (uint64_t)xw_get_maximum_request_length(c->conn) * 4;
    uint32_t rows = max_bytes > 24 + row ? (uint32_t)((max_bytes - 24) / row) : 1;
    for (uint32_t y = 0; y < img->height; y += rows) {
        uint32_t h = img->height - y < rows ? img->height - y : rows;
        xw_put_image(c->conn, XW_IMAGE_FORMAT_Z_PIXMAP, pixmap, gc, (uint16_t)img->width, (uint16_t)h, 0, (int16_t)y, 0,
                     32, (uint32_t)(h * row), (const uint8_t *)(wire + (size_t)y * img->width));
    }
}

/* Makes one RENDER cursor per image (one pixmap per run of equal sizes), then an
 * animated cursor of them when there are several and the server can animate. */
static xw_cursor_t upload(struct xw_cursor_context_t *c, const struct xw__cursor_image *images, uint32_t n)
{
    if (c->render == RENDER_CURSOR)
        n = 1; /* no CreateAnimCursor: the first frame stands still */
    xw_render_animcursorelt_t *frames = calloc(n, sizeof(*frames));
    if (!frames)
        return 0;
    xw_pixmap_t pixmap = 0;
    xw_gcontext_t gc = 0;
    xw_render_picture_t pic = xw_generate_id(c->conn);
    uint32_t *wire = NULL;
    for (uint32_t i = 0; i < n; i++) {
        const struct xw__cursor_image *img = &images[i];
        if (!i || img->width != images[i - 1].width || img->height != images[i - 1].height) {
            if (pixmap) {
                xw_free_pixmap(c->conn, pixmap);
                xw_free_gc(c->conn, gc);
            }
            free(wire);
            wire = malloc((size_t)img->width * img->height * 4);
            if (!wire) {
                for (uint32_t j = 0; j < i; j++)
                    xw_free_cursor(c->conn, frames[j].cursor);
                free(frames);
                return 0;
            }
            if (!pixmap) { /* ids are reused for each new size once freed, as xcb-util does */
                pixmap = xw_generate_id(c->conn);
                gc = xw_generate_id(c->conn);
            }
            xw_create_pixmap(c->conn, 32, pixmap, c->root, (uint16_t)img->width, (uint16_t)img->height);
            xw_create_gc(c->conn, gc, pixmap, 0, NULL);
        }
        put_pixels(c, pixmap, gc, img, wire);
        xw_render_create_picture(c->conn, pic, pixmap, c->argb->id, 0, NULL);
        frames[i].cursor = xw_generate_id(c->conn);
        frames[i].delay = img->delay;
        xw_render_create_cursor(c->conn, frames[i].cursor, pic, (uint16_t)img->xhot, (uint16_t)img->yhot);
        xw_render_free_picture(c->conn, pic);
    }
    free(wire);
    xw_free_pixmap(c->conn, pixmap);
    xw_free_gc(c->conn, gc);
    xw_cursor_t cid = frames[0].cursor;
    if (n > 1) {
        cid = xw_generate_id(c->conn);
        xw_render_create_anim_cursor(c->conn, cid, n, frames);
        for (uint32_t i = 0; i < n; i++)
            xw_free_cursor(c->conn, frames[i].cursor);
    }
    free(frames);
    return cid;
}

static xw_cursor_t core_cursor(struct xw_cursor_context_t *c, int glyph)
{
    xw_cursor_t cid = xw_generate_id(c->conn);
    /* black on white, as XCreateFontCursor makes them */
    xw_create_glyph_cursor(c->conn, cid, c->cursor_font, c->cursor_font, (uint16_t)glyph, (uint16_t)(glyph + 1), 0, 0,
                           0, 0xffff, 0xffff, 0xffff);
    return cid;
}

XW_EXPORT xw_cursor_t xw_cursor_load_cursor(xw_cursor_context_t *ctx, const char *name)
{
    if (!ctx || !name)
        return 0;
    int core = -1, fd = -1;
    if (ctx->render != RENDER_NONE) {
        if (ctx->theme)
            fd = xw__cursor_theme_open(ctx->theme, name, &core);
        if (fd < 0 && core < 0)
            fd = xw__cursor_theme_open("default", name, &core);
    }
    if (fd >= 0) {
        /* A file was found: its cursor or nothing, as in xcb-util (no font fallback). */
        struct xw__cursor_image *images = NULL;
        uint32_t n = 0;
        int r = xw__cursor_file_read(fd, ctx->size, &images, &n);
        close(fd);
        if (r < 0)
            return 0;
        xw_cursor_t cid = upload(ctx, images, n);
        xw__cursor_images_free(images, n);
        return cid;
    }
    if (core < 0)
        core = xw__cursor_core_glyph(name);
    return core < 0 ? 0 : core_cursor(ctx, core);
}
