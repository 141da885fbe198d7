/* SPDX-License-Identifier: MIT */
/* test_util_image.c — xw_image.h, xw_bitops.h and xw_pixel.h against xcb-util-image:
 * the same headers for every format, depth, bpp, unit, pad and order; the same bytes
 * from put_pixel and the same pixels after convert and subimage between every pair
 * of valid layouts; the same inline helpers; the same PutImage bytes (and the same
 * requests from create_pixmap_from_bitmap_data) on a recording fake server, and
 * strips past its maximum request length; on Xvfb, the same GetImage images, images
 * put and read back (an image past BIG-REQUESTS' 16 MiB in strips), MIT-SHM get and
 * put, through xwire's own and a borrowed connection; no allocation per put. */
#include <check.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <unistd.h>

#include <xcb/xcb.h>
#include <xcb/xcb_image.h>
#include <xcb/xcb_pixel.h>

#include <xw/xw-xcb.h>
#include <xw/xw_image.h>
#include <xw/xw_pixel.h>

#include "util_oracle.h"

#include "dpyserver.h"
#include "xwtest.h"

static xw_connection_t *c;
static xcb_connection_t *xc;

static void setup(void)
{
    util_oracle_setup(&xc);
}

static void teardown(void)
{
    util_oracle_teardown(c, xc);
}

static uint64_t rng = 88172645463325252ull;
static uint32_t rnd(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

START_TEST(same_struct_layout)
{
    ck_assert_uint_eq(sizeof(xw_image_t), sizeof(xcb_image_t));
#define SAME(f) ck_assert_uint_eq(offsetof(xw_image_t, f), offsetof(xcb_image_t, f))
    SAME(width);
    SAME(height);
    SAME(format);
    SAME(scanline_pad);
    SAME(depth);
    SAME(bpp);
    SAME(unit);
    SAME(plane_mask);
    SAME(byte_order);
    SAME(bit_order);
    SAME(stride);
    SAME(size);
    SAME(base);
    SAME(data);
#undef SAME
    ck_assert_uint_eq(sizeof(xw_shm_segment_info_t), sizeof(xcb_shm_segment_info_t));
    ck_assert_uint_eq(offsetof(xw_shm_segment_info_t, shmid), offsetof(xcb_shm_segment_info_t, shmid));
    ck_assert_uint_eq(offsetof(xw_shm_segment_info_t, shmaddr), offsetof(xcb_shm_segment_info_t, shmaddr));
}
END_TEST

/* One image layout (create's arguments). */
struct layout {
    uint8_t format, pad, depth, bpp, unit, byte_order, bit_order;
};

static xw_image_t *make_xw(const struct layout *l, uint16_t w, uint16_t h)
{
    return xw_image_create(w, h, l->format, l->pad, l->depth, l->bpp, l->unit, l->byte_order, l->bit_order, NULL, 0,
                           NULL);
}

static xcb_image_t *make_xcb(const struct layout *l, uint16_t w, uint16_t h)
{
    return xcb_image_create(w, h, l->format, l->pad, l->depth, l->bpp, l->unit, l->byte_order, l->bit_order, NULL, 0,
                            NULL);
}

static void same_header(const xw_image_t *a, const xcb_image_t *b)
{
    ck_assert_uint_eq(a->width, b->width);
    ck_assert_uint_eq(a->height, b->height);
    ck_assert_uint_eq(a->format, b->format);
    ck_assert_uint_eq(a->scanline_pad, b->scanline_pad);
    ck_assert_uint_eq(a->depth, b->depth);
    ck_assert_uint_eq(a->bpp, b->bpp);
    ck_assert_uint_eq(a->unit, b->unit);
    ck_assert_uint_eq(a->plane_mask, b->plane_mask);
    ck_assert_uint_eq(a->byte_order, b->byte_order);
    ck_assert_uint_eq(a->bit_order, b->bit_order);
    ck_assert_uint_eq(a->stride, b->stride);
    ck_assert_uint_eq(a->size, b->size);
}

/* Every create argument combination; the valid layouts are kept in out (whose XY
 * layouts have bpp == depth: xcb-util-image walks bpp planes where the size holds
 * depth, so a larger bpp reads past its data). */
static long refused;

static size_t all_layouts(struct layout *out, size_t cap, long *created)
{
    static const uint8_t depths[] = {1, 4, 8, 12, 15, 16, 24, 32}, bpps[] = {1, 4, 8, 16, 24, 32},
                         units[] = {0, 8, 16, 32}, pads[] = {8, 16, 32};
    size_t n = 0;
    for (uint8_t f = 0; f < 3; f++)
        for (size_t d = 0; d < sizeof(depths); d++)
            for (size_t b = 0; b < sizeof(bpps); b++)
                for (size_t u = 0; u < sizeof(units); u++)
                    for (size_t p = 0; p < sizeof(pads); p++)
                        for (uint8_t bo = 0; bo < 2; bo++)
                            for (uint8_t bi = 0; bi < 2; bi++) {
                                struct layout l = {f, pads[p], depths[d], bpps[b], units[u], bo, bi};
                                xw_image_t *a = make_xw(&l, 13, 5);
                                xcb_image_t *x = make_xcb(&l, 13, 5);
                                /* the one refusal of xwire's: an XY row padded to less than
                                 * its unit with byte and bit orders apart */
                                if (x && !a && (f != 2 || l.bpp == 1) && x->scanline_pad < x->unit && bo != bi) {
                                    refused++;
                                    xcb_image_destroy(x);
                                    continue;
                                }
                                ck_assert_msg(!a == !x, "create f%u pad%u d%u bpp%u unit%u: xwire %p xcb %p", f,
                                              pads[p], depths[d], bpps[b], units[u], (void *)a, (void *)x);
                                (*created)++;
                                if (a) {
                                    same_header(a, x);
                                    int xy = f != 2 || l.bpp == 1;
                                    if ((!xy || l.bpp == l.depth) && n < cap) {
                                        l.unit = a->unit;
                                        out[n++] = l;
                                    }
                                }
                                xw_image_destroy(a);
                                if (x)
                                    xcb_image_destroy(x);
                            }
    return n;
}

static struct layout layouts[4096];
static size_t nlayouts;

static void fill_both(xw_image_t *a, xcb_image_t *b)
{
    memset(a->data, 0, a->size);
    memset(b->data, 0, b->size);
    for (uint32_t y = 0; y < a->height; y++)
        for (uint32_t x = 0; x < a->width; x++) {
            uint32_t v = rnd() ^ (rnd() << 16);
            xw_image_put_pixel(a, x, y, v);
            xcb_image_put_pixel(b, x, y, v);
        }
}

START_TEST(same_headers_and_pixels)
{
    long created = 0;
    refused = 0;
    nlayouts = all_layouts(layouts, sizeof(layouts) / sizeof(layouts[0]), &created);
    ck_assert_uint_gt(nlayouts, 100);
    for (size_t i = 0; i < nlayouts; i++) {
        xw_image_t *a = make_xw(&layouts[i], 37, 7);
        xcb_image_t *b = make_xcb(&layouts[i], 37, 7);
        fill_both(a, b);
        ck_assert_msg(!memcmp(a->data, b->data, a->size), "layout %zu: bytes differ", i);
        for (uint32_t y = 0; y < 7; y++)
            for (uint32_t x = 0; x < 37; x++)
                ck_assert_uint_eq(xw_image_get_pixel(a, x, y), xcb_image_get_pixel(b, x, y));
        /* outside: nothing written, 0 read */
        xw_image_put_pixel(a, 37, 0, ~0u);
        xw_image_put_pixel(a, 0, 7, ~0u);
        ck_assert(!memcmp(a->data, b->data, a->size));
        ck_assert_uint_eq(xw_image_get_pixel(a, 37, 0), 0);
        xw_image_destroy(a);
        xcb_image_destroy(b);
    }
    printf("image: %ld create argument sets: the same headers but %ld xwire refuses (XY, pad < unit, byte order "
           "!= bit order); %zu valid layouts give the same bytes\n",
           created, refused, nlayouts);
    ck_assert_int_gt(refused, 0);
}
END_TEST

START_TEST(same_pixels_after_convert_and_subimage)
{
    long created = 0;
    nlayouts = all_layouts(layouts, sizeof(layouts) / sizeof(layouts[0]), &created);
    /* pairs from a spread of the layouts. xcb-util-image's byte-copy path is wrong in
     * places (24-bit pixels between byte orders are copied unswapped; it writes one
     * byte past a narrower destination row, so its destinations get slack here): where
     * the two differ, xwire must hold the pixel xcb-util-image's own pixel-by-pixel
     * path gives, and the pairs are counted. */
    long pairs = 0, pixels = 0, xcb_wrong = 0;
    for (size_t i = 0; i < nlayouts; i += 9)
        for (size_t j = 0; j < nlayouts; j += 13) {
            xw_image_t *a = make_xw(&layouts[i], 21, 3), *ad = make_xw(&layouts[j], 21, 3);
            xcb_image_t *b = make_xcb(&layouts[i], 21, 3), *slow = make_xcb(&layouts[j], 21, 3);
            const struct layout *l = &layouts[j];
            uint32_t room = ad->size + 64;
            xcb_image_t *bd = xcb_image_create(21, 3, l->format, l->pad, l->depth, l->bpp, l->unit, l->byte_order,
                                               l->bit_order, calloc(1, room), room, NULL);
            fill_both(a, b);
            memset(ad->data, 0, ad->size);
            memset(slow->data, 0, slow->size);
            ck_assert_ptr_eq(xw_image_convert(a, ad), ad);
            ck_assert_ptr_eq(xcb_image_convert(b, bd), bd);
            int differs = 0;
            for (uint32_t y = 0; y < 3; y++)
                for (uint32_t x = 0; x < 21; x++, pixels++) {
                    uint32_t got = xw_image_get_pixel(ad, x, y), want = xcb_image_get_pixel(bd, x, y);
                    if (got == want)
                        continue;
                    xcb_image_put_pixel(slow, x, y, xcb_image_get_pixel(b, x, y));
                    if (got != xcb_image_get_pixel(slow, x, y))
                        ck_abort_msg("convert %zu -> %zu at (%u, %u): xwire %x, xcb-util %x", i, j, x, y, got, want);
                    differs = 1;
                }
            xcb_wrong += differs;
            pairs++;
            xw_image_destroy(a), xw_image_destroy(ad);
            xcb_image_destroy(b), xcb_image_destroy(bd), xcb_image_destroy(slow);
        }
    /* sizes must match */
    xw_image_t *a = make_xw(&layouts[0], 4, 4), *d = make_xw(&layouts[0], 5, 4);
    ck_assert_ptr_null(xw_image_convert(a, d));
    xw_image_destroy(d);
    /* sub-images: the same pixels; out of range: NULL */
    for (size_t i = 0; i < nlayouts; i += 5) {
        xw_image_t *s = make_xw(&layouts[i], 29, 6);
        xcb_image_t *x = make_xcb(&layouts[i], 29, 6);
        fill_both(s, x);
        xw_image_t *ss = xw_image_subimage(s, 3, 2, 19, 4, NULL, 0, NULL);
        xcb_image_t *xs = xcb_image_subimage(x, 3, 2, 19, 4, NULL, 0, NULL);
        same_header(ss, xs);
        for (uint32_t y = 0; y < 4; y++)
            for (uint32_t xx = 0; xx < 19; xx++)
                ck_assert_uint_eq(xw_image_get_pixel(ss, xx, y), xcb_image_get_pixel(xs, xx, y));
        ck_assert_ptr_null(xw_image_subimage(s, 20, 0, 10, 1, NULL, 0, NULL));
        xw_image_destroy(s), xw_image_destroy(ss);
        xcb_image_destroy(x), xcb_image_destroy(xs);
    }
    xw_image_destroy(a);
    printf("image: %ld conversions, %ld pixels: equal but in %ld conversions where xcb-util-image's byte copy is "
           "wrong (xwire matches its pixel path)\n",
           pairs, pixels, xcb_wrong);
    ck_assert_int_lt(xcb_wrong, pairs / 10);
}
END_TEST

START_TEST(same_inline_helpers)
{
    struct layout xym = {XW_IMAGE_FORMAT_XY_PIXMAP, 32, 1, 1, 32, XW_IMAGE_ORDER_LSB_FIRST, XW_IMAGE_ORDER_MSB_FIRST};
    struct layout xyl = {XW_IMAGE_FORMAT_XY_PIXMAP, 32, 1, 1, 32, XW_IMAGE_ORDER_LSB_FIRST, XW_IMAGE_ORDER_LSB_FIRST};
    struct layout z8 = {XW_IMAGE_FORMAT_Z_PIXMAP, 32, 8, 8, 8, 0, 0};
    struct layout z32m = {XW_IMAGE_FORMAT_Z_PIXMAP, 32, 24, 32, 32, XW_IMAGE_ORDER_MSB_FIRST, 0};
    struct layout z32l = {XW_IMAGE_FORMAT_Z_PIXMAP, 32, 24, 32, 32, XW_IMAGE_ORDER_LSB_FIRST, 0};
    const struct layout *ls[] = {&xym, &xyl, &z8, &z32m, &z32l};
    for (int k = 0; k < 5; k++) {
        xw_image_t *a = make_xw(ls[k], 70, 3), *g = make_xw(ls[k], 70, 3);
        xcb_image_t *b = make_xcb(ls[k], 70, 3);
        memset(a->data, 0, a->size), memset(b->data, 0, b->size), memset(g->data, 0, g->size);
        for (uint32_t y = 0; y < 3; y++)
            for (uint32_t x = 0; x < 70; x++) {
                /* xcb_pixel.h's Z32 getters shift a byte of 128 or more into an int's
                 * sign bit (undefined; UBSan stops there): their top bit stays 0 */
                uint32_t v = rnd() & 0x7fffffffu;
                switch (k) {
                case 0:
                    xw_image_put_pixel_XY32M(a, x, y, (int)(v & 1)), xcb_image_put_pixel_XY32M(b, x, y, (int)(v & 1));
                    ck_assert_int_eq(xw_image_get_pixel_XY32M(a, x, y), xcb_image_get_pixel_XY32M(b, x, y));
                    break;
                case 1:
                    xw_image_put_pixel_XY32L(a, x, y, (int)(v & 1)), xcb_image_put_pixel_XY32L(b, x, y, (int)(v & 1));
                    ck_assert_int_eq(xw_image_get_pixel_XY32L(a, x, y), xcb_image_get_pixel_XY32L(b, x, y));
                    break;
                case 2:
                    xw_image_put_pixel_Z8(a, x, y, (uint8_t)v), xcb_image_put_pixel_Z8(b, x, y, (uint8_t)v);
                    ck_assert_uint_eq(xw_image_get_pixel_Z8(a, x, y), xcb_image_get_pixel_Z8(b, x, y));
                    break;
                case 3:
                    xw_image_put_pixel_Z32M(a, x, y, v), xcb_image_put_pixel_Z32M(b, x, y, v);
                    ck_assert_uint_eq(xw_image_get_pixel_Z32M(a, x, y), xcb_image_get_pixel_Z32M(b, x, y));
                    break;
                case 4:
                    xw_image_put_pixel_Z32L(a, x, y, v), xcb_image_put_pixel_Z32L(b, x, y, v);
                    ck_assert_uint_eq(xw_image_get_pixel_Z32L(a, x, y), xcb_image_get_pixel_Z32L(b, x, y));
                    break;
                }
                xw_image_put_pixel(g, x, y, xw_image_get_pixel(a, x, y)); /* the fast path is the general one */
            }
        ck_assert(!memcmp(a->data, b->data, a->size));
        ck_assert(!memcmp(a->data, g->data, a->size));
        if (k >= 3) /* xwire's own with the top bit too, against the general accessor */
            for (uint32_t x = 0; x < 70; x++) {
                uint32_t v = rnd() | 0x80000000u;
                if (k == 3)
                    xw_image_put_pixel_Z32M(a, x, 1, v);
                else
                    xw_image_put_pixel_Z32L(a, x, 1, v);
                ck_assert_uint_eq(xw_image_get_pixel(a, x, 1), v);
                ck_assert_uint_eq(k == 3 ? xw_image_get_pixel_Z32M(a, x, 1) : xw_image_get_pixel_Z32L(a, x, 1), v);
            }
        xw_image_destroy(a), xw_image_destroy(g), xcb_image_destroy(b);
    }
    for (uint32_t n = 0; n <= 32; n++) {
        /* xcb_mask(31) shifts 1 into an int's sign bit (undefined): compared by value */
        ck_assert_uint_eq(xw_mask(n), n == 31 ? 0x7fffffffu : xcb_mask(n));
        for (uint32_t base = 0; base < 100; base += 7) {
            if (n && !(n & (n - 1))) {
                ck_assert_uint_eq(xw_roundup_2(base, n), xcb_roundup_2(base, n));
                ck_assert_uint_eq(xw_rounddown_2(base, n), xcb_rounddown_2(base, n));
            }
            if (n) {
                ck_assert_uint_eq(xw_roundup(base, n), xcb_roundup(base, n));
                ck_assert_uint_eq(xw_rounddown(base, n), xcb_rounddown(base, n));
                ck_assert_uint_eq(xw_bit_reverse(base * 2654435761u, (uint8_t)n),
                                  xcb_bit_reverse(base * 2654435761u, (uint8_t)n));
            }
        }
        uint32_t bits = n < 32 ? 0x5a5a5a5au >> n : 0;
        ck_assert_int_eq(xw_popcount(bits), (int)xcb_popcount(bits));
    }
    ck_assert_int_eq(xw_host_byte_order(), xcb_host_byte_order());
}
END_TEST

/* ---- on the recording fake server ---- */

static uint8_t logs[2][1 << 21];

/* The bytes each connection sent since the last call (0: xcb, 1: xwire), after a
 * round trip on each so everything has arrived. */
static void take_both(struct dpy_server *s, xcb_connection_t *x, xw_connection_t *w, long *n)
{
    free(xcb_get_input_focus_reply(x, xcb_get_input_focus(x), NULL));
    free(xw_get_input_focus_reply(w, xw_get_input_focus(w), NULL));
    for (int i = 0; i < 2; i++) {
        n[i] = dpy_take(s, i, logs[i], sizeof(logs[i]));
        ck_assert_int_ge(n[i], 0);
    }
}

START_TEST(same_put_bytes_on_fake_server)
{
    static struct dpy_server s; /* its threads outlive a failed assertion's return */
    ck_assert_int_eq(dpy_start(&s), 0);
    xcb_connection_t *x = xcb_connect(s.name, NULL);
    ck_assert_int_eq(xcb_connection_has_error(x), 0);
    while (dpy_nconns(&s) < 1)
        usleep(1000);
    xw_connection_t *w = xw_connect(s.name, NULL);
    ck_assert_int_eq(xw_connection_has_error(w), 0);
    long n[2];
    take_both(&s, x, w, n);
    /* images of each format and order, native and not, odd sizes */
    static const struct layout put_layouts[] = {
        {XW_IMAGE_FORMAT_Z_PIXMAP, 32, 24, 32, 32, 0, 0},  {XW_IMAGE_FORMAT_Z_PIXMAP, 8, 8, 8, 8, 1, 0},
        {XW_IMAGE_FORMAT_Z_PIXMAP, 16, 4, 4, 8, 1, 0},     {XW_IMAGE_FORMAT_Z_PIXMAP, 32, 24, 24, 24, 0, 0},
        {XW_IMAGE_FORMAT_XY_PIXMAP, 32, 24, 24, 32, 0, 1}, {XW_IMAGE_FORMAT_XY_BITMAP, 8, 1, 1, 8, 1, 1},
        {XW_IMAGE_FORMAT_XY_PIXMAP, 16, 1, 1, 16, 0, 0},
    };
    for (size_t i = 0; i < sizeof(put_layouts) / sizeof(put_layouts[0]); i++) {
        xw_image_t *a = make_xw(&put_layouts[i], 33, 9);
        xcb_image_t *b = make_xcb(&put_layouts[i], 33, 9);
        fill_both(a, b);
        xcb_image_put(x, 0x400001, 0x400002, b, -3, 7, (uint8_t)(i & 3));
        xw_image_put(w, 0x400001, 0x400002, a, -3, 7, (uint8_t)(i & 3));
        take_both(&s, x, w, n);
        ck_assert_msg(n[0] == n[1], "layout %zu: xcb-util %ld bytes, xwire %ld", i, n[0], n[1]);
        ck_assert_msg(!memcmp(logs[0], logs[1], (size_t)n[0]), "PutImage bytes differ for layout %zu", i);
        xw_image_destroy(a);
        xcb_image_destroy(b);
    }
    /* create_pixmap_from_bitmap_data: CreatePixmap, CreateGC, PutImage, FreeGC */
    uint8_t bits[4 * 11];
    for (size_t i = 0; i < sizeof(bits); i++)
        bits[i] = (uint8_t)rnd();
    for (uint32_t depth = 1; depth <= 24; depth += 23) {
        xcb_gcontext_t xgc = 0;
        xw_gcontext_t wgc = 0;
        xcb_pixmap_t xp = xcb_create_pixmap_from_bitmap_data(x, 0x100, bits, 27, 11, depth, 0xff00ff, 0x123456,
                                                             depth == 1 ? NULL : &xgc);
        xw_pixmap_t wp = xw_create_pixmap_from_bitmap_data(w, 0x100, bits, 27, 11, depth, 0xff00ff, 0x123456,
                                                           depth == 1 ? NULL : &wgc);
        ck_assert_uint_eq(xp, wp);
        ck_assert_uint_eq(xgc, wgc);
        take_both(&s, x, w, n);
        ck_assert_int_eq(n[0], n[1]);
        ck_assert_msg(!memcmp(logs[0], logs[1], (size_t)n[0]), "bitmap pixmap requests differ at depth %u", depth);
        size_t off = 0, len;
        ck_assert_ptr_nonnull(dpy_find(logs[1], (size_t)n[1], &off, 72, -1, &len));
    }
    /* past the server's 65535 words (no BIG-REQUESTS here): strips of whole rows */
    static const struct layout big[] = {
        {XW_IMAGE_FORMAT_Z_PIXMAP, 32, 24, 32, 32, 0, 0},
        {XW_IMAGE_FORMAT_XY_PIXMAP, 32, 24, 24, 32, 0, 0},
    };
    for (size_t k = 0; k < 2; k++) {
        xw_image_t *a = make_xw(&big[k], 301, k ? 300 : 500);
        for (uint32_t i = 0; i < a->size; i++)
            a->data[i] = (uint8_t)rnd();
        ck_assert_uint_gt(a->size, 65535u * 4);
        xw_void_cookie_t ck = xw_image_put(w, 0x400001, 0x400002, a, 5, 6, 0);
        ck_assert_uint_ne(ck.sequence, 0);
        take_both(&s, x, w, n);
        size_t off = 0, len, planes = k ? 24 : 1, plane_size = (size_t)a->stride * a->height;
        uint32_t row = 0;
        int strips = 0;
        const uint8_t *r;
        while ((r = dpy_find(logs[1], (size_t)n[1], &off, 72, -1, &len))) {
            ck_assert_uint_le(len, 65535u * 4);
            uint16_t rows = (uint16_t)(r[14] | r[15] << 8);
            ck_assert_uint_eq((uint16_t)(r[12] | r[13] << 8), a->width);
            ck_assert_int_eq((int16_t)(r[18] | r[19] << 8), 6 + (int)row);
            ck_assert_uint_eq(r[21], a->depth);
            for (size_t p = 0; p < planes; p++)
                ck_assert(!memcmp(r + 24 + p * rows * a->stride, a->data + p * plane_size + (size_t)row * a->stride,
                                  (size_t)rows * a->stride));
            row += rows;
            strips++;
        }
        ck_assert_uint_eq(row, a->height);
        ck_assert_int_gt(strips, 1);
        printf("image: %s of %u bytes sent as %d PutImage strips on a 65535-word server\n",
               k ? "XY pixmap" : "Z pixmap", a->size, strips);
        xw_image_destroy(a);
    }
    xw_disconnect(w);
    xcb_disconnect(x);
    dpy_stop(&s);
}
END_TEST

/* ---- on Xvfb ---- */

static xcb_screen_t *xscreen(void)
{
    return xcb_setup_roots_iterator(xcb_get_setup(xc)).data;
}

/* A pixmap of depth with a pattern drawn by the server. */
static xcb_pixmap_t pattern_pixmap(uint8_t depth, uint16_t w, uint16_t h)
{
    xcb_pixmap_t p = xcb_generate_id(xc);
    xcb_create_pixmap(xc, depth, p, xscreen()->root, w, h);
    xcb_gcontext_t gc = xcb_generate_id(xc);
    xcb_create_gc(xc, gc, p, 0, NULL);
    for (uint32_t i = 0; i < 40; i++) {
        uint32_t fg = rnd() ^ (rnd() << 16);
        xcb_change_gc(xc, gc, XCB_GC_FOREGROUND, &fg);
        xcb_rectangle_t r = {(int16_t)(rnd() % w), (int16_t)(rnd() % h), (uint16_t)(1 + rnd() % 40),
                             (uint16_t)(1 + rnd() % 20)};
        xcb_poly_fill_rectangle(xc, p, gc, 1, &r);
    }
    xcb_free_gc(xc, gc);
    util_xcb_sync(xc);
    return p;
}

static void check_get_and_put(xw_connection_t *conn)
{
    static const uint8_t depths[] = {1, 24};
    for (size_t d = 0; d < 2; d++) {
        xcb_pixmap_t p = pattern_pixmap(depths[d], 77, 31);
        for (uint8_t f = 1; f <= 2; f++) {
            xw_image_t *a = xw_image_get(conn, p, 2, 1, 70, 29, ~0u, f);
            xcb_image_t *b = xcb_image_get(xc, p, 2, 1, 70, 29, ~0u, f);
            ck_assert_ptr_nonnull(a);
            same_header(a, b);
            ck_assert(!memcmp(a->data, b->data, a->size));
            ck_assert_ptr_eq(xw_image_native(conn, a, 0), a); /* for depth 24 XY, xcb-util-image says no */
            /* put it back elsewhere, read it: the same pixels */
            xcb_gcontext_t gc = xcb_generate_id(xc);
            xcb_create_gc(xc, gc, p, 0, NULL);
            util_xcb_sync(xc);
            xw_image_put(conn, p, gc, a, 5, 2, 0);
            xw_generic_error_t *e = xw_request_check(conn, xw_no_operation_checked(conn));
            ck_assert_ptr_null(e);
            xw_image_t *back = xw_image_get(conn, p, 5, 2, 70, 29, ~0u, f);
            for (uint32_t y = 0; y < 29; y++)
                for (uint32_t x = 0; x < 70; x++)
                    ck_assert_uint_eq(xw_image_get_pixel(back, x, y), xw_image_get_pixel(a, x, y));
            xcb_free_gc(xc, gc);
            xw_image_destroy(a);
            xw_image_destroy(back);
            xcb_image_destroy(b);
        }
        if (depths[d] == 24) {
            /* XY with planes left out: the others read as 0 (xcb-util-image's own path
             * for this case dereferences a NULL image, so Z pixels are the oracle) */
            xw_image_t *xy = xw_image_get(conn, p, 0, 0, 77, 31, 0x00f0f0, XW_IMAGE_FORMAT_XY_PIXMAP);
            xcb_image_t *z = xcb_image_get(xc, p, 0, 0, 77, 31, ~0u, XCB_IMAGE_FORMAT_Z_PIXMAP);
            ck_assert_ptr_nonnull(xy);
            for (uint32_t y = 0; y < 31; y++)
                for (uint32_t x = 0; x < 77; x++)
                    ck_assert_uint_eq(xw_image_get_pixel(xy, x, y), xcb_image_get_pixel(z, x, y) & 0x00f0f0);
            xw_image_destroy(xy);
            xcb_image_destroy(z);
        }
        xcb_free_pixmap(xc, p);
    }
    /* native(): the same layout decisions and pixels as xcb-util-image's, but for XY
     * images of depth > 1, which xcb-util-image never finds native (it wants the Z
     * format's bits per pixel of them): xwire's must hold the same pixels. */
    long created = 0;
    nlayouts = all_layouts(layouts, sizeof(layouts) / sizeof(layouts[0]), &created);
    int natives = 0, xy_deep = 0;
    for (size_t i = 0; i < nlayouts; i += 3) {
        xw_image_t *a = make_xw(&layouts[i], 19, 4);
        xcb_image_t *b = make_xcb(&layouts[i], 19, 4);
        fill_both(a, b);
        xw_image_t *an = xw_image_native(conn, a, 1);
        int deep_xy = (layouts[i].format != 2 || layouts[i].bpp == 1) && layouts[i].depth > 1;
        xcb_image_t *bn = deep_xy ? NULL : xcb_image_native(xc, b, 1);
        if (deep_xy) {
            if (an)
                for (uint32_t y = 0; y < 4; y++)
                    for (uint32_t x = 0; x < 19; x++)
                        ck_assert_uint_eq(xw_image_get_pixel(an, x, y), xcb_image_get_pixel(b, x, y));
            xy_deep += an != NULL;
        } else {
            ck_assert_msg(!an == !bn, "native of layout %zu", i);
            ck_assert_int_eq(an == a, bn == b);
            ck_assert_int_eq(!xw_image_native(conn, a, 0), !xcb_image_native(xc, b, 0));
        }
        if (an && bn) {
            same_header(an, bn);
            for (uint32_t y = 0; y < 4; y++)
                for (uint32_t x = 0; x < 19; x++)
                    ck_assert_uint_eq(xw_image_get_pixel(an, x, y), xcb_image_get_pixel(bn, x, y));
            natives++;
        }
        if (an != a)
            xw_image_destroy(an);
        if (bn && bn != b)
            xcb_image_destroy(bn);
        xw_image_destroy(a);
        xcb_image_destroy(b);
    }
    ck_assert_int_gt(natives, 0);
    ck_assert_int_gt(xy_deep, 0);
    /* create_native: the same headers for each format and depth */
    for (uint8_t f = 0; f < 3; f++)
        for (uint8_t depth = 1; depth <= 32; depth++) {
            xw_image_t *a = xw_image_create_native(conn, 9, 3, f, depth, NULL, 0, NULL);
            xcb_image_t *b = xcb_image_create_native(xc, 9, 3, f, depth, NULL, 0, NULL);
            ck_assert_int_eq(!a, !b);
            if (a)
                same_header(a, b);
            xw_image_destroy(a);
            if (b)
                xcb_image_destroy(b);
        }
}

START_TEST(get_put_native_own_connection)
{
    check_get_and_put(c);
}
END_TEST

START_TEST(get_put_native_borrowed_connection)
{
    util_on_borrowed(check_get_and_put);
}
END_TEST

/* An image past BIG-REQUESTS' limit goes in strips; read back in bands it is whole. */
START_TEST(put_past_maximum_request_in_strips)
{
    uint32_t max_words = xw_get_maximum_request_length(c);
    ck_assert_uint_gt(max_words, 65535);
    uint16_t w = 2048, h = (uint16_t)((uint64_t)max_words * 4 / (w * 4) + 64);
    xw_image_t *a = xw_image_create_native(c, w, h, XW_IMAGE_FORMAT_Z_PIXMAP, 24, NULL, 0, NULL);
    ck_assert_ptr_nonnull(a);
    ck_assert_uint_gt(a->size, max_words * 4);
    for (uint32_t i = 0; i < a->size / 4; i++)
        ((uint32_t *)a->data)[i] = (i * 2654435761u) & 0xffffff;
    xw_pixmap_t p = xw_generate_id(c);
    xw_create_pixmap(c, 24, p, xw_setup_roots_iterator(xw_get_setup(c)).data->root, w, h);
    xw_gcontext_t gc = xw_generate_id(c);
    xw_create_gc(c, gc, p, 0, NULL);
    xw_void_cookie_t ck = xw_image_put(c, p, gc, a, 0, 0, 0);
    ck_assert_uint_ne(ck.sequence, 0);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
    for (uint16_t y = 0; y < h; y += 256) {
        uint16_t rows = (uint16_t)(h - y < 256 ? h - y : 256);
        xw_image_t *band = xw_image_get(c, p, 0, (int16_t)y, w, rows, ~0u, XW_IMAGE_FORMAT_Z_PIXMAP);
        ck_assert_ptr_nonnull(band);
        ck_assert_msg(!memcmp(band->data, a->data + (size_t)y * a->stride, band->size), "rows %u.. differ", y);
        xw_image_destroy(band);
    }
    printf("image: %u bytes (limit %u) put in strips and read back equal\n", a->size, max_words * 4);
    xw_free_gc(c, gc);
    xw_free_pixmap(c, p);
    xw_image_destroy(a);
}
END_TEST

/* MIT-SHM: put from and get into a segment, beside xcb-util-image's. */
START_TEST(shm_get_and_put)
{
    const xw_query_extension_reply_t *ext = xw_get_extension_data(c, &xw_shm_id);
    if (!ext || !ext->present)
        return;
    uint16_t w = 64, h = 20;
    xw_image_t *a = xw_image_create_native(c, w, h, XW_IMAGE_FORMAT_Z_PIXMAP, 24, NULL, UINT32_MAX, NULL);
    xcb_image_t *b = xcb_image_create_native(xc, w, h, XCB_IMAGE_FORMAT_Z_PIXMAP, 24, NULL, UINT32_MAX, NULL);
    ck_assert_ptr_nonnull(a);
    int id = shmget(IPC_PRIVATE, 2 * a->size, IPC_CREAT | 0600);
    ck_assert_int_ge(id, 0);
    uint8_t *mem = shmat(id, NULL, 0);
    ck_assert_ptr_ne(mem, (void *)-1);
    shmctl(id, IPC_RMID, NULL);
    xw_shm_segment_info_t wi = {xw_generate_id(c), (uint32_t)id, mem};
    xcb_shm_segment_info_t xi = {xcb_generate_id(xc), (uint32_t)id, mem};
    xw_shm_attach(c, wi.shmseg, wi.shmid, 0);
    xcb_shm_attach(xc, xi.shmseg, xi.shmid, 0);
    a->data = mem;
    b->data = mem + a->size;
    xcb_pixmap_t p = pattern_pixmap(24, w, h);
    ck_assert_int_eq(xw_image_shm_get(c, p, a, wi, 0, 0, ~0u), 1);
    ck_assert_int_eq(xcb_image_shm_get(xc, p, b, xi, 0, 0, ~0u), 1);
    ck_assert(!memcmp(a->data, b->data, a->size));
    /* put: a band of it, elsewhere; read back with GetImage */
    for (uint32_t i = 0; i < a->size; i++)
        a->data[i] = (uint8_t)(i * 7);
    xcb_gcontext_t gc = xcb_generate_id(xc);
    xcb_create_gc(xc, gc, p, 0, NULL);
    util_xcb_sync(xc);
    ck_assert_ptr_eq(xw_image_shm_put(c, p, gc, a, wi, 3, 2, 0, 0, 40, 10, 0), a);
    ck_assert_ptr_null(xw_request_check(c, xw_no_operation_checked(c)));
    xw_generic_event_t *ev = xw_poll_for_event(c);
    if (ev)
        ck_abort_msg("event or error %u (code %u) after ShmPutImage", ev->response_type, ((uint8_t *)ev)[1]);
    xcb_image_t *back = xcb_image_get(xc, p, 0, 0, 40, 10, ~0u, XCB_IMAGE_FORMAT_Z_PIXMAP);
    for (uint32_t y = 0; y < 10; y++)
        for (uint32_t x = 0; x < 40; x++)
            ck_assert_uint_eq(xcb_image_get_pixel(back, x, y) & 0xffffff,
                              xw_image_get_pixel(a, x + 3, y + 2) & 0xffffff);
    /* a bad drawable: 0 */
    ck_assert_int_eq(xw_image_shm_get(c, 0x1234567, a, wi, 0, 0, ~0u), 0);
    xw_shm_segment_info_t none = {0, 0, NULL};
    ck_assert_int_eq(xw_image_shm_get(c, p, a, none, 0, 0, ~0u), 0);
    ck_assert_ptr_null(xw_image_shm_put(c, p, gc, a, none, 0, 0, 0, 0, 1, 1, 0));
    xcb_image_destroy(back);
    xw_shm_detach(c, wi.shmseg);
    xcb_shm_detach(xc, xi.shmseg);
    xcb_free_gc(xc, gc);
    xcb_free_pixmap(xc, p);
    util_xcb_sync(xc);
    ck_assert_ptr_null(xw_request_check(c, xw_no_operation_checked(c)));
    shmdt(mem);
    xw_image_destroy(a);
    xcb_image_destroy(b);
}
END_TEST

START_TEST(no_allocation_per_put)
{
    xw_image_t *a = xw_image_create_native(c, 100, 50, XW_IMAGE_FORMAT_Z_PIXMAP, 24, NULL, 0, NULL);
    xw_image_t *xy = xw_image_create_native(c, 100, 50, XW_IMAGE_FORMAT_XY_PIXMAP, 24, NULL, 0, NULL);
    xcb_image_t *b = xcb_image_create_native(xc, 100, 50, XCB_IMAGE_FORMAT_Z_PIXMAP, 24, NULL, 0, NULL);
    memset(a->data, 1, a->size), memset(xy->data, 2, xy->size), memset(b->data, 3, b->size);
    xw_pixmap_t p = xw_generate_id(c);
    xw_create_pixmap(c, 24, p, xw_setup_roots_iterator(xw_get_setup(c)).data->root, 100, 50);
    xw_gcontext_t gc = xw_generate_id(c);
    xw_create_gc(c, gc, p, 0, NULL);
    for (int i = 0; i < 10; i++)
        xw_image_put(c, p, gc, a, 0, 0, 0), xw_image_put(c, p, gc, xy, 0, 0, 0);
    xw_flush(c);
    unsigned long t = alloc_count_begin();
    for (int i = 0; i < 100; i++)
        xw_image_put(c, p, gc, a, 0, 0, 0), xw_image_put(c, p, gc, xy, 0, 0, 0);
    xw_flush(c);
    unsigned long ours = alloc_count_end(t);
    xcb_pixmap_t xp = pattern_pixmap(24, 100, 50);
    xcb_gcontext_t xgc = xcb_generate_id(xc);
    xcb_create_gc(xc, xgc, xp, 0, NULL);
    for (int i = 0; i < 10; i++)
        xcb_image_put(xc, xp, xgc, b, 0, 0, 0);
    xcb_flush(xc);
    t = alloc_count_begin();
    for (int i = 0; i < 100; i++)
        xcb_image_put(xc, xp, xgc, b, 0, 0, 0);
    xcb_flush(xc);
    unsigned long theirs = alloc_count_end(t);
    printf("image allocations: 200 xw_image_put %lu, 100 xcb_image_put %lu\n", ours, theirs);
    if (util_counting_works())
        ck_assert_uint_eq(ours, 0);
    ck_assert_ptr_null(xw_request_check(c, xw_no_operation_checked(c)));
    xw_image_destroy(a), xw_image_destroy(xy), xcb_image_destroy(b);
}
END_TEST

int main(void)
{
    if (xvfb_missing("util_image"))
        return 77;
    Suite *s = xwtest_suite("util_image");
    TCase *tc = xvfb_tcase(
        s,
        &(struct xvfb_suite){.name = "util_image", .timeout = 600, .conn = &c, .setup = setup, .teardown = teardown});
    tcase_add_test(tc, same_struct_layout);
    tcase_add_test(tc, same_headers_and_pixels);
    tcase_add_test(tc, same_pixels_after_convert_and_subimage);
    tcase_add_test(tc, same_inline_helpers);
    tcase_add_test(tc, same_put_bytes_on_fake_server);
    tcase_add_test(tc, get_put_native_own_connection);
    tcase_add_test(tc, get_put_native_borrowed_connection);
    tcase_add_test(tc, put_past_maximum_request_in_strips);
    tcase_add_test(tc, shm_get_and_put);
    tcase_add_test(tc, no_allocation_per_put);
    return xwtest_run(s);
}
