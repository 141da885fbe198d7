/* SPDX-License-Identifier: MIT */
/* test_util_render.c — xw_renderutil.h against xcb-util-renderutil: the same formats found
 * in Xvfb's QueryPictFormats (own and borrowed connection), the per-connection cache, the
 * same CompositeGlyphs bytes on a recording fake server; and xw_cursor.h's requests
 * against xcb-util-cursor's on the same fake server (an animated cursor's frames, which
 * XFixes cannot show, and the core-font fallback without RENDER). */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <xcb/xcb.h>
#include <xcb/xcb_cursor.h>
#include <xcb/xcb_renderutil.h>

#include <xw/xw-xcb.h>
#include <xw/xw_aux.h>
#include <xw/xw_cursor.h>
#include <xw/xw_renderutil.h>

#include "alloc_count.h"
#include "fake_server.h"
#include "util_oracle.h"
#include "xvfb_suite.h"
#include "xwtest.h"

static xw_connection_t *c;
static xcb_connection_t *xc;

static void setup(void)
{
    util_oracle_setup(&xc);
}

static void teardown(void)
{
    ck_assert_int_eq(xw_connection_has_error(c), 0);
    xcb_render_util_disconnect(xc);
    xw_render_util_disconnect(c);
    xcb_disconnect(xc);
    xvfb_teardown();
}

START_TEST(layout)
{
    ck_assert_int_eq(XW_PICT_FORMAT_ID, XCB_PICT_FORMAT_ID);
    ck_assert_int_eq(XW_PICT_FORMAT_TYPE, XCB_PICT_FORMAT_TYPE);
    ck_assert_int_eq(XW_PICT_FORMAT_DEPTH, XCB_PICT_FORMAT_DEPTH);
    ck_assert_int_eq(XW_PICT_FORMAT_RED, XCB_PICT_FORMAT_RED);
    ck_assert_int_eq(XW_PICT_FORMAT_RED_MASK, XCB_PICT_FORMAT_RED_MASK);
    ck_assert_int_eq(XW_PICT_FORMAT_GREEN, XCB_PICT_FORMAT_GREEN);
    ck_assert_int_eq(XW_PICT_FORMAT_GREEN_MASK, XCB_PICT_FORMAT_GREEN_MASK);
    ck_assert_int_eq(XW_PICT_FORMAT_BLUE, XCB_PICT_FORMAT_BLUE);
    ck_assert_int_eq(XW_PICT_FORMAT_BLUE_MASK, XCB_PICT_FORMAT_BLUE_MASK);
    ck_assert_int_eq(XW_PICT_FORMAT_ALPHA, XCB_PICT_FORMAT_ALPHA);
    ck_assert_int_eq(XW_PICT_FORMAT_ALPHA_MASK, XCB_PICT_FORMAT_ALPHA_MASK);
    ck_assert_int_eq(XW_PICT_FORMAT_COLORMAP, XCB_PICT_FORMAT_COLORMAP);
    ck_assert_int_eq(XW_PICT_STANDARD_ARGB_32, XCB_PICT_STANDARD_ARGB_32);
    ck_assert_int_eq(XW_PICT_STANDARD_RGB_24, XCB_PICT_STANDARD_RGB_24);
    ck_assert_int_eq(XW_PICT_STANDARD_A_8, XCB_PICT_STANDARD_A_8);
    ck_assert_int_eq(XW_PICT_STANDARD_A_4, XCB_PICT_STANDARD_A_4);
    ck_assert_int_eq(XW_PICT_STANDARD_A_1, XCB_PICT_STANDARD_A_1);
    ck_assert_uint_eq(sizeof(xw_pict_format_t), sizeof(xcb_pict_format_t));
    ck_assert_uint_eq(sizeof(xw_pict_standard_t), sizeof(xcb_pict_standard_t));
}
END_TEST

/* A found format as its index in the list (-1: none), comparable across the libraries. */
static long idx_w(const xw_render_query_pict_formats_reply_t *f, const void *p)
{
    return p ? (long)((const xw_render_pictforminfo_t *)p - xw_render_query_pict_formats_formats(f)) : -1;
}

static long idx_x(const xcb_render_query_pict_formats_reply_t *f, const void *p)
{
    return p ? (long)((const xcb_render_pictforminfo_t *)p - xcb_render_query_pict_formats_formats(f)) : -1;
}

static void compare_formats(xw_connection_t *conn)
{
    const xcb_render_query_pict_formats_reply_t *fx = xcb_render_util_query_formats(xc);
    const xw_render_query_pict_formats_reply_t *fw = xw_render_util_query_formats(conn);
    ck_assert_ptr_nonnull(fx);
    ck_assert_ptr_nonnull(fw);
    ck_assert_ptr_eq(xw_render_util_query_formats(conn), fw); /* cached */
    const xcb_render_query_version_reply_t *vx = xcb_render_util_query_version(xc);
    const xw_render_query_version_reply_t *vw = xw_render_util_query_version(conn);
    ck_assert_uint_eq(vw->major_version, vx->major_version);
    ck_assert_uint_eq(vw->minor_version, vx->minor_version);
    int n = xcb_render_query_pict_formats_formats_length(fx);
    ck_assert_int_eq(xw_render_query_pict_formats_formats_length(fw), n);
    ck_assert_int_gt(n, 5);
    for (int s = -1; s <= 5; s++) {
        long want = idx_x(fx, xcb_render_util_find_standard_format(fx, (xcb_pict_standard_t)s));
        ck_assert_int_eq(idx_w(fw, xw_render_util_find_standard_format(fw, (xw_pict_standard_t)s)), want);
        if (s == XW_PICT_STANDARD_ARGB_32 || s == XW_PICT_STANDARD_A_8)
            ck_assert_int_ge(want, 0); /* Xvfb has these (not every depth's: no A_4) */
    }
    /* every format as a template, under every single field and some combinations, at counts 0..3 */
    unsigned long masks[16];
    int nm = 0;
    for (int b = 0; b < 12; b++)
        masks[nm++] = 1ul << b;
    masks[nm++] = 0;
    masks[nm++] = XW_PICT_FORMAT_TYPE | XW_PICT_FORMAT_DEPTH;
    masks[nm++] = XW_PICT_FORMAT_DEPTH | XW_PICT_FORMAT_ALPHA_MASK | XW_PICT_FORMAT_RED_MASK;
    masks[nm++] = 0xfff;
    int hits = 0;
    for (int i = 0; i < n; i++) {
        const xcb_render_pictforminfo_t *tx = &xcb_render_query_pict_formats_formats(fx)[i];
        const xw_render_pictforminfo_t *tw = &xw_render_query_pict_formats_formats(fw)[i];
        ck_assert_int_eq(memcmp(tx, tw, sizeof(*tw)), 0);
        for (int m = 0; m < nm; m++)
            for (int k = 0; k < 4; k++) {
                long want = idx_x(fx, xcb_render_util_find_format(fx, masks[m], tx, k));
                ck_assert_int_eq(idx_w(fw, xw_render_util_find_format(fw, masks[m], tw, k)), want);
                hits += want >= 0;
            }
    }
    ck_assert_int_gt(hits, n);
    /* every visual of every screen, and one that is none */
    int visuals = 0;
    for (xcb_render_pictscreen_iterator_t s = xcb_render_query_pict_formats_screens_iterator(fx); s.rem;
         xcb_render_pictscreen_next(&s))
        for (xcb_render_pictdepth_iterator_t d = xcb_render_pictscreen_depths_iterator(s.data); d.rem;
             xcb_render_pictdepth_next(&d))
            for (xcb_render_pictvisual_iterator_t v = xcb_render_pictdepth_visuals_iterator(d.data); v.rem;
                 xcb_render_pictvisual_next(&v)) {
                xcb_render_pictvisual_t *a = xcb_render_util_find_visual_format(fx, v.data->visual);
                xw_render_pictvisual_t *b = xw_render_util_find_visual_format(fw, v.data->visual);
                ck_assert_ptr_nonnull(b);
                ck_assert_uint_eq(b->format, a->format);
                visuals++;
            }
    ck_assert_int_gt(visuals, 0);
    ck_assert_ptr_null(xw_render_util_find_visual_format(fw, 0xdeadbeef));
    ck_assert_ptr_null(xw_render_util_find_visual_format(NULL, 0x21));
    ck_assert_ptr_null(xw_render_util_find_format(NULL, 0, NULL, 0));
    ck_assert_ptr_null(xw_render_util_find_standard_format(NULL, XW_PICT_STANDARD_A_8));

    /* the lookups allocate nothing */
    unsigned long a0 = alloc_count_begin();
    for (int s = 0; s <= 4; s++)
        xw_render_util_find_standard_format(fw, (xw_pict_standard_t)s);
    xw_render_util_find_visual_format(fw, 0xdeadbeef);
    xw_render_util_query_formats(conn);
    unsigned long used = alloc_count_end(a0);
    ck_assert_uint_eq(used, 0);
}

START_TEST(formats_own_connection)
{
    compare_formats(c);
    /* the cache is keyed on the connection: dropped once, then fetched afresh */
    ck_assert_int_eq(xw_render_util_disconnect(c), 1);
    ck_assert_int_eq(xw_render_util_disconnect(c), 0);
    ck_assert_int_eq(xcb_render_util_disconnect(xc), 1);
    ck_assert_int_eq(xcb_render_util_disconnect(xc), 0);
    compare_formats(c);
}
END_TEST

START_TEST(formats_borrowed_connection)
{
    xcb_connection_t *lender = xcb_connect(xvfb_server.name, NULL);
    xw_connection_t *b = xw_xcb_borrow(lender);
    ck_assert_int_eq(xw_connection_has_error(b), 0);
    compare_formats(b);
    ck_assert_ptr_ne(xw_render_util_query_formats(b), xw_render_util_query_formats(c));
    ck_assert_int_eq(xw_render_util_disconnect(b), 1);
    xw_disconnect(b);
    xcb_disconnect(lender);
}
END_TEST

/* ---- a recording fake server for both libraries ---- */

#define RENDER_MAJOR 140

struct rec_server {
    struct fake_server f; /* first: on_request gets it back as this */
    pthread_mutex_t lock;
    uint8_t *log;
    size_t len;
    int with_render;
    const char *resources; /* RESOURCE_MANAGER's value, NULL: no property */
    int no_depth32;        /* the setup lists no depth-32 pixmap format */
    int bad_formats;       /* QueryPictFormats claims more formats than it holds */
};

static const struct fake_ext render_ext[] = {{"RENDER", RENDER_MAJOR, 0, 140}, {NULL, 0, 0, 0}};

static void rec_send(struct fake_server *f, const uint8_t *extra, size_t extra_len)
{
    uint8_t out[512] = {0}; /* the pad after extra goes out too */
    size_t n = fake_reply(out, (uint16_t)f->seq, 0, extra, extra_len);
    fake_send(f, out, n);
}

/* GetProperty: the resources (or none); RENDER QueryVersion 0.11; QueryPictFormats with one
 * ARGB32 format. Everything is logged, answered or not. */
static int rec_request(struct fake_server *f, const uint8_t *req, size_t len)
{
    struct rec_server *r = (struct rec_server *)f;
    pthread_mutex_lock(&r->lock);
    if (r->len + len <= (64u << 20)) {
        memcpy(r->log + r->len, req, len);
        r->len += len;
    }
    pthread_mutex_unlock(&r->lock);
    uint8_t extra[256] = {0};
    if (req[0] == 20) {
        size_t n = r->resources ? strlen(r->resources) : 0;
        if (n) {
            fs_wr32(extra, 31);              /* type STRING */
            fs_wr32(extra + 8, (uint32_t)n); /* value length */
            memcpy(extra + 24, r->resources, n);
        }
        uint8_t out[512] = {0};
        size_t total = fake_reply(out, (uint16_t)f->seq, n ? 8 : 0, extra, 24 + n);
        fake_send(f, out, total);
        return 1;
    }
    if (req[0] == RENDER_MAJOR && req[1] == 0) {
        fs_wr32(extra + 4, 11);
        rec_send(f, extra, 24);
        return 1;
    }
    if (req[0] == RENDER_MAJOR && req[1] == 1) {
        fs_wr32(extra, r->bad_formats ? 1000 : 1);
        uint8_t *fmt = extra + 24;
        fs_wr32(fmt, 0x2a), fmt[4] = 1, fmt[5] = 32;
        static const uint16_t direct[8] = {16, 0xff, 8, 0xff, 0, 0xff, 24, 0xff};
        for (int i = 0; i < 8; i++)
            fs_wr16(fmt + 8 + 2 * i, direct[i]);
        rec_send(f, extra, 24 + 28);
        return 1;
    }
    return 0;
}

static void rec_start(struct rec_server *r, int with_render)
{
    pthread_mutex_init(&r->lock, NULL);
    r->log = malloc(64u << 20);
    ck_assert_ptr_nonnull(r->log);
    r->len = 0;
    r->with_render = with_render;
    r->f.exts = with_render ? render_ext : NULL;
    r->f.on_request = rec_request;
    ck_assert_int_eq(fake_serve_start(&r->f), 0);
}

/* fake_setup_success's setup with a second pixmap format, depth 32 (xcb-util-cursor
 * finds none without it and crashes in xcb_image_put). Returns its length. */
static size_t setup_with_depth32(uint8_t *b, size_t cap)
{
    uint8_t base[256];
    size_t n = fake_setup_success(base, sizeof(base), 65535);
    ck_assert_uint_ge(cap, n + 8);
    size_t formats_end = 8 + 32 + 4 + 8 * (size_t)base[29];
    memcpy(b, base, formats_end);
    static const uint8_t depth32[8] = {32, 32, 32};
    memcpy(b + formats_end, depth32, 8);
    memcpy(b + formats_end + 8, base + formats_end, n - formats_end);
    b[29]++;
    fs_wr16(b + 6, (uint16_t)(fs_rd16(b + 6) + 2));
    return n + 8;
}

/* The caller sets r's answers (resources, bad_formats) before connecting: the serving
 * thread reads them. */
static xw_connection_t *rec_connect_xw(struct rec_server *r, int with_render)
{
    uint8_t setup[300];
    size_t n =
        r->no_depth32 ? fake_setup_success(setup, sizeof(setup), 65535) : setup_with_depth32(setup, sizeof(setup));
    xw_connection_t *conn = fake_connect(&r->f, setup, n);
    ck_assert_int_eq(xw_connection_has_error(conn), 0);
    rec_start(r, with_render);
    return conn;
}

/* libxcb reads whatever is waiting while it sends its setup request, so the setup reply
 * is written only after that request has arrived (by this thread). */
static void *answer_setup(void *arg)
{
    int fd = *(int *)arg;
    uint8_t req[12], setup[300];
    size_t got = 0;
    while (got < sizeof(req)) {
        ssize_t n = read(fd, req + got, sizeof(req) - got);
        if (n <= 0)
            return NULL;
        got += (size_t)n;
    }
    fake_write_all(fd, setup, setup_with_depth32(setup, sizeof(setup)));
    return NULL;
}

static xcb_connection_t *rec_connect_xcb(struct rec_server *r, int with_render)
{
    memset(&r->f, 0, sizeof(r->f));
    int sv[2];
    ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
    r->f.fd = sv[1];
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, answer_setup, &r->f.fd), 0);
    xcb_connection_t *conn = xcb_connect_to_fd(sv[0], NULL);
    pthread_join(t, NULL);
    ck_assert_int_eq(xcb_connection_has_error(conn), 0);
    rec_start(r, with_render);
    return conn;
}

/* Stops the server; the log stays for comparing (freed by rec_free). */
static void rec_stop(struct rec_server *r)
{
    fake_stop(&r->f);
    pthread_mutex_destroy(&r->lock);
}

static void rec_free(struct rec_server *r)
{
    free(r->log);
    r->log = NULL;
}

/* The two logs are the same requests: on a difference, the first differing request. */
static void same_requests(const struct rec_server *a, const struct rec_server *b, const char *what)
{
    size_t off = 0;
    while (off < a->len && off < b->len) {
        size_t la = (size_t)fs_rd16(a->log + off + 2) * 4, lb = (size_t)fs_rd16(b->log + off + 2) * 4;
        if (!la || la != lb || off + la > a->len || off + la > b->len || memcmp(a->log + off, b->log + off, la)) {
            for (size_t i = 0; i < la && i < lb && i < 32; i++)
                fprintf(stderr, "%02x/%02x%s", a->log[off + i], b->log[off + i], i % 8 == 7 ? "\n" : " ");
            ck_abort_msg("%s: request at byte %zu differs: libxcb major %u minor %u len %zu, xwire major %u minor %u "
                         "len %zu",
                         what, off, a->log[off], a->log[off + 1], la, b->log[off], b->log[off + 1], lb);
        }
        off += la;
    }
    ck_assert_msg(a->len == b->len, "%s: libxcb sent %zu bytes, xwire %zu", what, a->len, b->len);
}

static int count_major(const struct rec_server *r, int major, int minor)
{
    int n = 0;
    for (size_t off = 0; off + 4 <= r->len;) {
        size_t l = (size_t)fs_rd16(r->log + off + 2) * 4;
        if (!l)
            break;
        n += r->log[off] == major && (minor < 0 || r->log[off + 1] == minor);
        off += l;
    }
    return n;
}

/* ---- CompositeGlyphs streams ---- */

static uint32_t big32[254];

/* One script over both libraries' streams: the same calls, the same requests. Glyph
 * counts fill whole words, since xcb-util leaves its pad bytes unset. */
#define GLYPH_SCRIPT(P, conn, sync)                                                                                    \
    do {                                                                                                               \
        static const uint8_t g8[] = {1, 2, 3, 4, 5, 6, 7, 8};                                                          \
        static const uint16_t g16[] = {0x101, 0x202, 0x303, 0x404};                                                    \
        static const uint32_t g32[] = {0x10001, 0x20002, 0x30003};                                                     \
        static uint8_t many[253];                                                                                      \
        /* hints large enough for xcb-util, whose buffer grows only once per call */                                   \
        P##_render_util_composite_text_stream_t *s = P##_render_util_composite_text_stream(0x1234, 12, 2);             \
        P##_render_util_glyphs_8(s, 10, -20, 4, g8);                                                                   \
        P##_render_util_change_glyphset(s, 0x1234); /* the current one: nothing */                                     \
        P##_render_util_change_glyphset(s, 0x5678);                                                                    \
        P##_render_util_glyphs_8(s, -3, 7, 8, g8);                                                                     \
        P##_render_util_glyphs_8(s, 0, 0, 253, many); /* over 252: ignored */                                          \
        P##_render_util_glyphs_16(s, 1, 1, 2, g16);   /* another width: ignored */                                     \
        P##_render_util_composite_text(conn, 3, 0x100, 0x200, 0x300, 5, 6, s);                                         \
        P##_render_util_composite_text_checked(conn, 3, 0x100, 0x200, 0, -5, -6, s);                                   \
        P##_render_util_composite_text_free(s);                                                                        \
        s = P##_render_util_composite_text_stream(0x99, 0, 0);                                                         \
        P##_render_util_composite_text(conn, 1, 1, 2, 3, 0, 0, s); /* empty: NoOperation */                            \
        P##_render_util_composite_text_checked(conn, 1, 1, 2, 3, 0, 0, s);                                             \
        for (int i = 0; i < 40; i++)                                                                                   \
            P##_render_util_glyphs_16(s, (int16_t)i, (int16_t)-i, 4, g16);                                             \
        P##_render_util_change_glyphset(s, 0x77);                                                                      \
        P##_render_util_glyphs_16(s, 2, 2, 2, g16);                                                                    \
        P##_render_util_composite_text(conn, 2, 7, 8, 0, 1, 1, s);                                                     \
        P##_render_util_composite_text_free(s);                                                                        \
        s = P##_render_util_composite_text_stream(0x42, 300, 0);                                                       \
        P##_render_util_glyphs_32(s, 4, 4, 3, g32);                                                                    \
        P##_render_util_glyphs_32(s, 0, 0, 254, big32);                                                                \
        P##_render_util_composite_text(conn, 2, 7, 8, 0, 1, 1, s);                                                     \
        P##_render_util_composite_text_free(s);                                                                        \
        sync;                                                                                                          \
    } while (0)

START_TEST(glyph_requests)
{
    for (int i = 0; i < 254; i++)
        big32[i] = (uint32_t)i * 77u;
    struct rec_server rx = {0}, rw = {0};
    xcb_connection_t *cx = rec_connect_xcb(&rx, 1);
    GLYPH_SCRIPT(xcb, cx, free(xcb_get_input_focus_reply(cx, xcb_get_input_focus(cx), NULL)));
    xw_connection_t *cw = rec_connect_xw(&rw, 1);
    GLYPH_SCRIPT(xw, cw, xw_aux_sync(cw));
    /* heap calls per send, after a warm-up send, on each side */
    static const uint8_t g8[4] = {1, 2, 3, 4};
    xcb_render_util_composite_text_stream_t *sx = xcb_render_util_composite_text_stream(1, 4, 0);
    xw_render_util_composite_text_stream_t *sw = xw_render_util_composite_text_stream(1, 4, 0);
    xcb_render_util_glyphs_8(sx, 0, 0, 4, g8);
    xw_render_util_glyphs_8(sw, 0, 0, 4, g8);
    xcb_render_util_composite_text(cx, 3, 1, 2, 0, 0, 0, sx);
    xw_render_util_composite_text(cw, 3, 1, 2, 0, 0, 0, sw);
    unsigned long a0 = alloc_count_begin();
    for (int i = 0; i < 100; i++)
        xcb_render_util_composite_text(cx, 3, 1, 2, 0, 0, 0, sx);
    unsigned long ax = alloc_count_end(a0);
    a0 = alloc_count_begin();
    for (int i = 0; i < 100; i++)
        xw_render_util_composite_text(cw, 3, 1, 2, 0, 0, 0, sw);
    unsigned long aw = alloc_count_end(a0);
    xcb_render_util_composite_text_free(sx);
    xw_render_util_composite_text_free(sw);
    free(xcb_get_input_focus_reply(cx, xcb_get_input_focus(cx), NULL));
    xw_aux_sync(cw);
    printf("composite_text: heap calls per 100 sends: libxcb+xcb-util %lu, xwire %lu\n", ax, aw);
    ck_assert_uint_eq(aw, 0);
    rec_stop(&rx);
    rec_stop(&rw);
    same_requests(&rx, &rw, "glyph streams");
    ck_assert_int_eq(count_major(&rw, RENDER_MAJOR, 23), 2 + 101); /* CompositeGlyphs8 */
    ck_assert_int_eq(count_major(&rw, RENDER_MAJOR, 24), 1);       /* CompositeGlyphs16 */
    ck_assert_int_eq(count_major(&rw, RENDER_MAJOR, 25), 1);       /* CompositeGlyphs32 */
    ck_assert_int_eq(count_major(&rw, 127, -1), 2);                /* NoOperation */
    printf("glyph streams: %zu bytes of requests, identical\n", rw.len);
    rec_free(&rx);
    rec_free(&rw);
    xcb_disconnect(cx);
    xw_disconnect(cw);
}
END_TEST

/* Where xcb-util cannot go: an odd count's pad bytes are zero, and a stream that grows
 * far past its first guess (xcb-util's grows once per call, by doubling, and then
 * writes past its buffer). Sending allocates nothing. */
START_TEST(glyph_stream_growth)
{
    struct rec_server rw = {0};
    xw_connection_t *cw = rec_connect_xw(&rw, 1);
    static const uint8_t g8[3] = {9, 9, 9};
    static uint8_t full[252];
    xw_render_util_composite_text_stream_t *s = xw_render_util_composite_text_stream(1, 0, 0);
    xw_render_util_glyphs_8(s, 1, 1, 3, g8);
    for (int i = 0; i < 200; i++)
        xw_render_util_glyphs_8(s, 0, 0, 252, full);
    xw_render_util_composite_text(cw, 3, 1, 2, 0, 0, 0, s); /* warm-up */
    unsigned long a0 = alloc_count_begin();
    for (int i = 0; i < 10; i++)
        xw_render_util_composite_text(cw, 3, 1, 2, 0, 0, 0, s);
    unsigned long used = alloc_count_end(a0);
    xw_render_util_composite_text_free(s);
    xw_aux_sync(cw);
    rec_stop(&rw);
    ck_assert_uint_eq(used, 0);
    size_t len = 0;
    const uint8_t *req = NULL;
    for (size_t o = 0, l; o + 4 <= rw.len && (l = (size_t)fs_rd16(rw.log + o + 2) * 4); o += l)
        if (rw.log[o] == RENDER_MAJOR && rw.log[o + 1] == 23 && !req)
            req = rw.log + o, len = l;
    /* 28-byte header, then: the 3-glyph element (8 + 4 with one zero pad byte), 200 full ones */
    ck_assert_ptr_nonnull(req);
    ck_assert_uint_eq(len, 28 + 12 + 200 * (8 + 252));
    ck_assert_int_eq(req[28], 3);
    ck_assert_int_eq(req[28 + 8 + 3], 0);
    ck_assert_int_eq(req[28 + 12], 252);
    rec_free(&rw);
    xw_disconnect(cw);
}
END_TEST

/* A QueryPictFormats reply that claims 1000 formats and holds one: xwire's reply check
 * refuses it (no cache entry formats), where xcb-util's lookups would read past it. */
START_TEST(malformed_formats_reply)
{
    struct rec_server rw = {.bad_formats = 1};
    xw_connection_t *cw = rec_connect_xw(&rw, 1);
    ck_assert_ptr_null(xw_render_util_query_formats(cw));
    ck_assert_ptr_nonnull(xw_render_util_query_version(cw)); /* the other reply was fine */
    ck_assert_int_eq(xw_render_util_disconnect(cw), 1);
    rec_stop(&rw);
    rec_free(&rw);
    xw_disconnect(cw);
    /* no RENDER at all: both libraries answer NULL */
    struct rec_server rx = {0};
    memset(&rw, 0, sizeof(rw));
    xcb_connection_t *cx = rec_connect_xcb(&rx, 0);
    cw = rec_connect_xw(&rw, 0);
    ck_assert_ptr_null(xcb_render_util_query_formats(cx));
    ck_assert_ptr_null(xw_render_util_query_formats(cw));
    ck_assert_ptr_null(xw_render_util_query_version(cw));
    xcb_render_util_disconnect(cx);
    xw_render_util_disconnect(cw);
    rec_stop(&rx);
    rec_stop(&rw);
    rec_free(&rx);
    rec_free(&rw);
    xcb_disconnect(cx);
    xw_disconnect(cw);
}
END_TEST

/* ---- cursors on the fake server ---- */

static void cursor_script_xcb(xcb_connection_t *conn, const char *name, unsigned long *allocs)
{
    xcb_cursor_context_t *ctx;
    xcb_screen_t *s = xcb_setup_roots_iterator(xcb_get_setup(conn)).data;
    unsigned long a0 = alloc_count_begin();
    ck_assert_int_eq(xcb_cursor_context_new(conn, s, &ctx), 0);
    ck_assert_uint_ne(xcb_cursor_load_cursor(ctx, name), 0);
    *allocs = alloc_count_end(a0);
    free(xcb_get_input_focus_reply(conn, xcb_get_input_focus(conn), NULL));
    xcb_cursor_context_free(ctx);
}

static void cursor_script_xw(xw_connection_t *conn, const char *name, unsigned long *allocs)
{
    xw_cursor_context_t *ctx;
    xw_screen_t *s = (xw_screen_t *)xw_setup_roots_iterator(xw_get_setup(conn)).data;
    unsigned long a0 = alloc_count_begin();
    ck_assert_int_eq(xw_cursor_context_new(conn, s, &ctx), 0);
    ck_assert_uint_ne(xw_cursor_load_cursor(ctx, name), 0);
    *allocs = alloc_count_end(a0);
    xw_aux_sync(conn);
    xw_cursor_context_free(ctx); /* its CloseFont comes after the log is compared */
}

static void compare_cursor(int with_render, const char *resources, const char *name, int frames)
{
    struct rec_server rx = {.resources = resources}, rw = {.resources = resources};
    unsigned long ax, aw;
    xcb_connection_t *cx = rec_connect_xcb(&rx, with_render);
    cursor_script_xcb(cx, name, &ax);
    rec_stop(&rx);
    xw_connection_t *cw = rec_connect_xw(&rw, with_render);
    cursor_script_xw(cw, name, &aw);
    rec_stop(&rw);
    same_requests(&rx, &rw, name);
    int put = count_major(&rw, 72, -1), anim = count_major(&rw, RENDER_MAJOR, 31);
    int glyph = count_major(&rw, 94, -1);
    ck_assert_int_eq(put, with_render ? frames : 0);
    ck_assert_int_eq(anim, with_render && frames > 1);
    ck_assert_int_eq(glyph, !with_render);
    printf("cursor %s (%s): %zu bytes of requests identical, %d PutImage, %d CreateAnimCursor, %d "
           "CreateGlyphCursor; heap calls to load: libxcb+xcb-util %lu, xwire %lu\n",
           name, with_render ? "RENDER" : "no RENDER", rw.len, put, anim, glyph, ax, aw);
    rec_free(&rx);
    rec_free(&rw);
    xcb_disconnect(cx);
    xw_disconnect(cw);
}

START_TEST(cursor_requests)
{
    unsetenv("XCURSOR_THEME");
    unsetenv("XCURSOR_SIZE");
    unsetenv("XCURSOR_PATH");
    /* redglass's watch: 8 frames at 32 (animated); whiteglass's left_ptr: one image */
    compare_cursor(1, "Xcursor.theme:\tredglass\nXcursor.size:\t32\n", "watch", 8);
    compare_cursor(1, "Xcursor.theme: whiteglass\nXcursor.size: 48\n", "left_ptr", 1);
    compare_cursor(1, "Xcursor.theme: handhelds\nXcursor.size: 16\nXft.dpi: 96\n", "xterm", 1);
    /* no RENDER: the core cursor font */
    compare_cursor(0, "Xcursor.theme: redglass\n", "watch", 0);
}
END_TEST

/* RENDER but no depth-32 pixmaps to put the images in: xwire falls back to the core
 * font (xcb-util-cursor crashes in xcb_image_put there: not run). */
START_TEST(cursor_without_depth32_pixmaps)
{
    struct rec_server rw = {.resources = "Xcursor.theme: redglass\n", .no_depth32 = 1};
    xw_connection_t *cw = rec_connect_xw(&rw, 1);
    unsigned long allocs;
    cursor_script_xw(cw, "watch", &allocs);
    rec_stop(&rw);
    ck_assert_int_eq(count_major(&rw, 72, -1), 0);          /* no PutImage */
    ck_assert_int_eq(count_major(&rw, 53, -1), 0);          /* no CreatePixmap */
    ck_assert_int_eq(count_major(&rw, 94, -1), 1);          /* CreateGlyphCursor */
    ck_assert_int_eq(count_major(&rw, RENDER_MAJOR, 1), 1); /* the formats were asked for */
    rec_free(&rw);
    xw_disconnect(cw);
}
END_TEST

/* A cursor image larger than the maximum request length (the fake server has no
 * BIG-REQUESTS): xwire sends it in strips that add up to the image, where libxcb would
 * drop the connection. */
START_TEST(cursor_image_in_strips)
{
    enum { SIDE = 300 };
    char dir[] = "/tmp/xw-strips-XXXXXX", path[128];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/big", dir);
    ck_assert_int_eq(mkdir(path, 0700), 0);
    snprintf(path, sizeof(path), "%s/big/cursors", dir);
    ck_assert_int_eq(mkdir(path, 0700), 0);
    snprintf(path, sizeof(path), "%s/big/cursors/huge", dir);
    uint32_t head[4 + 3 + 9] = {0x72756358u, 16,   0x10000, 1,    0xfffd0002u, SIDE, 28, 36,
                                0xfffd0002u, SIDE, 1,       SIDE, SIDE,        3,    4,  0};
    static uint32_t pixels[SIDE * SIDE];
    for (size_t i = 0; i < SIDE * SIDE; i++)
        pixels[i] = 0xff000000u | (uint32_t)(i * 2654435761u >> 8);
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    fwrite(head, 4, 16, f); /* little-endian host: the file's byte order */
    fwrite(pixels, 4, SIDE * SIDE, f);
    fclose(f);
    setenv("XCURSOR_PATH", dir, 1);
    struct rec_server rw = {.resources = "Xcursor.theme: big\nXcursor.size: 300\n"};
    xw_connection_t *cw = rec_connect_xw(&rw, 1);
    unsigned long allocs;
    cursor_script_xw(cw, "huge", &allocs);
    rec_stop(&rw);
    unsetenv("XCURSOR_PATH");
    size_t got = 0;
    int strips = 0;
    for (size_t o = 0, l; o + 4 <= rw.len && (l = (size_t)fs_rd16(rw.log + o + 2) * 4); o += l)
        if (rw.log[o] == 72) {
            size_t data = l - 24;
            ck_assert_uint_le(l, 65535u * 4);
            ck_assert_uint_eq(fs_rd16(rw.log + o + 18), got / (SIDE * 4)); /* dst_y */
            ck_assert_int_eq(memcmp(rw.log + o + 24, (const uint8_t *)pixels + got, data), 0);
            got += data;
            strips++;
        }
    ck_assert_uint_eq(got, sizeof(pixels));
    ck_assert_int_eq(strips, 2);
    ck_assert_int_eq(xw_connection_has_error(cw), 0);
    rec_free(&rw);
    xw_disconnect(cw);
    snprintf(path, sizeof(path), "rm -rf '%s'", dir);
    ck_assert_int_eq(system(path), 0);
}
END_TEST

int main(void)
{
    if (xvfb_missing("util_render"))
        return 77;
    Suite *s = xwtest_suite("util_render");
    TCase *tc = xvfb_tcase(
        s,
        &(struct xvfb_suite){.name = "util_render", .timeout = 120, .conn = &c, .setup = setup, .teardown = teardown});
    tcase_add_test(tc, layout);
    tcase_add_test(tc, formats_own_connection);
    tcase_add_test(tc, formats_borrowed_connection);
    tcase_add_test(tc, glyph_requests);
    tcase_add_test(tc, glyph_stream_growth);
    tcase_add_test(tc, malformed_formats_reply);
    tcase_add_test(tc, cursor_requests);
    tcase_add_test(tc, cursor_image_in_strips);
    tcase_add_test(tc, cursor_without_depth32_pixmaps);
    return xwtest_run(s);
}
