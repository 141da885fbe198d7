/* SPDX-License-Identifier: MIT */
#ifndef XW_BITOPS_H
#define XW_BITOPS_H
/* xw_bitops.h — xcb-util-image's bit helpers (<xcb/xcb_bitops.h>) under xw_: masks,
 * rounding to a pad, bit reversal, the host's byte order. Inline, no state. Part of
 * libxwire-util. xw_popcount is the runtime's (<xw/xwext.h>, returning int), which
 * this header includes rather than define a second one beside it. */
#include <stdint.h>
#include <xw/xw.h>
#include <xw/xwext.h>

/** The low n bits set (n from 0 to 32). */
static inline uint32_t xw_mask(uint32_t n)
{
    return n >= 32 ? ~(uint32_t)0 : ((uint32_t)1 << n) - 1;
}

/** base rounded up to a multiple of pad, a power of two. */
static inline uint32_t xw_roundup_2(uint32_t base, uint32_t pad)
{
    return (base + pad - 1) & -pad;
}

/** base rounded down to a multiple of pad, a power of two. */
static inline uint32_t xw_rounddown_2(uint32_t base, uint32_t pad)
{
    return base & -pad;
}

/** base rounded up to a multiple of pad (any pad > 0). */
static inline uint32_t xw_roundup(uint32_t base, uint32_t pad)
{
    uint32_t b = base + pad - 1;
    return (pad & (pad - 1)) == 0 ? b & -pad : b - b % pad;
}

/** base rounded down to a multiple of pad (any pad > 0). */
static inline uint32_t xw_rounddown(uint32_t base, uint32_t pad)
{
    return (pad & (pad - 1)) == 0 ? base & -pad : base - base % pad;
}

/** The low n bits of x in reverse order (n from 1 to 32); the rest are dropped. */
static inline uint32_t xw_bit_reverse(uint32_t x, uint8_t n)
{
    x = (x >> 16) | (x << 16);
    x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    return n ? x >> (32 - n) : 0;
}

/** The byte order of this machine, as an image order. */
static inline xw_image_order_t xw_host_byte_order(void)
{
    const uint16_t one = 1;
    return *(const uint8_t *)&one ? XW_IMAGE_ORDER_LSB_FIRST : XW_IMAGE_ORDER_MSB_FIRST;
}

#endif
