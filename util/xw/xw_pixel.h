/* SPDX-License-Identifier: MIT */
#ifndef XW_PIXEL_H
#define XW_PIXEL_H
/* xw_pixel.h — xcb-util-image's fast pixel accessors (<xcb/xcb_pixel.h>) under xw_,
 * for images whose layout the caller already knows: XY32M / XY32L are one-bit planes
 * in 32-bit units stored least significant byte first, the bits most / least
 * significant first (as xcb-util's); Z8 is 8 bits per pixel; Z32M / Z32L 32 bits per
 * pixel, MSB / LSB first. No bounds checks (the caller keeps x < width, y < height). Part of
 * libxwire-util. */
#include <stdint.h>
#include <xw/xw_bitops.h>
#include <xw/xw_image.h>

static inline uint8_t *xw__xy32_byte(xw_image_t *image, uint32_t x, uint32_t y, int msb, uint8_t *bit)
{
    /* The unit is stored LSB first: with MSB-first bits, pixel 0 is the top bit of
     * the unit's last byte, so the byte index within the unit is reversed. */
    *bit = (uint8_t)(msb ? 7 - (x & 7) : x & 7);
    return image->data + y * image->stride + ((x >> 3) ^ (msb ? 3u : 0u));
}

static inline void xw_image_put_pixel_XY32M(xw_image_t *image, uint32_t x, uint32_t y, int pixel)
{
    uint8_t bit, *p = xw__xy32_byte(image, x, y, 1, &bit);
    *p = (uint8_t)((*p & ~(1u << bit)) | ((unsigned)(pixel & 1) << bit));
}

static inline void xw_image_put_pixel_XY32L(xw_image_t *image, uint32_t x, uint32_t y, int pixel)
{
    uint8_t bit, *p = xw__xy32_byte(image, x, y, 0, &bit);
    *p = (uint8_t)((*p & ~(1u << bit)) | ((unsigned)(pixel & 1) << bit));
}

static inline int xw_image_get_pixel_XY32M(xw_image_t *image, uint32_t x, uint32_t y)
{
    uint8_t bit, *p = xw__xy32_byte(image, x, y, 1, &bit);
    return (*p >> bit) & 1;
}

static inline int xw_image_get_pixel_XY32L(xw_image_t *image, uint32_t x, uint32_t y)
{
    uint8_t bit, *p = xw__xy32_byte(image, x, y, 0, &bit);
    return (*p >> bit) & 1;
}

static inline void xw_image_put_pixel_Z8(xw_image_t *image, uint32_t x, uint32_t y, uint8_t pixel)
{
    image->data[y * image->stride + x] = pixel;
}

static inline uint8_t xw_image_get_pixel_Z8(xw_image_t *image, uint32_t x, uint32_t y)
{
    return image->data[y * image->stride + x];
}

static inline void xw_image_put_pixel_Z32M(xw_image_t *image, uint32_t x, uint32_t y, uint32_t pixel)
{
    uint8_t *p = image->data + y * image->stride + 4 * x;
    p[0] = (uint8_t)(pixel >> 24), p[1] = (uint8_t)(pixel >> 16), p[2] = (uint8_t)(pixel >> 8), p[3] = (uint8_t)pixel;
}

static inline void xw_image_put_pixel_Z32L(xw_image_t *image, uint32_t x, uint32_t y, uint32_t pixel)
{
    uint8_t *p = image->data + y * image->stride + 4 * x;
    p[3] = (uint8_t)(pixel >> 24), p[2] = (uint8_t)(pixel >> 16), p[1] = (uint8_t)(pixel >> 8), p[0] = (uint8_t)pixel;
}

static inline uint32_t xw_image_get_pixel_Z32M(xw_image_t *image, uint32_t x, uint32_t y)
{
    const uint8_t *p = image->data + y * image->stride + 4 * x;
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline uint32_t xw_image_get_pixel_Z32L(xw_image_t *image, uint32_t x, uint32_t y)
{
    const uint8_t *p = image->data + y * image->stride + 4 * x;
    return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

#endif
