/* SPDX-License-Identifier: MIT */
/* image.c — xcb-util-image on xwire: image headers, pixels, conversion, Get/PutImage, MIT-SHM. */
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include <xw/xw_bitops.h>
#include <xw/xw_image.h>
#include <xw/xwext.h>

/* A Z image of 1 bit per pixel is stored as an XY one; everything else keeps its
 * format's layout (XY bitmap and XY pixmap share one). */
static int is_xy(xw_image_format_t format, uint8_t bpp)
{
    return format != XW_IMAGE_FORMAT_Z_PIXMAP || bpp == 1;
}

static int is_unit(uint8_t n)
{
    return n == 8 || n == 16 || n == 32;
}

/* The layouts xcb-util-image takes, less one: an XY row padded to less than its unit
 * whose byte and bit orders differ has no whole last unit to reverse the bytes of
 * (xcb-util-image writes past the row there). */
static int layout_valid(uint8_t depth, uint8_t bpp, uint8_t unit, xw_image_format_t format, uint8_t xpad,
                        xw_image_order_t byte_order, xw_image_order_t bit_order)
{
    if (depth > bpp || (unsigned)format > XW_IMAGE_FORMAT_Z_PIXMAP)
        return 0;
    if (is_xy(format, bpp))
        return is_unit(unit) && is_unit(xpad) && xpad >= bpp && (xpad >= unit || byte_order == bit_order);
    switch (bpp) {
    case 4:
        return unit == 8 && is_unit(xpad);
    case 8:
    case 16:
    case 24:
    case 32:
        return unit == bpp && is_unit(xpad);
    }
    return 0;
}

static int image_valid(const xw_image_t *im)
{
    return im &&
           layout_valid(im->depth, im->bpp, im->unit, im->format, im->scanline_pad, im->byte_order, im->bit_order);
}

/* Planes an XY image stores: depth of them (xcb-util-image walks bpp, which is the
 * same for every image it makes; depth keeps a hand-made bpp > depth in bounds). */
static uint32_t xy_planes(const xw_image_t *im)
{
    return im->depth;
}

/* Sets stride; returns the size in 64 bits (past 4 GiB for the largest headers). */
static uint64_t layout_size(xw_image_t *im)
{
    uint64_t bits = is_xy(im->format, im->bpp) ? im->width : (uint64_t)im->width * im->bpp;
    uint64_t pad = im->scanline_pad ? im->scanline_pad : 8;
    uint64_t stride = (bits + pad - 1) / pad * pad / 8;
    im->stride = (uint32_t)stride;
    return stride * im->height * (is_xy(im->format, im->bpp) ? xy_planes(im) : 1);
}

XW_EXPORT void xw_image_annotate(xw_image_t *im)
{
    uint64_t size = layout_size(im);
    im->size = size > UINT32_MAX ? 0 : (uint32_t)size;
}

static uint8_t default_unit(xw_image_format_t format, uint8_t bpp)
{
    if (is_xy(format, bpp))
        return 32;
    return bpp < 8 ? 8 : bpp;
}

XW_EXPORT xw_image_t *xw_image_create(uint16_t width, uint16_t height, xw_image_format_t format, uint8_t xpad,
                                      uint8_t depth, uint8_t bpp, uint8_t unit, xw_image_order_t byte_order,
                                      xw_image_order_t bit_order, void *base, uint32_t bytes, uint8_t *data)
{
    if (!unit)
        unit = default_unit(format, bpp);
    if (!layout_valid(depth, bpp, unit, format, xpad, byte_order, bit_order))
        return NULL;
    xw_image_t *im = malloc(sizeof(*im));
    if (!im)
        return NULL;
    *im = (xw_image_t){.width = width,
                       .height = height,
                       .format = format,
                       .scanline_pad = xpad,
                       .depth = depth,
                       .bpp = bpp,
                       .unit = unit,
                       .plane_mask = xw_mask(depth),
                       .byte_order = byte_order,
                       .bit_order = bit_order};
    uint64_t size = layout_size(im);
    if (size > UINT32_MAX)
        goto fail;
    im->size = (uint32_t)size;
    if (!base && !data && bytes == UINT32_MAX)
        return im; /* the caller provides storage */
    if (!base && data && bytes == 0)
        bytes = im->size;
    im->base = base;
    im->data = data ? data : (uint8_t *)base;
    if (!im->data) {
        bytes = im->size;
        im->base = im->data = malloc(bytes ? bytes : 1);
    }
    if (im->data && bytes >= im->size)
        return im;
    if (im->base && !base)
        free(im->base);
fail:
    free(im);
    return NULL;
}

XW_EXPORT void xw_image_destroy(xw_image_t *im)
{
    if (!im)
        return;
    free(im->base);
    free(im);
}

static const xw_format_t *format_for_depth(const xw_setup_t *setup, uint8_t depth)
{
    const xw_format_t *f = xw_setup_pixmap_formats(setup);
    for (int i = 0, n = xw_setup_pixmap_formats_length(setup); i < n; i++)
        if (f[i].depth == depth)
            return &f[i];
    return NULL;
}

XW_EXPORT xw_image_t *xw_image_create_native(xw_connection_t *c, uint16_t width, uint16_t height,
                                             xw_image_format_t format, uint8_t depth, void *base, uint32_t bytes,
                                             uint8_t *data)
{
    const xw_setup_t *s = c ? xw_get_setup(c) : NULL;
    if (!s || (format == XW_IMAGE_FORMAT_XY_BITMAP && depth != 1))
        return NULL;
    if (format != XW_IMAGE_FORMAT_Z_PIXMAP || depth == 1) {
        if (depth > 1 && !format_for_depth(s, depth))
            return NULL;
        return xw_image_create(width, height, format, s->bitmap_format_scanline_pad, depth, depth,
                               s->bitmap_format_scanline_unit, s->image_byte_order, s->bitmap_format_bit_order, base,
                               bytes, data);
    }
    const xw_format_t *f = format_for_depth(s, depth);
    if (!f)
        return NULL;
    return xw_image_create(width, height, format, f->scanline_pad, f->depth, f->bits_per_pixel, 0, s->image_byte_order,
                           XW_IMAGE_ORDER_MSB_FIRST, base, bytes, data);
}

/* ---- pixels ---- */

/* Where pixel x of an XY row lives: the byte within the row and the bit within it.
 * Bits are numbered within a unit by the bit order; the unit's bytes are stored in
 * the byte order, so when the two orders differ the byte index within a unit is
 * reversed. */
static uint32_t xy_byte(const xw_image_t *im, uint32_t x)
{
    uint32_t b = x >> 3;
    if (im->byte_order == im->bit_order)
        return b;
    return b ^ (im->unit == 32 ? 3u : im->unit == 16 ? 1u : 0u);
}

static uint8_t xy_bit(const xw_image_t *im, uint32_t x)
{
    return (uint8_t)(im->bit_order == XW_IMAGE_ORDER_MSB_FIRST ? 7 - (x & 7) : x & 7);
}

/* The bytes of a Z pixel of 8 to 32 bits, in byte order. */
static void z_store(uint8_t *p, unsigned nbytes, int msb, uint32_t pixel)
{
    for (unsigned i = 0; i < nbytes; i++)
        p[msb ? nbytes - 1 - i : i] = (uint8_t)(pixel >> (8 * i));
}

static uint32_t z_load(const uint8_t *p, unsigned nbytes, int msb)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < nbytes; i++)
        v |= (uint32_t)p[msb ? nbytes - 1 - i : i] << (8 * i);
    return v;
}

/* Nibble of a 4-bit Z pixel: the high one for even x in MSB-first images, odd x in LSB-first. */
static int high_nibble(const xw_image_t *im, uint32_t x)
{
    return (int)(x & 1) == (im->byte_order == XW_IMAGE_ORDER_MSB_FIRST);
}

XW_EXPORT void xw_image_put_pixel(xw_image_t *im, uint32_t x, uint32_t y, uint32_t pixel)
{
    if (!im || x >= im->width || y >= im->height)
        return;
    uint8_t *row = im->data + (size_t)y * im->stride;
    if (is_xy(im->format, im->bpp)) {
        uint32_t byte = xy_byte(im, x), planes = xy_planes(im);
        uint8_t bit = xy_bit(im, x);
        size_t plane_size = (size_t)im->stride * im->height;
        for (uint32_t i = 0; i < planes; i++) { /* most significant plane first */
            uint32_t p = planes - 1 - i;
            if (im->plane_mask >> p & 1) {
                uint8_t *b = row + i * plane_size + byte;
                *b = (uint8_t)((*b & ~(1u << bit)) | ((pixel >> p & 1u) << bit));
            }
        }
        return;
    }
    if (im->bpp == 4) {
        int shift = high_nibble(im, x) ? 4 : 0;
        row[x >> 1] = (uint8_t)((row[x >> 1] & ~(0xfu << shift)) | ((pixel & 0xfu) << shift));
        return;
    }
    unsigned n = im->bpp / 8u;
    z_store(row + (size_t)x * n, n, im->byte_order == XW_IMAGE_ORDER_MSB_FIRST, pixel);
}

XW_EXPORT uint32_t xw_image_get_pixel(xw_image_t *im, uint32_t x, uint32_t y)
{
    if (!im || x >= im->width || y >= im->height)
        return 0;
    const uint8_t *row = im->data + (size_t)y * im->stride;
    if (is_xy(im->format, im->bpp)) {
        uint32_t byte = xy_byte(im, x), planes = xy_planes(im), pixel = 0;
        uint8_t bit = xy_bit(im, x);
        size_t plane_size = (size_t)im->stride * im->height;
        for (uint32_t i = 0; i < planes; i++) {
            uint32_t p = planes - 1 - i;
            pixel <<= 1;
            if (im->plane_mask >> p & 1)
                pixel |= (uint32_t)(row[i * plane_size + byte] >> bit) & 1u;
        }
        return pixel;
    }
    if (im->bpp == 4)
        return high_nibble(im, x) ? row[x >> 1] >> 4 : row[x >> 1] & 0xfu;
    unsigned n = im->bpp / 8u;
    return z_load(row + (size_t)x * n, n, im->byte_order == XW_IMAGE_ORDER_MSB_FIRST);
}

static int same_layout(const xw_image_t *a, const xw_image_t *b)
{
    int xy = is_xy(a->format, a->bpp);
    return xy == is_xy(b->format, b->bpp) && a->bpp == b->bpp && a->depth == b->depth && a->unit == b->unit &&
           a->scanline_pad == b->scanline_pad && a->byte_order == b->byte_order &&
           (!xy || a->bit_order == b->bit_order);
}

/* How the bytes of a row are permuted relative to the pixels' own order: XY, the
 * bytes of a unit reversed when byte and bit orders differ; Z, the bytes of a 16- or
 * 32-bit pixel reversed in MSB-first images (24-bit ones are reversed in groups of
 * three by the caller, which an XOR cannot do). */
static uint32_t byte_swizzle(const xw_image_t *im)
{
    if (is_xy(im->format, im->bpp))
        return im->byte_order == im->bit_order ? 0 : im->unit / 8u - 1u;
    return im->byte_order == XW_IMAGE_ORDER_MSB_FIRST && (im->bpp == 16 || im->bpp == 32) ? im->bpp / 8u - 1u : 0;
}

static uint8_t reverse8(uint8_t b)
{
    return (uint8_t)xw_bit_reverse(b, 8);
}

/* Converts between two layouts with the same bpp, depth and XY-ness byte by byte:
 * each destination byte comes from the source byte its swizzle names, its bits
 * reversed (XY bit orders apart) or nibbles swapped (4-bit Z byte orders apart);
 * bytes past the source row (padding) become 0. A row's pad bytes go along. */
static void convert_bytes(const xw_image_t *src, xw_image_t *dst)
{
    int xy = is_xy(src->format, src->bpp);
    uint32_t swz = byte_swizzle(src) ^ byte_swizzle(dst);
    int bits = xy && src->bit_order != dst->bit_order;
    int nibbles = !xy && src->bpp == 4 && src->byte_order != dst->byte_order;
    int triples = !xy && src->bpp == 24 && src->byte_order != dst->byte_order;
    uint32_t rows = src->height * (xy ? xy_planes(src) : 1);
    for (uint32_t r = 0; r < rows; r++) {
        const uint8_t *in = src->data + (size_t)r * src->stride;
        uint8_t *out = dst->data + (size_t)r * dst->stride;
        for (uint32_t d = 0; d < dst->stride; d++) {
            uint32_t sidx = triples ? d / 3 * 3 + 2 - d % 3 : d ^ swz;
            uint8_t b = sidx < src->stride && (!triples || d / 3 * 3 + 2 < src->stride) ? in[sidx] : 0;
            if (bits)
                b = reverse8(b);
            if (nibbles)
                b = (uint8_t)(b << 4 | b >> 4);
            out[d] = b;
        }
    }
}

XW_EXPORT xw_image_t *xw_image_convert(xw_image_t *src, xw_image_t *dst)
{
    if (!image_valid(src) || !image_valid(dst) || src->width != dst->width || src->height != dst->height)
        return NULL;
    if (same_layout(src, dst)) {
        memcpy(dst->data, src->data, src->size < dst->size ? src->size : dst->size);
        return dst;
    }
    if (is_xy(src->format, src->bpp) == is_xy(dst->format, dst->bpp) && src->bpp == dst->bpp &&
        src->depth == dst->depth && src->plane_mask == xw_mask(src->depth) && dst->plane_mask == xw_mask(dst->depth)) {
        convert_bytes(src, dst);
        return dst;
    }
    for (uint32_t y = 0; y < src->height; y++)
        for (uint32_t x = 0; x < src->width; x++)
            xw_image_put_pixel(dst, x, y, xw_image_get_pixel(src, x, y));
    return dst;
}

XW_EXPORT xw_image_t *xw_image_subimage(xw_image_t *im, uint32_t x, uint32_t y, uint32_t width, uint32_t height,
                                        void *base, uint32_t bytes, uint8_t *data)
{
    if (!im || (uint64_t)x + width > im->width || (uint64_t)y + height > im->height)
        return NULL;
    xw_image_t *r = xw_image_create((uint16_t)width, (uint16_t)height, im->format, im->scanline_pad, im->depth, im->bpp,
                                    im->unit, im->byte_order, im->bit_order, base, bytes, data);
    if (!r)
        return NULL;
    r->plane_mask = im->plane_mask;
    for (uint32_t j = 0; j < height; j++)
        for (uint32_t i = 0; i < width; i++)
            xw_image_put_pixel(r, i, j, xw_image_get_pixel(im, x + i, y + j));
    return r;
}

XW_EXPORT xw_image_t *xw_image_native(xw_connection_t *c, xw_image_t *im, int convert)
{
    const xw_setup_t *s = c && im ? xw_get_setup(c) : NULL;
    if (!s)
        return NULL;
    int xy = is_xy(im->format, im->bpp);
    const xw_format_t *f = NULL;
    if ((im->depth > 1 || !xy) && !(f = format_for_depth(s, im->depth)))
        return NULL; /* no depth conversion */
    /* The server's layout: XY images use the bitmap unit, pad and bit order with one
     * bit per plane (the pixmap format's bits per pixel is a Z matter: xcb-util-image
     * applies it to XY images too, so it never finds an XY image of depth > 1 native,
     * and converts it into planes its size does not hold); Z images use the pixmap
     * format for the depth. */
    xw_image_t want = {.width = im->width,
                       .height = im->height,
                       .format = im->format,
                       .depth = im->depth,
                       .byte_order = s->image_byte_order};
    if (xy) {
        want.bpp = im->bpp;
        want.unit = s->bitmap_format_scanline_unit;
        want.scanline_pad = s->bitmap_format_scanline_pad;
        want.bit_order = s->bitmap_format_bit_order;
    } else {
        want.bpp = f->bits_per_pixel;
        want.unit = default_unit(im->format, want.bpp);
        want.scanline_pad = f->scanline_pad;
        want.bit_order = XW_IMAGE_ORDER_MSB_FIRST;
    }
    if (same_layout(im, &want))
        return im;
    if (!convert)
        return NULL;
    xw_image_t *n = xw_image_create(im->width, im->height, im->format, want.scanline_pad, want.depth, want.bpp,
                                    want.unit, want.byte_order, want.bit_order, NULL, 0, NULL);
    if (!n)
        return NULL;
    memset(n->data, 0, n->size); /* pixel-by-pixel conversion leaves the pad bits alone */
    if (!xw_image_convert(im, n)) {
        xw_image_destroy(n);
        return NULL;
    }
    return n;
}

/* ---- PutImage, in strips past the maximum request length ---- */

#define MAX_PLANES 32

/* One PutImage of rows [row, row + rows) of every plane: the header and one iovec
 * per plane (an XY pixmap's planes are apart in memory), then the pad. */
static xw_void_cookie_t put_rows(xw_connection_t *c, xw_drawable_t draw, xw_gcontext_t gc, const xw_image_t *im,
                                 int16_t x, int16_t y, uint8_t left_pad, uint32_t row, uint32_t rows, uint32_t planes)
{
    static const xw_protocol_request_t req = {.count = 2 + MAX_PLANES, .opcode = XW_PUT_IMAGE, .isvoid = 1};
    struct iovec parts[2 + 1 + MAX_PLANES + 1];
    xw_put_image_request_t head = {.format = (uint8_t)im->format,
                                   .drawable = draw,
                                   .gc = gc,
                                   .width = im->width,
                                   .height = (uint16_t)rows,
                                   .dst_x = x,
                                   .dst_y = (int16_t)(y + (int32_t)row),
                                   .left_pad = left_pad,
                                   .depth = im->depth};
    size_t plane_size = (size_t)im->stride * im->height, len = (size_t)im->stride * rows, total = sizeof(head);
    parts[2] = (struct iovec){&head, sizeof(head)};
    for (uint32_t p = 0; p < planes; p++) {
        parts[3 + p] = (struct iovec){im->data + p * plane_size + (size_t)row * im->stride, len};
        total += len;
    }
    parts[3 + planes] = (struct iovec){NULL, -total & 3};
    for (uint32_t p = planes + 1; p <= MAX_PLANES; p++)
        parts[3 + p] = (struct iovec){NULL, 0};
    total += -total & 3;
    xw_void_cookie_t ck = {(unsigned)xw_send(c, 0, parts + 2, &req, total, 0, NULL)};
    return ck;
}

/* A PutImage of data bytes in 4-byte words. */
static uint64_t put_words(uint64_t data)
{
    return (sizeof(xw_put_image_request_t) + data + 3) / 4;
}

XW_EXPORT xw_void_cookie_t xw_image_put(xw_connection_t *c, xw_drawable_t draw, xw_gcontext_t gc, xw_image_t *im,
                                        int16_t x, int16_t y, uint8_t left_pad)
{
    xw_void_cookie_t ck = {0};
    if (!c || !im || !im->data)
        return ck;
    /* An XY pixmap sends every plane; the others one. Only the planes the size
     * covers (a hand-made header may claim more). */
    uint32_t planes = im->format == XW_IMAGE_FORMAT_XY_PIXMAP ? im->depth : 1;
    if (planes > MAX_PLANES || (uint64_t)im->stride * im->height * planes > im->size)
        return ck;
    uint64_t row_bytes = (uint64_t)im->stride * planes, whole = put_words(row_bytes * im->height);
    /* Within the setup's limit: one request, and no BIG-REQUESTS query (libxcb
     * makes none either, so the bytes stay the same). */
    uint64_t plain = xw_get_setup(c)->maximum_request_length;
    if (whole <= plain || !row_bytes || !im->height)
        return put_rows(c, draw, gc, im, x, y, left_pad, 0, im->height, planes);
    /* Past it: BIG-REQUESTS' limit counts one more word, the long length. */
    uint64_t big = xw_get_maximum_request_length(c);
    uint64_t limit = big > plain + 1 ? big - 1 : plain;
    if (whole <= limit)
        return put_rows(c, draw, gc, im, x, y, left_pad, 0, im->height, planes);
    /* Strips of as many whole rows as the limit holds (the pad's 3 bytes kept back). */
    uint64_t room = limit * 4 > sizeof(xw_put_image_request_t) + 3 ? limit * 4 - sizeof(xw_put_image_request_t) - 3 : 0;
    uint32_t per = room / row_bytes > im->height ? im->height : (uint32_t)(room / row_bytes);
    if (!per)
        return ck;
    for (uint32_t row = 0; row < im->height; row += per) {
        uint32_t rows = im->height - row < per ? im->height - row : per;
        ck = put_rows(c, draw, gc, im, x, y, left_pad, row, rows, planes);
        if (!ck.sequence)
            break;
    }
    return ck;
}

/* ---- GetImage ---- */

/* An XY pixmap read with some planes left out: the reply holds only the planes in
 * plane_mask, most significant first; spread them over a full-depth image. */
static xw_image_t *spread_planes(xw_connection_t *c, xw_get_image_reply_t *rep, uint16_t width, uint16_t height,
                                 uint32_t plane_mask)
{
    xw_image_t *im = xw_image_create_native(c, width, height, XW_IMAGE_FORMAT_XY_PIXMAP, rep->depth, NULL, 0, NULL);
    if (!im)
        return NULL;
    size_t plane_size = (size_t)im->stride * height, have = (size_t)xw_get_image_data_length(rep);
    const uint8_t *src = xw_get_image_data(rep);
    for (uint32_t i = 0; i < rep->depth; i++) {
        uint32_t p = rep->depth - 1u - i;
        uint8_t *dst = im->data + i * plane_size;
        if (plane_mask >> p & 1) {
            if (have < plane_size) {
                xw_image_destroy(im);
                return NULL;
            }
            memcpy(dst, src, plane_size);
            src += plane_size;
            have -= plane_size;
        } else {
            memset(dst, 0, plane_size);
        }
    }
    im->plane_mask = plane_mask;
    return im;
}

XW_EXPORT xw_image_t *xw_image_get(xw_connection_t *c, xw_drawable_t draw, int16_t x, int16_t y, uint16_t width,
                                   uint16_t height, uint32_t plane_mask, xw_image_format_t format)
{
    xw_generic_error_t *err = NULL;
    xw_get_image_reply_t *rep =
        xw_get_image_reply(c, xw_get_image(c, (uint8_t)format, draw, x, y, width, height, plane_mask), &err);
    free(err);
    if (!rep)
        return NULL;
    xw_image_t *im = NULL;
    if (format == XW_IMAGE_FORMAT_XY_PIXMAP && (plane_mask & xw_mask(rep->depth)) != xw_mask(rep->depth)) {
        im = spread_planes(c, rep, width, height, plane_mask & xw_mask(rep->depth));
        free(rep);
        return im;
    }
    uint32_t bytes = (uint32_t)xw_get_image_data_length(rep);
    /* the reply is the image's storage: destroy frees it (a short reply fails create) */
    im = xw_image_create_native(c, width, height, format, rep->depth, rep, bytes, xw_get_image_data(rep));
    if (!im)
        free(rep);
    return im;
}

/* ---- MIT-SHM ---- */

XW_EXPORT xw_image_t *xw_image_shm_put(xw_connection_t *c, xw_drawable_t draw, xw_gcontext_t gc, xw_image_t *im,
                                       xw_shm_segment_info_t shminfo, int16_t src_x, int16_t src_y, int16_t dest_x,
                                       int16_t dest_y, uint16_t src_width, uint16_t src_height, uint8_t send_event)
{
    if (!xw_image_native(c, im, 0) || !shminfo.shmaddr)
        return NULL;
    xw_shm_put_image(c, draw, gc, im->width, im->height, (uint16_t)src_x, (uint16_t)src_y, src_width, src_height,
                     dest_x, dest_y, im->depth, (uint8_t)im->format, send_event, shminfo.shmseg,
                     (uint32_t)(im->data - shminfo.shmaddr));
    return im;
}

XW_EXPORT int xw_image_shm_get(xw_connection_t *c, xw_drawable_t draw, xw_image_t *im, xw_shm_segment_info_t shminfo,
                               int16_t x, int16_t y, uint32_t plane_mask)
{
    if (!im || !shminfo.shmaddr)
        return 0;
    xw_shm_get_image_cookie_t ck =
        xw_shm_get_image(c, draw, x, y, im->width, im->height, plane_mask, (uint8_t)im->format, shminfo.shmseg,
                         (uint32_t)(im->data - shminfo.shmaddr));
    uint32_t rep[8]; /* the whole 32-byte reply, though only its head is declared */
    xw_generic_error_t err;
    size_t len;
    return xw_wait_for_reply_into(c, ck.sequence, rep, sizeof(rep), &len, &err, -1) == 1;
}

/* ---- bitmaps ---- */

XW_EXPORT xw_image_t *xw_image_create_from_bitmap_data(uint8_t *data, uint32_t width, uint32_t height)
{
    return xw_image_create((uint16_t)width, (uint16_t)height, XW_IMAGE_FORMAT_XY_PIXMAP, 8, 1, 1, 8,
                           XW_IMAGE_ORDER_LSB_FIRST, XW_IMAGE_ORDER_LSB_FIRST, NULL, 0, data);
}

XW_EXPORT xw_pixmap_t xw_create_pixmap_from_bitmap_data(xw_connection_t *c, xw_drawable_t d, uint8_t *data,
                                                        uint32_t width, uint32_t height, uint32_t depth, uint32_t fg,
                                                        uint32_t bg, xw_gcontext_t *gcp)
{
    xw_image_t *im = xw_image_create_from_bitmap_data(data, width, height);
    if (!im)
        return 0;
    if (depth > 1) /* one plane drawn in fg and bg */
        im->format = XW_IMAGE_FORMAT_XY_BITMAP;
    xw_image_t *native = xw_image_native(c, im, 1);
    if (!native) {
        xw_image_destroy(im);
        return 0;
    }
    xw_pixmap_t pix = xw_generate_id(c);
    xw_create_pixmap(c, (uint8_t)depth, pix, d, (uint16_t)width, (uint16_t)height);
    xw_gcontext_t gc = xw_generate_id(c);
    uint32_t values[2] = {fg, bg};
    xw_create_gc(c, gc, pix, XW_GC_FOREGROUND | XW_GC_BACKGROUND, values);
    xw_image_put(c, pix, gc, native, 0, 0, 0);
    if (native != im)
        xw_image_destroy(native);
    xw_image_destroy(im);
    if (gcp)
        *gcp = gc;
    else
        xw_free_gc(c, gc);
    return pix;
}
