/* SPDX-License-Identifier: MIT */
/* ewmh_int.h — what ewmh.c shares with ewmh_props.c: one GetProperty, one ChangeProperty, one
 * root-window client message and the bounds-checked readers of a GetProperty reply. Internal. */
#ifndef XW_UTIL_EWMH_INT_H
#define XW_UTIL_EWMH_INT_H

#include <xw/xw_ewmh.h>

/* The root window of screen n, or None (0) when ewmh has no such screen: the request then
 * fails on the server with BadWindow instead of reading past ewmh->screens. */
xw_window_t xw__ewmh_root(const xw_ewmh_connection_t *ewmh, int n);

/* GetProperty(delete 0, offset 0) as every EWMH getter sends it. */
xw_get_property_cookie_t xw__ewmh_get(xw_ewmh_connection_t *ewmh, int checked, xw_window_t w, xw_atom_t prop,
                                      xw_atom_t type, uint32_t long_length);

/* ChangeProperty(Replace) of n items of `format` bits from data. */
xw_void_cookie_t xw__ewmh_set(xw_ewmh_connection_t *ewmh, int checked, xw_window_t w, xw_atom_t prop, xw_atom_t type,
                              uint8_t format, uint64_t n, const void *data);

/* A 32-bit ClientMessage about `window` to the root of screen n, data_len values. */
xw_void_cookie_t xw__ewmh_to_root(xw_ewmh_connection_t *ewmh, int n, xw_window_t window, xw_atom_t type,
                                  const uint32_t *data, uint32_t data_len);

/* r's value when r has this type and format and its value lies inside the reply's
 * 32 + 4 * length bytes (*bytes its size); NULL otherwise. */
const void *xw__ewmh_value(const xw_get_property_reply_t *r, xw_atom_t type, uint8_t format, uint32_t *bytes);

/* Copies exactly `bytes` bytes of r's CARDINAL-or-`type`/32 value into out: 1, or 0 (out
 * untouched) when r does not hold exactly that much. */
uint8_t xw__ewmh_fixed_from_reply(const xw_get_property_reply_t *r, xw_atom_t type, void *out, uint32_t bytes);

/* Storage for the reply of a fixed-size property: the largest, _NET_WM_STRUT_PARTIAL, has
 * 12 values after the 32-byte header. */
typedef union {
    xw_get_property_reply_t r;
    uint32_t words[8 + 12];
} xw__ewmh_small_reply_t;

/* Waits for seq's reply into *buf and returns it, or NULL: an X error (a malloc'd copy in
 * *e when e is not NULL, else *e = NULL), or a reply longer than the request allowed
 * (dropped). The _reply forms of fixed-size properties parse it with their _from_reply. */
xw_get_property_reply_t *xw__ewmh_wait_small(xw_ewmh_connection_t *ewmh, unsigned int seq, xw__ewmh_small_reply_t *buf,
                                             xw_generic_error_t **e);

#endif
