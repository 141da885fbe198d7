/* SPDX-License-Identifier: MIT */
/* auth.h — internal: authorization data. */
#ifndef XW_SRC_AUTH_H
#define XW_SRC_AUTH_H

#include "base.h"

/* auth.c: fill *info from Xauthority for the peer of fd; returns 1 found, 0 none.
 * info->name and info->data are malloc'd; free with xw__auth_free. */
int xw__auth_get(int fd, int display, xw_auth_info_t *info);
void xw__auth_free(xw_auth_info_t *info);
/* auth.c: XDM-AUTHORIZATION-1. XdmcpWrap's cipher: DES in cipher-block chaining
 * from a zero vector under an XDMCP key (56 bits in bytes 1..7); len a multiple
 * of 8, in and out may be the same. */
void xw__auth_xdm_wrap(const uint8_t key[8], const uint8_t *in, uint8_t *out, size_t len);
/* The credentials for a 16-byte entry (rho, key) from the socket's own address
 * self at time now: 8 + 6 + 4 bytes and zero padding, wrapped. Returns 0, -EINVAL
 * for a short entry, -EAFNOSUPPORT for another address family. */
#define XW_XDM_AUTH_LEN 24
struct sockaddr;
int xw__auth_xdm(const uint8_t *entry, size_t len, const struct sockaddr *self, uint32_t now,
                 uint8_t out[XW_XDM_AUTH_LEN]);

#endif
