/* SPDX-License-Identifier: MIT */
#ifndef XW_IMAGE_H
#define XW_IMAGE_H
/* xw_image.h — xcb-util-image (<xcb/xcb_image.h>) on xwire: client-side images in
 * the three wire formats (XY bitmap, XY pixmap, Z pixmap), any scanline unit, pad,
 * byte and bit order; pixels, conversion, sub-images, and their transfer with
 * GetImage / PutImage and MIT-SHM. Part of libxwire-util.
 *
 * Layout: an XY image is `depth` planes, most significant first, each `height` rows of
 * `stride` bytes, a pixel's bit at the position the unit, byte order and bit order
 * give; a Z image is `height` rows of `stride` bytes, `bpp` bits per pixel in byte
 * order (for 4 bits, the byte order gives the nibble order). A Z image of 1 bit per
 * pixel is laid out as an XY one. Images are not thread-safe; share them read-only. */
#include <stdint.h>
#include <xw/xw.h>
#include <xw/shm.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct xw_image_t xw_image_t;

/** An image header, layout-identical to xcb_image_t. */
struct xw_image_t {
    uint16_t width;              /**< pixels */
    uint16_t height;             /**< rows */
    xw_image_format_t format;    /**< XY bitmap, XY pixmap or Z pixmap */
    uint8_t scanline_pad;        /**< rows are padded to this many bits: 8, 16 or 32 */
    uint8_t depth;               /**< significant bits per pixel */
    uint8_t bpp;                 /**< stored bits per pixel (>= depth) */
    uint8_t unit;                /**< scanline unit in bits (XY formats and bpp 1) */
    uint32_t plane_mask;         /**< planes xw_image_get_pixel / _put_pixel touch (XY) */
    xw_image_order_t byte_order; /**< of Z pixels' bytes, of XY units' bytes */
    xw_image_order_t bit_order;  /**< of XY units' bits */
    uint32_t stride;             /**< bytes per row (per plane for XY) */
    uint32_t size;               /**< bytes of data */
    void *base;                  /**< freed by xw_image_destroy when not NULL */
    uint8_t *data;               /**< the pixels */
};

/** An attached MIT-SHM segment, layout-identical to xcb_shm_segment_info_t. */
typedef struct xw_shm_segment_info_t {
    xw_shm_seg_t shmseg; /**< the server's id for the segment */
    uint32_t shmid;      /**< shmget's id */
    uint8_t *shmaddr;    /**< where it is attached in this process */
} xw_shm_segment_info_t;

/** Sets stride and size from width, height, format, scanline_pad, depth and bpp.
 * A size past 4 GiB is set to 0 (such an image cannot be created). */
XW_EXPORT void xw_image_annotate(xw_image_t *image);

/** A new image header. unit 0 picks the default (32 for XY and bpp 1, 8 for bpp 4,
 * else bpp). Storage: `data` given: used as is, it must hold `bytes` (0: the size)
 * >= size bytes, not freed; `base` given without data: used as data, freed by destroy;
 * neither: malloc'd, freed by destroy; base NULL, data NULL and bytes ~0: no storage
 * (the caller sets base and data). NULL when the format is invalid (depth > bpp; XY:
 * unit or pad not 8, 16, 32 or pad < bpp; Z: bpp not 4, 8, 16, 24, 32 or unit not
 * bpp (8 for 4)), the storage is too small, or memory runs out. Caller destroys. */
XW_EXPORT xw_image_t *xw_image_create(uint16_t width, uint16_t height, xw_image_format_t format, uint8_t xpad,
                                      uint8_t depth, uint8_t bpp, uint8_t unit, xw_image_order_t byte_order,
                                      xw_image_order_t bit_order, void *base, uint32_t bytes, uint8_t *data);

/** An image in the server's own layout for depth and format (its pixmap format, byte
 * and bit order, unit and pad), storage as xw_image_create. NULL when the server has
 * no pixmap format for depth, or an XY bitmap's depth is not 1. */
XW_EXPORT xw_image_t *xw_image_create_native(xw_connection_t *c, uint16_t width, uint16_t height,
                                             xw_image_format_t format, uint8_t depth, void *base, uint32_t bytes,
                                             uint8_t *data);

/** Frees image and, when image->base is set, its storage. NULL is ignored. */
XW_EXPORT void xw_image_destroy(xw_image_t *image);

/** GetImage of the rectangle as a native image whose storage is the reply (freed by
 * xw_image_destroy). For an XY pixmap with some planes left out of plane_mask, the
 * missing planes are zero in a full-depth image. NULL on an X error, a reply shorter
 * than the image, or out of memory. Waits for the reply. */
XW_EXPORT xw_image_t *xw_image_get(xw_connection_t *c, xw_drawable_t draw, int16_t x, int16_t y, uint16_t width,
                                   uint16_t height, uint32_t plane_mask, xw_image_format_t format);

/** PutImage of the whole image at (x, y) — the request xcb_image_put sends. An image
 * longer than the server's maximum request goes as several PutImage requests of
 * whole rows, top to bottom (libxcb would close the connection). Returns the last
 * request's cookie; sequence 0 when even one row is too long or the connection has
 * failed. Allocates nothing (after the first call's maximum-length query). */
XW_EXPORT xw_void_cookie_t xw_image_put(xw_connection_t *c, xw_drawable_t draw, xw_gcontext_t gc, xw_image_t *image,
                                        int16_t x, int16_t y, uint8_t left_pad);

/** image itself when it is in the server's native layout; otherwise, when convert
 * is not 0, a new native copy (caller destroys it, and image stays the caller's);
 * NULL when convert is 0 or the server has no format for the depth. */
XW_EXPORT xw_image_t *xw_image_native(xw_connection_t *c, xw_image_t *image, int convert);

/** Stores pixel at (x, y); outside the image, nothing. XY images store the planes
 * plane_mask selects. */
XW_EXPORT void xw_image_put_pixel(xw_image_t *image, uint32_t x, uint32_t y, uint32_t pixel);

/** The pixel at (x, y) (XY: the planes plane_mask selects; others read 0); 0
 * outside the image. */
XW_EXPORT uint32_t xw_image_get_pixel(xw_image_t *image, uint32_t x, uint32_t y);

/** Copies src's pixels into dst, converting format, order, unit and pad. Returns
 * dst, or NULL when the sizes differ or either image's format is invalid. */
XW_EXPORT xw_image_t *xw_image_convert(xw_image_t *src, xw_image_t *dst);

/** A new image of image's layout holding the width x height rectangle at (x, y),
 * storage as xw_image_create. NULL when the rectangle leaves the image. */
XW_EXPORT xw_image_t *xw_image_subimage(xw_image_t *image, uint32_t x, uint32_t y, uint32_t width, uint32_t height,
                                        void *base, uint32_t bytes, uint8_t *data);

/** MIT-SHM PutImage of the src rectangle of image, whose data lies in the segment,
 * to (dest_x, dest_y). Returns image, or NULL when image is not native or shminfo
 * has no address. Does not wait. */
XW_EXPORT xw_image_t *xw_image_shm_put(xw_connection_t *c, xw_drawable_t draw, xw_gcontext_t gc, xw_image_t *image,
                                       xw_shm_segment_info_t shminfo, int16_t src_x, int16_t src_y, int16_t dest_x,
                                       int16_t dest_y, uint16_t src_width, uint16_t src_height, uint8_t send_event);

/** MIT-SHM GetImage of image's size at (x, y) into image's data, which lies in the
 * segment. Returns 1, or 0 on an X error or when shminfo has no address. Waits for
 * the reply (read into stack storage: no allocation on xwire's own connection). */
XW_EXPORT int xw_image_shm_get(xw_connection_t *c, xw_drawable_t draw, xw_image_t *image, xw_shm_segment_info_t shminfo,
                               int16_t x, int16_t y, uint32_t plane_mask);

/** A 1-bit image over caller's data in X bitmap file layout (XY pixmap, unit and pad
 * 8, LSB first). The caller keeps data alive and frees it. */
XW_EXPORT xw_image_t *xw_image_create_from_bitmap_data(uint8_t *data, uint32_t width, uint32_t height);

/** A pixmap of depth on d's screen drawn from bitmap data (as above): 1 bits in fg,
 * 0 bits in bg. Sends CreatePixmap, CreateGC (foreground, background), PutImage and,
 * when gcp is NULL, FreeGC; otherwise the GC is stored in *gcp for the caller to free.
 * Returns the pixmap, or 0 when the data cannot be made native. */
XW_EXPORT xw_pixmap_t xw_create_pixmap_from_bitmap_data(xw_connection_t *c, xw_drawable_t d, uint8_t *data,
                                                        uint32_t width, uint32_t height, uint32_t depth, uint32_t fg,
                                                        uint32_t bg, xw_gcontext_t *gcp);

#ifdef __cplusplus
}
#endif
#endif
